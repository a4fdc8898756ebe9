import ArgumentParser
import Motus

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a whole dataset into native recordings, one .motus file per recording, with labels and metadata.",
        discussion: """
        Formats: motionsense, oxford, ipol, mpower (the dataset folders Motus reads), \
        motiondatacollector (SOURCE/<label>/<file>.csv: label from the folder, time from the row \
        index at --rate Hz, default 10, first stale row dropped) and sensorlogger (an unzipped \
        Sensor Logger export folder, or a folder of them: Accelerometer.csv or .json, Gyroscope, …, \
        Metadata.csv; leading buffered rows dropped).

        --from names the input's format (every other command's --format names its output; \
        --format here still works, with a notice).

        Example: motus import ../shared/datasets/apps/motiondatacollector --from motiondatacollector --out mdc/
        """)

    @Argument(help: "The dataset folder (or one file).")
    var source: String

    @Option(help: ArgumentHelp("The input's format: motionsense, oxford, ipol, mpower, motiondatacollector or sensorlogger.", valueName: "FORMAT"))
    var from: String?

    @Option(help: ArgumentHelp("The old spelling of --from (deprecated: --format names the output everywhere else).", visibility: .hidden))
    var format: String?

    /// The input format, from --from or the deprecated --format.
    var inputFormat: String { from ?? format ?? "" }

    @Option(help: "Folder for the .motus files (created if missing).")
    var out: String

    @Option(help: "motiondatacollector: the sampling rate in Hz (the files have no time column).")
    var rate: Double?

    func validate() throws {
        if from != nil && format != nil { throw ValidationError("give --from (the input's format), not --from and --format") }
        guard from != nil || format != nil else { throw ValidationError("give --from, the input's format: \(DatasetImporter.Format.allCases.map(\.rawValue).joined(separator: ", "))") }
        let flag = from != nil ? "--from" : "--format"
        guard DatasetImporter.Format(rawValue: inputFormat) != nil else {
            throw ValidationError("\(flag) must be one of \(DatasetImporter.Format.allCases.map(\.rawValue).joined(separator: ", ")), not '\(inputFormat)'")
        }
        if let r = rate, !(r > 0 && r.isFinite) { throw ValidationError("--rate must be a positive number of Hz") }
    }

    func run() throws {
        if let f = format { printError("motus: import --format is now --from (the input's format): give --from \(f)") }
        try Self.reportingErrors {
            do {
                try OutputPaths.folder(out)
                let report = try DatasetImporter.run(source: source, format: DatasetImporter.Format(rawValue: inputFormat)!, out: out, rateHz: rate)
                printError("motus: wrote \(report.written.count) recordings to \(out): \(report.samples) samples, \(report.labels) label segments")
            } catch let e as InputError { throw e } catch let e as NativeWriter.WriteError { throw e } catch let e as CLIError { throw e } catch {
                throw CLIError("\(error)")
            }
        }
    }
}
