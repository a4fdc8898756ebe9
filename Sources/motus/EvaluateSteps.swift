import ArgumentParser
import Foundation
import Motus

struct EvaluateSteps: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-steps",
        abstract: "Count steps on labelled walks and compare with their ground truth.",
        discussion: """
        Takes dataset folders (the Oxford step-counter walks, the IPOL gait trials, WeAllWalk) or \
        recordings and folders of recordings with `step` events. For each recording it prints the true and counted steps \
        and the error; for a recording with a known course (IPOL: 20 m) also the distance \
        estimated from the subject's height alone. Recordings with walk labels (IPOL, WeAllWalk) \
        are judged over the annotated walk (steps outside it are shown apart). The summary gives MAPE, median and \
        worst |error|, and the median |distance error|.

        Use the bars in CI: `--max-mape 2 --max-worst 6` exits with status 1 and a one-line \
        message when a bar fails. Example:
          motus evaluate-steps ../shared/datasets/oxford --max-mape 2 --max-worst 6
        """)

    @Argument(help: "Dataset folders or recordings.")
    var paths: [String]

    @Option(name: .customLong("max-mape"), help: ArgumentHelp("Fail when the step MAPE (%) is above X.", valueName: "X"))
    var maxMAPE: Double?

    @Option(name: .customLong("max-worst"), help: ArgumentHelp("Fail when any recording's |step error| (%) is above X.", valueName: "X"))
    var maxWorst: Double?

    @Option(name: .customLong("max-distance-error"), help: ArgumentHelp("Fail when the median |distance error| (%) is above X.", valueName: "X"))
    var maxDistance: Double?

    @Flag(name: .customLong("platform-counter"), help: "Use the recording's platform step-counter stream instead of the accelerometer when it has one.")
    var platformCounter = false

    @Flag(help: "Also time the pedometer alone (per-sample update cost, from memory; build with -c release for real figures).")
    var timing = false

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func validate() throws {
        for (v, n) in [(maxMAPE, "--max-mape"), (maxWorst, "--max-worst"), (maxDistance, "--max-distance-error")] {
            if let v, !(v >= 0 && v.isFinite) { throw ValidationError("\(n) must be a percentage ≥ 0, not \(v)") }
        }
        if format == .csv { throw ValidationError("evaluate-steps prints table or json, not csv") }
    }

    func run() throws {
        try Self.reportingErrors {
            var timedNanos: UInt64 = 0, timedSamples = 0
            let datasets = try Datasets.open(paths)
            let run = try Evaluation.run(datasets, progress: Datasets.progress("evaluate-steps")) { e -> StepEvaluation.Row? in
                if timing, let acc = e.recording.stream(.acceleration) {
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    let n = Pedometer.detect(acc).count
                    timedNanos += DispatchTime.now().uptimeNanoseconds - t0
                    timedSamples += acc.count
                    if n < 0 { print(n) }
                }
                return StepEvaluation.evaluate(e, usePlatformCounter: platformCounter)
            }
            let rows = run.rows, skipped = run.skipped
            guard !rows.isEmpty else { throw CLIError("no recording with acceleration and step ground truth in \(paths.joined(separator: ", "))") }
            let s = StepEvaluation.summarize(rows)
            switch format {
            case .json: print(try JSONOutput.encode(Report(recordings: rows, summary: s, skipped: skipped)))
            default: print(Self.table(rows, s, skipped), terminator: "")
            }
            if timing && timedSamples > 0 {
                printError("motus: pedometer update: \(Fmt.f(Double(timedNanos) / Double(timedSamples), 1)) ns per sample over \(timedSamples) samples")
            }
            var failures: [String] = []
            if let m = maxMAPE, s.mape > m { failures.append("step MAPE \(Fmt.f(s.mape, 2)) % > \(Fmt.f(m, 2)) %") }
            if let m = maxWorst, s.worstAbsErrorPercent > m {
                failures.append("worst |step error| \(Fmt.f(s.worstAbsErrorPercent, 2)) % (\(s.worstID ?? "?")) > \(Fmt.f(m, 2)) %")
            }
            if let m = maxDistance {
                if let d = s.distanceMedianAbsErrorPercent {
                    if d > m { failures.append("median |distance error| \(Fmt.f(d, 2)) % > \(Fmt.f(m, 2)) %") }
                } else { failures.append("no recording with a course and a height to check --max-distance-error") }
            }
            if !failures.isEmpty { throw CLIError("bar failed: " + failures.joined(separator: "; ")) }
        }
    }

    struct Report: Encodable {
        var recordings: [StepEvaluation.Row]
        var summary: StepEvaluation.Summary
        var skipped: [String]
    }

    static func table(_ rows: [StepEvaluation.Row], _ s: StepEvaluation.Summary, _ skipped: [String]) -> String {
        var t = [["recording", "placement", "true", "counted", "error %", "outside t/c", "height m", "distance m", "course m", "dist err %"]]
        for r in rows {
            let outside = r.trueStepsOutside.map { "\($0)/\(r.countedStepsOutside ?? 0)" } ?? "-"
            t.append([r.id, r.placement ?? "-", "\(r.trueSteps)", "\(r.countedSteps)", Fmt.f(r.errorPercent, 2), outside,
                      r.heightMeters.map { Fmt.f($0, 2) } ?? "-", r.distanceMeters.map { Fmt.f($0, 2) } ?? "-",
                      r.courseMeters.map { Fmt.f($0, 0) } ?? "-", r.distanceErrorPercent.map { Fmt.f($0, 2) } ?? "-"])
        }
        var out = Fmt.table(t)
        out += "\n\(s.recordings) recordings, \(s.trueSteps) true steps, \(s.countedSteps) counted\n"
        out += "step error: MAPE \(Fmt.f(s.mape, 2)) %, median \(Fmt.f(s.medianAbsErrorPercent, 2)) %, worst \(Fmt.f(s.worstAbsErrorPercent, 2)) % (\(s.worstID ?? "-"))\n"
        if let d = s.distanceMedianAbsErrorPercent {
            out += "distance (height only): median |error| \(Fmt.f(d, 2)) % over \(s.distanceRecordings) recordings\n"
        }
        if !skipped.isEmpty { out += "skipped (no acceleration or no step events): \(skipped.joined(separator: ", "))\n" }
        return out
    }
}
