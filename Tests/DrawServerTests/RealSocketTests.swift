import Testing

/// Parent of every suite that runs a real server. `.serialized` is inherited by the nested
/// suites, so only one of them runs at a time: each blocks a thread of the (small, on CI
/// two-core) cooperative pool while it reads sockets, and the server's player loading needs a
/// free one.
@Suite(.serialized) enum RealSocketTests {}
