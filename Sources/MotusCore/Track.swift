/// A GPS track or a planned route, as read from FIT, GPX, TCX, an encoded polyline or a
/// native recording: one column per quantity, one row per point, SI units.
///
/// Absent values are NaN (a route has no times; a point may have no fix, no elevation, …).
/// `times` are Unix seconds (UTC) when the source has real times.
public struct Track: Sendable, Equatable {
    /// Unix time in seconds; NaN for routes without times.
    public var times: [Seconds] = []
    /// Degrees, WGS84; NaN when the point has no position.
    public var latitudes: [Degrees] = []
    /// Degrees, WGS84, east positive; NaN when the point has no position.
    public var longitudes: [Degrees] = []
    /// Metres above mean sea level (the device's altitude: barometric on most bike computers).
    public var elevations: [Meters] = []
    /// The device's speed (m/s), e.g. from GPS Doppler or a wheel sensor.
    public var speeds: [MetersPerSecond] = []
    /// The device's cumulative distance (m).
    public var distances: [Meters] = []
    /// Beats per minute.
    public var heartRates: [BeatsPerMinute] = []
    /// Revolutions per minute on a bike; for running the FIT/TCX value (strides per minute, one foot).
    public var cadences: [CyclesPerMinute] = []
    /// Watts.
    public var powers: [Watts] = []
    /// Horizontal accuracy (m) when the source reports it.
    public var horizontalAccuracies: [Meters] = []
    /// Indices where a new segment starts (GPX `<trkseg>`); always contains 0 when non-empty.
    public var segmentStarts: [Int] = []
    /// Timer events the device wrote (FIT `event` timer start/stop).
    public var timerEvents: [TimerEvent] = []
    /// What the device itself reported for the session, when the file says.
    public var deviceSummary: DeviceSummary = DeviceSummary()
    /// "cycling", "running", … when the file says.
    public var sport: String?
    /// Device or creator name when the file says.
    public var creator: String?
    /// Where it came from.
    public var source: String = ""
    /// When an accelerometer recorded with the track says the device was still (s, on the
    /// track's clock); the ride auto-pause counts these as stopped. MotusGeo fills it when it
    /// turns a recording into a track (`Track(recording:source:)`).
    public var stillIntervals: [ClosedRange<Seconds>] = []

    /// An empty track.
    public init() {}

    /// Number of points.
    public var count: Int { times.count }
    /// True when the track has no point.
    public var isEmpty: Bool { times.isEmpty }

    /// Reserves room for `n` points in the main columns.
    public mutating func reserveCapacity(_ n: Int) {
        times.reserveCapacity(n); latitudes.reserveCapacity(n); longitudes.reserveCapacity(n)
        elevations.reserveCapacity(n); speeds.reserveCapacity(n); distances.reserveCapacity(n)
        heartRates.reserveCapacity(n); cadences.reserveCapacity(n); powers.reserveCapacity(n)
        horizontalAccuracies.reserveCapacity(n)
    }

    /// Appends one point; pass NaN for what is absent.
    @inlinable
    public mutating func append(time: Seconds, latitude: Degrees, longitude: Degrees, elevation: Meters = .nan,
                                speed: MetersPerSecond = .nan, distance: Meters = .nan, heartRate: BeatsPerMinute = .nan,
                                cadence: CyclesPerMinute = .nan, power: Watts = .nan, horizontalAccuracy: Meters = .nan) {
        if times.isEmpty && segmentStarts.isEmpty { segmentStarts.append(0) }
        times.append(time); latitudes.append(latitude); longitudes.append(longitude)
        elevations.append(elevation); speeds.append(speed); distances.append(distance)
        heartRates.append(heartRate); cadences.append(cadence); powers.append(power)
        horizontalAccuracies.append(horizontalAccuracy)
    }

    /// Marks that the next appended point starts a new segment.
    public mutating func startSegment() {
        if !times.isEmpty, segmentStarts.last != times.count { segmentStarts.append(times.count) }
    }

    /// True when any point has a real time.
    public var hasTimes: Bool { times.contains { !$0.isNaN } }
    /// True when any point has an elevation.
    public var hasElevation: Bool { elevations.contains { !$0.isNaN } }
    /// True when any point has a power reading.
    public var hasPower: Bool { powers.contains { !$0.isNaN } }

    /// The location stream of a recording (times rebased to the first point), with the
    /// device's altitude, speed and horizontal accuracy; points without a position are left out.
    public func locationStream(timeOrigin: Seconds? = nil) -> SensorStream {
        let t0 = timeOrigin ?? (times.first { !$0.isNaN } ?? 0)
        var s = SensorStream(kind: .location)
        s.reserveCapacity(count)
        for i in 0..<count where !latitudes[i].isNaN && !longitudes[i].isNaN {
            let t = times[i].isNaN ? Double(i) : times[i] - t0
            s.append(time: t, [latitudes[i], longitudes[i], elevations[i], speeds[i], .nan, horizontalAccuracies[i], .nan])
        }
        return s
    }

    /// A recording holding the location stream, for code that works on recordings.
    public var recording: Recording {
        var m = RecordingMetadata(device: creator, source: source)
        if let t = times.first(where: { !$0.isNaN }) { m.extra["start_unix_s"] = "\(t)" }
        if let s = sport { m.extra["sport"] = s }
        return Recording(metadata: m, streams: [locationStream()])
    }
}

/// A timer start or stop written by the device (auto-pause, the stop button).
public struct TimerEvent: Sendable, Equatable, Codable {
    /// Start or stop of the device's timer.
    public enum Kind: String, Sendable, Codable {
        /// The timer started (or resumed).
        case start
        /// The timer stopped (paused).
        case stop
    }
    /// Unix seconds.
    public var time: Seconds
    /// Start or stop.
    public var kind: Kind
    /// An event at `time` (Unix s).
    public init(time: Seconds, kind: Kind) { self.time = time; self.kind = kind }
}

/// The totals a device wrote for the session (FIT `session`, TCX laps, BRouter's comment);
/// nil when the file does not say. Used as references to compare Motus's figures against.
public struct DeviceSummary: Sendable, Equatable, Codable {
    /// Distance (m).
    public var distanceMeters: Meters?
    /// Total ascent (m).
    public var ascentMeters: Meters?
    /// Total descent (m).
    public var descentMeters: Meters?
    /// Elapsed time, pauses included (s).
    public var elapsedSeconds: Seconds?
    /// Timer time, auto-pauses excluded (s).
    public var timerSeconds: Seconds?
    /// Average speed (m/s), as the device computes it.
    public var averageSpeedMetersPerSecond: MetersPerSecond?
    /// Maximum speed (m/s).
    public var maxSpeedMetersPerSecond: MetersPerSecond?
    /// Energy (kcal), as the device estimates it.
    public var calories: Kilocalories?
    /// A summary that says nothing (every field nil).
    public init() {}
}
