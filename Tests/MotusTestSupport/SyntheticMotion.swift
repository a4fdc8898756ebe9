import MotusCore

/// A device turning about one of its own axes at a constant rate, with exact sensor readings:
/// the truth for tests of the attitude filter and of `motus fuse`.
public struct SyntheticRotation: Sendable {
    /// Device axis of the rotation (unit).
    public var axis: Vector3
    /// Rotation rate (rad/s).
    public var rate: Double
    /// Attitude at t = 0 (device → reference frame, z up).
    public var start: Quaternion
    /// Sample rate (Hz) and duration (s).
    public var sampleRate: Double
    public var seconds: Double

    public init(axis: Vector3, rate: Double, start: Quaternion = .identity, sampleRate: Double = 100, seconds: Double = 20) {
        self.axis = axis.normalized; self.rate = rate; self.start = start; self.sampleRate = sampleRate; self.seconds = seconds
    }

    public var count: Int { Int(seconds * sampleRate) }
    public func time(_ i: Int) -> Double { Double(i) / sampleRate }

    /// The true attitude at `t`: the start attitude followed by the rotation about the device
    /// axis (a body-frame rotation multiplies on the right).
    public func attitude(at t: Double) -> Quaternion { start * Quaternion(axis: axis, angle: rate * t) }

    /// What the accelerometer reads at `t` (m/s², gravity only, pointing up in the device frame).
    public func acceleration(at t: Double) -> Vector3 { attitude(at: t).inverseRotate(Vector3(0, 0, Units.standardGravity)) }

    /// The recording: `acc` and `gyro` on the same timestamps.
    public var recording: Recording {
        var acc = [Double](), gyro = [Double](), times = [Double]()
        let w = axis * rate
        for i in 0..<count {
            let t = time(i), a = acceleration(at: t)
            times.append(t)
            acc += [a.x, a.y, a.z]
            gyro += [w.x, w.y, w.z]
        }
        return Recording(metadata: RecordingMetadata(source: "synthetic rotation"),
                         streams: [SensorStream(kind: .acceleration, times: times, values: acc),
                                   SensorStream(kind: .rotationRate, times: times, values: gyro)])
    }
}
