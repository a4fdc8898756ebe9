import Testing
import Foundation
import MotusIO

/// `motus plot` and the `--plot` options, run as a user runs them.
@Suite(.serialized) struct PlotCLITests {
    static let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root)
    static let rsvg = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/rsvg-convert") }

    static func folder() -> String {
        let d = NSTemporaryDirectory() + "motus-plot-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    /// Runs motus with `PATH` replaced.
    static func run(_ args: [String], path: String) throws -> CLI.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = args
        p.currentDirectoryURL = URL(fileURLWithPath: CLI.root)
        p.environment = ["PATH": path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLI.Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    static func svg(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test func plotsTheBundledWalkAndSaysWhere() throws {
        let out = Self.folder() + "/new/walk.svg"
        let r = try CLI.run(["plot", "datasets/lowback-straight-walk.motus", "--out", out, "--from", "5", "--to", "12"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "motus: wrote \(out)\n")
        let s = Self.svg(out)
        #expect(s.hasPrefix("<?xml") && s.hasSuffix("</svg>\n"))
        #expect(s.contains("steps (reference, 9)") && s.contains("class=\"axis y-axis\""))
    }

    @Test func refusesOtherPictureKindsAndBadRanges() throws {
        let r = try CLI.run(["plot", "datasets/lowback-straight-walk.motus", "--out", "walk.pdf"])
        #expect(r.status != 0 && r.stderr.contains("--out must name a .svg or .png file, not 'walk.pdf'"))
        let r2 = try CLI.run(["plot", "datasets/lowback-straight-walk.motus", "--out", Self.folder() + "/w.svg", "--from", "8", "--to", "3"])
        #expect(r2.status != 0 && r2.stderr.contains("--to (3.0) must be after --from (8.0)"))
        let r3 = try CLI.run(["plot", "datasets/lowback-straight-walk.motus", "--out", Self.folder() + "/w.svg", "--from", "500"])
        #expect(r3.status == 1 && r3.stderr.contains("--from 500.0 s is past the recording's end"))
    }

    @Test func pngNeedsRsvgConvertAndSaysSo() throws {
        let empty = Self.folder()
        let out = empty + "/walk.png"
        let r = try Self.run(["plot", "datasets/lowback-straight-walk.motus", "--out", out], path: empty)
        #expect(r.status == 1)
        #expect(r.stderr.contains("writing PNG needs rsvg-convert on the PATH"))
        #expect(!FileManager.default.fileExists(atPath: out))
        guard Self.rsvg else { print("rsvg-convert not on the PATH: PNG output not checked"); return }
        let ok = try CLI.run(["plot", "datasets/lowback-straight-walk.motus", "--out", out])
        #expect(ok.status == 0 && ok.stderr == "motus: wrote \(out)\n", "\(ok.stderr)")
        let png = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47] && png.count > 20_000)
        #expect(!FileManager.default.fileExists(atPath: out + ".svg.tmp"))
    }

    @Test(.enabled(if: shared != nil, "shared datasets absent: skipping the route and ride plot commands"))
    func routePlotReachesTheEndAndNamesTheGap() throws {
        let out = Self.folder() + "/route.svg"
        let r = try CLI.run(["route", Self.shared! + "/tracks/brouter/rondanestien-test-route.gpx", "--plot", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "motus: rondanestien-test-route.gpx: no elevation on 601 of 5127 points, km 144.55–166.80: the elevation profile ends at km 144.55\nmotus: wrote \(out)\n")
        #expect(r.stdout.contains("no elevation km") && r.stdout.contains("144.55–166.80 (601 points)"))
        let s = Self.svg(out)
        #expect(s.contains("no elevation (601 of 5127 points)") && s.contains(">160</text>"))
        let ride = Self.folder() + "/ride.svg"
        let rr = try CLI.run(["ride", Self.shared! + "/tracks/fitfiler/garmin-edge530-ride.fit", "--plot", ride])
        #expect(rr.status == 0 && rr.stderr == "motus: wrote \(ride)\n", "\(rr.stderr)")
        #expect(Self.svg(ride).contains("splits (39)"))
        let same = Self.folder() + "/ride2.svg"
        #expect(try CLI.run(["plot", Self.shared! + "/tracks/fitfiler/garmin-edge530-ride.fit", "--out", same]).status == 0)
        #expect(Self.svg(same) == Self.svg(ride))
    }

    @Test func evaluatePlotsTheConfusionMatrix() throws {
        let out = Self.folder() + "/cm.svg"
        let r = try CLI.run(["evaluate", "datasets/iphone-belt-stand-then-walk.motus", "datasets/lowback-daily-activities.motus",
                             "--map", "moving=walk,u-turn", "--map", "still=static-balance", "--plot", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasSuffix("motus: wrote \(out)\n"))
        let s = Self.svg(out)
        #expect(s.components(separatedBy: "class=\"cell\"").count - 1 == 4)
        #expect(s.contains("Accuracy per recording") && s.contains("iphone-belt-stand-then-walk.motus"))
    }

    @Test(.enabled(if: shared != nil, "shared datasets absent: skipping the evaluate-steps and evaluate-fusion plots"))
    func evaluateStepsAndFusionPlot() throws {
        let steps = Self.folder() + "/steps.svg"
        let r = try CLI.run(["evaluate-steps", Self.shared! + "/oxford", "--plot", steps])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasSuffix("motus: wrote \(steps)\n"))
        #expect(Self.svg(steps).components(separatedBy: "class=\"dot\"").count - 1 == 14)
        let fusion = Self.folder() + "/fusion.svg"
        let f = try CLI.run(["evaluate-fusion", Self.shared! + "/motionsense/A_DeviceMotion_data/wlk_15", "--plot", fusion,
                             "--plot-recording", "sub_2.csv"])
        #expect(f.status == 0, "\(f.stderr)")
        #expect(Self.svg(fusion).contains("Gravity direction error over time: sub_2.csv"))
        let bad = try CLI.run(["evaluate-fusion", Self.shared! + "/motionsense/A_DeviceMotion_data/wlk_15", "--plot", fusion,
                               "--plot-recording", "nobody"])
        #expect(bad.status == 1 && bad.stderr.contains("--plot-recording nobody: no such recording"))
    }
}
