import ArgumentParser
import Foundation
import Motus
import MotusPlot

struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a recording and its tracked session, or a ride or route, as SVG or PNG.",
        discussion: """
        A recording: |acceleration| and rotation rate over time, the gravity tilt, the steps the \
        tracking session detected (and the reference steps and events when the recording has \
        them), the moving spans, the pause and resume events with their decision latency, the \
        classifier's probability of moving, and the label segments. The session is the one \
        `motus track` runs, over the whole recording; --from and --to zoom in.

        A ride or run (FIT, GPX or TCX with times): speed, elevation, grade and heart rate \
        against distance, splits marked. A route (no times, or a polyline): elevation and grade. \
        Gaps in the data are drawn as gaps and named in the legend.

        Evaluations draw their own pictures: `motus evaluate … --plot cm.svg`, \
        `motus evaluate-steps … --plot steps.svg`, `motus evaluate-fusion … --plot error.svg`.

        PNG needs `rsvg-convert` on the PATH (Debian: librsvg2-bin). Examples:
          motus plot datasets/lowback-straight-walk.motus --out walk.svg
          motus plot ../shared/datasets/oxford/optimisation/data/<walk> --out oxford.png --from 10 --to 20
          motus plot ../shared/datasets/tracks/fitfiler/garmin-edge530-ride.fit --out ride.svg
        """)

    @Argument(help: "A recording, or a ride or route file (FIT, GPX, TCX, polyline).")
    var path: String

    @Option(help: ArgumentHelp("The picture to write: FILE.svg or FILE.png.", valueName: "FILE"))
    var out: String

    @Option(help: ArgumentHelp("Start of the time shown, in seconds from the first sample.", valueName: "S"))
    var from: Double?

    @Option(help: ArgumentHelp("End of the time shown, in seconds from the first sample.", valueName: "S"))
    var to: Double?

    @Option(help: "Model file for the session (default: the shipped moving-vs-still model).")
    var model: String?

    @Option(help: ArgumentHelp("The person's height in centimetres (stride model).", valueName: "CM"))
    var height: Double?

    @Option(help: "Session mode for a recording: foot or ride.")
    var mode: SessionMode = .foot

    @Option(help: ArgumentHelp("Split distance in metres (rides).", valueName: "M"))
    var split: Double = 1000

    @Option(help: "For a ride or run file: ride, run or walk (default: from the file's sport, else ride).")
    var activity: String?

    @OptionGroup var input: InputOptions

    func validate() throws {
        try PlotOutput.validate(out, flag: "--out")
        for (v, n) in [(from, "--from"), (to, "--to")] { if let v, !(v.isFinite && v >= 0) { throw ValidationError("\(n) must be seconds ≥ 0, not \(v)") } }
        if let f = from, let t = to, !(t > f) { throw ValidationError("--to (\(t)) must be after --from (\(f))") }
        if let h = height, !(h >= 50 && h <= 250) { throw ValidationError("--height is in centimetres, 50…250, not \(h)") }
        if !(split > 0 && split.isFinite) { throw ValidationError("--split must be a positive number of metres, not \(split)") }
        if let a = activity, TrackActivity(rawValue: a) == nil { throw ValidationError("--activity must be ride, run or walk, not '\(a)'") }
    }

    static let trackExtensions: Set<String> = ["fit", "gpx", "tcx", "polyline", "polyline6"]

    func run() throws {
        try Self.reportingErrors {
            try OutputPaths.file(out)
            let name = (path as NSString).lastPathComponent
            let ext = (path as NSString).pathExtension.lowercased()
            let svg: String
            if Self.trackExtensions.contains(ext) {
                let track = try TrackLoader.load(path: path)
                try track.requireTwoPositions(file: path)
                if track.hasTimes {
                    let ride = RideSummary.summarize(track: track, options: RideOptions(activity: activity.flatMap(TrackActivity.init(rawValue:)), splitMeters: split))
                    svg = RidePlot.chart(ride, name: name).svg()
                } else {
                    let route = RouteSummary(track: track)
                    for n in RoutePlot.gapNotes(route) { printError("motus: \(path): \(n)") }
                    svg = RoutePlot.chart(route, name: name).svg()
                }
            } else {
                let recording = try RecordingLoader.load(path: path, options: try input.delimitedOptions())
                guard recording.timeRange != nil else { throw CLIError("\(path): no samples to plot") }
                if let f = from, let end = recording.timeRange.map({ $0.upperBound - $0.lowerBound }), f >= end {
                    throw CLIError("--from \(f) s is past the recording's end (\(Fmt.f(end, 2)) s)")
                }
                var settings = SessionSettings()
                settings.mode = mode
                settings.splitMeters = split
                settings.heightMeters = height.map { $0 / 100 } ?? recording.metadata.heightMeters
                let trace: RecordingPlot.SessionTrace
                do { trace = try RecordingPlot.trace(recording, settings: settings, model: try DefaultModel.load(model)) }
                catch let e as StreamingClassifier.Failure { throw CLIError("\(path): \(e)") }
                svg = RecordingPlot.chart(recording, trace: trace, name: name, from: from, to: to).svg()
            }
            try PlotOutput.write(svg, to: out)
        }
    }
}

/// Writing a picture: SVG as it is, PNG through `rsvg-convert`; either way one line on stderr
/// says where it went.
enum PlotOutput {
    static func validate(_ path: String, flag: String) throws {
        let ext = (path as NSString).pathExtension.lowercased()
        guard ext == "svg" || ext == "png" else { throw ValidationError("\(flag) must name a .svg or .png file, not '\(path)'") }
    }

    /// `rsvg-convert`'s path when it is on the PATH.
    static func converter() -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for d in dirs {
            let p = "\(d)/rsvg-convert"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    static func write(_ svg: String, to path: String) throws {
        try OutputPaths.file(path)
        if (path as NSString).pathExtension.lowercased() == "png" {
            guard let tool = converter() else {
                throw CLIError("\(path): writing PNG needs rsvg-convert on the PATH (Debian: apt-get install librsvg2-bin); ask for a .svg file instead")
            }
            let svgPath = path + ".svg.tmp"
            guard FileManager.default.createFile(atPath: svgPath, contents: Data(svg.utf8)) else { throw CLIError("cannot write \(svgPath)") }
            defer { try? FileManager.default.removeItem(atPath: svgPath) }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: tool)
            p.arguments = ["--format", "png", "--zoom", "1.5", "--output", path, svgPath]
            let err = Pipe()
            p.standardError = err
            do { try p.run() } catch { throw CLIError("\(path): cannot run \(tool): \(error)") }
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            guard p.terminationStatus == 0 else {
                throw CLIError("\(path): rsvg-convert failed (status \(p.terminationStatus)): \(message.split(separator: "\n").first ?? "")")
            }
        } else {
            guard FileManager.default.createFile(atPath: path, contents: Data(svg.utf8)) else { throw CLIError("cannot write \(path)") }
        }
        printError("motus: wrote \(path)")
    }
}
