import MotusCore

/// What kind of session: sets the auto-pause thresholds, plausibility limits and energy model.
public enum TrackActivity: String, Sendable, Codable, CaseIterable {
    /// Cycling.
    case ride
    /// Running.
    case run
    /// Walking or hiking.
    case walk

    /// From a file's sport name ("cycling", "running", …); nil when unknown.
    public init?(sport: String?) {
        switch sport {
        case "cycling": self = .ride
        case "running": self = .run
        case "walking", "hiking": self = .walk
        default: return nil
        }
    }
}

/// Settings of the ride/run analysis. Speeds in m/s, times in s, distances in m.
public struct TrackSettings: Sendable {
    /// Ride, run or walk: the defaults of the thresholds below.
    public var activity: TrackActivity
    /// Auto-pause: moving → stopped when the speed falls below `stopSpeed`, stopped → moving
    /// when it rises above `resumeSpeed` (hysteresis, so a speed hovering at one threshold
    /// does not flicker).
    public var stopSpeed: MetersPerSecond
    /// Auto-pause: the speed (m/s) above which a stopped session moves again.
    public var resumeSpeed: MetersPerSecond
    /// An interval between two points longer than this is a pause unless the distance covered
    /// over it implies at least `resumeSpeed` (the device stopped recording, or lost the fix).
    public var maxGapSeconds: Seconds = 30
    /// Which fixes are rejected before anything else.
    public var outliers: OutlierFilter
    /// The Kalman smoother of the positions and the speed.
    public var smoother = PositionSmoother()
    /// How elevation gain is counted (a 5 m dead band by default).
    public var climbRule: ClimbRule = .standard
    /// Length of a split (m).
    public var splitMeters: Meters = 1000
    /// At most this many splits are listed (`TrackSummary.splitsNotListed` counts the rest), so
    /// the work stays bounded whatever `splitMeters` is against the distance.
    public var maxSplits = TrackSettings.defaultMaxSplits
    /// The default of `maxSplits`.
    public static let defaultMaxSplits = 10_000
    /// Distance step of the grade profile (m).
    public var gradeStepMeters: Meters = 100
    /// Masses and constants of the energy estimate.
    public var energy = EnergyModel()
    /// Times (s, on the track's clock) when an accelerometer said the device was still; those
    /// intervals count as stopped whatever the GPS speed says.
    public var stillIntervals: [ClosedRange<Seconds>] = []

    /// The settings for `activity`: its auto-pause speeds and outlier limits.
    public init(activity: TrackActivity) {
        self.activity = activity
        switch activity {
        case .ride: stopSpeed = 0.9; resumeSpeed = 1.5; outliers = OutlierFilter(maxSpeedMetersPerSecond: 35)
        case .run: stopSpeed = 0.5; resumeSpeed = 0.9; outliers = OutlierFilter(maxSpeedMetersPerSecond: 12)
        case .walk: stopSpeed = 0.3; resumeSpeed = 0.6; outliers = OutlierFilter(maxSpeedMetersPerSecond: 8)
        }
    }
}

/// A split: one `splitMeters` stretch of the session.
public struct TrackSplit: Sendable, Equatable, Codable {
    /// 1 for the first split.
    public var index: Int
    /// Distance at the end of the split (m).
    public var distanceMeters: Meters
    /// Length of this split (m): `splitMeters`, or less for the last.
    public var lengthMeters: Meters
    /// Elapsed time in the split (s), pauses included.
    public var elapsedSeconds: Seconds
    /// Moving time in the split (s).
    public var movingSeconds: Seconds
    /// Moving time per kilometre (s/km).
    public var paceSecondsPerKm: SecondsPerKilometer
    /// Length ÷ moving time (m/s).
    public var averageSpeedMetersPerSecond: MetersPerSecond
    /// Elevation gained in the split (m).
    public var elevationGainMeters: Meters
}

/// An auto-pause detected by Motus.
public struct PauseEvent: Sendable, Equatable, Codable {
    /// Pause or resume.
    public enum Kind: String, Sendable, Codable {
        /// The session stopped.
        case pause
        /// The session moved again.
        case resume
    }
    /// Pause or resume.
    public var kind: Kind
    /// Seconds since the first point.
    public var timeSeconds: Seconds
    /// Distance (m) at the event.
    public var distanceMeters: Meters
}

/// Elevation gain and loss under several rules, for the side-by-side figures.
public struct ElevationReport: Sendable, Equatable, Codable {
    /// Motus's figure (the settings' rule, by default the 5 m dead band).
    public var motus: ElevationGain
    /// Every rise and fall summed, no filtering.
    public var raw: ElevationGain
    /// A 5 m dead band.
    public var deadBand5m: ElevationGain
    /// BRouter's rule with a 10 m buffer.
    public var dipBuffer10m: ElevationGain
    /// Highest elevation (m); NaN without any.
    public var highestMeters: Meters
    /// Lowest elevation (m); NaN without any.
    public var lowestMeters: Meters

    /// The report of `elevations` (m, NaN skipped), Motus' figure under `rule`.
    public init(elevations: [Meters], rule: ClimbRule = .standard) {
        motus = ElevationGain.compute(elevations, rule: rule)
        raw = ElevationGain.compute(elevations, rule: .raw)
        deadBand5m = ElevationGain.compute(elevations, rule: .deadBand(meters: 5))
        dipBuffer10m = ElevationGain.compute(elevations, rule: .dipBuffer(meters: 10))
        var hi = -Double.infinity, lo = Double.infinity
        for e in elevations where !e.isNaN { hi = max(hi, e); lo = min(lo, e) }
        highestMeters = hi.isFinite ? hi : .nan
        lowestMeters = lo.isFinite ? lo : .nan
    }
}

/// The summary of a recorded ride, run or walk.
public struct TrackSummary: Sendable {
    /// Ride, run or walk, as analysed.
    public var activity: TrackActivity
    /// Points in the track.
    public var points: Int
    /// Fixes the outlier filter rejected.
    public var rejectedFixes: Int
    /// Distance from the positions (m): geodesic steps between accepted fixes while moving.
    public var distanceMeters: Meters
    /// Every geodesic step between accepted fixes, stops included (m): the raw path length.
    public var pathLengthMeters: Meters
    /// Time spent moving (s).
    public var movingTimeSeconds: Seconds
    /// First to last point (s).
    public var elapsedTimeSeconds: Seconds
    /// Distance ÷ moving time (m/s).
    public var averageSpeedMetersPerSecond: MetersPerSecond
    /// Highest 5-point running median of the moving speed (m/s).
    public var maxSpeedMetersPerSecond: MetersPerSecond
    /// Moving time per km (s); NaN with no distance.
    public var averagePaceSecondsPerKm: SecondsPerKilometer
    /// Gain and loss under each rule, highest and lowest elevation.
    public var elevation: ElevationReport
    /// Elevation and grade every `gradeStepMeters`.
    public var profile: ElevationProfile
    /// Running steps from the cadence field (2 × strides), nil for rides or without cadence.
    public var steps: Double?
    /// Running cadence in steps per minute while moving, nil for rides or without cadence.
    public var cadenceStepsPerMinute: StepsPerMinute?
    /// Pedalling cadence (rpm) while moving and pedalling, nil for runs or without cadence.
    public var cadenceRpm: CyclesPerMinute?
    /// Mean heart rate (beats per minute) while moving, nil without heart rate.
    public var averageHeartRate: BeatsPerMinute?
    /// Mean power (W) while moving, nil without a power meter.
    public var averagePowerWatts: Watts?
    /// Energy spent (kcal), by `energyMethod`.
    public var energyKcal: Kilocalories
    /// The formula behind `energyKcal`.
    public var energyMethod: EnergyModel.Method
    /// The splits, the first `settings.maxSplits` of them.
    public var splits: [TrackSplit]
    /// Splits (whole, or the last part) past `settings.maxSplits`, not in `splits`.
    public var splitsNotListed: Int
    /// Auto-pauses and resumes, in order.
    public var events: [PauseEvent]
    /// What the device itself reported, for comparison.
    public var device: DeviceSummary
    /// Cumulative distance (m) and elapsed time (s) at every point (for comparisons).
    public var cumulativeDistances: [Meters]
    /// Elapsed time (s) at every point.
    public var elapsedTimes: [Seconds]
    /// Moving flag per interval ending at each point.
    public var moving: [Bool]
    /// Speed at every point (m/s): the device's where it reports one, else the smoothed
    /// estimate from the positions (the speed the auto-pause uses).
    public var speedsMetersPerSecond: [MetersPerSecond]

    /// Analyses a track. Every figure comes from the positions and elevations; the device's
    /// own totals are only carried along in `device` for comparison.
    public init(track t: Track, settings s: TrackSettings) {
        activity = s.activity
        points = t.count
        device = t.deviceSummary
        let n = t.count
        let (accepted, acceptedSteps) = s.outliers.acceptedWithSteps(t)
        rejectedFixes = zip(accepted, t.latitudes).filter { !$0.0 && !$0.1.isNaN }.count
        // Speed: the device's where it has one, else the Kalman-smoothed estimate.
        let hasDeviceSpeed = t.speeds.contains { !$0.isNaN }
        var speed = t.speeds
        if !hasDeviceSpeed || t.speeds.contains(where: { $0.isNaN }) {
            let sm = s.smoother.smooth(t, use: accepted)
            for i in 0..<n where speed[i].isNaN { speed[i] = sm.speeds[i] }
        }
        speedsMetersPerSecond = speed
        let t0 = t.times.first { !$0.isNaN } ?? 0
        elapsedTimes = t.times.map { $0 - t0 }
        elapsedTimeSeconds = (t.times.last { !$0.isNaN } ?? t0) - t0

        var still = [Bool](repeating: false, count: n)
        let stillIntervals = (s.stillIntervals + t.stillIntervals).sorted { $0.lowerBound < $1.lowerBound }
        if !stillIntervals.isEmpty {
            var k = 0
            for i in 0..<n {
                let tt = t.times[i]
                while k < stillIntervals.count && stillIntervals[k].upperBound < tt { k += 1 }
                if k < stillIntervals.count && stillIntervals[k].contains(tt) { still[i] = true }
            }
        }

        var cum = [Double](repeating: 0, count: n)
        var mov = [Bool](repeating: false, count: n)
        var dist = 0.0, path = 0.0, movingTime = 0.0
        var isMoving = false
        var events: [PauseEvent] = []
        var steps = 0.0, stepTime = 0.0, cadSum = 0.0, cadTime = 0.0
        var hrSum = 0.0, hrTime = 0.0, pwSum = 0.0, pwTime = 0.0
        var energyJoulesOrKcal = 0.0
        // Elevation profile needs the distance first, so energy uses a first-pass grade below.
        var stepDistances = acceptedSteps
        for i in t.segmentStarts where i < n { stepDistances[i] = 0 }   // segments are not joined
        for i in 0..<n {
            let v = speed[i]
            let wasMoving = isMoving
            if !v.isNaN {
                if isMoving && v < s.stopSpeed { isMoving = false } else if !isMoving && v > s.resumeSpeed { isMoving = true }
            }
            if still[i] { isMoving = false }
            if i > 0 {
                let dt = t.times[i] - t.times[i - 1]
                var m = isMoving
                if dt.isFinite && dt > s.maxGapSeconds {
                    m = stepDistances[i] / dt >= s.resumeSpeed
                }
                if !dt.isFinite { m = true }   // a route without times: every step counts
                path += stepDistances[i]
                if m {
                    dist += stepDistances[i]
                    if dt.isFinite && dt > 0 {
                        movingTime += dt
                        let c = t.cadences[i]
                        if !c.isNaN && c > 0 { cadSum += c * dt; cadTime += dt; if s.activity != .ride { steps += 2 * c / 60 * dt; stepTime += dt } }
                        if !t.heartRates[i].isNaN { hrSum += t.heartRates[i] * dt; hrTime += dt }
                        if !t.powers[i].isNaN { pwSum += t.powers[i] * dt; pwTime += dt }
                    }
                }
                mov[i] = m
            }
            if i > 0 && wasMoving != isMoving && !t.times[i].isNaN {
                events.append(PauseEvent(kind: isMoving ? .resume : .pause, timeSeconds: t.times[i] - t0, distanceMeters: dist))
            }
            cum[i] = dist
        }
        distanceMeters = dist
        pathLengthMeters = path
        movingTimeSeconds = movingTime
        averageSpeedMetersPerSecond = movingTime > 0 ? dist / movingTime : .nan
        averagePaceSecondsPerKm = dist > 0 && movingTime > 0 ? movingTime / (dist / 1000) : .nan
        // Max speed: over moving points, after a 5-point median that removes single spikes.
        let med = medianFilter(speed, half: 2)
        var vmax = 0.0
        for i in 0..<n where mov[i] && !med[i].isNaN { vmax = max(vmax, med[i]) }
        maxSpeedMetersPerSecond = vmax
        self.events = events
        cumulativeDistances = cum
        moving = mov
        elevation = ElevationReport(elevations: t.elevations, rule: s.climbRule)
        profile = ElevationProfile(cumulativeDistances: cum, elevations: t.elevations, stepMeters: s.gradeStepMeters)

        self.steps = s.activity != .ride && stepTime > 0 ? steps.rounded() : nil
        cadenceStepsPerMinute = s.activity != .ride && cadTime > 0 ? 2 * cadSum / cadTime : nil
        cadenceRpm = s.activity == .ride && cadTime > 0 ? cadSum / cadTime : nil
        averageHeartRate = hrTime > 0 ? hrSum / hrTime : nil
        averagePowerWatts = pwTime > 0 ? pwSum / pwTime : nil

        // Energy, per moving interval, with the grade of the profile bin.
        let usePower = s.activity == .ride && pwTime > 0.5 * movingTime && movingTime > 0
        for i in 1..<max(1, n) where mov[i] {
            let dt = t.times[i] - t.times[i - 1]
            guard dt.isFinite, dt > 0, dt <= s.maxGapSeconds else { continue }
            let g = profile.grade(atDistance: cum[i])
            let v = stepDistances[i] / dt
            switch s.activity {
            case .ride:
                if usePower { energyJoulesOrKcal += (t.powers[i].isNaN ? 0 : t.powers[i]) * dt }
                else { energyJoulesOrKcal += s.energy.cyclingPower(speed: v, gradePercent: g, elevationMeters: t.elevations[i]) * dt }
            case .run, .walk:
                energyJoulesOrKcal += s.energy.runningKcal(speed: v, gradePercent: g, seconds: dt)
            }
        }
        if s.activity == .ride {
            energyKcal = s.energy.cyclingKcal(workJoules: energyJoulesOrKcal)
            energyMethod = usePower ? .cyclingPower : .cyclingRoadLoad
        } else {
            energyKcal = energyJoulesOrKcal
            energyMethod = .acsmRunning
        }

        // Splits by distance: every mark the distance passes, at most `maxSplits` of them; the
        // rest are only counted, so the cost is bounded by the points and the splits listed.
        var splits: [TrackSplit] = []
        var notListed = 0
        if s.splitMeters > 0 && dist > 0 {
            let cap = max(0, s.maxSplits)
            var startIdx = 0
            var startTime = 0.0
            var k = 1
            func splitAt(_ endDistance: Double, _ endTime: Double, _ endIdx: Int) {
                var mt = 0.0
                if endIdx > startIdx { for j in (startIdx + 1)...endIdx where mov[j] { let dt = t.times[j] - t.times[j - 1]; if dt.isFinite { mt += dt } } }
                let len = endDistance - Double(splits.count) * s.splitMeters
                let gain = ElevationGain.compute(Array(t.elevations[startIdx...endIdx]), rule: s.climbRule).gainMeters
                splits.append(TrackSplit(index: splits.count + 1, distanceMeters: endDistance, lengthMeters: len, elapsedSeconds: endTime - startTime,
                                    movingSeconds: mt, paceSecondsPerKm: len > 0 && mt > 0 ? mt / (len / 1000) : .nan,
                                    averageSpeedMetersPerSecond: mt > 0 ? len / mt : .nan, elevationGainMeters: gain))
            }
            while k < n && splits.count < cap {
                let nextMark = Double(splits.count + 1) * s.splitMeters
                if cum[k] >= nextMark {
                    let span = cum[k] - cum[k - 1]
                    let w = span > 0 ? (nextMark - cum[k - 1]) / span : 1
                    let tm = elapsedTimes[k - 1] + w * (elapsedTimes[k] - elapsedTimes[k - 1])
                    splitAt(nextMark, tm.isNaN ? 0 : tm, k)
                    startIdx = k; startTime = tm.isNaN ? 0 : tm
                    continue
                }
                k += 1
            }
            if splits.count < cap {
                if dist > Double(splits.count) * s.splitMeters + 1 { splitAt(dist, elapsedTimeSeconds, n - 1) }
            } else {
                let whole = (dist / s.splitMeters).rounded(.down)
                let total = whole + (dist > whole * s.splitMeters + 1 ? 1 : 0)
                notListed = total > Double(splits.count) ? Int(min(total - Double(splits.count), 1e15)) : 0
            }
        }
        self.splits = splits
        splitsNotListed = notListed
    }
}
