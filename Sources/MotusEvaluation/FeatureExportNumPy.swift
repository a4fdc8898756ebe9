import MotusCore
import MotusIO

extension FeatureExport {
    /// The columns of the `.npy` matrix: `start_s`, `end_s` (s), then the feature names.
    public static func numericColumns(featureNames: [String]) -> [String] { ["start_s", "end_s"] + featureNames }

    /// One recording's rows as the `.npy` matrix's rows (`numericColumns`): start and end
    /// times then the features, as little-endian float64 (`NumPyArray.appendLittleEndian`); a
    /// feature that is not a number stays NaN.
    public static func matrixBytes(_ rows: RecordingRows) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * (rows.columns + 2) * 8)
        for i in 0..<rows.count {
            NumPyArray.appendLittleEndian([rows.startTimes[i], rows.endTimes[i]], to: &out)
            NumPyArray.appendLittleEndian(rows.values[(i * rows.columns)..<((i + 1) * rows.columns)], to: &out)
        }
        return out
    }

    /// What a `.npy` file of feature rows cannot hold, kept in its JSON sidecar (written as
    /// `FILE.npy.json` by `motus features`): the names of the matrix's columns and, one entry
    /// per row, the text columns `recording`, `subject` and `label` (null for a window no
    /// mapped label covers). With the matrix it is every column of the CSV, in the CSV's order
    /// (`leadingColumns` then the features):
    ///
    /// ```python
    /// meta = json.load(open("features.npy.json"))
    /// df = pandas.DataFrame(numpy.load("features.npy"), columns=meta["columns"])
    /// for k in ("label", "subject", "recording"): df.insert(0, k, meta[k])
    /// ```
    ///
    /// The sidecar is built while the rows are written (`add` per recording) and holds one
    /// small number per row (its label's index) and one entry per recording, not the rows' text.
    public struct NumPySidecar: Sendable {
        /// Names of the matrix's columns (`numericColumns`).
        public let columns: [String]
        /// Rows added.
        public private(set) var rows = 0
        private var recordings: [(recording: String, subject: String, rows: Int)] = []
        private var labelNames: [String] = []
        private var labelIndex: [String: Int32] = [:]
        private var labelCodes: [Int32] = []

        /// An empty sidecar for matrices of `numericColumns(featureNames:)`.
        public init(featureNames: [String]) { columns = FeatureExport.numericColumns(featureNames: featureNames) }

        /// Adds a recording's rows (after those added before).
        public mutating func add(_ r: RecordingRows) {
            recordings.append((r.recording, r.subject, r.count))
            for l in r.labels {
                guard let l else { labelCodes.append(-1); continue }
                if let k = labelIndex[l] { labelCodes.append(k); continue }
                let k = Int32(labelNames.count)
                labelNames.append(l); labelIndex[l] = k; labelCodes.append(k)
            }
            rows += r.count
        }

        /// The sidecar's JSON: `format`, `npy` (the matrix's file name, as given), `rows`,
        /// `columns` (the matrix's), `leading_columns` (the CSV's first five), then the
        /// per-row arrays `recording`, `subject` and `label`.
        public func json(npyFile: String) -> String {
            func list(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
            var recordingColumn: [String] = [], subjectColumn: [String] = []
            recordingColumn.reserveCapacity(rows); subjectColumn.reserveCapacity(rows)
            for r in recordings {
                let id = FeatureExport.jsonString(r.recording), subject = FeatureExport.jsonString(r.subject)
                for _ in 0..<r.rows { recordingColumn.append(id); subjectColumn.append(subject) }
            }
            let names = labelNames.map(FeatureExport.jsonString)
            let labelColumn = labelCodes.map { $0 < 0 ? "null" : names[Int($0)] }
            return "{\"format\":\"motus features npy sidecar\",\"version\":1,\"npy\":" + FeatureExport.jsonString(npyFile)
                + ",\"rows\":\(rows),\"columns\":" + list(columns.map(FeatureExport.jsonString))
                + ",\"leading_columns\":" + list(FeatureExport.leadingColumns.map(FeatureExport.jsonString))
                + ",\n\"recording\":" + list(recordingColumn) + ",\n\"subject\":" + list(subjectColumn)
                + ",\n\"label\":" + list(labelColumn) + "}\n"
        }
    }
}
