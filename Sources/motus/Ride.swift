import ArgumentParser
import Foundation
import Motus
import MotusPlot

struct Ride: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise a ride, run or walk from FIT, GPX, TCX or a native recording with a location stream.",
        discussion: """
        Distance comes from the positions (geodesic on WGS84), not from the file's distance \
        field; stops (speed below the auto-pause threshold, with hysteresis) add neither \
        distance nor moving time. Elevation gain uses a 5 m dead band. Energy: power when the \
        file has it, else a road-load model (rides) or ACSM's running equation. The device's \
        own totals, when the file has them, are printed beside Motus's.

        Examples:
          motus ride ride.fit --mass 72
          motus ride run.gpx --activity run --format json
          motus ride ride.fit --plot ride.svg
        """)

    @Argument(help: "The session: FIT, GPX, TCX or a .motus recording.")
    var file: String

    @Option(help: "ride, run or walk (default: from the file's sport, else ride).")
    var activity: String?

    @Option(help: ArgumentHelp("Rider or runner mass in kg (energy).", valueName: "KG"))
    var mass: Double = 75

    @Option(name: .customLong("bike-mass"), help: ArgumentHelp("Bike mass in kg (energy without a power meter).", valueName: "KG"))
    var bikeMass: Double = 9

    @Option(help: ArgumentHelp("TrackSplit length in metres.", valueName: "M"))
    var split: Double = 1000

    @Option(name: .customLong("grade-step"), help: ArgumentHelp("Distance step of the grade profile in metres.", valueName: "M"))
    var gradeStep: Double = 100

    @Option(help: "Output format: table, json or csv.")
    var format: OutputFormat = .table

    @Option(help: ArgumentHelp("Also draw speed, elevation, grade and heart rate against distance, splits marked and gaps hatched: FILE.svg or FILE.png.", valueName: "FILE"))
    var plot: String?

    @Option(name: .customLong("time-runs"), help: .hidden)
    var timeRuns: Int = 0

    func validate() throws {
        guard mass > 0, mass < 500 else { throw ValidationError("--mass must be a mass in kg, not \(mass)") }
        guard bikeMass >= 0, bikeMass < 200 else { throw ValidationError("--bike-mass must be a mass in kg, not \(bikeMass)") }
        guard split > 0 else { throw ValidationError("--split must be a positive number of metres, not \(split)") }
        guard gradeStep > 0 else { throw ValidationError("--grade-step must be a positive number of metres, not \(gradeStep)") }
        if let a = activity, TrackActivity(rawValue: a) == nil { throw ValidationError("--activity must be ride, run or walk, not '\(a)'") }
        if let p = plot { try PlotOutput.validate(p, flag: "--plot") }
    }

    var options: RideOptions {
        RideOptions(activity: activity.flatMap(TrackActivity.init(rawValue:)), riderMassKg: mass, bikeMassKg: bikeMass,
                    splitMeters: split, gradeStepMeters: gradeStep)
    }

    func run() throws {
        try Self.reportingErrors {
            if timeRuns > 0 { try timing(); return }
            if let p = plot { try OutputPaths.file(p) }
            let ride = try RideSummary.summarize(path: file, options: options)
            print(try Self.text(ride, source: file, format: format), terminator: "")
            if let p = plot { try PlotOutput.write(RidePlot.chart(ride, name: (file as NSString).lastPathComponent).svg(), to: p) }
        }
    }

    /// The summary as `format` gives it, ending in a newline: what `motus ride` prints, and
    /// `motus track` for an activity file.
    static func text(_ r: RideSummary, source: String, format: OutputFormat) throws -> String {
        switch format {
        case .json: try JSONOutput.encode(RideJSON(r.summary, source: source)) + "\n"
        case .csv: csv(RideJSON(r.summary, source: source))
        case .table: table(r.summary, track: r.track)
        }
    }

    /// Decode + summarise `timeRuns` times in-process; prints the median wall time.
    func timing() throws {
        var times: [Double] = [], decode: [Double] = []
        var sink = 0.0
        for _ in 0..<timeRuns {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let track = try TrackLoader.load(path: file)
            let t1 = DispatchTime.now().uptimeNanoseconds
            let s = RideSummary.summarize(track: track, options: options).summary
            sink += s.distanceMeters
            let t2 = DispatchTime.now().uptimeNanoseconds
            times.append(Double(t2 - t0) / 1e9); decode.append(Double(t1 - t0) / 1e9)
        }
        times.sort(); decode.sort()
        print("median_s=\(times[times.count / 2]) min_s=\(times[0]) decode_median_s=\(decode[decode.count / 2]) runs=\(timeRuns) distance_m=\(sink / Double(timeRuns))")
    }

    static func table(_ s: TrackSummary, track: Track) -> String {
        let d = s.device
        func opt(_ v: Double?, _ k: Double = 1, _ digits: Int = 1) -> String { v.map { Fmt.f($0 * k, digits) } ?? "-" }
        var rows = [["", "motus", "device"]]
        rows.append(["distance km", Fmt.f(s.distanceMeters / 1000, 3), opt(d.distanceMeters, 0.001, 3)])
        rows.append(["path length km (stops included)", Fmt.f(s.pathLengthMeters / 1000, 3), ""])
        rows.append(["moving time", clock(s.movingTimeSeconds), d.timerSeconds.map(clock) ?? "-"])
        rows.append(["elapsed time", clock(s.elapsedTimeSeconds), d.elapsedSeconds.map(clock) ?? "-"])
        rows.append(["average speed km/h", Fmt.f(s.averageSpeedMetersPerSecond * 3.6, 1), opt(d.averageSpeedMetersPerSecond, 3.6)])
        rows.append(["max speed km/h", Fmt.f(s.maxSpeedMetersPerSecond * 3.6, 1), opt(d.maxSpeedMetersPerSecond, 3.6)])
        rows.append(["pace min/km", pace(s.averagePaceSecondsPerKm), ""])
        rows.append(["elevation gain m (5 m band)", Fmt.f(s.elevation.motus.gainMeters, 0), opt(d.ascentMeters, 1, 0)])
        rows.append(["elevation loss m (5 m band)", Fmt.f(s.elevation.motus.lossMeters, 0), opt(d.descentMeters, 1, 0)])
        rows.append(["  raw sum gain / loss m", "\(Fmt.f(s.elevation.raw.gainMeters, 0)) / \(Fmt.f(s.elevation.raw.lossMeters, 0))", ""])
        rows.append(["  10 m dip buffer gain / loss m", "\(Fmt.f(s.elevation.dipBuffer10m.gainMeters, 0)) / \(Fmt.f(s.elevation.dipBuffer10m.lossMeters, 0))", ""])
        rows.append(["max grade % (per \(Fmt.f(s.profile.stepMeters, 0)) m)", Fmt.f(s.profile.maxGradePercent, 1), ""])
        rows.append(["energy kcal (\(s.energyMethod.rawValue))", Fmt.f(s.energyKcal, 0), opt(d.calories, 1, 0)])
        if let v = s.steps { rows.append(["steps", Fmt.f(v, 0), ""]) }
        if let v = s.cadenceStepsPerMinute { rows.append(["cadence spm", Fmt.f(v, 1), ""]) }
        if let v = s.cadenceRpm { rows.append(["cadence rpm", Fmt.f(v, 1), ""]) }
        if let v = s.averageHeartRate { rows.append(["heart rate bpm", Fmt.f(v, 0), ""]) }
        if let v = s.averagePowerWatts { rows.append(["power W", Fmt.f(v, 0), ""]) }
        rows.append(["points / rejected fixes", "\(s.points) / \(s.rejectedFixes)", ""])
        rows.append(["pauses (motus) / timer stops (device)", "\(s.events.filter { $0.kind == .pause }.count)", "\(track.timerEvents.filter { $0.kind == .stop }.count)"])
        var out = "\(track.source)  (\(s.activity.rawValue)\(track.creator.map { ", " + $0 } ?? ""))\n" + Fmt.table(rows, indent: 2)
        if !s.splits.isEmpty {
            var sr = [["split", "km", "time", "moving", "pace", "km/h", "gain m"]]
            for sp in s.splits {
                sr.append(["\(sp.index)", Fmt.f(sp.distanceMeters / 1000, 2), clock(sp.elapsedSeconds), clock(sp.movingSeconds),
                           pace(sp.paceSecondsPerKm), Fmt.f(sp.averageSpeedMetersPerSecond * 3.6, 1), Fmt.f(sp.elevationGainMeters, 0)])
            }
            out += "\n" + Fmt.table(sr, indent: 2)
        }
        if s.splitsNotListed > 0 {
            out += "  \(s.splitsNotListed) more splits not listed (the first \(s.splits.count) are; use a longer --split)\n"
        }
        return out
    }

    static func csv(_ r: RideJSON) -> String {
        let keys = ["distance_m", "moving_time_s", "elapsed_time_s", "average_speed_mps", "max_speed_mps", "average_pace_s_per_km",
                    "elevation_gain_m", "elevation_loss_m", "energy_kcal", "steps", "cadence_spm"]
        let vals: [Double?] = [r.distance_m, r.moving_time_s, r.elapsed_time_s, r.average_speed_mps, r.max_speed_mps, r.average_pace_s_per_km,
                               r.elevation_gain_m, r.elevation_loss_m, r.energy_kcal, r.steps, r.cadence_spm]
        return keys.joined(separator: ",") + "\n" + vals.map { $0.map { Fmt.f($0, 3) } ?? "" }.joined(separator: ",") + "\n"
    }
}

func clock(_ s: Double) -> String {
    guard s.isFinite else { return "-" }
    let t = Int(s.rounded())
    return "\(t / 3600):" + String(format: "%02d:%02d", (t % 3600) / 60, t % 60)
}

func pace(_ s: Double) -> String {
    guard s.isFinite else { return "-" }
    let t = Int(s.rounded())
    return "\(t / 60):" + String(format: "%02d", t % 60)
}

/// JSON of `motus ride` (the keys of `motus track --mode ride`).
struct RideJSON: Encodable {
    var source: String
    var activity: String
    var steps: Double?
    var distance_m: Double
    var moving_time_s: Double
    var elapsed_time_s: Double
    var average_pace_s_per_km: Double
    var cadence_spm: Double?
    var cadence_rpm: Double?
    var splits: [TrackSplit]
    var splits_not_listed: Int
    var events: [PauseEvent]
    var elevation_gain_m: Double
    var elevation_loss_m: Double
    var max_speed_mps: Double
    var average_speed_mps: Double
    var energy_kcal: Double
    var energy_method: String
    var path_length_m: Double
    var max_grade_percent: Double
    var average_heart_rate_bpm: Double?
    var average_power_w: Double?
    var rejected_fixes: Int
    var elevation_rules: ElevationReport
    var device: DeviceSummary

    init(_ s: TrackSummary, source: String) {
        self.source = source
        activity = s.activity.rawValue
        steps = s.steps; distance_m = s.distanceMeters; moving_time_s = s.movingTimeSeconds; elapsed_time_s = s.elapsedTimeSeconds
        average_pace_s_per_km = s.averagePaceSecondsPerKm; cadence_spm = s.cadenceStepsPerMinute; cadence_rpm = s.cadenceRpm
        splits = s.splits; splits_not_listed = s.splitsNotListed; events = s.events
        elevation_gain_m = s.elevation.motus.gainMeters; elevation_loss_m = s.elevation.motus.lossMeters
        max_speed_mps = s.maxSpeedMetersPerSecond; average_speed_mps = s.averageSpeedMetersPerSecond
        energy_kcal = s.energyKcal; energy_method = s.energyMethod.rawValue
        path_length_m = s.pathLengthMeters; max_grade_percent = s.profile.maxGradePercent
        average_heart_rate_bpm = s.averageHeartRate; average_power_w = s.averagePowerWatts
        rejected_fixes = s.rejectedFixes
        elevation_rules = s.elevation; device = s.device
    }

    enum CodingKeys: String, CodingKey {
        case source, activity, steps, distance_m, moving_time_s, elapsed_time_s, average_pace_s_per_km, cadence_spm, cadence_rpm, splits, splits_not_listed, events
        case elevation_gain_m, elevation_loss_m, max_speed_mps, average_speed_mps, energy_kcal, energy_method, path_length_m, max_grade_percent
        case average_heart_rate_bpm, average_power_w, rejected_fixes, elevation_rules, device
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(source, forKey: .source); try c.encode(activity, forKey: .activity)
        try c.encode(steps, forKey: .steps); try c.encode(distance_m, forKey: .distance_m)
        try c.encode(moving_time_s, forKey: .moving_time_s); try c.encode(elapsed_time_s, forKey: .elapsed_time_s)
        try c.encode(average_pace_s_per_km, forKey: .average_pace_s_per_km); try c.encode(cadence_spm, forKey: .cadence_spm)
        try c.encode(cadence_rpm, forKey: .cadence_rpm); try c.encode(splits, forKey: .splits)
        try c.encode(splits_not_listed, forKey: .splits_not_listed); try c.encode(events, forKey: .events)
        try c.encode(elevation_gain_m, forKey: .elevation_gain_m); try c.encode(elevation_loss_m, forKey: .elevation_loss_m)
        try c.encode(max_speed_mps, forKey: .max_speed_mps); try c.encode(average_speed_mps, forKey: .average_speed_mps)
        try c.encode(energy_kcal, forKey: .energy_kcal); try c.encode(energy_method, forKey: .energy_method)
        try c.encode(path_length_m, forKey: .path_length_m); try c.encode(max_grade_percent, forKey: .max_grade_percent)
        try c.encode(average_heart_rate_bpm, forKey: .average_heart_rate_bpm); try c.encode(average_power_w, forKey: .average_power_w)
        try c.encode(rejected_fixes, forKey: .rejected_fixes); try c.encode(elevation_rules, forKey: .elevation_rules)
        try c.encode(device, forKey: .device)
    }
}
