import ArgumentParser
import Motus

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert any recording Motus reads into the native format.",
        discussion: "Example: motus convert walk.csv --rate 100 --accel-unit g --gyro-unit degs --out walk.motus")

    @Argument(help: "The recording to convert.")
    var input: String

    @Option(name: .shortAndLong, help: "The native recording to write (.motus).")
    var out: String

    @OptionGroup var inputOptions: InputOptions

    @Option(help: "Metadata to set, as key=value (device, placement, subject, height_m, weight_kg, source, or any other key). Repeatable.")
    var meta: [String] = []

    func run() throws {
        try Self.reportingErrors {
            try OutputPaths.file(out)
            var r = try RecordingLoader.load(path: input, options: try inputOptions.delimitedOptions())
            for kv in meta {
                guard let eq = kv.firstIndex(of: "=") else { throw CLIError("--meta takes key=value, not '\(kv)'") }
                let k = String(kv[..<eq]), v = String(kv[kv.index(after: eq)...])
                switch k {
                case "device": r.metadata.device = v
                case "placement": r.metadata.placement = v
                case "subject": r.metadata.subject = v
                case "gender": r.metadata.gender = v
                case "source": r.metadata.source = v
                case "height_m", "weight_kg", "age", "nominal_rate_hz":
                    guard let d = Double(v) else { throw CLIError("--meta \(k) takes a number, not '\(v)'") }
                    if k == "height_m" { r.metadata.heightMeters = d } else if k == "weight_kg" { r.metadata.weightKg = d }
                    else if k == "age" { r.metadata.age = d } else { r.metadata.nominalRateHz = d }
                default: r.metadata.extra[k] = v
                }
            }
            try NativeWriter.write(r, to: out)
            let n = r.streams.reduce(0) { $0 + $1.count }
            printError("motus: wrote \(out): \(r.streams.count) streams, \(n) samples, \(r.labels.count) labels, \(r.events.count) events")
        }
    }
}
