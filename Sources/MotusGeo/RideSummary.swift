import MotusCore
import MotusIO

/// What a person chooses for the summary of a ride, run or walk (`motus ride`'s options); the
/// rest of `TrackSettings` (auto-pause thresholds, plausibility limits) follows from the activity.
public struct RideOptions: Sendable, Equatable {
    /// nil: the track's own sport when it names one (`TrackActivity(sport:)`), else a ride.
    public var activity: TrackActivity?
    /// Rider or runner mass (kg), for the energy.
    public var riderMassKg: Kilograms
    /// Bike mass (kg), for the energy of a ride without a power meter.
    public var bikeMassKg: Kilograms
    /// Split length (m).
    public var splitMeters: Meters
    /// Distance step of the grade profile (m).
    public var gradeStepMeters: Meters

    /// Options; the activity is taken from the file when nil (a ride when the file does not say).
    public init(activity: TrackActivity? = nil, riderMassKg: Kilograms = 75, bikeMassKg: Kilograms = 9,
                splitMeters: Meters = 1000, gradeStepMeters: Meters = 100) {
        self.activity = activity; self.riderMassKg = riderMassKg; self.bikeMassKg = bikeMassKg
        self.splitMeters = splitMeters; self.gradeStepMeters = gradeStepMeters
    }

    /// The analysis settings for `track`.
    public func settings(for track: Track) -> TrackSettings {
        var s = TrackSettings(activity: activity ?? TrackActivity(sport: track.sport) ?? .ride)
        s.energy = EnergyModel(riderMassKg: riderMassKg, bikeMassKg: bikeMassKg)
        s.splitMeters = splitMeters
        s.gradeStepMeters = gradeStepMeters
        return s
    }
}

/// A recorded session and its summary: what `motus ride` prints, and `motus track` for an
/// activity file or a ride with positions.
public struct RideSummary: Sendable {
    /// The track as read.
    public var track: Track
    /// Its analysis.
    public var summary: TrackSummary

    /// Summarises a track with the settings `options` give for it.
    public static func summarize(track: Track, options: RideOptions = RideOptions()) -> RideSummary {
        RideSummary(track: track, summary: TrackSummary(track: track, settings: options.settings(for: track)))
    }

    /// Loads a session (FIT, GPX, TCX, polyline or a recording with a location stream; see
    /// `TrackLoader.load(path:)`) and summarises it. A session needs at least two points with
    /// a position (`Track.requireTwoPositions(file:)`).
    public static func summarize(path: String, options: RideOptions = RideOptions()) throws(InputError) -> RideSummary {
        let t = try TrackLoader.load(path: path)
        try t.requireTwoPositions(file: path)
        return summarize(track: t, options: options)
    }
}
