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

        Example: motus import ../shared/datasets/apps/motiondatacollector --format motiondatacollector --out mdc/
        """)

    @Argument(help: "The dataset folder (or one file).")
    var source: String

    @Option(help: "motionsense, oxford, ipol, mpower, motiondatacollector or sensorlogger.")
    var format: String

    @Option(help: "Folder for the .motus files (created if missing).")
    var out: String

    @Option(help: "motiondatacollector: the sampling rate in Hz (the files have no time column).")
    var rate: Double?

    func validate() throws {
        guard DatasetImporter.Format(rawValue: format) != nil else {
            throw ValidationError("--format must be one of \(DatasetImporter.Format.allCases.map(\.rawValue).joined(separator: ", ")), not '\(format)'")
        }
        if let r = rate, !(r > 0 && r.isFinite) { throw ValidationError("--rate must be a positive number of Hz") }
    }

    func run() throws {
        try Self.reportingErrors {
            do {
                try OutputPaths.folder(out)
                let report = try DatasetImporter.run(source: source, format: DatasetImporter.Format(rawValue: format)!, out: out, rateHz: rate)
                printError("motus: wrote \(report.written.count) recordings to \(out): \(report.samples) samples, \(report.labels) label segments")
            } catch let e as InputError { throw e } catch let e as NativeWriter.WriteError { throw e } catch let e as CLIError { throw e } catch {
                throw CLIError("\(error)")
            }
        }
    }
}
