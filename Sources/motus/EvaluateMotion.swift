import ArgumentParser
import Foundation
import Motus

struct EvaluateMotion: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-motion",
        abstract: "Judge the session's moving/still events on still → walk → still trials.",
        discussion: """
        Runs a tracking session (`motus track`'s) over each recording with still and moving \
        labels, still → moving → still as in the IPOL trials (any dataset with --map), and prints, per trial, how late the session reported \
        the pause after the true stop (decision time) and where it dated the resume against the \
        true start, their decision latencies, how many true steps (the recording's step events) \
        had been taken when the resume was decided, false pauses inside the walk, and \
        provisional resumes retracted (cause firstSteps, then unconfirmed: the pedometer did not \
        confirm a walk; they add no moving time and are not counted as resumes or pauses). The \
        summary gives medians and 90th percentiles.

        Without step events in the recording (sp-sw-har), the true steps up to the decision are \
        estimated at the trial's own cadence (the median interval of the steps the session \
        counted while moving), the first step at the true start; the table marks them with ~.

        Bars for CI: each one that fails prints a one-line message and exits with status 1. \
        `--max-pause-median` and `--max-pause-p90` apply to the pause decision latency, \
        `--max-resume-median` to the median of |resume time − true start| (a resume dated early \
        counts like one dated late), `--max-resume-decision-steps` to the median true steps taken \
        before the resume was decided, `--max-false-pauses` to the pauses dated inside the moving \
        span (with --map moving=WALKING,TURNING, a pause while turning is one); any false pause \
        fails unless `--allow-false-pauses` or `--max-false-pauses` says otherwise. A recording that \
        starts moving (no still label before the first moving one) is judged for its false pauses and \
        its pause, its resume shown n/j and left out of the resume figures. A walk with reference \
        steps and no still label is judged for its false pauses only: WeAllWalk's paths, and \
        Oxford's walks, which have no labels at all (their moving span runs from the first \
        reference step to the last). A pause where the reference steps are at least \
        \(Fmt.f(MotionEvaluation.standingGap, 1)) s apart around it is the person standing, and one \
        whose stillness overlaps an incident the annotators marked (WeAllWalk: a walker stopping to \
        side-step) is the walk interrupted: neither is false (both counted apart). A recording that cannot be judged (no moving \
        label, or neither a still label nor reference steps, or set aside by its dataset because \
        a file is missing) is listed with its reason and fails the run unless `--allow-skipped`. \
        Example:
          motus evaluate-motion ../shared/datasets/ipol --max-pause-median 1.5 --max-pause-p90 2.5 --max-resume-median 1 --max-resume-decision-steps 2
        Datasets with other labels name them with --map, e.g. sp-sw-har (seated, stand up, walk, \
        turn, sit down):
          motus evaluate-motion ../shared/datasets/sp-sw-har --map still=SEATED --map moving=WALKING,TURNING \
            --max-resume-median 0.5 --max-resume-decision-steps 2 --max-false-pauses 0
        A label the map does not name (STANDING_UP, SITTING_DOWN above) is not judged: the true \
        start is the first moving label, and the resume is measured against it.

        --recording ID judges one recording of a dataset folder with the dataset's context, its \
        row as the whole run gives it (`motus features --list-recordings` lists the ids); a \
        recording that cannot be judged is then reported (JSON: under "skipped") rather than an \
        error. Its JSON also carries "exact": {"trials": the rows with every number as computed}, \
        from which the medians and 90th percentiles of many such runs pool to the whole run's. \
        scale/motus_dask.py spreads a run over a Dask cluster that way.
        """)

    @Argument(help: "Dataset folders or recordings.")
    var paths: [String]

    @OptionGroup var input: InputOptions

    @Option(name: .customLong("recording"), help: ArgumentHelp("Only the recording with this id (repeat for more), with one dataset folder.", valueName: "ID"))
    var recordings: [String] = []

    @Option(help: "Model file (default: the shipped moving-vs-still model).")
    var model: String?

    @Option(name: .customLong("max-pause-median"), help: ArgumentHelp("Fail when the median pause latency (s) is above S.", valueName: "S"))
    var maxPauseMedian: Double?

    @Option(name: .customLong("max-pause-p90"), help: ArgumentHelp("Fail when the 90th percentile pause latency (s) is above S.", valueName: "S"))
    var maxPauseP90: Double?

    @Option(name: .customLong("max-resume-median"), help: ArgumentHelp("Fail when the median of |resume time − true start| (s) is above S (early counts like late).", valueName: "S"))
    var maxResumeMedian: Double?

    @Option(name: .customLong("max-resume-decision-steps"), help: ArgumentHelp("Fail when the resume is decided after a median of more than N true steps (trials with step events).", valueName: "N"))
    var maxResumeDecisionSteps: Double?

    @Option(name: .customLong("max-false-pauses"), help: ArgumentHelp("Fail when more than N pauses are dated inside the moving span, over all trials (default 0 unless --allow-false-pauses).", valueName: "N"))
    var maxFalsePauses: Int?

    @Flag(name: .customLong("allow-false-pauses"), help: "Do not fail on false pauses inside a walk.")
    var allowFalsePauses = false

    @Flag(name: .customLong("allow-skipped"), help: "Exit 0 even when some recordings could not be judged (they are still listed with their reason).")
    var allowSkipped = false

    @Option(name: .customLong("map"), help: ArgumentHelp("Which labels are still and which moving: still=LABEL,LABEL… and moving=LABEL,LABEL… (labels not named are left out). Without it 'still' is still and every other label moving.", valueName: "CLASS=LABELS"))
    var maps: [String] = []

    @Option(help: "Output format: table or json.")
    var format: ReportFormat = .table

    /// `--map still=…` and `--map moving=…` as label → class.
    static func labelMap(_ maps: [String]) throws -> [String: String]? {
        guard !maps.isEmpty else { return nil }
        let m = try LabelMap(parsing: maps)
        guard Set(m.classes).isSubset(of: ["still", "moving"]), m.classes.contains("still") else {
            throw CLIError("--map takes still=LABELS and moving=LABELS, not classes \(m.classes)")
        }
        return m.classOfLabel.mapValues { m.classes[$0] }
    }

    func validate() throws {
        for (v, n) in [(maxPauseMedian, "--max-pause-median"), (maxPauseP90, "--max-pause-p90"), (maxResumeMedian, "--max-resume-median"), (maxResumeDecisionSteps, "--max-resume-decision-steps")] {
            if let v, !(v.isFinite) { throw ValidationError("\(n) must be a finite number, not \(v)") }
        }
        if let n = maxFalsePauses {
            if n < 0 { throw ValidationError("--max-false-pauses must be 0 or more, not \(n)") }
            if allowFalsePauses { throw ValidationError("--max-false-pauses and --allow-false-pauses contradict each other: give one") }
        }
        if !recordings.isEmpty && paths.count != 1 { throw ValidationError("--recording takes one dataset folder, not \(paths.count) paths") }
    }

    func run() throws {
        try Self.reportingErrors {
            let m = try DefaultModel.load(model)
            let labelMap = try Self.labelMap(maps)
            let datasets = try Datasets.open(paths, options: try input.delimitedOptions(), recordings: recordings.isEmpty ? nil : recordings)
            let run = try Evaluation.run(datasets, skipReason: MotionEvaluation.unjudgedReason, progress: Datasets.progress("evaluate-motion")) { e in
                do { return try MotionEvaluation.evaluate(e, labelMap: labelMap, model: m) } catch { throw CLIError("\(error)") }
            }
            let rows = run.rows, skipped = run.skipped
            // One recording chosen by id that cannot be judged is a result (its skipped line),
            // not an error: a run spread over tasks gathers it like any other.
            guard !rows.isEmpty || (!recordings.isEmpty && !skipped.isEmpty) else {
                throw CLIError("no recording labelled still and moving in \(paths.joined(separator: ", "))")
            }
            let s = MotionEvaluation.summarize(rows)
            switch format {
            case .json where !recordings.isEmpty:
                print(try JSONOutput.encode(Report(trials: rows, summary: s, skipped: skipped), exact: ["trials": rows]))
            case .json: print(try JSONOutput.encode(Report(trials: rows, summary: s, skipped: skipped)))
            default: print(Self.table(rows, s, skipped), terminator: "")
            }
            var failures: [String] = []
            if let b = maxPauseMedian, !(s.pauseMedian <= b) { failures.append("median pause latency \(Fmt.f(s.pauseMedian, 2)) s > \(Fmt.f(b, 2)) s") }
            if let b = maxPauseP90, !(s.pauseP90 <= b) { failures.append("p90 pause latency \(Fmt.f(s.pauseP90, 2)) s > \(Fmt.f(b, 2)) s") }
            if let b = maxResumeMedian, !(s.resumeAbsoluteMedian <= b) { failures.append("median |resume latency| \(Fmt.f(s.resumeAbsoluteMedian, 2)) s > \(Fmt.f(b, 2)) s") }
            if let b = maxResumeDecisionSteps, !(s.resumeDecisionStepsMedian <= b) {
                failures.append("resume decided after a median \(Fmt.f(s.resumeDecisionStepsMedian, 1)) true steps > \(Fmt.f(b, 1))")
            }
            let falsePauseBar = allowFalsePauses ? nil : (maxFalsePauses ?? 0)
            if let b = falsePauseBar, s.falsePauses > b {
                failures.append("\(s.falsePauses) false pause(s) inside walks > \(b) (\(rows.filter { $0.falsePauses > 0 }.map(\.id).joined(separator: ", ")))")
            }
            if !skipped.isEmpty && !allowSkipped { failures.append(Datasets.skippedFailure(skipped)) }
            if !failures.isEmpty { throw CLIError("bar failed: " + failures.joined(separator: "; ")) }
        }
    }

    struct Report: Encodable {
        var trials: [MotionEvaluation.Row]
        var summary: MotionEvaluation.Summary
        var skipped: [Evaluation.Skipped]
    }

    /// The per-trial table, its header first: latencies n/j where not judged, `noSteps` where
    /// the true steps up to the resume are unknown (the text table and the HTML report).
    static func trialCells(_ rows: [MotionEvaluation.Row], noSteps: String) -> [[String]] {
        [["trial", "start s", "stop s", "resume s", "resume decided s", "pause s", "pause dated s", "decided after steps", "false pauses", "false resumes", "retracted", "steps"]]
            + rows.map { r in
                [r.id, Fmt.f(r.trueStart, 2), Fmt.f(r.trueStop, 2), r.resumeJudged ? Fmt.f(r.resumeLatency, 2) : "n/j",
                 r.resumeJudged ? Fmt.f(r.resumeDecisionLatency, 2) : "n/j", r.pauseJudged ? Fmt.f(r.pauseLatency, 2) : "n/j",
                 r.pauseJudged ? Fmt.f(r.pauseEventLatency, 2) : "n/j",
                 r.resumeDecisionSteps.isNaN ? noSteps : (r.resumeDecisionStepsEstimated ? "~" : "") + Fmt.f(r.resumeDecisionSteps, 0),
                 "\(r.falsePauses)", "\(r.falseResumes)", "\(r.retractedResumes)", "\(r.steps)"]
            }
    }

    static func table(_ rows: [MotionEvaluation.Row], _ s: MotionEvaluation.Summary, _ skipped: [Evaluation.Skipped]) -> String {
        Fmt.table(trialCells(rows, noSteps: "—")) + "\n" + summaryLines(s).map { $0 + "\n" }.joined() + Datasets.skippedLines(skipped)
    }

    /// The summary's lines under the per-trial table (the text table and the HTML report).
    static func summaryLines(_ s: MotionEvaluation.Summary) -> [String] {
        var out = ["\(s.trials) trials (latencies after the true start or stop; pause = when reported, resume = when dated)"]
        // No pause or no resume judged (walks with no still label only): no line of NaNs.
        if s.trials > s.pausesNotJudged {
            out.append("pause:  median \(Fmt.f(s.pauseMedian, 2)) s, p90 \(Fmt.f(s.pauseP90, 2)) s (dated: median \(Fmt.f(s.pauseEventMedian, 2)) s)")
        }
        if s.trials > s.resumesNotJudged {
            out.append("resume: median \(Fmt.f(s.resumeMedian, 2)) s (|median| \(Fmt.f(s.resumeAbsoluteMedian, 2)) s), p90 \(Fmt.f(s.resumeP90, 2)) s (decided: median \(Fmt.f(s.resumeDecisionMedian, 2)) s, after a median \(Fmt.f(s.resumeDecisionStepsMedian, 1)) true steps\(s.resumeDecisionStepsEstimated > 0 ? ", estimated from the cadence in \(s.resumeDecisionStepsEstimated) trials" : ""))")
        }
        if s.falsePausesOnly > 0 {
            out.append("\(s.falsePausesOnly) recordings with reference steps and no still label: judged for false pauses only (resume and pause n/j)")
        }
        if s.pausesNotJudged > s.falsePausesOnly {
            out.append("pause not judged (n/j) in \(s.pausesNotJudged - s.falsePausesOnly) trials: no pause before the recording ends, less than \(Fmt.f(MotionEvaluation.minimumStillAfterStop, 1)) s after the stop")
        }
        if s.resumesNotJudged > s.falsePausesOnly {
            out.append("resume not judged (n/j) in \(s.resumesNotJudged - s.falsePausesOnly) trials: no still label before the first moving one (the recording starts moving)")
        }
        out.append("false pauses: \(s.falsePauses) in \(s.trialsWithFalsePause) trials (pauses while the reference steps show standing or in an annotated incident, not false: \(s.pausesInStandingGaps)); false resumes before the start: \(s.falseResumes); provisional resumes retracted: \(s.retractedResumes)")
        return out
    }
}
