// swift-tools-version: 6.1
// Evaluation and timing harness for MotusFusion on MotionSense, kept out of the main
// package so `swift build` there stays lean. Build: `swift build -c release` in this folder.
import PackageDescription

let package = Package(
    name: "FusionBench",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Motus", path: "../..")],
    targets: [
        .executableTarget(name: "FusionEval", dependencies: [
            .product(name: "MotusFusion", package: "Motus"),
            .product(name: "MotusIO", package: "Motus"),
            .product(name: "MotusCore", package: "Motus"),
        ]),
        .executableTarget(name: "FilterSpeed", dependencies: [
            .product(name: "MotusFusion", package: "Motus"),
            .product(name: "MotusCore", package: "Motus"),
        ]),
    ],
    swiftLanguageModes: [.v5]
)
