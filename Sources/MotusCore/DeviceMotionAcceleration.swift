extension Recording {
    /// The raw acceleration (gravity included, m/s², device frame) that a device-motion
    /// recording stands for: each user-acceleration sample plus the latest gravity sample at or
    /// before it, as a session pairs them live (CoreMotion delivers both in one sample, so their
    /// times are usually equal). User-acceleration samples before the first gravity sample are
    /// left out, as a session waits for gravity. Nil without a non-empty gravity and
    /// user-acceleration stream.
    public var deviceMotionAcceleration: SensorStream? {
        guard let u = stream(.userAcceleration), !u.isEmpty, let g = stream(.gravity), !g.isEmpty else { return nil }
        var out = SensorStream(kind: .acceleration)
        out.reserveCapacity(u.count)
        var j = -1
        for i in 0..<u.count {
            let t = u.times[i]
            while j + 1 < g.count && g.times[j + 1] <= t { j += 1 }
            guard j >= 0 else { continue }
            out.append(time: t, u.vector(i) + g.vector(j))
        }
        return out
    }
}
