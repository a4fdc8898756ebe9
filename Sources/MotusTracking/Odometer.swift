import MotusCore
import MotusGeo

/// Distance, pace, splits and the goal: steps (or ride distance) go in, `step`, `split` and
/// `goalReached` events come out into an `EventQueue`. Steps become distance through the stride
/// model, scaled by GPS when a location stream covers enough distance, or by `calibrate`.
///
/// Allocation-free after init (the pace ring is allocated once).
public struct Odometer: Sendable {
    /// Units: s, m.
    public struct Settings: Sendable, Hashable, Codable {
        /// Window of the current pace (s of distance updates): long enough to average over a
        /// few strides' length variation, short enough to follow a change of pace.
        public var currentPaceSeconds: Seconds = 10
        /// Location fixes less accurate than this (m) are not used.
        public var maximumLocationAccuracy: Meters = 30
        /// GPS distance (m) needed before the stride is calibrated from GPS: over shorter
        /// stretches the GPS error is a large part of the distance.
        public var minimumGPSCalibrationMeters: Meters = 50
        /// The defaults, as given on each property.
        public init() {}
    }

    /// Pace window and GPS calibration limits.
    public let settings: Settings
    /// Metres per split (0: no splits) and the goal (m).
    public let splitMeters: Meters
    /// The goal distance (m), nil without one.
    public let goalMeters: Meters?

    /// Steps added so far.
    public private(set) var steps = 0
    /// Distance so far (m): steps through the (calibrated) stride model, or ride distance.
    public private(set) var distanceMeters: Meters = 0
    private var stride: StrideModel
    /// The current stride scale (1 = uncalibrated model).
    public private(set) var strideScale = 1.0
    /// True once the stride has been calibrated from GPS.
    public private(set) var isGPSCalibrated = false
    /// The swing (`StepEvent.peakToPeak`, m/s²) of the latest step, for the step length.
    public internal(set) var lastPeakToPeak: MetersPerSecondSquared = StrideModel.referencePeakToPeak
    private var gpsMeters = 0.0, stepMetersSinceGPS = 0.0

    // Pace ring: (time, distance) at each distance update.
    private var paceTime: [Double]
    private var paceDist: [Double]
    private var paceHead = 0, paceCount = 0
    static let paceCapacity = 512

    // Splits and goal.
    private var nextSplit: Double
    private var splitIndex = 0
    private var splitStartMoving = 0.0, splitStartTime = Double.nan, splitStartSteps = 0
    private var goalDone = false

    /// An odometer at zero; `splitMeters` 0 turns splits off, `goalMeters` nil means no goal.
    public init(settings: Settings = Settings(), stride: StrideModel, splitMeters: Meters, goalMeters: Meters?) {
        self.settings = settings; self.stride = stride; self.splitMeters = splitMeters; self.goalMeters = goalMeters
        paceTime = [Double](repeating: 0, count: Self.paceCapacity)
        paceDist = [Double](repeating: 0, count: Self.paceCapacity)
        nextSplit = splitMeters > 0 ? splitMeters : .infinity
    }

    /// The session started at `t` (the first split's elapsed time counts from here).
    public mutating func start(at t: Seconds) { if splitStartTime.isNaN { splitStartTime = t } }

    /// Length of one step (m) for a step of `peakToPeak` at `cadence`, calibration included.
    public func stepLength(peakToPeak: MetersPerSecondSquared, cadence: StepsPerMinute) -> Meters {
        stride.stepLength(peakToPeak: peakToPeak, cadence: cadence) * strideScale
    }

    /// Counts a step: a `step` event, and its length added to the distance.
    /// `movingTime` is the session's moving time at the step (for splits and the goal).
    public mutating func addStep(_ s: StepEvent, cadence: StepsPerMinute, movingTime: Seconds, events: inout EventQueue) {
        steps += 1
        lastPeakToPeak = s.peakToPeak
        events.emit(.step(s))
        let len = stepLength(peakToPeak: s.peakToPeak, cadence: cadence)
        stepMetersSinceGPS += len
        addDistance(len, time: s.time, movingTime: movingTime, events: &events)
    }

    /// Adds distance (m) covered by `time`; emits the splits and the goal it completes.
    public mutating func addDistance(_ d: Meters, time t: Seconds, movingTime mt: Seconds, events: inout EventQueue) {
        distanceMeters += d
        paceTime[paceHead] = t; paceDist[paceHead] = distanceMeters
        paceHead += 1
        if paceHead == paceTime.count { paceHead = 0 }
        if paceCount < paceTime.count { paceCount += 1 }
        while distanceMeters >= nextSplit {
            splitIndex += 1
            let dur = mt - splitStartMoving
            events.emit(.split(Split(index: splitIndex, distanceMeters: nextSplit, time: t, movingTimeSeconds: dur,
                                     elapsedTimeSeconds: t - splitStartTime, paceSecondsPerKm: dur / splitMeters * 1000,
                                     steps: steps - splitStartSteps)))
            splitStartMoving = mt; splitStartTime = t; splitStartSteps = steps
            nextSplit += splitMeters
        }
        if let g = goalMeters, !goalDone, distanceMeters >= g {
            goalDone = true
            events.emit(.goalReached(time: t, distanceMeters: distanceMeters, movingTimeSeconds: mt))
        }
    }

    /// GPS distance `d` (m) walked while moving: once `minimumGPSCalibrationMeters` are
    /// covered, the stride is scaled so that the steps over the same stretch give the GPS distance.
    public mutating func gpsDistanceWalked(_ d: Meters) {
        gpsMeters += d
        if gpsMeters >= settings.minimumGPSCalibrationMeters && stepMetersSinceGPS > 0 {
            let s = gpsMeters / stepMetersSinceGPS
            if s > 0.5 && s < 2 { strideScale *= s; isGPSCalibrated = true }
            gpsMeters = 0; stepMetersSinceGPS = 0
        }
    }

    /// Scales the stride so that the distance so far becomes `knownDistanceMeters`.
    public mutating func calibrate(knownDistanceMeters: Meters) {
        guard distanceMeters > 0, knownDistanceMeters > 0 else { return }
        strideScale *= knownDistanceMeters / distanceMeters
        distanceMeters = knownDistanceMeters
    }

    /// Pace over the last `currentPaceSeconds` of distance updates (s/km) at time `now`, NaN when
    /// undefined (fewer than two updates, or none in the last `max(3, currentPaceSeconds / 2)` s).
    public func currentPace(now: Seconds) -> SecondsPerKilometer {
        guard paceCount >= 2 else { return .nan }
        var newest = paceHead - 1
        if newest < 0 { newest += paceTime.count }
        let tN = paceTime[newest], dN = paceDist[newest]
        if now - tN > Swift.max(3, settings.currentPaceSeconds / 2) { return .nan }
        var j = newest
        var k = 1
        while k < paceCount {
            var i = j - 1
            if i < 0 { i += paceTime.count }
            j = i; k += 1
            if tN - paceTime[j] >= settings.currentPaceSeconds { break }
        }
        let dt = tN - paceTime[j], dd = dN - paceDist[j]
        return dd > 0 && dt > 0 ? dt / dd * 1000 : .nan
    }
}
