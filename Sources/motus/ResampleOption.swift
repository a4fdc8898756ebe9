import ArgumentParser
import Motus

/// `--resample HZ`, as `convert`, `evaluate-steps` and `evaluate-fusion` take it: the recording
/// as a device sampling at HZ would have recorded it (`Recording.resampledAsDevice`).
enum ResampleOption {
    /// Refuses a rate that is not a number of Hz from 1 to 10000.
    static func validate(_ hz: Double?) throws {
        if let r = hz, !(r.isFinite && r >= 1 && r <= 10_000) {
            throw ValidationError("--resample must be a rate in Hz from 1 to 10000, not \(r)")
        }
    }

    /// Refuses a `--grid-phase` outside [0, 1), or one given without `--resample` (the grid it
    /// shifts).
    static func validate(gridPhase: Double?, resampleHz: Double?) throws {
        guard let p = gridPhase else { return }
        if !(p >= 0 && p < 1) {
            throw ValidationError("--grid-phase must be a fraction of a sample period from 0 up to (not including) 1, not \(p)")
        }
        if resampleHz == nil {
            throw ValidationError("--grid-phase shifts the grid of --resample HZ: give --resample too")
        }
    }

    /// The help of `--grid-phase`, one text for every command that takes it.
    static let gridPhaseHelp = ArgumentHelp(
        "With --resample: start the grid F of a period (0 ≤ F < 1) after the first sample, as a device that began sampling a moment later (default 0): how much a figure owes to where the samples happen to fall.",
        valueName: "F")

    /// ", resampled to HZ Hz" (and ", grid F of a period later"), as a report's header
    /// says it; empty without `--resample`.
    static func describe(_ hz: Double?, gridPhase: Double?) -> String {
        guard let hz else { return "" }
        let phase = gridPhase.map { $0 > 0 ? ", grid \(Fmt.f($0, 2)) of a period later" : "" } ?? ""
        return ", resampled to \(text(hz)) Hz\(phase)"
    }

    /// The rate as a report prints it: whole hertz without decimals, 12.5 with one.
    static func text(_ hz: Double) -> String { Fmt.f(hz, hz == hz.rounded() ? 0 : 1) }
}
