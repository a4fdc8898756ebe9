import ArgumentParser
import Foundation
import Motus

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two sessions along the way: who leads, by how many seconds and metres.",
        discussion: """
        Both sessions are summarised as by `motus ride` (moving distance from the positions, \
        elapsed time from each session's start) and aligned by distance (every --step metres) \
        or by time (every --step seconds). Positive gaps mean A leads.

        Example: motus compare monday.fit tuesday.gpx --by distance --step 1000
        """)

    @Argument(help: "Session A (FIT, GPX, TCX or .motus).")
    var a: String
    @Argument(help: "Session B.")
    var b: String

    @Option(help: "Align by distance or time.")
    var by: String = "distance"

    @Option(help: ArgumentHelp("Step between marks: metres (by distance, default 1000) or seconds (by time, default 300).", valueName: "N"))
    var step: Double?

    @Option(help: "ride, run or walk (default: from each file's sport, else ride).")
    var activity: String?

    @Option(help: "Output format: table, json or csv.")
    var format: OutputFormat = .table

    func validate() throws {
        guard SessionComparison.Axis(rawValue: by) != nil else { throw ValidationError("--by must be distance or time, not '\(by)'") }
        if let s = step, !(s > 0) { throw ValidationError("--step must be positive, not \(s)") }
        if let a = activity, TrackActivity(rawValue: a) == nil { throw ValidationError("--activity must be ride, run or walk, not '\(a)'") }
    }

    func run() throws {
        try Self.reportingErrors {
            let axis = SessionComparison.Axis(rawValue: by)!
            let sa = try summarise(a), sb = try summarise(b)
            let c = SessionComparison(a: sa, b: sb, axis: axis, step: step ?? (axis == .distance ? 1000 : 300))
            switch format {
            case .json: print(try JSONOutput.encode(CompareJSON(a: a, b: b, comparison: c)))
            case .csv:
                print("at,time_a_s,time_b_s,distance_a_m,distance_b_m,leader,gap_s,gap_m")
                for m in c.marks {
                    print([Fmt.f(m.at, 1), Fmt.f(m.timeA, 1), Fmt.f(m.timeB, 1), Fmt.f(m.distanceA, 1), Fmt.f(m.distanceB, 1), m.leader,
                           Fmt.f(m.gapSeconds, 1), Fmt.f(m.gapMeters, 1)].joined(separator: ","))
                }
            case .table:
                print("A: \(a)\nB: \(b)")
                var rows = [[axis == .distance ? "km" : "time", "A time", "B time", "A km", "B km", "leader", "gap s", "gap m"]]
                for m in c.marks {
                    rows.append([axis == .distance ? Fmt.f(m.at / 1000, 2) : clock(m.at), clock(m.timeA), clock(m.timeB), Fmt.f(m.distanceA / 1000, 2),
                                 Fmt.f(m.distanceB / 1000, 2), m.leader, Fmt.f(abs(m.gapSeconds), 0), Fmt.f(abs(m.gapMeters), 0)])
                }
                print(Fmt.table(rows, indent: 2), terminator: "")
            }
        }
    }

    func summarise(_ path: String) throws -> TrackSummary {
        try RideSummary.summarize(path: path, options: RideOptions(activity: activity.flatMap(TrackActivity.init(rawValue:)))).summary
    }
}

struct CompareJSON: Encodable {
    var a: String, b: String, by: String, step: Double, common_length: Double
    var marks: [SessionComparison.Mark]
    init(a: String, b: String, comparison c: SessionComparison) {
        self.a = a; self.b = b; by = c.axis.rawValue; step = c.step; common_length = c.commonLength; marks = c.marks
    }
}
