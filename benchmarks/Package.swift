// swift-tools-version: 6.1
import PackageDescription
import Foundation

// Benchmarks live in their own package so the main build and `swift test` stay quick.
// `motus-bench` times Motus's library calls in-process, for the side-by-side comparison
// scripts in compare/ (which time the Python peers the same way, on the same files).

// A path dependency is named after its folder, which differs between clones.
let mainPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "MotusBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        .executableTarget(name: "motus-bench", dependencies: [.product(name: "Motus", package: mainPackage)]),
    ]
)
