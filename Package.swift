// swift-tools-version:6.0
// pressured: force and force gestures from Linux touch hardware.
//
// Dependency direction (one way): PressureCore (pure Swift, no I/O, no C) ← PressureLinux (libevdev,
// libudev, syscalls) ← executables. Benchmarks live in their own executable so tests never time anything.
import PackageDescription

let package = Package(
    name: "pressured",
    products: [
        .executable(name: "pressured", targets: ["pressured"]),
        .executable(name: "pressurectl", targets: ["pressurectl"]),
        .library(name: "PressureCore", targets: ["PressureCore"]),
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
        .executableTarget(name: "pressured", dependencies: ["PressureCore", "PressureLinux"]),
        .executableTarget(name: "pressurectl", dependencies: ["PressureCore", "PressureLinux"]),
        .executableTarget(
            name: "pressure-bench", dependencies: ["PressureCore", "PressureLinux"],
            path: "Benchmarks/pressure-bench"),
        .testTarget(name: "PressureCoreTests", dependencies: ["PressureCore"]),
        .testTarget(name: "PressureLinuxTests", dependencies: ["PressureCore", "PressureLinux"]),
    ],
    swiftLanguageModes: [.v6]
)
