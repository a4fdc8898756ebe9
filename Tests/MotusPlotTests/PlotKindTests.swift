import Testing
import Foundation
import MotusTestSupport
import MotusCore
import MotusIO
import MotusGeo
import MotusClassifier
import MotusTracking
import MotusEvaluation
@testable import MotusPlot

private let root = DatasetLocator.packageRoot(fromFile: #filePath)
private let shared = DatasetLocator.sharedDatasets(packageRoot: root)
private let sharedMessage: Comment = "shared datasets absent (../shared/datasets or MOTUS_DATASETS): skipping real-data plot tests"

/// The x of a tick label's text in the bottom axis, for the labels that parse as numbers.
private func axisNumbers(_ els: [XMLElement]) -> [Double] {
    els.filter { $0.name == "text" && $0.attributes["text-anchor"] == "middle" && $0.attributes["font-size"] == "11" }.compactMap { Double($0.text) }
}

/// Every plot is well formed, and its parts are there: a title, axis titles with units, tick
/// labels, line series with points, a legend.
private func checkParts(_ svg: String, yAxes: Int, file: String = #fileID, line: Int = #line) throws -> [XMLElement] {
    let els = try checkXML(svg)
    #expect(els.withClass("title").count >= 1)
    #expect(els.withClass("y-axis").count == yAxes)
    #expect(els.withClass("legend").count >= 1)
    let lines = els.withClass("line")
    #expect(!lines.isEmpty && lines.allSatisfy { ($0.attributes["d"]?.count ?? 0) > 10 })
    #expect(!svg.contains("nan") && !svg.contains("inf"))
    try rendersWithRsvg(svg)
    return els
}

private let rsvg: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
    .map { "\($0)/rsvg-convert" }.first { FileManager.default.isExecutableFile(atPath: $0) }

/// A real SVG renderer draws the picture without a complaint (when rsvg-convert is installed).
private func rendersWithRsvg(_ svg: String) throws {
    guard let rsvg else { return }
    let dir = NSTemporaryDirectory() + "motus-plot-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try svg.write(toFile: dir + "/p.svg", atomically: true, encoding: .utf8)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: rsvg)
    p.arguments = ["--output", dir + "/p.png", dir + "/p.svg"]
    let err = Pipe()
    p.standardError = err
    try p.run()
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(p.terminationStatus == 0 && message.isEmpty, "rsvg-convert: \(message)")
    let png = try Data(contentsOf: URL(fileURLWithPath: dir + "/p.png"))
    #expect(png.count > 5000)
}

@Suite struct RecordingPlotTests {
    static let walk = root + "/datasets/lowback-straight-walk.motus"

    @Test func theBundledWalkShowsItsSignalsStepsAndSession() throws {
        let r = try RecordingLoader.load(path: Self.walk)
        let trace = try RecordingPlot.trace(r)
        // The trace is the session `motus track` runs: the same steps and state changes.
        let direct = try MotionSession.run(r)
        #expect(trace.result.stepTimes == direct.stepTimes)
        #expect(trace.result.stateChanges.map(\.change) == direct.stateChanges.map(\.change))
        let svg = RecordingPlot.chart(r, trace: trace, name: "walk").svg()
        let els = try checkParts(svg, yAxes: 4)
        let texts = els.texts
        #expect(texts.contains("acceleration (m/s²)") && texts.contains("rotation rate (rad/s)") && texts.contains("tilt (°)"))
        #expect(texts.contains("time since the first sample (s)"))
        // Steps: one tick per detected step (bottom) and per reference step (top).
        let refSteps = r.events.filter { $0.kind == "step" }.count
        #expect(refSteps == 9)
        #expect(els.withClass("tick").count == trace.result.stepTimes.count + refSteps)
        #expect(texts.contains("steps (session, \(trace.result.stepTimes.count))") && texts.contains("steps (reference, 9)"))
        // Pause/resume events across the session panel, each with its latency bar.
        #expect(els.withClass("event").count == trace.result.stateChanges.count)
        #expect(els.withClass("latency").count == 2 * trace.result.stateChanges.count)
        #expect(texts.contains("label walk") && texts.contains("moving (session)"))
        #expect(svg == RecordingPlot.chart(r, trace: trace, name: "walk").svg())
    }

    @Test func fromAndToZoomIn() throws {
        let r = try RecordingLoader.load(path: Self.walk)
        let trace = try RecordingPlot.trace(r)
        let els = try checkXML(RecordingPlot.chart(r, trace: trace, name: "walk", from: 6, to: 9).svg())
        let xs = axisNumbers(els)
        #expect(!xs.isEmpty && xs.allSatisfy { $0 >= 6 && $0 <= 9 })
        let inRange = trace.result.stepTimes.filter { let t = $0 - (r.timeRange?.lowerBound ?? 0); return t >= 6 && t <= 9 }
        #expect(els.withClass("tick").filter { $0.attributes["y2"] != nil }.count >= inRange.count)
    }

    @Test(.enabled(if: shared != nil, sharedMessage))
    func oxfordAndIPOLRecordingsShowTheirReferenceSteps() throws {
        for name in ["oxford", "ipol"] {
            let ds = try EvaluationDataset.open(try #require(shared) + "/" + name)
            let entry = try #require(ds.entries.first { $0.setAside == nil })
            let e = try ds.load(entry)
            let trace = try RecordingPlot.trace(e.recording)
            let els = try checkParts(RecordingPlot.chart(e.recording, trace: trace, name: entry.id).svg(), yAxes: e.recording.stream(.rotationRate) == nil ? 3 : 4)
            let ref = e.recording.events.filter { $0.kind == "step" }.count
            #expect(ref > 10, "\(name) \(entry.id)")
            #expect(els.texts.contains("steps (reference, \(ref))"), "\(name)")
        }
    }
}

@Suite(.enabled(if: TrackData.available, sharedMessage)) struct RideAndRoutePlotTests {
    @Test func theBRouterRouteIsDrawnToItsEndWithTheGapNamed() throws {
        let t = try TrackLoader.load(path: TrackData.path(TrackData.brouter))
        let s = RouteSummary(track: t)
        // The last 601 points have no elevation: one gap, from the last elevation to the end.
        #expect(s.elevationGaps.count == 1)
        let g = try #require(s.elevationGaps.first)
        #expect(g.points == 601 && g.endMeters == s.distanceMeters)
        #expect(abs(g.startMeters - 144_549) < 100 && abs(s.distanceMeters - 166_799) < 100)
        let svg = RoutePlot.chart(s, name: "rondane").svg()
        let els = try checkParts(svg, yAxes: 2)
        // The distance axis runs to the end of the route, not to the end of the elevation.
        #expect((axisNumbers(els).max() ?? 0) >= 160)
        #expect(els.texts.contains("no elevation (601 of 5127 points)"))
        #expect(els.texts.contains { $0.contains("the elevation profile ends at km 144.55") })
        let hatched = els.withClass("span").filter { $0.attributes["fill"] == "url(#gap-hatch)" }
        #expect(hatched.count == 2)   // in the elevation and the grade panel
        let frame = try #require(els.withClass("frame").first)
        let right = try #require(Double(frame.attributes["x"] ?? "")) + (Double(frame.attributes["width"] ?? "") ?? 0)
        for h in hatched {
            let x = try #require(Double(h.attributes["x"] ?? "")), w = try #require(Double(h.attributes["width"] ?? ""))
            #expect(abs(x + w - right) < 1)
        }
    }

    @Test func aRouteWithElevationEverywhereHasNoGap() throws {
        let s = RouteSummary(track: try TrackLoader.load(path: TrackData.path("togeojson/trek.gpx")))
        #expect(s.elevationGaps.isEmpty && RoutePlot.gapNotes(s).isEmpty)
        let els = try checkParts(RoutePlot.chart(s, name: "trek").svg(), yAxes: 2)
        #expect(els.withClass("span").isEmpty)
    }

    @Test func aRideShowsSpeedElevationGradeAndSplits() throws {
        let ride = try RideSummary.summarize(path: TrackData.path(TrackData.edge530))
        let svg = RidePlot.chart(ride, name: "edge 530").svg()
        let els = try checkParts(svg, yAxes: 3)
        for t in ["speed (km/h)", "elevation (m)", "grade (%)", "distance (km, while moving)", "no heart rate in the file"] {
            #expect(els.texts.contains(t), "\(t)")
        }
        let splits = ride.summary.splits.count
        #expect(splits == 39)
        #expect(els.withClass("event").count == 3 * splits)
        // Points more than 30 s apart are gaps: hatched, named with their count, and the speed line breaks there.
        let gaps = zip(ride.track.times.dropFirst(), ride.track.times).filter { $0 - $1 > 30 }.count
        #expect(gaps > 0)
        #expect(els.texts.contains("no point for > 30 s (\(gaps))"))
        let speed = try #require(els.withClass("line").first?.attributes["d"])
        #expect(speed.filter { $0 == "M" }.count >= gaps + 1)
    }

    @Test func aRunWithHeartRateHasItsPanel() throws {
        let ride = try RideSummary.summarize(path: TrackData.path("togeojson/run.gpx"))
        let els = try checkParts(RidePlot.chart(ride, name: "run").svg(), yAxes: 4)
        #expect(els.texts.contains("heart rate (bpm)"))
    }
}

@Suite struct EvaluationPlotTests {
    @Test func recordingScoresCountEachRecordingsWindows() {
        let s = EvaluationPlot.recordingScores(ids: ["a", "a", "b", "a", "b"], yTrue: [0, 1, 1, 0, 0], predicted: [0, 0, 1, 0, 1])
        #expect(s == [.init(id: "a", windows: 3, correct: 2), .init(id: "b", windows: 2, correct: 1)])
        #expect(EvaluationPlot.withoutCommonFolder(["/d/x/a.csv", "/d/y/b.csv"]) == ["x/a.csv", "y/b.csv"])
    }

    @Test func theConfusionMatrixOfTheBundledRecordings() throws {
        let m = MotionModel.shipped
        // The bundled recordings' labels: walks and a u-turn are moving, standing balance still.
        let moving = try #require(m.classes.firstIndex(of: "moving")), still = try #require(m.classes.firstIndex(of: "still"))
        let labels = LabelMap(classes: m.classes, classOfLabel: ["walk": moving, "u-turn": moving, "static-balance": still])
        var scoring = StreamedScoring(model: m, labels: labels)
        var ids: [String] = []
        for f in ["lowback-straight-walk.motus", "lowback-daily-activities.motus", "iphone-belt-stand-then-walk.motus"] {
            try scoring.score(path: root + "/datasets/" + f)
            ids += Array(repeating: f, count: scoring.yTrue.count - ids.count)
        }
        let report = try scoring.report(scheme: "bundled")
        let k = m.classes.count
        var predicted: [Int] = []
        for i in 0..<scoring.yTrue.count {
            let row = scoring.probabilities[(i * k)..<(i * k + k)]
            predicted.append(row.indices.max { row[$0] < row[$1] }.map { $0 - i * k } ?? 0)
        }
        let scores = EvaluationPlot.recordingScores(ids: ids, yTrue: scoring.yTrue, predicted: predicted)
        #expect(scores.reduce(0) { $0 + $1.windows } == report.windows)
        #expect(scores.reduce(0) { $0 + $1.correct } == (0..<k).reduce(0) { $0 + report.confusion[$1][$1] })
        let svg = EvaluationPlot.evaluation(report, recordings: scores).render(title: "evaluate")
        let els = try checkXML(svg)
        try rendersWithRsvg(svg)
        #expect(els.withClass("cell").count == k * k)
        for (t, row) in report.confusion.enumerated() { for (p, n) in row.enumerated() { #expect(els.texts.contains("\(n)"), "\(t),\(p)") } }
        #expect(els.withClass("bar").count >= 3 * k)
        #expect(els.texts.contains("Accuracy per recording") && els.texts.contains("predicted class") && els.texts.contains("true class"))
    }

    @Test(.enabled(if: shared != nil, sharedMessage))
    func countedAndTrueStepsOfTheOxfordWalks() throws {
        let run = try Evaluation.run([try EvaluationDataset.open(try #require(shared) + "/oxford")], outcome: { StepEvaluation.score($0) })
        #expect(run.rows.count == 14)
        let s = StepEvaluation.summarize(run.rows)
        let chart = EvaluationPlot.steps(run.rows, summary: s)
        let els = try checkXML(chart.svg())
        try rendersWithRsvg(chart.svg())
        #expect(els.withClass("dot").count == 14 && els.withClass("bar").count == 14)
        for r in run.rows { #expect(els.texts.contains(r.id)) }
        #expect(els.texts.contains("counted") && els.texts.contains("true") && els.texts.contains("steps"))
    }

    @Test(.enabled(if: shared != nil, sharedMessage))
    func fusionErrorOverTimeOfAMotionSenseWalk() throws {
        let ds = try EvaluationDataset.open(try #require(shared) + "/motionsense")
        let entries = ds.entries.filter { $0.id.hasPrefix("wlk_15/") }.prefix(2)
        var results: [FusionEvaluation.RecordingResult] = []
        for entry in entries { if let r = try FusionEvaluation.evaluate(try ds.load(entry)) { results.append(r) } }
        #expect(results.count == 2)
        for r in results {
            #expect(r.errorTimes.count == r.errorsDegrees.count && !r.errorTimes.isEmpty)
            #expect(zip(r.errorTimes.dropFirst(), r.errorTimes).allSatisfy { $0 > $1 })
        }
        let report = FusionEvaluation.aggregate(results)
        let svg = EvaluationPlot.fusion(report, shown: results[0]).render(title: "fusion")
        let els = try checkXML(svg)
        try rendersWithRsvg(svg)
        #expect(els.withClass("dot").count == 4)
        #expect(els.texts.contains("error (°)") && els.texts.contains("time since the first scored sample (s)"))
        let line = try #require(els.withClass("line").first?.attributes["d"])
        #expect(line.filter { $0 == "L" }.count > 100)
    }
}
