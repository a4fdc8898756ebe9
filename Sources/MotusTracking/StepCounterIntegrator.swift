import MotusCore

/// Turns a platform step-counter stream (cumulative counts, as CMPedometer and Android's
/// TYPE_STEP_COUNTER give them) into steps taken since the first reading.
///
/// - Updates may come at any, irregular times; only differences of the count matter.
/// - A count that goes down is a reset (reboot, sensor re-registration, a new CMPedometer
///   query): the new value is the count since the reset, so it is added whole and becomes the
///   new baseline.
/// - Readings with a time earlier than the last one, or a non-finite or negative count, are
///   ignored (`rejected` counts them).
/// O(1) per reading, no allocation.
public struct StepCounterIntegrator: Sendable, Hashable {
    /// Steps since the first reading.
    public private(set) var steps: Double = 0
    /// Cumulative distance since the first reading (m), when the platform reports one.
    public private(set) var distanceMeters: Meters?
    /// Resets seen (count went down).
    public private(set) var resets = 0
    /// Readings ignored (time backwards, non-finite or negative count).
    public private(set) var rejected = 0
    /// Time of the last accepted reading (−∞ before the first).
    public private(set) var lastTime: Seconds = -.infinity
    var lastRaw = Double.nan
    var lastRawDistance = Double.nan

    /// An integrator that has seen no reading.
    public init() {}

    /// Feeds one reading; returns the steps it added.
    @discardableResult
    public mutating func update(_ s: StepCounterSample) -> Double {
        guard s.steps.isFinite, s.steps >= 0, s.time.isFinite, s.time >= lastTime else { rejected += 1; return 0 }
        lastTime = s.time
        var added = 0.0
        if lastRaw.isNaN {
            lastRaw = s.steps
        } else if s.steps >= lastRaw {
            added = s.steps - lastRaw
            lastRaw = s.steps
        } else {
            resets += 1
            added = s.steps
            lastRaw = s.steps
        }
        steps += added
        if let d = s.distanceMeters, d.isFinite, d >= 0 {
            if lastRawDistance.isNaN { lastRawDistance = d; distanceMeters = distanceMeters ?? 0 }
            else if d >= lastRawDistance { distanceMeters = (distanceMeters ?? 0) + d - lastRawDistance; lastRawDistance = d }
            else { distanceMeters = (distanceMeters ?? 0) + d; lastRawDistance = d }
        }
        return added
    }

    /// Integrates a whole `stepCounter` stream.
    public static func integrate(_ stream: SensorStream) -> StepCounterIntegrator {
        precondition(stream.kind == .stepCounter, "needs a step-counter stream")
        var s = StepCounterIntegrator()
        for i in 0..<stream.count { s.update(stream.stepCounterSample(i)) }
        return s
    }
}
