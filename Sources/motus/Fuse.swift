import ArgumentParser
import Foundation
import Motus

struct Fuse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write Motus's gravity, user acceleration and attitude for a recording, to check them.",
        discussion: """
        Reads any recording Motus reads (native .motus, delimited text with the input \
        flags, a dataset file: MotionSense CSV, mPower JSON, BROAD .mat trial, …), runs \
        Motus's attitude filter on its acceleration and rotation rate, and writes a native \
        recording: the input's streams, labels and events, plus Motus's estimate on the \
        acceleration's timestamps:
          grav  gravity, device frame, pointing up (m/s²)
          uacc  user acceleration = acceleration − gravity (m/s²)
          att   attitude (w, x, y, z): device frame → a frame with z up
        With a magnetic-field stream (mag) the attitude's frame is east-north-up with \
        magnetic north (heading from the magnetometer, disturbances rejected); without one \
        its heading starts at the device's first heading and then follows the gyroscope. \
        --offline runs the filter forwards and backwards in time over the whole recording \
        (more accurate, not what an app gets live; no magnetometer).

        The input's own estimates (CoreMotion's gravity, userAcceleration and attitude, \
        Android's gravity or rotation vector: every gravity, user-acceleration or attitude \
        stream) are replaced by Motus's, and stderr names them; a measured reference (a \
        stream named reference…, such as BROAD's optical motion capture) is kept, to compare \
        with. Without a rotation rate, gravity comes from the accelerometer alone (1 s \
        low-pass) and no attitude is written; without raw acceleration, it is rebuilt as \
        gravity + user acceleration. When the rotation rate is a device fusion's \
        bias-corrected output (CoreMotion device motion, as the MotionSense and mPower \
        readers mark it), the filter does not learn a gyroscope bias at rest.

        The output is written as OUT.partial and renamed once complete: an error never \
        leaves a partial file.
          motus fuse 03_undisturbed_slow_rotation_C.mat --out broad03.motus
          motus fuse walk.csv --rate 100 --accel-unit g --out walk-fused.motus
          motus fuse walk.motus --out walk-fused.motus --format json
        """)

    @Argument(help: "The recording to fuse.")
    var input: String

    @Option(name: .shortAndLong, help: "The native recording to write (.motus); - for standard output (the summary then goes to standard error).")
    var out: String

    @OptionGroup var inputOptions: InputOptions

    @Flag(help: "Offline mode: the filter forwards and backwards in time over the whole recording.")
    var offline = false

    @Option(help: "Summary: text (one line on stderr) or json (on stdout).")
    var format: FuseFormat = .text

    enum FuseFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func run() throws {
        try Self.reportingErrors {
            let toStdout = out == "-"
            if !toStdout { try OutputPaths.file(out) }
            var recording = try RecordingLoader.load(path: input, options: try inputOptions.delimitedOptions())
            // The fusion alone is timed (not reading or writing), for `--format json`.
            let clock = ContinuousClock(), started = clock.now
            let result = try RecordingFusion.fuse(&recording, mode: offline ? .offline : .live, source: input)
            let elapsed = clock.now - started
            if result.accelerationRebuilt { printError("motus: \(input): no raw acceleration: rebuilt as gravity + user acceleration") }
            if result.method == .lowPass {
                printError("motus: \(input): no rotation-rate stream: gravity from the accelerometer alone (low-pass), no attitude written")
            }
            if !result.replaced.isEmpty {
                printError("motus: replaced the input's \(result.replaced.joined(separator: ", ")) with Motus's estimate")
            }
            // Written beside its final name and moved there only when complete, so an error
            // (a full disk) never leaves half a recording under that name.
            if toStdout {
                let w = try NativeWriter(standardOutput: ())
                var sink = w
                RecordingBuilder.replay(recording, into: &sink)
                try w.close()
            } else {
                let partial = out + ".partial"
                do {
                    try NativeWriter.write(recording, to: partial)
                    // rename(2) replaces an existing file in one step.
                    if rename(partial, out) != 0 { throw CLIError("\(out): cannot write: \(String(cString: strerror(errno)))") }
                } catch {
                    try? FileManager.default.removeItem(atPath: partial)
                    throw error
                }
            }
            var summary = FuseSummary(input: input, output: out, recording: recording, result: result)
            summary.fusionSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            switch format {
            case .json:
                // With the recording on standard output, the summary goes to standard error.
                if toStdout { FileHandle.standardError.write(Data((try JSONOutput.encode(summary) + "\n").utf8)) } else { print(try JSONOutput.encode(summary)) }
            case .text:
                let how = summary.settings.map { "orientation filter, \($0) settings, \(result.mode.rawValue)\(result.magneticHeading ? ", heading from the magnetometer" : "")" } ?? "accelerometer-only low-pass"
                printError("motus: wrote \(toStdout ? "standard output" : out): \(result.written.joined(separator: ", ")) for \(result.samples) samples "
                           + "(\(how)), \(recording.streams.count) streams in all")
            }
        }
    }
}

/// `motus fuse --format json`.
struct FuseSummary: Encodable {
    var input: String
    var output: String
    /// "orientation-filter" or "low-pass".
    var method: String
    /// "live" or "offline".
    var mode: String
    /// True when the attitude's heading came from the magnetometer.
    var magneticHeading: Bool
    /// The attitude filter's settings: "default", "bias-corrected-gyroscope" or "custom"
    /// (absent for the accelerometer-only low-pass).
    var settings: String?
    var biasCorrectedRotationRate: Bool
    var accelerationRebuilt: Bool
    var replaced: [String]
    var written: [String]
    var samples: Int
    var durationS: Double
    var streams: [String]
    /// Wall-clock time of the fusion itself (filter and new streams; reading and writing not
    /// included), s.
    var fusionSeconds = 0.0

    init(input: String, output: String, recording: Recording, result r: RecordingFusion.Result) {
        self.input = input; self.output = output
        method = r.method == .orientationFilter ? "orientation-filter" : r.method == .lowPass ? "low-pass" : "none"
        mode = r.mode.rawValue
        magneticHeading = r.magneticHeading
        if r.method == .orientationFilter {
            settings = r.settings == .default ? "default" : r.settings == .biasCorrectedGyroscope ? "bias-corrected-gyroscope" : "custom"
        }
        biasCorrectedRotationRate = r.biasCorrectedRotationRate
        accelerationRebuilt = r.accelerationRebuilt
        replaced = r.replaced; written = r.written; samples = r.samples
        let acc = recording.stream(.acceleration)
        durationS = acc.map { $0.count > 1 ? $0.times[$0.count - 1] - $0.times[0] : 0 } ?? 0
        streams = recording.streams.map(\.name)
    }
}
