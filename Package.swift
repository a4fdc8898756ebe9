// swift-tools-version: 6.1
import PackageDescription

// Layers only point down (see README "Architecture"):
// motus (CLI) -> Motus (umbrella) -> Evaluation -> Tracking -> Classifier -> Features -> Fusion, Signal -> Core,
// Evaluation -> IO -> Core, and Tracking -> Geo -> IO. Reading files (FIT/GPX/TCX/polyline, datasets, importers, JSON) is IO's;
// MotusRecorder keeps only the live protocols and sits beside the CLI. MotusLearn sits beside the
// stack and knows nothing about sensors. Library products never depend on ArgumentParser or
// SwiftNIO, so an iOS app can embed them.
let package = Package(
    name: "Motus",
    platforms: [.macOS(.v13), .iOS(.v16), .watchOS(.v9), .tvOS(.v16)],
    products: [
        .library(name: "Motus", targets: ["Motus"]),
        .library(name: "MotusCore", targets: ["MotusCore"]),
        .library(name: "MotusIO", targets: ["MotusIO"]),
        .library(name: "MotusSignal", targets: ["MotusSignal"]),
        .library(name: "MotusFusion", targets: ["MotusFusion"]),
        .library(name: "MotusFeatures", targets: ["MotusFeatures"]),
        .library(name: "MotusClassifier", targets: ["MotusClassifier"]),
        .library(name: "MotusGeo", targets: ["MotusGeo"]),
        .library(name: "MotusTracking", targets: ["MotusTracking"]),
        .library(name: "MotusEvaluation", targets: ["MotusEvaluation"]),
        .library(name: "MotusLearn", targets: ["MotusLearn"]),
        .library(name: "MotusPlot", targets: ["MotusPlot"]),
        .executable(name: "motus", targets: ["motus"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `swift package generate-documentation` (DocC catalogs of the library modules; CI
        // builds them). A plugin only: nothing of it is linked into a product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "MotusCore"),
        .target(name: "MotusIO", dependencies: ["MotusCore"]),
        .target(name: "MotusSignal", dependencies: ["MotusCore"]),
        .target(name: "MotusFusion", dependencies: ["MotusCore"]),
        .target(name: "MotusFeatures", dependencies: ["MotusCore", "MotusSignal", "MotusFusion", "CMotusKernels"]),
        // Four-lane (AVX2) versions of the feature kernels, chosen at run time on x86-64.
        .target(name: "CMotusKernels"),
        .target(name: "MotusClassifier", dependencies: ["MotusCore", "MotusFusion", "MotusFeatures", "MotusLearn"]),
        .target(name: "MotusGeo", dependencies: ["MotusCore", "MotusIO"]),
        .target(name: "MotusTracking", dependencies: ["MotusCore", "MotusSignal", "MotusFusion", "MotusFeatures", "MotusClassifier", "MotusGeo"]),
        .systemLibrary(name: "CBLAS", path: "Sources/CBLAS", pkgConfig: "openblas",
                       providers: [.apt(["libopenblas-dev"])]),
        .target(name: "MotusLearn",
                dependencies: [.target(name: "CBLAS", condition: .when(platforms: [.linux]))]),
        // Datasets that carry their ground truth, and the one loop every `evaluate*` command runs.
        .target(name: "MotusEvaluation", dependencies: ["MotusCore", "MotusIO", "MotusSignal", "MotusFusion", "MotusFeatures", "MotusLearn", "MotusClassifier", "MotusTracking"]),
        // Pictures (SVG) of recordings, sessions, evaluations and rides, drawn by our own small
        // SVG layer; the plots are built from the results of the modules below.
        .target(name: "MotusPlot", dependencies: ["MotusCore", "MotusIO", "MotusGeo", "MotusClassifier", "MotusTracking", "MotusEvaluation"]),
        .target(name: "Motus", dependencies: ["MotusCore", "MotusIO", "MotusSignal", "MotusFusion", "MotusFeatures",
                                               "MotusLearn", "MotusClassifier", "MotusGeo", "MotusTracking", "MotusEvaluation"]),
        // The live recorder: SwiftNIO stays here, out of every library product an app embeds.
        .target(name: "MotusRecorder", dependencies: [
            "MotusCore", "MotusIO",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        .executableTarget(name: "motus", dependencies: [
            "Motus", "MotusRecorder", "MotusPlot",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Helpers shared by the test targets (seeded generator, the shared track files, a Sensor Logger
        // message); not a product.
        .target(name: "MotusTestSupport", dependencies: ["MotusCore", "MotusIO"], path: "Tests/MotusTestSupport"),
        .testTarget(name: "MotusCoreTests", dependencies: ["MotusCore"]),
        .testTarget(name: "MotusIOTests", dependencies: ["MotusTestSupport", "MotusIO", "MotusCore"]),
        .testTarget(name: "MotusSignalTests", dependencies: ["MotusTestSupport", "MotusSignal", "MotusCore", "MotusIO"]),
        .testTarget(name: "MotusFusionTests", dependencies: ["MotusTestSupport", "MotusFusion", "MotusCore"]),
        .testTarget(name: "MotusLearnTests", dependencies: ["MotusLearn"]),
        .testTarget(name: "MotusFeaturesTests", dependencies: ["MotusTestSupport", "MotusFeatures", "CMotusKernels", "MotusSignal", "MotusCore", "MotusIO"]),
        .testTarget(name: "MotusClassifierTests", dependencies: ["MotusClassifier", "MotusFeatures", "MotusLearn", "MotusCore"]),
        .testTarget(name: "MotusGeoTests", dependencies: ["MotusTestSupport", "MotusGeo", "MotusCore", "MotusIO"]),
        .testTarget(name: "MotusTrackingTests", dependencies: ["MotusTestSupport", "MotusTracking", "MotusEvaluation", "MotusCore", "MotusIO", "MotusSignal",
                                                               "MotusFusion", "MotusFeatures", "MotusClassifier"]),
        .testTarget(name: "MotusEvaluationTests", dependencies: ["MotusTestSupport", "MotusEvaluation", "MotusCore", "MotusIO", "MotusFusion",
                                                                 "MotusClassifier", "MotusTracking"]),
        .testTarget(name: "MotusCLITests", dependencies: ["Motus", "MotusTestSupport"]),
        .testTarget(name: "MotusPlotTests", dependencies: ["MotusTestSupport", "MotusPlot", "MotusCore", "MotusIO", "MotusGeo", "MotusTracking",
                                                          "MotusEvaluation", "MotusClassifier"]),
        .testTarget(name: "MotusRecorderTests", dependencies: ["MotusTestSupport", "MotusRecorder", "MotusCore", "MotusIO",
                                                               .product(name: "NIOCore", package: "swift-nio"),
                                                               .product(name: "NIOPosix", package: "swift-nio")]),
    ]
)
