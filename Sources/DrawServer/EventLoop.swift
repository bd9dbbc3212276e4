import DrawTransport

/// Which loop runs the transport (`ServerConfig.eventLoop`, `--event-loop`); defined with the
/// transport, named here because it is part of the server's public configuration.
public typealias EventLoop = DrawTransport.EventLoop
