// swift-tools-version:6.0
// pressured: force and force gestures from Linux touch hardware.
//
// Dependency direction (one way): PressureCore (pure Swift, no I/O, no C) ← PressureLinux (libevdev,
// libudev, syscalls) ← executables. PressureClient (the Swift client library: Glibc sockets, no libevdev)
// depends on PressureCore only, so apps link neither libevdev nor libudev; PressureTools (client-side
// pressurectl commands) joins it with PressureLinux's command-line helpers. Benchmarks live in their own
// executable so tests never time anything.
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
        // libm only: `Double.rounded()` lowers to it; the core stays free of Glibc I/O.
        .target(name: "PressureCore", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "PressureLinux", dependencies: ["PressureCore", "CLibevdev", "CLibudev", "CLinux"]),
        .target(name: "PressureClient", dependencies: ["PressureCore"]),
        .target(name: "PressureTools", dependencies: ["PressureCore", "PressureClient", "PressureLinux"]),
        // RFC 6455 frames and the HTTP upgrade handshake as values: pure, no dependency at all.
        .target(name: "PressureWebSocket"),
        // The web bridge's decisions, pure: configuration, who may connect, what a page may ask, the
        // per-WebSocket state machine and queue. PressureWeb is its loop and sockets; pressured-web the main.
        .target(name: "PressureWebBridge", dependencies: ["PressureCore", "PressureWebSocket"]),
        .target(name: "PressureWeb", dependencies: ["PressureCore", "PressureLinux", "PressureWebSocket", "PressureWebBridge", "CLinux"]),
        .executableTarget(name: "pressured-web", dependencies: ["PressureLinux", "PressureWeb"]),
        .executableTarget(name: "pressured", dependencies: ["PressureCore", "PressureLinux"]),
        .executableTarget(name: "pressurectl", dependencies: ["PressureCore", "PressureLinux", "PressureTools"]),
        .executableTarget(
            name: "pressure-bench", dependencies: ["PressureCore", "PressureLinux"],
            path: "Benchmarks/pressure-bench"),
        .testTarget(name: "PressureCoreTests", dependencies: ["PressureCore"]),
        .testTarget(name: "PressureWebSocketTests", dependencies: ["PressureWebSocket"]),
        .testTarget(name: "PressureWebBridgeTests", dependencies: ["PressureCore", "PressureWebSocket", "PressureWebBridge"]),
        // What the Linux-layer and client tests share: the built executables, a daemon process, a raw socket client.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "PressureLinuxTests", dependencies: ["PressureCore", "PressureLinux", "TestSupport"]),
        .testTarget(name: "PressureClientTests", dependencies: ["PressureCore", "PressureClient", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
