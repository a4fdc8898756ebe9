import MotusCore
import MotusIO

/// Tracks from recordings.
extension Track {
    /// A track from a recording's location stream (times as they are), with the altitude from
    /// a pressure stream preferred when the recording has one (see `BarometricAltitude`) and
    /// the still intervals an acceleration stream shows (see `StillIntervalDetector`).
    public init(recording r: Recording, source: String = "") {
        self.init()
        self.source = source
        creator = r.metadata.device
        guard let loc = r.stream(.location) else { return }
        reserveCapacity(loc.count)
        for i in 0..<loc.count {
            append(time: loc.times[i], latitude: loc.value(i, 0), longitude: loc.value(i, 1), elevation: loc.value(i, 2),
                   speed: loc.value(i, 3), horizontalAccuracy: loc.value(i, 5))
        }
        if let acc = r.stream(.acceleration) {
            stillIntervals = StillIntervalDetector().stillIntervals(acceleration: acc)
        }
        if let p = r.stream(.pressure), !p.isEmpty {
            elevations = BarometricAltitude.elevations(pressure: p, at: times, gpsAltitudes: elevations)
        }
    }
}

/// Loading a track for analysis.
extension TrackLoader {
    /// Loads any track Motus reads (see `TrackLoader.read(path:)`) for analysis: a track file
    /// as decoded, a recording through `Track(recording:source:)` (barometric altitude, still
    /// intervals).
    public static func load(path: String) throws(InputError) -> Track {
        switch try read(path: path) {
        case .track(let t): return t
        case .recording(let r): return Track(recording: r, source: InputSpool.displayName(path))
        }
    }
}

/// What a track holds.
extension Track {
    /// How many points have a position (latitude and longitude).
    public var positionCount: Int {
        var n = 0
        for i in 0..<count where !latitudes[i].isNaN && !longitudes[i].isNaN { n += 1 }
        return n
    }

    /// Throws `.emptyFile` (no point) or `.truncated` (one point) unless at least two points
    /// have a position: a distance, a speed or a grade needs two. `file` names the track.
    public func requireTwoPositions(file: String) throws(InputError) {
        let n = positionCount
        guard n < 2 else { return }
        throw InputError(n == 0 ? .emptyFile : .truncated, at: SourceLocation(file: file),
                         found: n == 0 ? "no point with a position (\(count) points)" : "one point with a position",
                         expected: "at least two points with latitude and longitude (a distance needs two)")
    }
}
