// swift-tools-version: 6.1
import PackageDescription
import Foundation

// Benchmarks live in their own package so the main build and `swift test` stay quick.
//
// - Benchmarks/<Suite>/: ordo-one/benchmark suites (throughput, latency percentiles, mallocs),
//   run with `swift package --allow-writing-to-package-directory benchmark`; thresholds are
//   committed in Thresholds/ and checked with `swift package benchmark thresholds check`.
// - motus-bench: times Motus's library calls in-process and prints JSON lines, for the
//   side-by-side comparison with the Python peers (compare/run.sh).

// A path dependency is named after its folder, which differs between clones.
let mainPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent
let motus: Target.Dependency = .product(name: "Motus", package: mainPackage)
let harness: Target.Dependency = .product(name: "Benchmark", package: "benchmark")

let suites = ["Reading", "Fusion", "Features", "Learning", "Tracking"]

let package = Package(
    name: "MotusBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(name: "BenchSupport", dependencies: [motus], path: "Sources/BenchSupport"),
        .target(name: "HarnessConfig", dependencies: [harness], path: "Sources/HarnessConfig"),
        .executableTarget(name: "motus-bench", dependencies: [motus, "BenchSupport"]),
    ] + suites.map { name in
        .executableTarget(name: name, dependencies: [motus, harness, "BenchSupport", "HarnessConfig"], path: "Benchmarks/\(name)",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
    }
)
