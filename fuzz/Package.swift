// swift-tools-version: 6.1
import PackageDescription
import Foundation

// Coverage-guided fuzz targets for every reader Motus has (libFuzzer + AddressSanitizer),
// in their own package so the main build and `swift test` never see the sanitizer flags.
// Build and run with ./run.sh (it passes `-Xswiftc -sanitize=fuzzer,address` so that the
// library code is instrumented too, not just the targets). See README.md.
//
// Each target under Targets/<name>/main.swift hands one closure to `Fuzz.main`, which runs
// libFuzzer's driver (SwiftPM gives every executable its own `main`, so libFuzzer's is not used).

// A path dependency is named after its folder, which differs between clones.
let mainPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent
let io: Target.Dependency = .product(name: "MotusIO", package: mainPackage)
let core: Target.Dependency = .product(name: "MotusCore", package: mainPackage)
let classifier: Target.Dependency = .product(name: "MotusClassifier", package: mainPackage)

let targets = [
    "fuzz-native", "fuzz-delimited", "fuzz-motionsense", "fuzz-oxford", "fuzz-ipol", "fuzz-mpower",
    "fuzz-weallwalk", "fuzz-spswhar", "fuzz-motiondatacollector", "fuzz-sensorlogger-json",
    "fuzz-sensorlogger-csv", "fuzz-json", "fuzz-gpx", "fuzz-tcx", "fuzz-fit", "fuzz-polyline",
    "fuzz-model", "fuzz-mat", "fuzz-matmobile", "fuzz-broad", "fuzz-inflate", "fuzz-wisdm", "fuzz-ucihar",
]

let package = Package(
    name: "MotusFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "CFuzzDriver", path: "Sources/CFuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver", core], path: "Sources/FuzzSupport"),
    ] + targets.map { name in
        .executableTarget(name: name, dependencies: ["FuzzSupport", core, name == "fuzz-model" ? classifier : io],
                          path: "Targets/\(name)")
    }
)
