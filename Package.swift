// swift-tools-version:6.0
// The package graph mirrors the clean-architecture layers, so the compiler enforces the
// dependency rule: Core depends on nothing of ours; Data and Presentation depend only on Core;
// Server depends on Core and Presentation (never on Data: repositories arrive through Core ports);
// Transport holds every libwebsockets and epoll detail and depends on nothing of ours, and Server
// reaches the C shims only through it (it names no lws type); the executable is the only target
// that sees everything, because it is the composition root.
import PackageDescription

let package = Package(
    name: "live-draw",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "live-draw", targets: ["LiveDraw"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.0.0"),
    ],
    targets: [
        // MARK: Core — entities, use cases, ports. Pure Swift: no I/O, no C of our own.
        .target(
            name: "DrawCore",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),

        // MARK: Data — libcurl HTTP client, DTOs, mappers, repositories, adapters for Core ports,
        // the SQLite draw store and the Redis client (hiredis).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // hiredis: the Redis client of cluster mode (issue 14). Debian 12's 0.14 has no TLS.
        // Its pkg-config adds -D_FILE_OFFSET_BITS=64, which SwiftPM drops with a warning
        // ("prohibited flag"); harmless: no hiredis call we make takes an off_t.
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        .target(name: "CHiredisShim", dependencies: ["CHiredis"]),
        .target(name: "DrawData", dependencies: ["DrawCore", "CCurlShim", "CSQLite", "CHiredisShim"]),

        // MARK: Presentation — domain events to wire messages. UI-agnostic.
        .target(name: "DrawPresentation", dependencies: ["DrawCore"]),

        // MARK: Transport — libwebsockets and epoll behind the server's own words: connections,
        // events, timers, the loop's inbox, the listening socket. The only target that imports
        // CLwsShim or CSysShim.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // libssl: the server reads wss input itself (SSL_read on lws' session, see ldlws.h);
        // libwebsockets-dev already depends on libssl-dev. libev-dev: ev.h only; libev itself and
        // lws' libev plugin (libwebsockets-evlib-ev) are loaded at run time (ldlws_loop.c), so a
        // host without them still runs `--event-loop poll`.
        .target(name: "CLwsShim", dependencies: ["CLibWebSockets"],
                linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        // epoll, whose packed event struct Swift cannot lay out (see its header).
        .target(name: "CSysShim"),
        .target(
            name: "DrawTransport",
            dependencies: ["CLwsShim", "CSysShim", .product(name: "Logging", package: "swift-log")]
        ),

        // MARK: Server — rooms, broadcast, the front door's policy, HTTP API.
        // libqrencode: the QR code of a room's viewer link (GET /api/rooms/ROOM/qr.svg).
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .target(name: "CQRShim", dependencies: ["CQRencode"]),
        .target(
            name: "DrawServer",
            dependencies: [
                "DrawCore", "DrawPresentation", "DrawTransport", "CQRShim",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),

        // MARK: Executable — composition root only.
        // Option parsing and config mapping live in a library so that tests can import them.
        .target(
            name: "LiveDrawCLI",
            dependencies: [
                "DrawCore", "DrawData", "DrawServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "LiveDraw",
            dependencies: [
                "DrawCore", "DrawData", "DrawPresentation", "DrawServer", "LiveDrawCLI",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),

        // MARK: Tests
        .testTarget(name: "DrawCoreTests", dependencies: ["DrawCore"]),
        .testTarget(name: "DrawDataTests", dependencies: ["DrawData", "DrawCore"]),
        .testTarget(name: "DrawPresentationTests", dependencies: ["DrawPresentation", "DrawCore"]),
        .testTarget(
            name: "DrawServerTests",
            dependencies: [
                // DrawData: the server's storage tests record real draws in a real SQLiteDrawStore.
                "DrawServer", "DrawTransport", "DrawCore", "DrawPresentation", "DrawData",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The transport's own types (frames, session slots, timers) without a server; CLwsShim for
        // the slot's C struct.
        .testTarget(name: "DrawTransportTests", dependencies: ["DrawTransport", "CLwsShim"]),
        .testTarget(name: "LiveDrawCLITests", dependencies: ["LiveDrawCLI", "DrawServer", "DrawData", "DrawCore"]),
    ]
)
