import ArgumentParser
import Foundation
import Motus
import MotusPlot

struct Route: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise a route: distance, elevation gain and loss, grades, highest point.",
        discussion: """
        Takes a GPX route or track, a FIT or TCX file, a polyline file (.polyline, .polyline6) \
        or an encoded polyline given as text. Elevation gain uses a 5 m dead band; the raw sum \
        and BRouter's 10 m rule are printed beside it.

        Examples:
          motus route trek.gpx --profile trek.csv --plot trek.svg
          motus route trek.gpx --profile - | head
          motus route '_p~iF~ps|U_ulLnnqC_mqNvxq`@' --precision 5
        """)

    @Argument(help: "A route file, or an encoded polyline.")
    var input: String

    @Option(help: "Polyline precision: 5 (Google) or 6 (OSRM, Valhalla). Default: 6 for *.polyline6, else 5.")
    var precision: Int?

    @Option(name: .customLong("grade-step"), help: ArgumentHelp("Distance step of the grade profile in metres.", valueName: "M"))
    var gradeStep: Double = 100

    @Option(help: ArgumentHelp("Write the profile (distance_m, elevation_m, grade_percent) as CSV; - for standard output (the summary then goes to standard error).", valueName: "out.csv"))
    var profile: String?

    @Option(help: ArgumentHelp("Draw elevation and grade against distance over the whole route, stretches without elevation hatched: FILE.svg or FILE.png.", valueName: "FILE"))
    var plot: String?

    @Option(help: "Output format: table, json or csv.")
    var format: OutputFormat = .table

    func validate() throws {
        if let p = precision, !(1...9).contains(p) { throw ValidationError("--precision must be 5 or 6 (1 to 9), not \(p)") }
        guard gradeStep > 0 else { throw ValidationError("--grade-step must be a positive number of metres, not \(gradeStep)") }
        if let p = plot { try PlotOutput.validate(p, flag: "--plot") }
    }

    func run() throws {
        try Self.reportingErrors {
            let track: Track
            if input == "-" || FileManager.default.fileExists(atPath: input) {   // - is standard input
                if let p = precision, try TrackLoader.detect(path: input) == .polyline { track = try Polyline.readTrack(path: input, precision: p) }
                else { track = try TrackLoader.load(path: input) }
            } else if input.utf8.allSatisfy({ $0 >= 63 && $0 <= 126 }) && !input.isEmpty {
                track = try Polyline.track(text: input, precision: precision ?? 5)
            } else {
                throw InputError(.unreadable, at: SourceLocation(file: input), found: "no such file", expected: "a route file or an encoded polyline")
            }
            try track.requireTwoPositions(file: input == "-" ? InputSpool.standardInputName : FileManager.default.fileExists(atPath: input) ? input : "polyline")
            let s = RouteSummary(track: track, gradeStepMeters: gradeStep)
            // `--profile -`: the profile is standard output, so the summary goes to stderr.
            let profileToStdout = profile == "-"
            if let p = profile, !profileToStdout { try OutputPaths.file(p) }
            if let p = plot { try OutputPaths.file(p) }
            if let p = profile, !profileToStdout, !GeoFilesCLI.write(s.profile.csv, p) { throw CLIError("cannot write \(p)") }
            // Points without elevation leave the profile, the gain and the grades silent over
            // their stretch: say where, once, on stderr.
            let name = FileManager.default.fileExists(atPath: input) ? (input as NSString).lastPathComponent : "polyline"
            if s.pointsWithElevation > 0 { for n in RoutePlot.gapNotes(s) { printError("motus: \(name): \(n)") } }
            if let p = plot { try PlotOutput.write(RoutePlot.chart(s, name: name).svg(), to: p) }
            var report = ""
            switch format {
            case .json: report = try JSONOutput.encode(RouteJSON(s)) + "\n"
            case .csv:
                let j = RouteJSON(s)
                report = "distance_m,elevation_gain_m,elevation_loss_m,average_grade_percent,max_grade_percent,highest_point_m,points\n"
                report += [j.distance_m, j.elevation_gain_m, j.elevation_loss_m, j.average_grade_percent, j.max_grade_percent, j.highest_point_m ?? .nan]
                    .map { $0.isNaN ? "" : Fmt.f($0, 2) }.joined(separator: ",") + ",\(j.points)\n"
            case .table: report = Self.table(s, source: track.source)
            }
            if profileToStdout {
                print(s.profile.csv, terminator: "")
                FileHandle.standardError.write(Data(report.utf8))
            } else {
                print(report, terminator: "")
            }
        }
    }

    static func table(_ s: RouteSummary, source: String) -> String {
        var rows = [["", "motus", "file says"]]
        rows.append(["distance km", Fmt.f(s.distanceMeters / 1000, 3), s.reference.distanceMeters.map { Fmt.f($0 / 1000, 3) } ?? "-"])
        rows.append(["points (with elevation)", "\(s.points) (\(s.pointsWithElevation))", ""])
        if s.pointsWithElevation > 0 {
            for g in s.elevationGaps {
                rows.append(["  no elevation km", "\(Fmt.f(g.startMeters / 1000, 2))–\(Fmt.f(g.endMeters / 1000, 2)) (\(g.points) points)", ""])
            }
        }
        if s.pointsWithElevation > 0 {
            rows.append(["elevation gain m (5 m band)", Fmt.f(s.elevation.motus.gainMeters, 0), s.reference.ascentMeters.map { Fmt.f($0, 0) } ?? "-"])
            rows.append(["elevation loss m (5 m band)", Fmt.f(s.elevation.motus.lossMeters, 0), s.reference.descentMeters.map { Fmt.f($0, 0) } ?? "-"])
            rows.append(["  raw sum gain / loss m", "\(Fmt.f(s.elevation.raw.gainMeters, 0)) / \(Fmt.f(s.elevation.raw.lossMeters, 0))", ""])
            rows.append(["  10 m dip buffer gain / loss m", "\(Fmt.f(s.elevation.dipBuffer10m.gainMeters, 0)) / \(Fmt.f(s.elevation.dipBuffer10m.lossMeters, 0))", ""])
            rows.append(["average grade % (net)", Fmt.f(s.averageGradePercent, 2), ""])
            rows.append(["average climbing grade %", Fmt.f(s.averageClimbGradePercent, 2), ""])
            rows.append(["max / min grade % (per \(Fmt.f(s.profile.stepMeters, 0)) m)", "\(Fmt.f(s.maxGradePercent, 1)) / \(Fmt.f(s.minGradePercent, 1))", ""])
            if let h = s.highestPoint {
                rows.append(["highest point m", "\(Fmt.f(h.elevationMeters, 1)) at km \(Fmt.f(h.distanceMeters / 1000, 2)) (\(Fmt.f(h.latitude, 5)), \(Fmt.f(h.longitude, 5)))", ""])
            }
            if let l = s.lowestPoint { rows.append(["lowest point m", "\(Fmt.f(l.elevationMeters, 1)) at km \(Fmt.f(l.distanceMeters / 1000, 2))", ""]) }
        }
        return "\(source)\n" + Fmt.table(rows, indent: 2)
    }
}

struct RouteJSON: Encodable {
    var points: Int
    var points_with_elevation: Int
    var distance_m: Double
    var elevation_gain_m: Double
    var elevation_loss_m: Double
    var average_grade_percent: Double
    var average_climb_grade_percent: Double
    var max_grade_percent: Double
    var min_grade_percent: Double
    var highest_point_m: Double?
    var highest_point: RouteSummary.Landmark?
    var lowest_point: RouteSummary.Landmark?
    var elevation_rules: ElevationReport
    var reference: DeviceSummary
    /// Stretches whose points have no elevation (m along the route).
    var elevation_gaps: [RouteSummary.ElevationGap]

    init(_ s: RouteSummary) {
        points = s.points; points_with_elevation = s.pointsWithElevation; distance_m = s.distanceMeters
        elevation_gain_m = s.elevation.motus.gainMeters; elevation_loss_m = s.elevation.motus.lossMeters
        average_grade_percent = s.averageGradePercent; average_climb_grade_percent = s.averageClimbGradePercent
        max_grade_percent = s.maxGradePercent; min_grade_percent = s.minGradePercent
        highest_point_m = s.highestPoint?.elevationMeters; highest_point = s.highestPoint; lowest_point = s.lowestPoint
        elevation_rules = s.elevation; reference = s.reference
        elevation_gaps = s.pointsWithElevation > 0 ? s.elevationGaps : []
    }
}

enum GeoFilesCLI {
    static func write(_ text: String, _ path: String) -> Bool {
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }
}
