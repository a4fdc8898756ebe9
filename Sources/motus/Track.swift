import ArgumentParser
import Foundation
import Motus

struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Track a session: moving/still, steps, cadence, distance, pace, splits.",
        discussion: """
        Runs a live tracking session over a recording, sample by sample, exactly as an app \
        embedding MotusTracking would, and prints the summary, the splits and the events \
        (resumed/paused with their cause and decision latency, splits, goal reached).

        Moving/still combines the classifier (without --model, the shipped moving-vs-still \
        model), the pedometer's step evidence and a fast stillness detector. A walk resumes \
        provisionally on its second step (cause firstSteps); if the pedometer does not \
        confirm it as a walk, a pause with cause unconfirmed follows, dated at the same time \
        (no moving time, no steps). Steps come from \
        the accelerometer, or from the recording's platform step counter when it has one; \
        from the accelerometer, a file's steps are by default those of the offline detector, \
        which looks back and ahead over the whole file (the count evaluate-steps scores), and \
        --step-mode live counts them as an app does live (the session itself is the same). \
        Distance uses Weinberg's stride model with k from --height (1.70 m when not given), \
        calibrated from GPS when the recording has a location stream, or from \
        --calibrate-distance. User (linear) acceleration alone, without gravity, is tracked \
        too: steps along its main axis of motion, moving/still from steps and stillness, \
        without the model (a notice says so). --mode ride tracks a ride (no steps; speed from the location \
        stream when there is one). A file or folder holding several recordings of a dataset (a \
        WISDM v1.1 file of several users, a UCI HAR folder, a dataset folder) needs --recording ID \
        to pick one; `motus inspect PATH` lists the ids.
          motus track datasets/lowback-straight-walk.motus --height 1.68
          motus track datasets/iphone-belt-stand-then-walk.motus --format json
        """)

    @Argument(help: "The recording.")
    var path: String

    @Option(name: .customLong("recording"), help: ArgumentHelp("The recording with this id when PATH holds several (a WISDM file of several users, a UCI HAR folder, a dataset folder or a folder of recordings; the ids of `motus features --list-recordings PATH`).", valueName: "ID"))
    var recording: String?

    @Option(help: ArgumentHelp("The person's height in metres (stride model), as everywhere in Motus (record --height too). A value from 50 to 250 is still read as centimetres, with a deprecation notice.", valueName: "M"))
    var height: Double?

    @Option(name: .customLong("height-cm"), help: ArgumentHelp("The person's height in centimetres (the same as --height in metres).", valueName: "CM"))
    var heightCm: Double?

    @Option(help: "Model file (default: the shipped moving-vs-still model).")
    var model: String?

    @Option(name: .customLong("goal-distance"), help: ArgumentHelp("Goal distance in metres (goal event, remaining time).", valueName: "M"))
    var goalDistance: Double?

    @Option(help: ArgumentHelp("Split distance in metres.", valueName: "M"))
    var split: Double = 1000

    @Option(help: "Session mode: foot or ride.")
    var mode: SessionMode = .foot

    @Option(name: .customLong("calibrate-distance"), help: ArgumentHelp("The true distance of the whole session in metres: scales the stride to match it.", valueName: "M"))
    var calibrateDistance: Double?

    @Flag(help: "Print the time spent reading and in the session (per sample) on stderr; build with -c release for real figures.")
    var timing = false

    @Option(name: .customLong("step-mode"), help: ArgumentHelp("offline: steps from the offline detector, which sees the whole file (the best count; a first pass keeps the acceleration in memory, up to \(Self.offlineSampleLimit) samples, beyond which steps are counted live); live: as an app counts them live (streamed).", valueName: "offline|live"))
    var stepMode: StepMode = .offline

    /// For tests: the longest acceleration given to the offline detector (samples).
    @Option(name: .customLong("offline-sample-limit"), help: ArgumentHelp(visibility: .hidden))
    var offlineSampleLimit: Int = Self.offlineSampleLimit

    @Flag(name: .customLong("step-events"), help: "List every step among the events.")
    var stepEvents = false

    @Option(help: "Output format: table, json or csv.")
    var format: OutputFormat = .table

    @OptionGroup var input: InputOptions

    /// The height given, in metres. `--height` was centimetres in `track` and metres in
    /// `record`; it is metres in both now, and a value only centimetres can be (50…250) is still
    /// read as such, with a notice saying what to type instead.
    func heightMeters() -> Double? {
        if let c = heightCm { return c / 100 }
        guard let h = height else { return nil }
        if h >= 50 {
            printError("motus: --height \(Fmt.f(h, 0)) read as centimetres; --height is now in metres everywhere: give --height \(Fmt.f(h / 100, 2)) or --height-cm \(Fmt.f(h, 0)) (centimetres will be refused in a later version)")
            return h / 100
        }
        return h
    }

    func validate() throws {
        if height != nil && heightCm != nil { throw ValidationError("give --height (metres) or --height-cm, not both") }
        if let h = height, !(h >= 0.5 && h <= 2.5) && !(h >= 50 && h <= 250) { throw ValidationError("--height is in metres, 0.5…2.5 (e.g. 1.75), not \(h)") }
        if let h = heightCm, !(h >= 50 && h <= 250) { throw ValidationError("--height-cm is in centimetres, 50…250, not \(h)") }
        if let g = goalDistance, !(g > 0 && g.isFinite) { throw ValidationError("--goal-distance must be a positive number of metres, not \(g)") }
        if !(split > 0 && split.isFinite) { throw ValidationError("--split must be a positive number of metres, not \(split)") }
        if let c = calibrateDistance, !(c > 0 && c.isFinite) { throw ValidationError("--calibrate-distance must be a positive number of metres, not \(c)") }
    }

    /// The longest acceleration the offline step detector is given, in samples (about 5.5 h at
    /// 100 Hz; its working arrays then take a few hundred MB). A longer recording is counted
    /// live, streamed, so that memory stays bounded however long the file is.
    static let offlineSampleLimit = 2_000_000

    /// The offline steps (`--step-mode offline`, on foot, no platform step counter): a first
    /// pass over the file keeps only the acceleration streams, and `OfflineStepDetector` finds
    /// the steps of the whole recording in them. Nil (counted live) in live mode, or when the
    /// recording is too long (a notice says so) or has nothing to count on.
    func offlineSteps(_ reader: inout SampleReader, settings: SessionSettings) throws -> [StepEvent]? {
        guard stepMode == .offline, mode == .foot else { return nil }
        if reader.declaredKinds.contains(.stepCounter) {
            printError("motus: \(path): the recording's platform step counter counts the steps (it has no offline mode)")
            return nil
        }
        var streams: [StreamKind: SensorStream] = [:]
        var count = 0
        // Only the acceleration kinds are read, and the walk stops at the first sample over
        // the limit: a file too long for offline is not read twice in full.
        let whole = try reader.forEach(only: [.acceleration, .userAcceleration, .gravity], while: { sample in
            switch sample {
            case .acceleration(let v), .userAcceleration(let v), .gravity(let v):
                count += 1
                guard count <= offlineSampleLimit else { return false }
                streams[sample.kind, default: SensorStream(kind: sample.kind)].append(time: v.time, v.value)
            default: break
            }
            return true
        })
        guard whole else {
            printError("motus: \(path): more than \(offlineSampleLimit) acceleration samples: steps counted live (as --step-mode live), the offline detector would hold them all in memory")
            return nil
        }
        return OfflineStepDetector.steps(of: Recording(metadata: reader.metadata, streams: Array(streams.values)), session: settings)
    }

    /// Activity files (FIT, GPX, TCX) carry positions, not motion sensors: `--mode ride` (or
    /// any mode) on them is a ride summary, the same as `motus ride`.
    static let activityFileExtensions: Set<String> = ["fit", "gpx", "tcx"]

    func run() throws {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        // A ride from a recording with positions is a ride summary too (elevation, energy…).
        let rideWithPositions = mode == .ride && ext == NativeFormat.fileExtension
            && ((try? RecordingLoader.load(path: path, kinds: [.location]))?.stream(.location)?.count ?? 0) > 1
        if Self.activityFileExtensions.contains(ext) || rideWithPositions {
            // With --mode ride a ride; otherwise the file's own sport.
            let options = RideOptions(activity: mode == .ride ? .ride : nil, splitMeters: split)
            try Self.reportingErrors {
                print(try Ride.text(RideSummary.summarize(path: path, options: options), source: path, format: format), terminator: "")
            }
            return
        }
        try Self.reportingErrors {
            let m = try DefaultModel.load(model)
            let t0 = DispatchTime.now().uptimeNanoseconds
            // The session reads motion, step-counter and location streams, streamed from the
            // file in time order: memory does not grow with the recording's length.
            var reader: SampleReader
            if let id = recording {
                let r = try RecordingLoader.load(path: path, recording: id, options: try input.delimitedOptions())
                reader = SampleReader(recording: r, path: path, kinds: MotionSession.inputKinds)
            } else {
                // A path holding several recordings: say which ids there are and how to pick one.
                if let ids = try RecordingLoader.datasetRecordingIDs(path: path, options: try input.delimitedOptions()), !ids.isEmpty {
                    throw CLIError("\(path): holds \(ids.count) recording\(ids.count == 1 ? "" : "s") (\(ids.prefix(5).joined(separator: ", "))\(ids.count > 5 ? ", …" : "")): give one with --recording ID (`motus features --list-recordings \(path)` lists them all)")
                }
                reader = try SampleReader(path: path, options: try input.delimitedOptions(), kinds: MotionSession.inputKinds)
            }
            let kinds = reader.declaredKinds
            guard kinds.contains(.acceleration) || kinds.contains(.userAcceleration)
                    || kinds.contains(.stepCounter) || kinds.contains(.location) else {
                throw CLIError("\(path): no acceleration, user acceleration, step-counter or location stream to track")
            }
            var settings = SessionSettings()
            settings.mode = mode
            settings.heightMeters = heightMeters() ?? reader.metadata.heightMeters
            settings.goalMeters = goalDistance
            settings.splitMeters = split
            // User acceleration alone (no gravity, no raw acceleration): steps on its main axis
            // of motion, and no model, whose features need gravity (UserAccelerationOnlyInput).
            let userAccelerationOnly = UserAccelerationOnlyInput.isNeeded(for: kinds)
            if userAccelerationOnly {
                printError("motus: \(path): user acceleration without gravity: steps are counted along its main axis of motion (taken for the vertical), moving/still from the steps and stillness alone; the \(model == nil ? "shipped" : "given") model is not used, its features need gravity (give the gravity or the accelerometer's stream for them)")
            }
            let steps = try offlineSteps(&reader, settings: settings)
            if steps != nil { settings.stepMode = .offline }
            func session() throws -> SessionResult {
                do {
                    var run = SessionRun(try MotionSession(settings: settings, model: userAccelerationOnly ? nil : m),
                                         keepStepEvents: stepEvents, steps: steps ?? [])
                    var adapter = UserAccelerationOnlyInput()
                    try reader.forEachReadingAhead { run.push(userAccelerationOnly ? adapter.adapt($0) : $0) }
                    return run.finish()
                } catch let e as StreamingClassifier.Failure { throw CLIError("\(path): \(e)") }
            }
            if let c = calibrateDistance {
                // Two passes: the first measures the model's distance, the second runs calibrated.
                let first = try session()
                if first.summary.distanceMeters > 0 {
                    settings.strideModel = StrideEstimator.scale(settings.effectiveStrideModel, by: c / first.summary.distanceMeters)
                }
            }
            let t1 = DispatchTime.now().uptimeNanoseconds
            let result = try session()
            if timing {
                let t2 = DispatchTime.now().uptimeNanoseconds
                let session = Double(t2 - t1) / 1e9
                printError("motus: opened\(steps != nil ? " and offline steps found" : "") in \(Fmt.f(Double(t1 - t0) / 1e9, 3)) s; read and session \(Fmt.f(session, 3)) s: \(Fmt.f(session * 1e9 / Double(max(result.samples, 1)), 1)) ns per sample over \(result.samples) samples")
            }
            let report = TrackReport(result, settings: settings)
            switch format {
            case .json: print(try JSONOutput.encode(report))
            case .csv: print(report.csv(), terminator: "")
            case .table: print(report.table(), terminator: "")
            }
        }
    }
}

extension SessionMode: ExpressibleByArgument {}

/// `motus track`'s output (JSON keys in snake case).
struct TrackReport: Encodable {
    struct Event: Encodable {
        var type: String
        /// Seconds since the session's first sample.
        var timeS: Double
        var decidedS: Double?
        var latencyS: Double?
        var cause: String?
        var index: Int?
        var distanceM: Double?
        var movingTimeS: Double?
        var paceSPerKm: Double?
        var pace: String?
        var steps: Int?
    }
    struct SplitRow: Encodable {
        var index: Int
        var distanceM: Double
        var timeS: Double
        var movingTimeS: Double
        var elapsedTimeS: Double
        var paceSPerKm: Double
        var pace: String
        var steps: Int
    }
    var mode: String
    var state: String
    var steps: Int
    var distanceM: Double
    var movingTimeS: Double
    var elapsedTimeS: Double
    var averagePaceSPerKm: Double?
    var averagePace: String
    var cadenceSpm: Double
    /// Compass heading at the end (degrees from magnetic north) when there is a magnetometer.
    var headingDeg: Double?
    var averageSpeedMps: Double
    var strideModel: String
    var goalDistanceM: Double?
    var goalReachedS: Double?
    var splitM: Double
    var startTime: Double
    var splits: [SplitRow]
    var events: [Event]

    init(_ r: SessionResult, settings: SessionSettings) {
        let s = r.summary, t0 = r.startTime
        mode = settings.mode.rawValue
        state = s.state.rawValue
        steps = s.steps
        distanceM = s.distanceMeters
        movingTimeS = s.movingTimeSeconds
        elapsedTimeS = s.elapsedTimeSeconds
        averagePaceSPerKm = s.averagePaceSecondsPerKm.isFinite ? s.averagePaceSecondsPerKm : nil
        averagePace = formatPace(s.averagePaceSecondsPerKm)
        cadenceSpm = settings.mode == .foot && s.movingTimeSeconds > 0 ? 60 * Double(s.steps) / s.movingTimeSeconds : 0
        averageSpeedMps = s.movingTimeSeconds > 0 ? s.distanceMeters / s.movingTimeSeconds : 0
        headingDeg = s.headingDegrees
        strideModel = "\(settings.effectiveStrideModel)"
        goalDistanceM = settings.goalMeters
        splitM = settings.splitMeters
        startTime = t0
        splits = r.splits.map { SplitRow(index: $0.index, distanceM: $0.distanceMeters, timeS: $0.time - t0, movingTimeS: $0.movingTimeSeconds,
                                         elapsedTimeS: $0.elapsedTimeSeconds, paceSPerKm: $0.paceSecondsPerKm, pace: formatPace($0.paceSecondsPerKm), steps: $0.steps) }
        events = r.events.map { e in
            switch e {
            case .resumed(let c), .paused(let c):
                Event(type: e.name, timeS: c.time - t0, decidedS: c.decidedAt - t0, latencyS: c.latency, cause: c.cause.rawValue)
            case .step(let st):
                Event(type: "step", timeS: st.time - t0)
            case .split(let sp):
                Event(type: "split", timeS: sp.time - t0, index: sp.index, distanceM: sp.distanceMeters, movingTimeS: sp.movingTimeSeconds,
                      paceSPerKm: sp.paceSecondsPerKm, pace: formatPace(sp.paceSecondsPerKm), steps: sp.steps)
            case .goalReached(let t, let d, let mt):
                Event(type: "goal", timeS: t - t0, distanceM: d, movingTimeS: mt)
            }
        }
        goalReachedS = events.first { $0.type == "goal" }?.timeS
    }

    func table() -> String {
        var out = Fmt.table([
            ["mode", mode], ["state at end", state], ["steps", "\(steps)"], ["distance", "\(Fmt.f(distanceM, 1)) m"],
            ["moving time", Self.clock(movingTimeS)], ["elapsed time", Self.clock(elapsedTimeS)],
            ["average pace", averagePace], ["cadence", "\(Fmt.f(cadenceSpm, 0)) steps/min"],
            ["average speed", "\(Fmt.f(averageSpeedMps * 3.6, 1)) km/h"],
        ])
        if let g = goalDistanceM { out += "goal \(Fmt.f(g, 0)) m: " + (goalReachedS.map { "reached at \(Self.clock($0))" } ?? "not reached") + "\n" }
        if !splits.isEmpty {
            out += "\nsplits (every \(Fmt.f(splitM, 0)) m)\n"
            var t = [["#", "distance m", "at", "moving", "pace", "steps"]]
            for s in splits { t.append(["\(s.index)", Fmt.f(s.distanceM, 0), Self.clock(s.timeS), Self.clock(s.movingTimeS), s.pace, "\(s.steps)"]) }
            out += Fmt.table(t)
        }
        let shown = events.filter { $0.type != "step" }
        if !shown.isEmpty {
            out += "\nevents\n"
            var t = [["at s", "event", "cause", "decided s", "latency s"]]
            for e in shown {
                t.append([Fmt.f(e.timeS, 2), e.type == "split" ? "split \(e.index ?? 0) (\(e.pace ?? "-"))" : e.type == "goal" ? "goal reached" : e.type,
                          e.cause ?? "-", e.decidedS.map { Fmt.f($0, 2) } ?? "-", e.latencyS.map { Fmt.f($0, 2) } ?? "-"])
            }
            out += Fmt.table(t)
        }
        return out
    }

    func csv() -> String {
        var out = "type,time_s,decided_s,cause,index,distance_m,moving_time_s,pace_s_per_km,steps\n"
        // Numbers as the JSON has them (JSONNumbers: times to the µs, others 6 digits); empty when not a number.
        func n(_ v: Double?, _ key: String) -> String { v.map { Fmt.csv($0, key) } ?? "" }
        out += "summary,\(n(elapsedTimeS, "time_s")),,,,\(n(distanceM, "distance_m")),\(n(movingTimeS, "moving_time_s")),\(n(averagePaceSPerKm, "pace")),\(steps)\n"
        for e in events {
            out += "\(e.type),\(n(e.timeS, "time_s")),\(n(e.decidedS, "decided_s")),\(e.cause ?? ""),\(e.index.map(String.init) ?? ""),\(n(e.distanceM, "distance_m")),\(n(e.movingTimeS, "moving_time_s")),\(n(e.paceSPerKm, "pace")),\(e.steps.map(String.init) ?? "")\n"
        }
        return out
    }

    static func clock(_ s: Double) -> String {
        guard s.isFinite, s >= 0 else { return "-" }
        let t = Int(s.rounded())
        let h = t / 3600, m = (t % 3600) / 60, sec = t % 60
        func two(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }
        return h > 0 ? "\(h):\(two(m)):\(two(sec))" : "\(m):\(two(sec))"
    }
}
