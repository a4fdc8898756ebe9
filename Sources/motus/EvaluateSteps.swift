import ArgumentParser
import Foundation
import Motus
import MotusPlot

extension StepMode: ExpressibleByArgument {}

struct EvaluateSteps: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-steps",
        abstract: "Count steps on labelled walks and compare with their ground truth (or, with --pair-by, devices worn at once with each other).",
        discussion: """
        Takes dataset folders (the Oxford step-counter walks, the IPOL gait trials, WeAllWalk) or \
        recordings and folders of recordings with `step` events. For each recording it prints the true and counted steps \
        and the error; for a recording with a known course (IPOL: 20 m) also the distance \
        estimated from the subject's height alone. Recordings with walk labels (IPOL, WeAllWalk, \
        Mobilise-D walking bouts) are judged over the annotated walks, each widened by 0.3 s (steps outside them are \
        shown apart). The summary gives MAPE, median and \
        worst |error|, and the median |distance error|; for a data set that groups its \
        recordings (Oxford by carry position, WeAllWalk by mobility aid: long-cane, guide-dog, \
        none) also MAPE, median and worst per group (JSON: "groups").

        Steps come from the offline step counter by default (`--step-mode offline`: the whole \
        file is known, so each walking bout takes the steps of the live pedometer or of a \
        zero-phase detector on the vertical acceleration, whichever keeps the more regular \
        rhythm, and single steps are then mended by the same rhythm rule with the other \
        detector's steps); `--step-mode live` scores what a live session counts as the samples arrive \
        (the pedometer's steps, a step the live vertical detector does not confirm and that splits \
        one interval of the walk's rhythm left out).

        Every recording a dataset lists but that cannot be scored (an Oxford walk without \
        stepcounter.csv, a recording without step events or without acceleration) is listed \
        under "skipped" with its reason, in the table and the JSON, and makes the command exit \
        with status 1 after the report, so that a bar never passes on fewer recordings than the \
        data hold; `--allow-skipped` accepts them (still listed). Reference steps outside the \
        span of a recording's data (a phone that stopped before the walk's end) are not judged \
        and are counted in the report. The JSON gives each recording's judged windows \
        (`judged_spans`, [start, end] in s), so another detector's steps can be judged the same \
        way. A file that changes while it is read, or a dataset whose recordings change during \
        the run, is an error naming the file.

        Under the summary, the counted steps are compared with the reference steps one by one: \
        a counted step and a reference step at most 0.3 s apart match, each once, the closest \
        pairs first. It gives precision, recall and F1 over every judged step, and says how many \
        of the missed and the extra steps lie at a walk's ends (the first or last reference step \
        of a bout, reference steps 2 s or more apart splitting bouts; a counted step with no two \
        reference steps of one bout around it) and how many in turns (inside a `turn` label): \
        a count can be right while its steps are wrong (JSON: each recording's and the \
        summary's "match").

        --steps-from FILE judges another detector's steps instead of counting them, with the \
        same reference steps, windows and comparison (no distance: the steps carry no swing). \
        FILE is CSV with the header recording,time_s and one row per step: the recording's id \
        as this report names it, the step's time in s on the recording's clock; a row with no \
        time (`T1_ID3_1L_WC,`) says the detector found no step there; a recording without a row \
        is skipped, and a row for a recording the data sets do not list fails the command. \
        benchmarks/steps judges the peers that way. Example:
          motus evaluate-steps ../shared/datasets/weallwalk --steps-from scipy-steps.csv

        Use the bars in CI: `--max-mape 2 --max-worst 6` exits with status 1 and a one-line \
        message when a bar fails; `--min-f1 98` fails when the step-by-step F1 is below 98 %; \
        `--max-live-gap 0.7` also counts the recordings live and \
        fails when the live MAPE is more than 0.7 points above the offline one; \
        `--max-group-mape long-cane=2.5` fails when that group's MAPE is above 2.5 % (or when \
        no recording is in it). Example:
          motus evaluate-steps ../shared/datasets/oxford --max-mape 2 --max-worst 6

        --resample HZ counts every recording as a device sampling its inertial streams at HZ \
        would have recorded it (below the recording's own rate, low-passed at 0.4 × HZ first, \
        causally, as a sensor's anti-alias filter is; `motus convert --resample` writes the \
        same samples): how both counters hold from 10 to 400 Hz on data recorded at one rate. \
        Example:
          motus evaluate-steps ../shared/datasets/oxford --resample 20

        --grid-phase F (with --resample) starts that grid F of a period later: at the recording's \
        own rate, the same recording as a device that began sampling a moment later would give \
        it, so a figure that moves with F owes that much to where the samples happen to fall. \
        Example:
          motus evaluate-steps ../shared/datasets/weallwalk --resample 25 \\
            --grid-phase 0.5

        Without reference steps, devices worn at once can be checked against each other: \
        --pair-by KEY groups the recordings by a metadata value (sp-sw-har: execution, its phone \
        and watch; a native file's `@meta,x.KEY,…`), counts each one's steps inside the labels \
        --within names (widened by 0.3 s, as annotated walks are), and reports how far each \
        group's counts lie apart (its largest minus its smallest); --max-spread X fails when \
        they lie more than X steps apart on average. Equal counts do not prove both devices \
        right; unequal counts prove one wrong. Example:
          motus evaluate-steps ../shared/datasets/sp-sw-har --pair-by execution --within WALKING,TURNING --max-spread 1.3

        --recording ID scores one recording of a dataset folder with the dataset's context, \
        its row as the whole run gives it (`motus features --list-recordings` lists the ids); \
        a recording that cannot be scored is then reported (JSON: under "skipped") rather \
        than an error. scale/motus_dask.py spreads a run over a Dask cluster that way.
        """)

    @Argument(help: "Dataset folders or recordings.")
    var paths: [String]

    @OptionGroup var input: InputOptions

    @Option(name: .customLong("recording"), help: ArgumentHelp("Only the recording with this id (repeat for more), with one dataset folder.", valueName: "ID"))
    var recordings: [String] = []

    @Option(name: .customLong("max-mape"), help: ArgumentHelp("Fail when the step MAPE (%) is above X.", valueName: "X"))
    var maxMAPE: Double?

    @Option(name: .customLong("max-worst"), help: ArgumentHelp("Fail when any recording's |step error| (%) is above X.", valueName: "X"))
    var maxWorst: Double?

    @Option(name: .customLong("min-f1"), help: ArgumentHelp("Fail when the step-by-step F1 (%: counted steps matched one by one to reference steps within 0.3 s) is below X.", valueName: "X"))
    var minF1: Double?

    @Option(name: .customLong("max-distance-error"), help: ArgumentHelp("Fail when the median |distance error| (%) is above X.", valueName: "X"))
    var maxDistance: Double?

    @Option(name: .customLong("max-group-mape"), help: ArgumentHelp("Fail when the step MAPE (%) of the recordings of GROUP is above X (repeat for more groups; the groups are those the report lists: Oxford's carry positions, WeAllWalk's long-cane, guide-dog and none).", valueName: "GROUP=X"))
    var maxGroupMAPE: [String] = []

    @Option(name: .customLong("max-live-gap"), help: ArgumentHelp("Also count every recording live (what a session counts) and fail when the live MAPE is more than X points above the offline one (offline mode only).", valueName: "X"))
    var maxLiveGap: Double?

    @Option(name: .customLong("pair-by"), help: ArgumentHelp("Compare the step counts of the recordings that share this metadata value (devices worn at once; sp-sw-har: execution) instead of scoring against reference steps.", valueName: "KEY"))
    var pairBy: String?

    @Option(name: .customLong("within"), help: ArgumentHelp("With --pair-by: count only the steps inside these labels (comma-separated), each widened by 0.3 s; all steps without it.", valueName: "LABELS"))
    var within: String?

    @Option(name: .customLong("max-spread"), help: ArgumentHelp("With --pair-by: fail when the counts within a group lie more than X steps apart, averaged over the groups (largest minus smallest count).", valueName: "X"))
    var maxSpread: Double?

    @Flag(name: .customLong("allow-skipped"), help: "Exit 0 even when some recordings could not be scored (they are still listed with their reason).")
    var allowSkipped = false

    @Flag(name: .customLong("platform-counter"), help: "Use the recording's platform step-counter stream instead of the accelerometer when it has one.")
    var platformCounter = false

    @Option(name: .customLong("step-mode"), help: ArgumentHelp("Step counter: offline (the whole file: the live pedometer and a zero-phase detector on vertical acceleration, each walking bout from the more regular, single steps mended with the other) or live (what a session counts: the pedometer's steps, each checked against a live vertical detector a few seconds later).", valueName: "MODE"))
    var stepMode: StepMode = .offline

    @Option(name: .customLong("resample"), help: ArgumentHelp("Count each recording as a device sampling its accelerometer and gyroscope at HZ would have recorded it (low-passed at 0.4 × HZ first when HZ is below the recording's rate): how the counters hold at other rates (10–400 Hz).", valueName: "HZ"))
    var resampleHz: Double?

    @Option(name: .customLong("grid-phase"), help: ResampleOption.gridPhaseHelp)
    var gridPhase: Double?

    @Option(name: .customLong("steps-from"), help: ArgumentHelp("Judge the steps in FILE instead of counting them: another detector's steps scored as Motus's are (CSV with the header recording,time_s and one row per step, the recording's id as this report names it and the time in s on its clock; a row with no time says the detector found none there; a recording with no row is skipped).", valueName: "FILE"))
    var stepsFrom: String?

    @Flag(help: "Also time the pedometer alone (per-sample update cost, from memory; build with -c release for real figures).")
    var timing = false

    @Option(help: "Output format: table or json.")
    var format: ReportFormat = .table

    @Option(help: ArgumentHelp("Also draw counted and true steps per recording: FILE.svg or FILE.png.", valueName: "FILE"))
    var plot: String?

    func validate() throws {
        for (v, n) in [(maxMAPE, "--max-mape"), (maxWorst, "--max-worst"), (maxDistance, "--max-distance-error"), (maxLiveGap, "--max-live-gap"), (minF1, "--min-f1")] {
            if let v, !(v >= 0 && v.isFinite) { throw ValidationError("\(n) must be a percentage ≥ 0, not \(v)") }
        }
        try ResampleOption.validate(resampleHz)
        try ResampleOption.validate(gridPhase: gridPhase, resampleHz: resampleHz)
        if resampleHz != nil && platformCounter {
            throw ValidationError("--resample changes the inertial streams' rate; the platform step counter has none: drop --platform-counter")
        }
        if maxLiveGap != nil && (stepMode != .offline || platformCounter) {
            throw ValidationError("--max-live-gap compares the live count with the offline one: it needs --step-mode offline and no --platform-counter")
        }
        _ = try groupBars()
        if let v = maxSpread, !(v >= 0 && v.isFinite) { throw ValidationError("--max-spread must be a number of steps ≥ 0, not \(v)") }
        if pairBy == nil {
            for (set, n) in [(within != nil, "--within"), (maxSpread != nil, "--max-spread")] where set {
                throw ValidationError("\(n) goes with --pair-by KEY (the metadata value that pairs devices worn at once)")
            }
        } else {
            if pairBy!.isEmpty { throw ValidationError("--pair-by needs a metadata key, such as execution") }
            let reference: [(Bool, String)] = [(maxMAPE != nil, "--max-mape"), (maxWorst != nil, "--max-worst"), (minF1 != nil, "--min-f1"),
                                               (maxDistance != nil, "--max-distance-error"), (!maxGroupMAPE.isEmpty, "--max-group-mape"),
                                               (maxLiveGap != nil, "--max-live-gap"), (plot != nil, "--plot"),
                                               (platformCounter, "--platform-counter"), (timing, "--timing")]
            for (set, n) in reference where set {
                throw ValidationError("\(n) scores against reference steps; --pair-by compares devices with each other: give one or the other")
            }
            if let w = within, withinLabels(w).isEmpty { throw ValidationError("--within needs one or more labels, comma-separated, not '\(w)'") }
        }
        if stepsFrom != nil {
            for (set, n) in [(pairBy != nil, "--pair-by"), (platformCounter, "--platform-counter"), (maxLiveGap != nil, "--max-live-gap"), (timing, "--timing")] where set {
                throw ValidationError("--steps-from judges steps counted elsewhere; \(n) needs Motus to count them: give one or the other")
            }
        }
        if let p = plot { try PlotOutput.validate(p, flag: "--plot") }
        if !recordings.isEmpty && paths.count != 1 { throw ValidationError("--recording takes one dataset folder, not \(paths.count) paths") }
    }

    func run() throws {
        if let key = pairBy { return try runPaired(key: key) }
        try Self.reportingErrors {
            var timedNanos: UInt64 = 0, timedSamples = 0
            if let p = plot { try OutputPaths.file(p) }
            let external = try stepsFrom.map(StepTimesFile.read)
            let datasets = try Datasets.open(paths, options: try input.delimitedOptions(), recordings: recordings.isEmpty ? nil : recordings)
            let run = try Evaluation.run(datasets, progress: Datasets.progress("evaluate-steps"), outcome: { e0 -> Evaluation.Outcome<StepEvaluation.Row> in
                let e = resampled(e0)
                if let external, let file = stepsFrom {
                    guard let times = external[e.id] else { return .skipped("no row for it in \(file)") }
                    return StepEvaluation.score(e, steps: times, source: "steps from \(file)")
                }
                if timing, let acc = e.recording.stream(.acceleration) {
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    let n = Pedometer.detect(acc).count
                    timedNanos += DispatchTime.now().uptimeNanoseconds - t0
                    timedSamples += acc.count
                    if n < 0 { print(n) }
                }
                return StepEvaluation.score(e, usePlatformCounter: platformCounter, mode: stepMode)
            })
            let rows = run.rows, skipped = run.skipped
            // One recording chosen by id that cannot be scored is a result (its skipped line),
            // not an error: a run spread over tasks gathers it like any other.
            guard !rows.isEmpty || (!recordings.isEmpty && !skipped.isEmpty) else {
                throw CLIError("no recording with acceleration and step ground truth in \(paths.joined(separator: ", "))\(Datasets.skippedSuffix(skipped))")
            }
            let s = StepEvaluation.summarize(rows)
            let groups = StepEvaluation.summarizeGroups(rows)
            switch format {
            case .json: print(try JSONOutput.encode(Report(stepMode: stepMode, stepsFrom: stepsFrom, resampleHz: resampleHz, gridPhase: gridPhase, recordings: rows, summary: s,
                                                           groups: groups.isEmpty ? nil : groups, skipped: skipped)))
            default: print(Self.table(rows, s, groups, skipped, mode: platformCounter ? .live : stepMode, resampleHz: resampleHz, gridPhase: gridPhase,
                                      stepsFrom: stepsFrom), terminator: "")
            }
            if let p = plot { try PlotOutput.write(EvaluationPlot.steps(rows, summary: s).svg(), to: p) }
            if timing && timedSamples > 0 {
                printError("motus: pedometer update: \(Fmt.f(Double(timedNanos) / Double(timedSamples), 1)) ns per sample over \(timedSamples) samples")
            }
            var failures: [String] = []
            if let external, let file = stepsFrom, recordings.isEmpty {
                // A row for a recording the data sets do not list is a typo or the wrong file.
                let listed = Set(rows.map(\.id)).union(skipped.map(\.id))
                let unknown = external.keys.filter { !listed.contains($0) }.sorted()
                if !unknown.isEmpty {
                    failures.append("\(file) has steps for \(unknown.count) recording\(unknown.count == 1 ? "" : "s") the data sets do not list: \(unknown.prefix(5).joined(separator: ", "))\(unknown.count > 5 ? ", …" : "")")
                }
            }
            if let gap = maxLiveGap {
                // The same recordings again, counted as a live session counts them.
                let live = try Evaluation.run(try Datasets.open(paths, options: try input.delimitedOptions(), recordings: recordings.isEmpty ? nil : recordings),
                                              progress: Datasets.progress("evaluate-steps (live)"), outcome: { e in
                    StepEvaluation.score(resampled(e), mode: .live)
                })
                let l = StepEvaluation.summarize(live.rows)
                let d = l.mape - s.mape
                printError("motus: live step MAPE \(Fmt.f(l.mape, 2)) %, offline \(Fmt.f(s.mape, 2)) %: live \(Fmt.f(Swift.abs(d), 2)) points \(d > 0 ? "above" : "below") offline")
                if d > gap {
                    failures.append("live step MAPE \(Fmt.f(l.mape, 2)) % is \(Fmt.f(d, 2)) points above offline \(Fmt.f(s.mape, 2)) % > \(Fmt.f(gap, 2))")
                }
            }
            if let m = maxMAPE, s.mape > m { failures.append("step MAPE \(Fmt.f(s.mape, 2)) % > \(Fmt.f(m, 2)) %") }
            if let m = minF1, s.match.f1Percent < m { failures.append("step-by-step F1 \(Fmt.f(s.match.f1Percent, 2)) % < \(Fmt.f(m, 2)) %") }
            for (name, m) in try groupBars() {
                if let g = groups.first(where: { $0.group == name }) {
                    if g.summary.mape > m { failures.append("step MAPE of \(name) \(Fmt.f(g.summary.mape, 2)) % > \(Fmt.f(m, 2)) %") }
                } else {
                    let known = groups.isEmpty ? "the recordings have no groups" : "groups: " + groups.map(\.group).joined(separator: ", ")
                    failures.append("no recording of group '\(name)' to check --max-group-mape (\(known))")
                }
            }
            if let m = maxWorst, s.worstAbsErrorPercent > m {
                failures.append("worst |step error| \(Fmt.f(s.worstAbsErrorPercent, 2)) % (\(s.worstID ?? "?")) > \(Fmt.f(m, 2)) %")
            }
            if let m = maxDistance {
                if let d = s.distanceMedianAbsErrorPercent {
                    if d > m { failures.append("median |distance error| \(Fmt.f(d, 2)) % > \(Fmt.f(m, 2)) %") }
                } else { failures.append("no recording with a course and a height to check --max-distance-error") }
            }
            if !skipped.isEmpty && !allowSkipped { failures.append(Datasets.skippedFailure(skipped)) }
            if !failures.isEmpty { throw CLIError("bar failed: " + failures.joined(separator: "; ")) }
        }
    }

    /// The labels `--within` names (comma-separated, blanks trimmed, empty names left out).
    func withinLabels(_ text: String) -> Set<String> {
        Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// `--pair-by KEY`: each recording's count, grouped by its metadata value (StepAgreement).
    func runPaired(key: String) throws {
        try Self.reportingErrors {
            let labels = within.map(withinLabels) ?? []
            let datasets = try Datasets.open(paths, options: try input.delimitedOptions(), recordings: recordings.isEmpty ? nil : recordings)
            let run = try Evaluation.run(datasets, progress: Datasets.progress("evaluate-steps"), outcome: { e in
                StepAgreement.count(resampled(e), key: key, labels: labels, mode: stepMode)
            })
            var skipped = run.skipped
            let (groups, unpaired) = StepAgreement.group(run.rows)
            skipped += unpaired.map { Evaluation.Skipped(id: $0.id, reason: "no other recording with \(key) '\($0.key)'") }
            guard !groups.isEmpty else {
                throw CLIError("no two recordings share a value of '\(key)' in \(paths.joined(separator: ", "))\(Datasets.skippedSuffix(skipped))")
            }
            let s = StepAgreement.summarize(groups)
            switch format {
            case .json: print(try JSONOutput.encode(PairedReport(stepMode: stepMode, resampleHz: resampleHz, gridPhase: gridPhase, pairBy: key,
                                                                 within: labels.sorted(), groups: groups, summary: s, skipped: skipped)))
            default: print(Self.pairedTable(groups, s, skipped, key: key, labels: labels, mode: stepMode, resampleHz: resampleHz, gridPhase: gridPhase), terminator: "")
            }
            var failures: [String] = []
            if let m = maxSpread, s.meanSpreadSteps > m {
                failures.append("counts of one \(key) \(Fmt.f(s.meanSpreadSteps, 2)) steps apart on average > \(Fmt.f(m, 2))")
            }
            if !skipped.isEmpty && !allowSkipped { failures.append(Datasets.skippedFailure(skipped)) }
            if !failures.isEmpty { throw CLIError("bar failed: " + failures.joined(separator: "; ")) }
        }
    }

    struct PairedReport: Encodable {
        var stepMode: StepMode
        /// The rate every recording was resampled to (`--resample`), absent without it.
        var resampleHz: Double?
        /// The grid's shift in periods (`--grid-phase`), absent without it.
        var gridPhase: Double?
        /// The metadata key the recordings are grouped by.
        var pairBy: String
        /// The labels steps are counted inside (empty: every step).
        var within: [String]
        var groups: [StepAgreement.Group]
        var summary: StepAgreement.Summary
        var skipped: [Evaluation.Skipped]
    }

    static func pairedTable(_ groups: [StepAgreement.Group], _ s: StepAgreement.Summary, _ skipped: [Evaluation.Skipped],
                            key: String, labels: Set<String>, mode: StepMode, resampleHz: Double?, gridPhase: Double? = nil) -> String {
        var t = [[key, "recordings: counted steps", "spread", "spread %"]]
        for g in groups {
            t.append([g.key, g.counts.map { "\($0.id) \($0.countedSteps)" }.joined(separator: ", "), "\(g.spread)", Fmt.f(g.spreadPercent, 1)])
        }
        var out = Fmt.table(t)
        let rate = ResampleOption.describe(resampleHz, gridPhase: gridPhase)
        let inside = labels.isEmpty ? "every step" : "steps inside " + labels.sorted().joined(separator: ", ") + " (widened by 0.3 s)"
        out += "\n\(s.groups) groups of recordings with the same \(key), \(s.recordings) recordings; \(inside) (\(mode.rawValue) step counter\(rate))\n"
        out += "spread (largest − smallest count): mean \(Fmt.f(s.meanSpreadSteps, 2)) steps, \(Fmt.f(s.meanSpreadPercent, 1)) % of their mean, worst \(Fmt.f(s.worstSpreadPercent, 1)) % (\(s.worstKey ?? "-")); equal \(s.equal), within one step \(s.withinOne)\n"
        out += Datasets.skippedLines(skipped)
        return out
    }

    /// The `--max-group-mape` bars as (group, X), in the order given.
    func groupBars() throws -> [(name: String, value: Double)] {
        try NamedValues.parse(maxGroupMAPE, accept: { $0 >= 0 && $0.isFinite }) {
            ValidationError("--max-group-mape takes GROUP=X with X a percentage ≥ 0, not '\($0)'")
        }
    }

    /// The recording as `--resample` asks (unchanged without it).
    func resampled(_ e: EvaluationRecording) -> EvaluationRecording {
        resampleHz.map { e.resampledAsDevice(rateHz: $0, gridPhase: gridPhase ?? 0) } ?? e
    }

    struct Report: Encodable {
        var stepMode: StepMode
        /// The file whose steps were judged (`--steps-from`), absent when Motus counted them.
        var stepsFrom: String?
        /// The rate every recording was resampled to (`--resample`), absent without it.
        var resampleHz: Double?
        /// The grid's shift in periods (`--grid-phase`), absent without it.
        var gridPhase: Double?
        var recordings: [StepEvaluation.Row]
        var summary: StepEvaluation.Summary
        /// The summary per group (`StepEvaluation.Row.group`), absent when no recording has one.
        var groups: [StepEvaluation.GroupSummary]?
        var skipped: [Evaluation.Skipped]
    }

    /// The step-by-step comparison's summary line (`StepMatch`).
    static func matchLine(_ m: StepMatch) -> String {
        "steps matched within \(Fmt.f(StepMatch.toleranceSeconds, 1)) s: precision \(Fmt.f(m.precisionPercent, 2)) %, recall \(Fmt.f(m.recallPercent, 2)) %, F1 \(Fmt.f(m.f1Percent, 2)) %; "
            + "missed \(m.missed) (\(m.missedAtEnds) at a walk's ends, \(m.missedInTurns) in turns), "
            + "extra \(m.extra) (\(m.extraAtEnds) at a walk's ends, \(m.extraInTurns) in turns)\n"
    }

    static func table(_ rows: [StepEvaluation.Row], _ s: StepEvaluation.Summary, _ groups: [StepEvaluation.GroupSummary],
                      _ skipped: [Evaluation.Skipped], mode: StepMode, resampleHz: Double? = nil, gridPhase: Double? = nil,
                      stepsFrom: String? = nil) -> String {
        var t = [["recording", "placement", "true", "counted", "error %", "outside t/c", "height m", "distance m", "course m", "dist err %"]]
        for r in rows {
            let outside = r.trueStepsOutside.map { "\($0)/\(r.countedStepsOutside ?? 0)" } ?? "-"
            t.append([r.id, r.placement ?? "-", "\(r.trueSteps)", "\(r.countedSteps)", Fmt.f(r.errorPercent, 2), outside,
                      r.heightMeters.map { Fmt.f($0, 2) } ?? "-", r.distanceMeters.map { Fmt.f($0, 2) } ?? "-",
                      r.courseMeters.map { Fmt.f($0, 0) } ?? "-", r.distanceErrorPercent.map { Fmt.f($0, 2) } ?? "-"])
        }
        var out = Fmt.table(t)
        let rate = ResampleOption.describe(resampleHz, gridPhase: gridPhase)
        let counter = stepsFrom.map { "steps from \($0)" } ?? "\(mode.rawValue) step counter"
        out += "\n\(s.recordings) recordings, \(s.trueSteps) true steps, \(s.countedSteps) counted (\(counter)\(rate))\n"
        out += "step error: MAPE \(Fmt.f(s.mape, 2)) %, median \(Fmt.f(s.medianAbsErrorPercent, 2)) %, worst \(Fmt.f(s.worstAbsErrorPercent, 2)) % (\(s.worstID ?? "-"))\n"
        if groups.count > 1 {
            for g in groups {
                let x = g.summary
                let f1 = x.match.comparedAny ? ", step-by-step F1 \(Fmt.f(x.match.f1Percent, 2)) %" : ""
                out += "  \(g.group): \(x.recordings) recording\(x.recordings == 1 ? "" : "s"), MAPE \(Fmt.f(x.mape, 2)) %, median \(Fmt.f(x.medianAbsErrorPercent, 2)) %, worst \(Fmt.f(x.worstAbsErrorPercent, 2)) % (\(x.worstID ?? "-"))\(f1)\n"
            }
        }
        if s.match.comparedAny {
            out += matchLine(s.match)
        }
        if let d = s.distanceMedianAbsErrorPercent {
            out += "distance (height only): median |error| \(Fmt.f(d, 2)) % over \(s.distanceRecordings) recordings\n"
        }
        if s.trueStepsOutsideRecording > 0 {
            let which = rows.filter { $0.trueStepsOutsideRecording > 0 }.map { "\($0.id) \($0.trueStepsOutsideRecording)" }
            out += "not judged: \(s.trueStepsOutsideRecording) reference steps outside their recording's data (\(which.joined(separator: ", ")))\n"
        }
        out += Datasets.skippedLines(skipped)
        return out
    }
}
