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

    /// The rate as a report prints it: whole hertz without decimals, 12.5 with one.
    static func text(_ hz: Double) -> String { Fmt.f(hz, hz == hz.rounded() ? 0 : 1) }
}
