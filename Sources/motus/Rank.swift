import ArgumentParser
import Foundation
import Motus

struct Rank: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rank sessions by completion time of a common route.",
        discussion: """
        The route is --route, or else the first session's path. It is cut into checkpoints \
        every --spacing metres; a session finishes when its path passes within --tolerance \
        metres of every checkpoint in order. Sessions that do not are listed as not finished.

        Example: motus rank --route loop.gpx alice.fit bob.fit carol.gpx
        """)

    @Argument(help: "The sessions (FIT, GPX, TCX or .motus).")
    var sessions: [String]

    @Option(help: "The common route (any track file or polyline file). Default: the first session.")
    var route: String?

    @Option(help: ArgumentHelp("Checkpoint spacing along the route in metres.", valueName: "M"))
    var spacing: Double = 250

    @Option(help: ArgumentHelp("How close (m) a session must pass each checkpoint.", valueName: "M"))
    var tolerance: Double = 40

    @Option(help: "Output format: table, json or csv.")
    var format: OutputFormat = .table

    func validate() throws {
        guard !sessions.isEmpty else { throw ValidationError("give at least one session") }
        guard spacing > 0 else { throw ValidationError("--spacing must be positive, not \(spacing)") }
        guard tolerance > 0 else { throw ValidationError("--tolerance must be positive, not \(tolerance)") }
    }

    func run() throws {
        try Self.reportingErrors {
            let tracks = try sessions.map { path in
                let t = try TrackLoader.load(path: path)
                try t.requireTwoPositions(file: path)
                return (name: path, track: t)
            }
            let r = try route.map { path in
                let t = try TrackLoader.load(path: path)
                try t.requireTwoPositions(file: path)
                return t
            } ?? tracks[0].track
            let ranking = RouteRanking(route: r, sessions: tracks, checkpointSpacingMeters: spacing, toleranceMeters: tolerance)
            switch format {
            case .json: print(try JSONOutput.encode(RankJSON(route_length_m: ranking.routeLengthMeters, entries: ranking.entries)))
            case .csv:
                print("rank,session,finished,time_s,behind_s,checkpoints_passed,checkpoints")
                for e in ranking.entries {
                    print("\(e.rank.map(String.init) ?? ""),\(e.name),\(e.finished),\(e.timeSeconds.map { Fmt.f($0, 1) } ?? ""),\(e.behindSeconds.map { Fmt.f($0, 1) } ?? ""),\(e.checkpointsPassed),\(e.checkpoints)")
                }
            case .table:
                print("route: \(route ?? sessions[0]) (\(Fmt.f(ranking.routeLengthMeters / 1000, 2)) km)")
                var rows = [["rank", "session", "time", "behind", "checkpoints"]]
                for e in ranking.entries {
                    rows.append([e.rank.map(String.init) ?? "DNF", e.name, e.timeSeconds.map(clock) ?? "not finished",
                                 e.behindSeconds.map { "+" + clock($0) } ?? "", "\(e.checkpointsPassed)/\(e.checkpoints)"])
                }
                print(Fmt.table(rows, indent: 2), terminator: "")
            }
        }
    }
}

struct RankJSON: Encodable {
    var route_length_m: Double
    var entries: [RouteRanking.Entry]
}
