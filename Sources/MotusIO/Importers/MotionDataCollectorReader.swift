import MotusCore

/// MotionDataCollector CSV files (the data behind Boost Run Club's classifier; see
/// `datasets/apps/motiondatacollector/README.md`): CMDeviceMotion polled by a 0.1 s timer,
/// header `,attitude.roll,…,userAcceleration.z`, no time column, label = the folder name.
///
/// Read with the delimited reader (CoreMotion names: g → m/s² with CoreMotion's sign flipped,
/// attitude from roll/pitch/yaw). Time is synthesised: row i at i/rate s (nominal 10 Hz; the
/// true times are lost, so this is approximate). The first row is dropped: it is polled
/// before the first motion update and is stale.
public enum MotionDataCollectorReader {
    /// The app's polling rate (Hz): its timer fires every 0.1 s. Row i is placed at i / rate s.
    public static let nominalRateHz: Hertz = 10.0

    /// Reads one MotionDataCollector CSV file at `path` as a recording whose rows are `rateHz`
    /// apart (Hz), the stale first row left out, with one label segment `label` over the whole
    /// recording when it is given (the folder's name, when importing a folder).
    /// Throws `InputError` for what the delimited reader refuses (a cell that is not a number, a
    /// missing CoreMotion column), and `.emptyFile` when the file has fewer than two data rows.
    public static func read(path: String, label: String?, rateHz: Hertz = nominalRateHz) throws(InputError) -> Recording {
        var o = DelimitedOptions()
        o.rateHz = rateHz
        var r = try DelimitedReader(path: path, options: o).read()
        guard let n = r.streams.first?.count, n >= 2 else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "\(r.streams.first?.count ?? 0) rows", expected: "at least two data rows")
        }
        for i in r.streams.indices {
            let s = r.streams[i]
            r.streams[i].replace(times: Array(s.times.dropFirst()), values: Array(s.values.dropFirst(s.width)))
        }
        r.metadata = RecordingMetadata(device: "iPhone (MotionDataCollector)", nominalRateHz: rateHz,
                                       source: "MotionDataCollector " + (label.map { $0 + "/" } ?? "") + (path.split(separator: "/").last.map(String.init) ?? path),
                                       extra: ["time": "synthesised from the row index at \(rateHz) Hz (no time column; approximate)",
                                               "dropped": "first row (stale poll before the first motion update)"])
        if let label, let range = r.timeRange {
            r.labels = [LabelSegment(start: range.lowerBound, end: range.upperBound + 1 / rateHz, label: label)]
        }
        return r
    }
}
