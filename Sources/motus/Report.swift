import ArgumentParser
import Foundation
import Motus
import MotusPlot

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one self-contained HTML page about a recording or a dataset: summary tables and pictures.",
        discussion: """
        A recording: what `motus inspect` reports (streams, rates, jitter, gaps, labels, events, \
        metadata), what `motus track` reports (steps, distance, moving time, pace, splits and \
        the pause/resume events with their decision latency) and the picture `motus plot` draws \
        of it, from one session run over the whole recording.

        A folder (a dataset Motus knows, or a folder of recordings): every recording is loaded \
        once with its ground truth and scored by each evaluation it has the truth for, as the \
        `evaluate*` commands score it: steps against reference steps (evaluate-steps), moving \
        or still by the classifier on every window inside a label the model's map names \
        (evaluate; --map names others), the session's pause and resume against still → moving \
        → still labels (evaluate-motion; --map as there), and the gravity estimate against an \
        orientation reference (evaluate-fusion). The page holds their tables and pictures, and lists every recording \
        that none of them could score, with the reason. Progress goes to stderr.

        The page loads nothing from the network (inline style and SVG, no scripts, no fonts to \
        fetch), so it can be mailed or archived as one file. It is written as OUT.partial and \
        renamed once complete. Examples:
          motus report datasets/lowback-straight-walk.motus --out walk.html
          motus report datasets --out bundled.html
          motus report ../shared/datasets/ipol/voisard2023_ipol497 --map moving=walk --map still=still --out ipol.html
        """)

    @Argument(help: "A recording, or a folder: a dataset Motus knows or a folder of recordings.")
    var path: String

    @Option(help: ArgumentHelp("The page to write: FILE.html, or - for standard output.", valueName: "FILE"))
    var out: String

    @Option(help: "Model file for the session (default: the shipped moving-vs-still model).")
    var model: String?

    @Option(help: ArgumentHelp("A recording: the person's height in metres (stride model), as in track.", valueName: "M"))
    var height: Double?

    @Option(help: "A recording: session mode, foot or ride.")
    var mode: SessionMode = .foot

    @Option(help: ArgumentHelp("A recording: split distance in metres (default 1000).", valueName: "M"))
    var split: Double?

    @Option(name: .customLong("map"), help: ArgumentHelp("A dataset: which labels are still and which moving, still=LABEL,LABEL… and moving=LABEL,LABEL…, for the classifier (as in evaluate; default: the model's own map) and for pause and resume (as in evaluate-motion; default: 'still' still, every other label moving).", valueName: "CLASS=LABELS"))
    var maps: [String] = []

    @OptionGroup var input: InputOptions

    func validate() throws {
        let ext = (out as NSString).pathExtension.lowercased()
        guard ext == "html" || ext == "htm" || out == "-" else { throw ValidationError("--out must name an .html file, not '\(out)'") }
        if let h = height, !(h >= 0.5 && h <= 2.5) { throw ValidationError("--height is in metres, 0.5…2.5 (e.g. 1.75), not \(h)") }
        if let split, !(split > 0 && split.isFinite) { throw ValidationError("--split must be a positive number of metres, not \(split)") }
    }

    func run() throws {
        try Self.reportingErrors {
            if out != "-" { try OutputPaths.file(out) }
            // Standard input and pipes are one recording, copied once and read from the copy
            // as often as the page needs (InputSpool).
            let piped = path == "-" || InputSpool.needsSpooling(path)
            var isFolder: ObjCBool = false
            guard piped || FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw CLIError("\(path): no such file or folder") }
            let page: HTMLPage
            let what: String
            if isFolder.boolValue {
                for (given, flag) in [(height != nil, "--height"), (mode != .foot, "--mode"), (split != nil, "--split")] where given {
                    throw CLIError("\(flag) applies to one recording, not to a dataset folder (\(path))")
                }
                (page, what) = try datasetPage()
            } else {
                if !maps.isEmpty { throw CLIError("--map applies to a dataset folder, not to one recording (\(path))") }
                let ext = (path as NSString).pathExtension.lowercased()
                if PlotCommand.trackExtensions.contains(ext) {
                    throw CLIError("\(path): a ride or route file, not a recording of motion sensors; `motus ride \(path) --plot ride.svg` or `motus route … --plot route.svg` draws it")
                }
                page = try recordingPage()
                what = "recording"
            }
            if out == "-" { print(page.render(), terminator: "") } else { try Self.write(page.render(), to: out) }
            printError("motus: wrote \(out == "-" ? "standard output" : out) (\(what); \(page.figureCount) picture\(page.figureCount == 1 ? "" : "s"))")
        }
    }

    /// Writes the page as OUT.partial and renames it: an error never leaves half a page under
    /// the name asked for.
    static func write(_ html: String, to out: String) throws {
        let partial = out + ".partial"
        guard FileManager.default.createFile(atPath: partial, contents: Data(html.utf8)) else {
            throw CLIError("\(partial): cannot write: \(String(cString: strerror(errno)))")
        }
        // rename(2) replaces an existing file in one step.
        if rename(partial, out) != 0 {
            let why = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: partial)
            throw CLIError("\(out): cannot write: \(why)")
        }
    }

    // MARK: A recording

    func recordingPage() throws -> HTMLPage {
        let options = try input.delimitedOptions()
        let summary = try RecordingLoader.summarize(path: path, options: options)
        if let left = summary.leftOut { printError("motus: \(left)") }
        // The second read posts the same notices as the first (columns left out, units that
        // look wrong): they are said once.
        InputNotices.setHandler(nil)
        defer { InputNotices.setHandler { printError("motus: \($0)") } }
        let recording = try RecordingLoader.load(path: path, options: options)
        guard recording.timeRange != nil else { throw CLIError("\(path): no samples to report on") }
        var settings = SessionSettings()
        settings.mode = mode
        settings.splitMeters = split ?? 1000
        settings.heightMeters = height ?? recording.metadata.heightMeters
        let trace: RecordingPlot.SessionTrace
        do { trace = try RecordingPlot.trace(recording, settings: settings, model: try DefaultModel.load(model)) }
        catch let e as StreamingClassifier.Failure { throw CLIError("\(path): \(e)") }
        let track = TrackReport(trace.result, settings: settings)
        let shown = path == "-" ? InputSpool.standardInputName : path
        let name = (shown as NSString).lastPathComponent

        var page = HTMLPage(title: name, subtitle: ["motus report of \(shown)", "motus \(MotusCommand.configuration.version)"])
        page.heading("Recording", id: "recording")
        page.keyValues(Self.metadata(summary))
        var streams = [["stream", "kind", "samples", "rate Hz", "jitter ms", "p99 dt ms", "gaps", "largest gap s", "duplicates", "out of order", "mean |v|"]]
        for st in summary.streams {
            streams.append([st.name, st.kind.title, "\(st.samples)", Fmt.f(st.rateHz, 2), Fmt.f(st.jitterStdS * 1000, 2), Fmt.f(st.p99IntervalS * 1000, 2),
                            "\(st.gaps)", Fmt.f(st.largestGapS, 3), "\(st.duplicates)", "\(st.outOfOrder)", Fmt.f(st.meanMagnitude, 3)])
        }
        page.table(streams, caption: "Streams (motus inspect)")
        if !summary.labels.isEmpty {
            page.table([["label", "seconds", "segments"]] + summary.labels.map { [$0.label, Fmt.f($0.seconds, 1), "\($0.segments)"] }, caption: "Labels")
        }
        if !summary.events.isEmpty {
            page.table([["event", "count"]] + summary.events.map { [$0.kind, "\($0.count)"] }, caption: "Events in the file")
        }

        page.heading("Session (motus track)", id: "session")
        var pairs: [(String, String)] = [("mode", track.mode), ("state at end", track.state), ("steps", "\(track.steps)"),
                                         ("distance", "\(Fmt.f(track.distanceM, 1)) m"), ("moving time", TrackReport.clock(track.movingTimeS)),
                                         ("elapsed time", TrackReport.clock(track.elapsedTimeS)), ("average pace", track.averagePace),
                                         ("cadence", "\(Fmt.f(track.cadenceSpm, 0)) steps/min"), ("average speed", "\(Fmt.f(track.averageSpeedMps * 3.6, 1)) km/h"),
                                         ("stride model", track.strideModel)]
        if let h = track.headingDeg { pairs.append(("heading at end", "\(Fmt.f(h, 0))° from magnetic north")) }
        page.keyValues(pairs)
        if !track.splits.isEmpty {
            var t = [["#", "distance m", "at", "moving", "pace", "steps"]]
            for s in track.splits { t.append(["\(s.index)", Fmt.f(s.distanceM, 0), TrackReport.clock(s.timeS), TrackReport.clock(s.movingTimeS), s.pace, "\(s.steps)"]) }
            page.table(t, caption: "Splits (every \(Fmt.f(track.splitM, 0)) m)")
        }
        let events = track.events.filter { $0.type != "step" }
        if events.isEmpty {
            page.paragraph("The session reported no resume, pause or split.", note: true)
        } else {
            var t = [["at s", "event", "cause", "decided s", "latency s"]]
            for e in events {
                t.append([Fmt.f(e.timeS, 2), e.type == "split" ? "split \(e.index ?? 0) (\(e.pace ?? "-"))" : e.type == "goal" ? "goal reached" : e.type,
                          e.cause ?? "-", e.decidedS.map { Fmt.f($0, 2) } ?? "-", e.latencyS.map { Fmt.f($0, 2) } ?? "-"])
            }
            page.table(t, caption: "Events (times in s since the first sample)")
        }

        page.heading("Picture (motus plot)", id: "picture")
        let chart = RecordingPlot.chart(recording, trace: trace, name: name)
        page.figure(chart.draw(idPrefix: "recording-"), title: name,
                    caption: "|acceleration|, rotation rate and tilt over time; the steps the session counted (bottom ticks) and the reference's (top); the moving spans; resumes and pauses with their decision latency; the classifier's probability of moving; label segments.")
        return page
    }

    /// The recording's metadata and time span as name/value rows.
    static func metadata(_ s: RecordingSummary) -> [(String, String)] {
        let m = s.metadata
        var out: [(String, String)] = [("file", s.path)]
        if let r = s.timeRange { out.append(("duration", "\(Fmt.f(r.upperBound - r.lowerBound, 3)) s (t = \(Fmt.f(r.lowerBound, 3)) … \(Fmt.f(r.upperBound, 3)) s)")) }
        if let v = m.source, v != s.path { out.append(("source", v)) }
        if let v = m.device { out.append(("device", v)) }
        if let v = m.placement { out.append(("placement", v)) }
        if let v = m.subject { out.append(("subject", v)) }
        if let v = m.heightMeters { out.append(("height", "\(Fmt.f(v, 2)) m")) }
        if let v = m.weightKg { out.append(("weight", "\(Fmt.f(v, 1)) kg")) }
        if let v = m.age { out.append(("age", Fmt.f(v, 0))) }
        if let v = m.gender { out.append(("gender", v)) }
        if let v = m.nominalRateHz { out.append(("nominal rate", "\(Fmt.f(v, 1)) Hz")) }
        for (k, v) in m.extra.sorted(by: { $0.key < $1.key }) { out.append((k, v)) }
        return out
    }

    // MARK: A dataset

    /// What each evaluation made of one recording (nil: it has no truth of that kind).
    struct Scores: Sendable {
        var id = ""
        var steps: StepEvaluation.Row?
        var motion: MotionEvaluation.Row?
        var fusion: FusionEvaluation.RecordingResult?
        /// Windows the classifier was scored on.
        var windows = 0
        /// Evaluations the recording has the truth for but that could not run on it, each with
        /// the error (listed on the page, never dropped).
        var problems: [String] = []
    }

    func datasetPage() throws -> (HTMLPage, String) {
        let m = try DefaultModel.load(model)
        let motionMap = try EvaluateMotion.labelMap(maps)
        // The classifier's classes from the recordings' labels: --map (still=…, moving=…) when
        // given, else the model's own map, as `motus evaluate` takes them.
        var classMap = m.labelMap
        if !maps.isEmpty {
            let given = try LabelMap(parsing: maps)
            let index = Dictionary(uniqueKeysWithValues: m.classes.enumerated().map { ($1, $0) })
            guard Set(given.classes).isSubset(of: Set(m.classes)) else { throw CLIError("--map names classes \(given.classes) but the model has \(m.classes)") }
            classMap = LabelMap(classes: m.classes, classOfLabel: given.classOfLabel.compactMapValues { index[given.classes[$0]] })
        }
        var windows = LabelledWindows(configuration: m.pipeline.features)
        let datasets = try Datasets.open([path], options: try input.delimitedOptions())
        let run = try Evaluation.run(datasets, progress: Self.progress, outcome: { e -> Evaluation.Outcome<Scores> in
            var s = Scores()
            var reasons: [String] = []
            switch StepEvaluation.score(e) {
            case .scored(let row): s.steps = row
            case .skipped(let why): reasons.append("steps: \(why)")
            case .excluded: break
            }
            // The classifier on every window wholly inside a label the map names (what
            // `motus evaluate` scores); recordings without such a label are not windowed.
            if e.truth.labels.contains(where: { classMap.classOfLabel[$0.label] != nil }) {
                var r = e.recording
                r.metadata.subject = e.subject
                let before = windows.count
                do { try windows.add(r, id: e.entry.path, pipeline: m.pipeline, labels: classMap) } catch {
                    s.problems.append("classifier: \(error)")
                    reasons.append("classifier: \(error)")
                }
                s.windows = windows.count - before
                if s.windows == 0 && s.problems.isEmpty { reasons.append("classifier: no window lies wholly inside one mapped label") }
            } else {
                reasons.append("classifier: no label the map names (\(classMap.description))")
            }
            do { s.motion = try MotionEvaluation.evaluate(e, labelMap: motionMap, model: m) } catch { throw CLIError("\(e.id): \(error)") }
            if s.motion == nil { reasons.append("pause/resume: \(MotionEvaluation.unjudgedReason)") }
            // A recording whose streams the fusion evaluation cannot take (the gyroscope on
            // other timestamps than the accelerometer) stops `evaluate-fusion`; here the other
            // evaluations still run, and the error is listed with the recording.
            do { s.fusion = try FusionEvaluation.evaluate(e) } catch {
                s.problems.append("fusion: \(error)")
                reasons.append("fusion: \(error)")
            }
            if s.fusion == nil && !s.problems.contains(where: { $0.hasPrefix("fusion:") }) { reasons.append("fusion: no orientation reference") }
            guard s.steps != nil || s.windows > 0 || s.motion != nil || s.fusion != nil else { return .skipped(reasons.joined(separator: "; ")) }
            s.id = e.id
            return .scored(s)
        })
        let ds = datasets[0]
        let entries = ds.entries.count
        let folder = ((path as NSString).standardizingPath as NSString).lastPathComponent
        var page = HTMLPage(title: folder == ds.name ? folder : "\(folder) (\(ds.name))",
                            subtitle: ["motus report of \(path)", "\(entries) recording\(entries == 1 ? "" : "s"); motus \(MotusCommand.configuration.version)"])
        let classified = run.rows.filter { $0.windows > 0 }.count
        let steps = run.rows.compactMap(\.steps), motion = run.rows.compactMap(\.motion), fusion = run.rows.compactMap(\.fusion)
        page.heading("Contents", id: "contents")
        page.table([["evaluation", "recordings scored", "as in"],
                    ["steps against reference steps", "\(steps.count)", "motus evaluate-steps"],
                    ["moving or still (classifier) against labels", "\(classified)", "motus evaluate"],
                    ["pause and resume against still and moving labels", "\(motion.count)", "motus evaluate-motion"],
                    ["gravity against an orientation reference", "\(fusion.count)", "motus evaluate-fusion"],
                    ["none of these (listed at the end)", "\(run.skipped.count)", ""]])

        if !steps.isEmpty {
            let s = StepEvaluation.summarize(steps)
            page.heading("Steps", id: "steps")
            page.list(["\(s.recordings) recordings, \(s.trueSteps) true steps, \(s.countedSteps) counted",
                       "step error: MAPE \(Fmt.f(s.mape, 2)) %, median \(Fmt.f(s.medianAbsErrorPercent, 2)) %, worst \(Fmt.f(s.worstAbsErrorPercent, 2)) % (\(s.worstID ?? "-"))"]
                      + (s.distanceMedianAbsErrorPercent.map { ["distance (height only): median |error| \(Fmt.f($0, 2)) % over \(s.distanceRecordings) recordings"] } ?? []))
            var t = [["recording", "placement", "true", "counted", "error %", "outside t/c", "height m", "distance m", "course m", "dist err %"]]
            for r in steps {
                t.append([r.id, r.placement ?? "-", "\(r.trueSteps)", "\(r.countedSteps)", Fmt.f(r.errorPercent, 2),
                          r.trueStepsOutside.map { "\($0)/\(r.countedStepsOutside ?? 0)" } ?? "-", r.heightMeters.map { Fmt.f($0, 2) } ?? "-",
                          r.distanceMeters.map { Fmt.f($0, 2) } ?? "-", r.courseMeters.map { Fmt.f($0, 0) } ?? "-", r.distanceErrorPercent.map { Fmt.f($0, 2) } ?? "-"])
            }
            page.table(t, caption: "Per recording")
            page.figure(EvaluationPlot.steps(steps, summary: s).draw(), title: "Steps counted and true, per recording")
        }

        if windows.count > 0 {
            let name = model ?? "the shipped moving-vs-still model"
            let report: EvaluationReport
            let predicted: [Int]
            do {
                report = try m.evaluate(windows, scheme: "\(name) on \(windows.recordings) recordings")
                predicted = argmaxRows(try m.probabilities(windows.features))
            } catch { throw CLIError("\(path): \(error)") }
            page.heading("Moving or still (classifier)", id: "classifier")
            page.list(["\(report.scheme): \(report.windows) windows wholly inside one mapped label (\(classMap.description))",
                       "accuracy \(Fmt.f(report.accuracy * 100, 2)) %, balanced accuracy \(Fmt.f(report.balancedAccuracy * 100, 2)) %, macro F1 \(Fmt.f(report.macroF1, 4)), ROC AUC \(report.rocAUC.map { Fmt.f($0, 4) } ?? "-"), log loss \(Fmt.f(report.logLoss, 4))"])
            var t = [["class", "precision", "recall", "F1", "support"]]
            for (c, x) in zip(report.classes, report.perClass) { t.append([c, Fmt.f(x.precision, 4), Fmt.f(x.recall, 4), Fmt.f(x.f1, 4), "\(x.support)"]) }
            page.table(t, caption: "Per class")
            page.table([["true \\ predicted"] + report.classes] + zip(report.classes, report.confusion).map { [$0] + $1.map(String.init) },
                       caption: "Confusion (rows: true, columns: predicted)")
            let scores = EvaluationPlot.recordingScores(ids: windows.recordingIDs, yTrue: windows.classes, predicted: predicted)
            page.figure(EvaluationPlot.evaluation(report, recordings: scores), title: "Confusion matrix and scores")
        }

        if !motion.isEmpty {
            let s = MotionEvaluation.summarize(motion)
            page.heading("Pause and resume", id: "motion")
            page.list(EvaluateMotion.summaryLines(s))
            page.table(EvaluateMotion.trialCells(motion, noSteps: "-"), caption: "Per trial (n/j: pause not judged, the recording ends too soon after the stop or has no still label; resume not judged, the recording starts moving or has no still label)")
        }

        if !fusion.isEmpty {
            let report = FusionEvaluation.aggregate(fusion)
            page.heading("Gravity estimate (fusion)", id: "fusion")
            let header = ["samples", "median °", "p95 °", "mean °", "RMSE °"]
            func row(_ name: String, _ s: FusionEvaluation.Summary) -> [String] {
                [name, "\(s.count)", Fmt.f(s.medianDegrees, 2), Fmt.f(s.p95Degrees, 2), Fmt.f(s.meanDegrees, 2), Fmt.f(s.rmseDegrees, 2)]
            }
            page.table([["all samples"] + header, row("overall", report.overall)], caption: "Angle between estimated and reference gravity")
            if report.activities.count > 1 {
                page.table([["group"] + header] + report.activities.map { row($0.activity, $0.summary) }, caption: "Per group (activity, trial group)")
            }
            page.table([["recording"] + header] + report.recordings.map { row(EvaluationPlot.displayName($0), $0.summary) }, caption: "Per recording")
            let shown = fusion.max { !($0.summary.p95Degrees >= $1.summary.p95Degrees) } ?? fusion[0]
            page.figure(EvaluationPlot.fusion(report, shown: shown), title: "Gravity direction error",
                        caption: "Over time: \(EvaluationPlot.displayName(shown)), the recording with the largest 95th percentile.")
        }

        let problems = run.rows.flatMap { r in r.problems.map { [r.id, $0] } }
        if !problems.isEmpty {
            page.heading("Evaluations that could not run", id: "problems")
            page.table([["recording", "error"]] + problems, numeric: false)
        }
        if !run.skipped.isEmpty {
            page.heading("Not scored", id: "skipped")
            page.table([["recording", "why"]] + run.skipped.map { [$0.id, $0.reason] }, numeric: false)
        }
        if steps.isEmpty && classified == 0 && motion.isEmpty && fusion.isEmpty {
            printError("motus: \(path): no recording has reference steps, labels the model's map names, still and moving labels or an orientation reference; the page lists why for each")
        }
        let what = "\(entries) recordings: steps \(steps.count), classifier \(classified), pause/resume \(motion.count), fusion \(fusion.count), not scored \(run.skipped.count)"
        return (page, what)
    }

    /// Progress on stderr: every recording for up to 20, then every tenth of them.
    static func progress(done: Int, total: Int) {
        guard total <= 20 || done % max(1, total / 10) == 0 || done == total else { return }
        printError("report: \(done)/\(total) recordings")
    }
}
