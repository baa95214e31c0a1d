// swift-tools-version:6.0
// pressured: force and force gestures from Linux touch hardware.
// The targets and which way they depend: docs/architecture.md, "Targets" (TargetImportsTests holds the
// sources to it). Benchmarks live in their own executable so tests never time anything.
import PackageDescription

let package = Package(
    name: "pressured",
    products: [
        .executable(name: "pressured", targets: ["pressured"]),
        .executable(name: "pressurectl", targets: ["pressurectl"]),
        .executable(name: "pressured-web", targets: ["pressured-web"]),
        .library(name: "PressureCore", targets: ["PressureCore"]),
        .library(name: "PressureClient", targets: ["PressureClient"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibevdev", path: "Sources/CLibevdev", pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(
            name: "CLibudev", path: "Sources/CLibudev", pkgConfig: "libudev",
            providers: [.apt(["libudev-dev"])]),
        // Linux headers Glibc's module lacks (epoll, timerfd, signalfd, inotify): no library to link.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // The wire: what clients need and nothing more. libm only, as the core (`Double.rounded()`).
        .target(name: "PressureProtocol", linkerSettings: [.linkedLibrary("m")]),
        // libm only: `Double.rounded()` lowers to it; the core stays free of Glibc I/O.
        .target(name: "PressureCore", dependencies: ["PressureProtocol"], linkerSettings: [.linkedLibrary("m")]),
        // Every capture format's reader and writer, the streaming byte source, the replay source: pure.
        .target(name: "PressureCapture", dependencies: ["PressureCore"]),
        // The hub and its parts: devices, requests, regions, settings and access, admission, haptics,
        // latency, and the client table's fan-out. Pure: the Linux loop feeds it and does what it returns.
        .target(name: "PressureHub", dependencies: ["PressureCore"]),
        // Options and log lines for every command-line program; no C library, so client tools stay free of them.
        .target(name: "PressureCommandLine"),
        // The system layer: the syscall funnel, epoll, timerfd, signalfd, systemd's sockets and notify, files,
        // non-blocking stream sockets, accepting at the descriptor limit (the reserve descriptor, the listener's
        // rest) and the epoll token, for the daemon's loop and the bridge's alike. Glibc and CLinux only, so a
        // loop that reads no devices (the web bridge's) links neither libevdev nor libudev.
        .target(name: "PressureSystem", dependencies: ["PressureCommandLine", "CLinux"]),
        .target(
            name: "PressureLinux",
            dependencies: [
                "PressureCore", "PressureCapture", "PressureHub", "PressureCommandLine", "PressureSystem", "CLibevdev",
                "CLibudev", "CLinux",
            ]),
        // pressurectl's device-side commands (devices, record, replay, plot, calibrate, haptics).
        .target(
            name: "PressureDeviceTools",
            dependencies: ["PressureCore", "PressureCapture", "PressureHub", "PressureCommandLine", "PressureLinux"]),
        .target(name: "PressureClient", dependencies: ["PressureProtocol"]),
        .target(name: "PressureTools", dependencies: ["PressureClient", "PressureCommandLine"]),
        // RFC 6455 frames and the HTTP upgrade handshake as values: pure, no dependency at all.
        .target(name: "PressureWebSocket"),
        // The web bridge's decisions, pure: configuration, who may connect, what a page may ask, the
        // per-WebSocket state machine and queue. PressureWeb is its loop and sockets; pressured-web the main.
        .target(name: "PressureWebBridge", dependencies: ["PressureProtocol", "PressureWebSocket"]),
        .target(
            name: "PressureWeb",
            dependencies: ["PressureProtocol", "PressureCommandLine", "PressureSystem", "PressureWebSocket", "PressureWebBridge", "CLinux"]),
        .executableTarget(name: "pressured-web", dependencies: ["PressureCommandLine", "PressureWeb"]),
        .executableTarget(name: "pressured", dependencies: ["PressureCore", "PressureCommandLine", "PressureLinux"]),
        .executableTarget(
            name: "pressurectl",
            dependencies: ["PressureCore", "PressureCommandLine", "PressureLinux", "PressureDeviceTools", "PressureTools"]),
        .executableTarget(
            name: "pressure-bench",
            dependencies: ["PressureCore", "PressureCapture", "PressureHub", "PressureCommandLine", "PressureLinux"],
            path: "Benchmarks/pressure-bench"),
        // TestSupport for the table of names in docs/protocol.md, which the protocol's types are tested against.
        .testTarget(name: "PressureProtocolTests", dependencies: ["PressureProtocol", "WireInvariants", "TestSupport"]),
        .testTarget(name: "PressureWebSocketTests", dependencies: ["PressureWebSocket"]),
        .testTarget(name: "PressureWebBridgeTests", dependencies: ["PressureProtocol", "PressureWebSocket", "PressureWebBridge"]),
        // The wire's promises to apps, checked on event streams: shared by the tests and the fuzz targets
        // (tools/fuzz builds these files as a module of its own), so it reports violations as values.
        .target(name: "WireInvariants", dependencies: ["PressureProtocol"], path: "Tests/WireInvariants"),
        // What the tests share: the built executables, a daemon process, a raw socket client, waiting on a
        // condition, the unified diff golden comparisons print, a client's stream checked (by
        // WireInvariants) against the protocol's promises, and docs/protocol.md's table of names.
        .target(name: "TestSupport", dependencies: ["WireInvariants"], path: "Tests/TestSupport"),
        // What the tests of the core, the captures, the hub and the device tools share: the test devices and
        // event scripts, the fixtures read and replayed as `pressurectl replay` does, and the wire's promises
        // checked event by event as test failures.
        .target(
            name: "DeviceTestSupport", dependencies: ["PressureCore", "PressureCapture", "WireInvariants"],
            path: "Tests/DeviceTestSupport"),
        // A test target for each source target it names, holding the tests of what that target owns.
        .testTarget(
            name: "PressureCoreTests",
            dependencies: ["PressureCore", "PressureCapture", "WireInvariants", "TestSupport", "DeviceTestSupport"]),
        .testTarget(
            name: "PressureCaptureTests",
            dependencies: ["PressureCore", "PressureCapture", "WireInvariants", "TestSupport", "DeviceTestSupport"]),
        .testTarget(
            name: "PressureHubTests",
            dependencies: ["PressureCore", "PressureCapture", "PressureHub", "TestSupport", "DeviceTestSupport"]),
        .testTarget(
            name: "PressureDeviceToolsTests",
            dependencies: ["PressureCore", "PressureCapture", "PressureDeviceTools", "DeviceTestSupport"]),
        // The syscall funnel, the timerfd and the signalfd.
        .testTarget(name: "PressureSystemTests", dependencies: ["PressureSystem", "CLinux"]),
        .testTarget(
            name: "PressureLinuxTests",
            dependencies: ["PressureCore", "PressureCapture", "PressureHub", "PressureLinux", "PressureDeviceTools", "TestSupport"]),
        .testTarget(name: "PressureClientTests", dependencies: ["PressureClient", "TestSupport"]),
        // The client-side tools' formatting and option reading, without a daemon.
        .testTarget(name: "PressureToolsTests", dependencies: ["PressureTools", "PressureClient"]),
    ],
    swiftLanguageModes: [.v6]
)
