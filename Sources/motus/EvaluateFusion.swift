import ArgumentParser
import Motus
import MotusPlot

extension FusionEvaluation.SubjectSet: ExpressibleByArgument {}

struct EvaluateFusion: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-fusion",
        abstract: "Measure the gravity estimate against a reference (optical motion capture, CoreMotion), or at rest and over walks on other devices.",
        discussion: """
        Every recording with an orientation reference is scored: against measured orientation \
        (BROAD's optical motion capture: the inclination error, the angle between the estimated \
        and the true up direction, over the movement phases), or against the device's own \
        fusion (CoreMotion's gravity on MotionSense and WeAllWalk: the angle between the two \
        gravity vectors, skipping the first 2 s of each recording). The filter runs on the raw \
        acceleration and rotation rate (on MotionSense, acceleration rebuilt as gravity + \
        userAcceleration and CoreMotion's bias-free rotationRate). Prints the median, 95th \
        percentile, mean and RMSE per recording, per group and over all samples. The settings \
        were tuned on the odd-numbered MotionSense subjects only, so `--subjects even` gives \
        out-of-sample figures there.
          motus evaluate-fusion ../shared/datasets/broad --format json
          motus evaluate-fusion ../shared/datasets/motionsense --subjects even --format json
          motus evaluate-fusion ../shared/datasets/motionsense --max-median-deg 2 --max-p95-deg 15

        --check-still (IPOL lower-back trials, Oxford walks, any recording with acceleration): \
        FusionPipeline.complete fills in gravity (with the gyroscope when there is one), then \
        in each still phase (IPOL's `still` labels; otherwise a stillness detector: 1 s windows \
        with RMS deviation under 0.3 m/s², at least 1 s long) the angle between the mean gravity \
        estimate and the mean accelerometer direction must be at most --max-still-deg (2.5°; \
        --max-still-after-walk-deg, 10°, after a walk), and over the walk the mean user acceleration (minus its still-phase mean, the sensor's own \
        offset) must be near zero. Exits with status 1 when a recording fails.
          motus evaluate-fusion --check-still ../shared/datasets/ipol ../shared/datasets/oxford

        A recording that cannot be scored (no reference, or set aside by its dataset because a \
        file is missing) is listed with its reason and makes the command exit with status 1 \
        unless --allow-skipped; recordings left out by --subjects are not skipped ones.
        """)

    @Argument(help: "Dataset folders or recordings with an orientation reference (with --check-still: any recordings).")
    var paths: [String]

    @OptionGroup var input: InputOptions

    @Option(help: ArgumentHelp("Also draw the error per recording and the error over time of one recording (--plot-recording, else the one with the largest 95th percentile): FILE.svg or FILE.png.", valueName: "FILE"))
    var plot: String?

    @Option(name: .customLong("plot-recording"), help: ArgumentHelp("With --plot: the recording whose error over time is drawn, as the plot names it (activity/file, e.g. wlk/sub_2.csv) or by its file name.", valueName: "NAME"))
    var plotRecording: String?

    @Option(help: "Output format: table or json.")
    var format: ReportFormat = .table

    @Option(name: .customLong("max-median-deg"), help: ArgumentHelp("Exit with status 1 when the overall median error exceeds X degrees.", valueName: "X"))
    var maxMedianDeg: Double?

    @Option(name: .customLong("max-p95-deg"), help: ArgumentHelp("Exit with status 1 when the overall 95th percentile exceeds Y degrees.", valueName: "Y"))
    var maxP95Deg: Double?

    @Option(name: .customLong("max-rmse-deg"), help: ArgumentHelp("Exit with status 1 when the overall root-mean-square error exceeds Z degrees.", valueName: "Z"))
    var maxRMSEDeg: Double?

    @Option(help: "Which subjects (by the number in their name): all, odd (MotionSense's tuning set) or even (out of sample).")
    var subjects: FusionEvaluation.SubjectSet = .all

    @Option(help: "Estimator: motus (OrientationFilter, accelerometer + gyroscope), legacy (AttitudeFilter, the filter models of version 1 fuse with) or lowpass (accelerometer only).")
    var method: MethodChoice = .motus

    @Option(name: .customLong("skip-seconds"), help: ArgumentHelp("Seconds left out at the start of each recording.", valueName: "S"))
    var skipSeconds: Double = 2

    @Flag(name: .customLong("offline"), help: "Offline mode: the filter forwards and backwards in time over the whole recording (OfflineOrientation), as evaluate, classify and train use it when asked; never the live session.")
    var offline = false

    @Option(name: .customLong("acceleration-time-constant"), help: ArgumentHelp("The filter's accelerometer low-pass time constant in seconds (default 3): longer rejects more motion and trusts the gyroscope for longer. To see how a data set's figures depend on it; the live session always uses the default.", valueName: "S"))
    var accelerationTimeConstant: Double?

    @Flag(name: .customLong("magnetometer"), help: "9D: heading from the magnetometer too; on measured orientation (BROAD) score the full orientation error after removing one constant heading offset per recording (BROAD's protocol).")
    var magnetometer = false

    @Option(name: .customLong("resample"), help: ArgumentHelp("Score each recording as a device sampling at HZ would have recorded it (its accelerometer, gyroscope and magnetometer low-passed at 0.4 × HZ first when HZ is below the recording's rate; the reference taken on the same grid): how the filter holds at other rates (25–400 Hz). Not with --check-still.", valueName: "HZ"))
    var resampleHz: Double?

    @Option(name: .customLong("grid-phase"), help: ResampleOption.gridPhaseHelp)
    var gridPhase: Double?

    @Flag(name: .customLong("allow-skipped"), help: "Exit 0 even when some recordings could not be scored (they are still listed with their reason).")
    var allowSkipped = false

    @Flag(name: .customLong("check-still"), help: "Check still phases and walks on devices without a reference gravity (IPOL, Oxford).")
    var checkStill = false

    @Option(name: .customLong("max-still-deg"), help: ArgumentHelp("--check-still: largest angle between gravity and the mean accelerometer direction at rest before a walk.", valueName: "DEG"))
    var maxStillDeg: Double = FusionEvaluation.CheckThresholds().stillAngleDegrees

    @Option(name: .customLong("max-still-after-walk-deg"), help: ArgumentHelp("--check-still: the same for still phases after a walk.", valueName: "DEG"))
    var maxStillAfterWalkDeg: Double = FusionEvaluation.CheckThresholds().stillAfterWalkAngleDegrees

    @Option(name: .customLong("max-vertical-mean"), help: ArgumentHelp("--check-still: largest |mean vertical user acceleration| over a walk, m/s².", valueName: "MPS2"))
    var maxVerticalMean: Double = FusionEvaluation.CheckThresholds().walkVerticalMean

    @Option(name: .customLong("max-horizontal-mean"), help: ArgumentHelp("--check-still: largest horizontal mean user acceleration over a walk, m/s² (needs a gyroscope).", valueName: "MPS2"))
    var maxHorizontalMean: Double = FusionEvaluation.CheckThresholds().walkHorizontalMean

    enum MethodChoice: String, ExpressibleByArgument, CaseIterable { case motus, legacy, lowpass }

    func validate() throws {
        if skipSeconds < 0 { throw ValidationError("--skip-seconds must be ≥ 0") }
        if offline && (method != .motus || checkStill || magnetometer) { throw ValidationError("--offline goes with the default method (motus), not with --check-still or --magnetometer") }
        if let tau = accelerationTimeConstant {
            if !(tau > 0 && tau.isFinite) { throw ValidationError("--acceleration-time-constant must be a number of seconds > 0, not \(tau)") }
            if method != .motus || checkStill || magnetometer { throw ValidationError("--acceleration-time-constant goes with the default method (motus), live or --offline, not with --check-still or --magnetometer") }
        }
        try ResampleOption.validate(resampleHz)
        try ResampleOption.validate(gridPhase: gridPhase, resampleHz: resampleHz)
        if resampleHz != nil && checkStill {
            throw ValidationError("--resample goes with a reference (device gravity or measured orientation), not --check-still")
        }
        if magnetometer && (method != .motus || checkStill) { throw ValidationError("--magnetometer goes with the default method (motus) and not with --check-still") }
        if let p = plot { try PlotOutput.validate(p, flag: "--plot") }
        if plotRecording != nil && plot == nil { throw ValidationError("--plot-recording needs --plot FILE") }
        if plot != nil && checkStill { throw ValidationError("--plot draws the errors against a reference, not --check-still") }
    }

    func run() throws {
        try Self.reportingErrors {
            if checkStill { try runCheck() } else { try runReference() }
        }
    }

    // MARK: Against a reference

    func runReference() throws {
        if let p = plot { try OutputPaths.file(p) }
        let run = try Evaluation.run(try Datasets.open(paths, options: try input.delimitedOptions()), progress: Datasets.progress("evaluate-fusion"), outcome: { e0 -> Evaluation.Outcome<FusionEvaluation.RecordingResult> in
            let e = resampleHz.map { e0.resampledAsDevice(rateHz: $0, gridPhase: gridPhase ?? 0) } ?? e0
            guard subjects == .all || subjects.contains(FusionEvaluation.subjectNumber(e.subject)) else { return .excluded }
            let m: FusionEvaluation.Method? = switch method {
            case .motus: e.truth.orientation.map { reference in
                var settings = FusionEvaluation.defaultSettings(for: reference)
                if let tau = accelerationTimeConstant { settings.accelerationTimeConstant = tau }
                return offline ? .offline(settings) : .orientationFilter(settings)
            }
            case .lowpass: .lowPass(.default)
            case .legacy: e.truth.orientation.map(FusionEvaluation.legacyMethod(for:))
            }
            if magnetometer {
                if let r = try FusionEvaluation.evaluateWithMagnetometer(e) { return .scored(r) }
                return .skipped("no measured orientation to score a magnetometer heading against")
            }
            if let r = try FusionEvaluation.evaluate(e, method: m, skipSeconds: skipSeconds) { return .scored(r) }
            return .skipped("no orientation reference (device gravity or measured orientation)")
        })
        let results = run.rows
        guard !results.isEmpty else {
            throw CLIError("no recording with an orientation reference (device gravity or measured orientation) of the \(subjects.rawValue) subjects under \(paths.joined(separator: " "))")
        }
        let report = FusionEvaluation.aggregate(results)
        let odd = FusionEvaluation.aggregate(results.filter { $0.subject % 2 == 1 }).overall
        let even = FusionEvaluation.aggregate(results.filter { $0.subject % 2 == 0 && $0.subject > 0 }).overall
        switch format {
        case .json:
            var out = EvaluationJSON(method: method.rawValue, subjects: subjects.rawValue, skipSeconds: skipSeconds, report: report,
                                     odd: odd, even: even)
            out.skipped = run.skipped
            out.accelerationTimeConstantS = accelerationTimeConstant
            out.resampleHz = resampleHz
            out.gridPhase = gridPhase
            print(try JSONOutput.encode(out))
        default:
            let rate = resampleHz == nil ? "" : "every recording\(ResampleOption.describe(resampleHz, gridPhase: gridPhase)) (--resample)\n"
            print(Self.table(report, odd: odd, even: even) + rate + Datasets.skippedLines(run.skipped), terminator: "")
        }
        if let p = plot {
            let shown: FusionEvaluation.RecordingResult
            if let name = plotRecording {
                guard let r = results.first(where: { EvaluationPlot.displayName($0) == name }) ?? results.first(where: { $0.name == name }) else {
                    throw CLIError("--plot-recording \(name): no such recording among the \(results.count) scored (e.g. \(EvaluationPlot.displayName(results[0])))")
                }
                shown = r
            } else {
                shown = results.max { !($0.summary.p95Degrees >= $1.summary.p95Degrees) } ?? results[0]
                if results.count > 1 { printError("motus: --plot: error over time of \(EvaluationPlot.displayName(shown)) (largest 95th percentile); --plot-recording NAME picks another") }
            }
            try PlotOutput.write(EvaluationPlot.fusion(report, shown: shown).render(title: "motus evaluate-fusion"), to: p)
        }
        var failures: [String] = []
        if !run.skipped.isEmpty && !allowSkipped { failures.append(Datasets.skippedFailure(run.skipped)) }
        if let x = maxMedianDeg, !(report.overall.medianDegrees <= x) {
            failures.append("overall median \(Fmt.f(report.overall.medianDegrees, 3))° exceeds --max-median-deg \(x)")
        }
        if let y = maxP95Deg, !(report.overall.p95Degrees <= y) {
            failures.append("overall p95 \(Fmt.f(report.overall.p95Degrees, 3))° exceeds --max-p95-deg \(y)")
        }
        if let z = maxRMSEDeg, !(report.overall.rmseDegrees <= z) {
            failures.append("overall RMSE \(Fmt.f(report.overall.rmseDegrees, 3))° exceeds --max-rmse-deg \(z)")
        }
        if !failures.isEmpty { throw CLIError(failures.joined(separator: "; ")) }
    }

    static func row(_ name: String, _ s: FusionEvaluation.Summary) -> [String] {
        [name, "\(s.count)", Fmt.f(s.medianDegrees, 2), Fmt.f(s.p95Degrees, 2), Fmt.f(s.meanDegrees, 2), Fmt.f(s.rmseDegrees, 2)]
    }

    static func table(_ r: FusionEvaluation.Report, odd: FusionEvaluation.Summary, even: FusionEvaluation.Summary) -> String {
        let header = ["", "samples", "median °", "p95 °", "mean °", "RMSE °"]
        var out = "per recording\n"
        out += Fmt.table([["recording"] + header.dropFirst()] + r.recordings.map { row($0.name, $0.summary) }, indent: 2)
        out += "per group (activity, trial group)\n"
        out += Fmt.table([["group"] + header.dropFirst()] + r.activities.map { row($0.activity, $0.summary) }, indent: 2)
        out += "overall\n"
        var rows = [["subjects"] + header.dropFirst(), row("all", r.overall)]
        if odd.count > 0 { rows.append(row("odd", odd)) }
        if even.count > 0 { rows.append(row("even", even)) }
        out += Fmt.table(rows, indent: 2)
        return out
    }

    // MARK: Other devices

    func runCheck() throws {
        var thresholds = FusionEvaluation.CheckThresholds()
        thresholds.stillAngleDegrees = maxStillDeg; thresholds.stillAfterWalkAngleDegrees = maxStillAfterWalkDeg
        thresholds.walkVerticalMean = maxVerticalMean; thresholds.walkHorizontalMean = maxHorizontalMean
        let run = try Evaluation.run(try Datasets.open(paths, options: try input.delimitedOptions()), progress: Datasets.progress("evaluate-fusion")) { e in
            try FusionEvaluation.checkStillAndWalk(e.recording, name: e.id)
        }
        let checks = run.rows
        guard !checks.isEmpty else { throw CLIError("no recordings under \(paths.joined(separator: " "))") }
        let failing = checks.filter { !$0.failures(thresholds).isEmpty }
        switch format {
        case .json:
            var out = CheckJSON(checks: checks, thresholds: thresholds)
            out.skipped = run.skipped
            print(try JSONOutput.encode(out))
        default:
            var rows = [["recording", "method", "still", "phases", "worst still °", "walk s", "vertical m/s²", "horizontal m/s²", "sensor offset m/s²", "vs device att °", "pass"]]
            for c in checks {
                rows.append([c.name, c.method.rawValue, c.stillSource, "\(c.stillPhases.count)", Fmt.f(c.worstStillAngleDegrees, 3),
                             Fmt.f(c.walkEnd - c.walkStart, 1), Fmt.f(c.walkVerticalMean, 3), Fmt.f(c.walkHorizontalMean, 3),
                             Fmt.f(c.stillVerticalMean, 3), Fmt.f(c.deviceAttitudeMedianDegrees, 2), c.failures(thresholds).isEmpty ? "yes" : "NO"])
            }
            print(Fmt.table(rows), terminator: "")
            let still = checks.flatMap { $0.stillPhases.map(\.angleDegrees) }
            let s = FusionEvaluation.Summary(still)
            print("\(checks.count - failing.count) of \(checks.count) pass; still-phase angle median \(Fmt.f(s.medianDegrees, 3))°, worst \(Fmt.f(still.max() ?? .nan, 3))° over \(still.count) phases")
            print(Datasets.skippedLines(run.skipped), terminator: "")
        }
        if !run.skipped.isEmpty && !allowSkipped { throw CLIError(Datasets.skippedFailure(run.skipped)) }
        if let f = failing.first {
            throw CLIError("\(failing.count) of \(checks.count) recordings fail the checks, first \(f.name): \(f.failures(thresholds).joined(separator: "; "))")
        }
    }
}

struct SummaryJSON: Encodable {
    var count: Int, medianDeg: Double, p95Deg: Double, meanDeg: Double, rmseDeg: Double
    init(_ s: FusionEvaluation.Summary) {
        count = s.count; medianDeg = s.medianDegrees; p95Deg = s.p95Degrees; meanDeg = s.meanDegrees; rmseDeg = s.rmseDegrees
    }
}

struct EvaluationJSON: Encodable {
    var method: String
    var subjects: String
    var skipSeconds: Double
    /// `--acceleration-time-constant` when given (absent: each recording's default settings).
    var accelerationTimeConstantS: Double?
    /// `--resample` when given: the rate every recording was resampled to (Hz).
    var resampleHz: Double?
    /// `--grid-phase` when given: the grid's shift in periods of the new rate.
    var gridPhase: Double?
    /// Over all samples pooled (after `skip_seconds` of each recording; over the scored phases
    /// against a measured orientation).
    var medianDeg: Double, p95Deg: Double, meanDeg: Double, rmseDeg: Double, count: Int
    var recordingCount: Int
    var activities: [String: SummaryJSON]
    var subjectSets: [String: SummaryJSON]
    var recordings: [RecordingJSON]
    var skipped: [Evaluation.Skipped] = []
    struct RecordingJSON: Encodable { var name: String, activity: String, subject: Int, count: Int, medianDeg: Double, p95Deg: Double, meanDeg: Double, rmseDeg: Double }

    init(method: String, subjects: String, skipSeconds: Double, report r: FusionEvaluation.Report,
         odd: FusionEvaluation.Summary, even: FusionEvaluation.Summary) {
        self.method = method; self.subjects = subjects; self.skipSeconds = skipSeconds
        medianDeg = r.overall.medianDegrees; p95Deg = r.overall.p95Degrees; meanDeg = r.overall.meanDegrees
        rmseDeg = r.overall.rmseDegrees; count = r.overall.count
        recordingCount = r.recordings.count
        activities = Dictionary(uniqueKeysWithValues: r.activities.map { ($0.activity, SummaryJSON($0.summary)) })
        var sets: [String: SummaryJSON] = [:]
        if odd.count > 0 { sets["odd"] = SummaryJSON(odd) }
        if even.count > 0 { sets["even"] = SummaryJSON(even) }
        subjectSets = sets
        recordings = r.recordings.map {
            RecordingJSON(name: $0.name, activity: $0.activity, subject: $0.subject, count: $0.summary.count,
                          medianDeg: $0.summary.medianDegrees, p95Deg: $0.summary.p95Degrees, meanDeg: $0.summary.meanDegrees,
                          rmseDeg: $0.summary.rmseDegrees)
        }
    }
}

struct CheckJSON: Encodable {
    var thresholds: ThresholdsJSON
    var passed: Int, failed: Int
    var recordings: [One]
    var skipped: [Evaluation.Skipped] = []
    struct ThresholdsJSON: Encodable { var maxStillDeg: Double, maxVerticalMean: Double, maxHorizontalMean: Double }
    struct One: Encodable {
        var name: String, method: String, stillSource: String
        var stillPhases: [FusionEvaluation.StillPhase]
        var worstStillDeg: Double, walkStart: Double, walkEnd: Double
        var walkVerticalMean: Double, walkHorizontalMean: Double, stillVerticalMean: Double, deviceAttitudeMedianDeg: Double
        var failures: [String]
    }
    init(checks: [FusionEvaluation.DeviceCheck], thresholds t: FusionEvaluation.CheckThresholds) {
        thresholds = ThresholdsJSON(maxStillDeg: t.stillAngleDegrees, maxVerticalMean: t.walkVerticalMean, maxHorizontalMean: t.walkHorizontalMean)
        recordings = checks.map {
            One(name: $0.name, method: $0.method.rawValue, stillSource: $0.stillSource, stillPhases: $0.stillPhases,
                worstStillDeg: $0.worstStillAngleDegrees, walkStart: $0.walkStart, walkEnd: $0.walkEnd,
                walkVerticalMean: $0.walkVerticalMean, walkHorizontalMean: $0.walkHorizontalMean,
                stillVerticalMean: $0.stillVerticalMean, deviceAttitudeMedianDeg: $0.deviceAttitudeMedianDegrees, failures: $0.failures(t))
        }
        failed = recordings.filter { !$0.failures.isEmpty }.count
        passed = recordings.count - failed
    }
}
