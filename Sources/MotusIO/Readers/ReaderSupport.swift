#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

// Shared plumbing of the dataset readers: reading the first lines of a file, reading the
// numeric columns of a delimited file into memory with exact error locations, listing
// folders. No Foundation, so the readers build the same on every platform.

/// The selected numeric columns of every data row of a delimited file, row-major:
/// `values[row * width + column]`. Row `i` was on line `firstDataLine + i` (blank lines in the
/// middle of a file are errors, so rows and lines stay in step).
struct NumericRows {
    let path: String
    let width: Int
    let names: [String]
    var values: [Double]
    let firstDataLine: Int
    /// With a text column (`readRows(textColumn:)`): row `i`'s text is `texts[textCodes[i]]`.
    /// The distinct texts are few (labels), so each is stored once, in order of first appearance.
    var textCodes: [Int32] = []
    var texts: [String] = []

    var count: Int { width == 0 ? 0 : values.count / width }
    @inline(__always) func value(_ row: Int, _ column: Int) -> Double { values[row * width + column] }
    func line(ofRow row: Int) -> Int { firstDataLine + row }
    func location(row: Int, column: Int = 0) -> SourceLocation { SourceLocation(file: path, line: line(ofRow: row), column: column) }
}

/// Reads delimited files of numbers with the byte-level `LineReader`, `FieldSplitter` and
/// `NumberParser`: no per-row allocation, every problem reported as an `InputError` at its line
/// and column.
enum TableScanner {
    /// The first `count` lines of a file as text (fewer when the file is shorter; BOM and CR
    /// removed). Throws `.unreadable` when the file cannot be opened.
    static func head(path: String, lines count: Int) throws(InputError) -> [String] {
        var cursor = try LineCursor(path: path)
        var out: [String] = []
        while out.count < count, let line = try cursor.next() {
            out.append(String(decoding: line, as: UTF8.self))
        }
        return out
    }

    /// Reads the data rows of `path`, starting at line `firstDataLine` (1-based; lines before it
    /// are skipped unread), splitting on `delimiter`.
    ///
    /// - `columns`: the field indices to parse, in output order; `names` names them for messages.
    /// - `fieldCount`: the exact number of fields every row must have (nil: at least enough for
    ///   `columns`).
    /// - `textColumn`: a field read as text (a per-row label, `textName` in messages) into
    ///   `textCodes`/`texts`; it must not be empty.
    /// - `scales`/`units`: the factor that takes each output column to SI and the SI unit's
    ///   name (nil: read as is); a value must stay finite once multiplied by its factor.
    /// - `timeColumn`/`timeScale`: the output column holding the time and its factor to seconds;
    ///   every time must lie within `ReadingRules.maxTimeSpanSeconds` of the first row's.
    /// Every parsed value must be a finite number. Blank lines are accepted only at the end of
    /// the file. A row with too many fields is an error at the first extra field. A file without
    /// data rows throws `.emptyFile`. A last line without a newline that looks cut
    /// (`LastLineRule`) is an error, or under `ReadingPolicy.incompleteLastLine == .drop` is left
    /// out and posted to `InputNotices`.
    /// `limits`: for each column that holds a sample value, its stream kind and component, so a
    /// value past `ReadingRules.limit` (in SI, after `scales`) is an error at its line and column.
    static func readRows(path: String, delimiter: UInt8, firstDataLine: Int, fieldCount: Int?,
                         columns: [Int], names: [String], what: String,
                         textColumn: Int? = nil, textName: String = "label",
                         scales: [Double]? = nil, units: [String]? = nil,
                         timeColumn: Int? = nil, timeScale: Double = 1,
                         limits: [(kind: StreamKind, component: Int)?]? = nil) throws(InputError) -> NumericRows {
        precondition(columns.count == names.count && !columns.isEmpty)
        precondition(scales == nil || (scales!.count == columns.count && units?.count == columns.count))
        let reader = try LineReader(path: path)
        let policy = ReadingPolicy.incompleteLastLine
        let follow = reader.endsWithLineEnd != true
        var tailFields = -1, tailColumn = -1
        var precision = ColumnPrecision()
        var firstTime = Double.nan
        let splitter = FieldSplitter(delimiter: delimiter)
        let width = columns.count
        let maxField = max(columns.max()!, textColumn ?? 0)
        let needed = fieldCount ?? (maxField + 1)
        var textCodes: [Int32] = []
        var textBytes: [[UInt8]] = []
        var textCode: Int32 = -1
        var slot = [Int](repeating: -1, count: maxField + 1)
        for (k, c) in columns.enumerated() { slot[c] = k }
        var values: [Double] = []
        values.reserveCapacity(1 << 14)
        var row = [Double](repeating: 0, count: width)
        var pendingBlank = 0   // line number of a blank line not yet known to be trailing
        var rows = 0
        let expectedFields = fieldCount.map { "\($0) fields" } ?? "at least \(needed) fields"
        let totalLines = try reader.forEachLine { (line, n, unterminated) throws(InputError) in
            if n < firstDataLine { return }
            if unterminated && !isBlank(line) {
                var ranges: [(Int, Int)] = []
                splitter.split(line) { _, s, e in ranges.append((s, e)) }
                let expected = fieldCount ?? (tailFields >= 0 ? tailFields : needed)
                let followed = tailColumn >= 0 && ranges.count == expected && tailColumn == ranges.count - 1
                if let (reason, column) = LastLineRule.delimitedReason(line, fields: ranges, expectedFields: expected, lastColumn: followed ? precision : nil,
                                                                       numeric: { $0 <= maxField && slot[$0] >= 0 }) {
                    if policy == .error { throw LastLineRule.error(file: path, line: n, column: column, bytes: line.count, reason: reason) }
                    InputNotices.post(LeftOutLine(file: path, line: n, bytes: line.count, reason: reason).description)
                    return
                }
            }
            if isBlank(line) {
                if pendingBlank == 0 { pendingBlank = n }
                return
            }
            if pendingBlank != 0 {
                throw InputError(.missingColumn, at: SourceLocation(file: path, line: pendingBlank, column: 0),
                                 found: "", expected: "a data row of \(expectedFields) (blank lines only at the end)")
            }
            var extraFieldStart = -1   // start of the first field past `fieldCount`
            textCode = -1
            let fields = try row.withUnsafeMutableBufferPointer { (out) throws(InputError) -> Int in
                try splitter.split(line) { (f, s, e) throws(InputError) in
                    if f == fieldCount { extraFieldStart = s }
                    if f == textColumn {
                        guard e > s else {
                            throw InputError(.badValue, at: SourceLocation(file: path, line: n, column: s + 1),
                                             found: "", expected: "a \(textName)")
                        }
                        textCode = TableScanner.intern(line, s, e, into: &textBytes)
                        return
                    }
                    guard f <= maxField else { return }
                    let k = slot[f]
                    if k < 0 { return }
                    guard let v = NumberParser.parseDouble(line, s, e) else {
                        throw InputError(.badNumber, at: SourceLocation(file: path, line: n, column: s + 1),
                                         found: line.text(s, e), expected: "a number (\(names[k]))")
                    }
                    guard v.isFinite else {
                        throw InputError(.nonFinite, at: SourceLocation(file: path, line: n, column: s + 1),
                                         found: line.text(s, e), expected: "a finite number (\(names[k]))")
                    }
                    if let scales, let units, !(v * scales[k]).isFinite {
                        throw ReadingRules.conversionError(at: SourceLocation(file: path, line: n, column: s + 1), found: line.text(s, e),
                                                           what: "value of \(names[k])", unit: units[k])
                    }
                    // A sample value past what any sensor gives (in SI, after the column's scale).
                    if let limits, let (kind, c) = limits[k] {
                        let x = v * (scales?[k] ?? 1)
                        if !ReadingRules.fits(x, kind, c) {
                            throw ReadingRules.rangeError(at: SourceLocation(file: path, line: n, column: s + 1), found: line.text(s, e), kind: kind, component: c, value: x)
                        }
                    }
                    if k == timeColumn {
                        let t = v * timeScale
                        if !ReadingRules.timeFits(t, first: firstTime) {
                            if firstTime.isNaN { firstTime = t } else {
                                throw ReadingRules.timeError(at: SourceLocation(file: path, line: n, column: s + 1), found: line.text(s, e), time: t, first: firstTime)
                            }
                        }
                    }
                    if follow && f == tailColumn { precision.add(NumberShape(line, s, e)) }
                    out[k] = v
                }
            }
            if follow && tailFields < 0 {
                // The first row fixes the field count and the column whose precision is followed.
                tailFields = fields
                let c = (fieldCount ?? fields) - 1
                if c >= 0 && c <= maxField && slot[c] >= 0 {
                    tailColumn = c
                    var s = 0, e = 0
                    splitter.split(line) { f, fs, fe in if f == c { s = fs; e = fe } }
                    precision.add(NumberShape(line, s, e))
                }
            }
            if fields < needed {
                throw InputError(.missingColumn, at: SourceLocation(file: path, line: n, column: line.count + 1),
                                 found: "\(fields) field\(fields == 1 ? "" : "s")", expected: "\(expectedFields) (\(what))")
            }
            if let fc = fieldCount, fields > fc {
                throw InputError(.badValue, at: SourceLocation(file: path, line: n, column: extraFieldStart + 1),
                                 found: "\(fields) fields", expected: "\(fc) fields (\(what))")
            }
            values.append(contentsOf: row)
            if textColumn != nil { textCodes.append(textCode) }
            rows += 1
        }
        if rows == 0 {
            throw InputError(.emptyFile, at: SourceLocation(file: path, line: max(totalLines, 0), column: 0),
                             found: "", expected: "data rows of \(what)")
        }
        var out = NumericRows(path: path, width: width, names: names, values: values, firstDataLine: firstDataLine)
        out.textCodes = textCodes
        out.texts = textBytes.map { String(decoding: $0, as: UTF8.self) }
        return out
    }

    /// The index of `line[s..<e]` in `table`, appending it when new. Linear search: the
    /// tables hold a handful of labels.
    static func intern(_ line: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, into table: inout [[UInt8]]) -> Int32 {
        let field = UnsafeBufferPointer(rebasing: line[s..<e])
        for (k, t) in table.enumerated() where t.count == field.count && t.elementsEqual(field) { return Int32(k) }
        table.append(Array(field))
        return Int32(table.count - 1)
    }

    @inline(__always) static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in line where b != 0x20 && b != 0x09 { return false }
        return true
    }

    /// Position of each name in a header (nil when absent).
    static func indices(of wanted: [String], in header: [String]) -> [Int?] {
        wanted.map { w in header.firstIndex(of: w) }
    }

    /// Maps header names to field indices, throwing `.missingColumn` at the header line for the
    /// first name that is absent.
    static func requireColumns(_ wanted: [String], in header: [String], path: String, line: Int) throws(InputError) -> [Int] {
        var out: [Int] = []
        for w in wanted {
            guard let i = header.firstIndex(of: w) else {
                throw InputError(.missingColumn, at: SourceLocation(file: path, line: line, column: 0),
                                 found: header.joined(separator: ","), expected: "a column named '\(w)'")
            }
            out.append(i)
        }
        return out
    }
}

/// Folder and path helpers (POSIX, no Foundation).
enum ReaderFiles {
    /// Names in a folder (no `.`/`..`, hidden files left out), in natural order; empty when
    /// the folder cannot be read.
    static func list(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var out: [String] = []
        while let ent = readdir(d) {
            var nameField = ent.pointee.d_name
            let name = withUnsafePointer(to: &nameField) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name.hasPrefix(".") { continue }
            out.append(name)
        }
        return out.sorted(by: readerNaturalLess)
    }

    static func isDirectory(_ p: String) -> Bool { DatasetLocator.isDirectory(p) }
    static func isFile(_ p: String) -> Bool { DatasetLocator.exists(p) && !DatasetLocator.isDirectory(p) }

    static func join(_ a: String, _ b: String) -> String {
        a.isEmpty ? b : (a.hasSuffix("/") ? a + b : a + "/" + b)
    }

    /// Path components without empty parts (a trailing slash is ignored).
    static func components(_ p: String) -> [String] { p.split(separator: "/").map(String.init) }

    static func lastComponent(_ p: String) -> String { components(p).last ?? p }

    /// The folder holding `p` ("." when `p` has no folder part).
    static func parent(_ p: String) -> String {
        var s = p
        while s.count > 1 && s.hasSuffix("/") { s.removeLast() }
        guard let i = s.lastIndex(of: "/") else { return "." }
        return i == s.startIndex ? "/" : String(s[..<i])
    }

    /// Up to `count` bytes from the start of a file (empty when unreadable).
    static func headBytes(_ path: String, count: Int) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        if fd < 0 { return [] }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: count)
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, count) }
        return n > 0 ? Array(buf[0..<n]) : []
    }

    /// Reads a whole file as bytes, exactly as stored.
    static func readBytes(_ path: String) throws(InputError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        if fd < 0 {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: String(cString: strerror(errno)), expected: "a readable file")
        }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            throw InputError(.unreadable, at: SourceLocation(file: path), found: "a folder", expected: "a file")
        }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, 1 << 16) }
            if n < 0 {
                throw InputError(.unreadable, at: SourceLocation(file: path), found: String(cString: strerror(errno)), expected: "a readable file")
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }
}

/// Natural order: digit runs compare by value, so `sub_2` < `sub_10` and `2-3` < `10-1`.
func readerNaturalLess(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    var i = 0, j = 0
    while i < x.count && j < y.count {
        let dx = x[i] >= 0x30 && x[i] <= 0x39, dy = y[j] >= 0x30 && y[j] <= 0x39
        if dx && dy {
            var si = i, sj = j
            while si < x.count && x[si] == 0x30 { si += 1 }
            while sj < y.count && y[sj] == 0x30 { sj += 1 }
            var ei = si, ej = sj
            while ei < x.count && x[ei] >= 0x30 && x[ei] <= 0x39 { ei += 1 }
            while ej < y.count && y[ej] >= 0x30 && y[ej] <= 0x39 { ej += 1 }
            if ei - si != ej - sj { return ei - si < ej - sj }
            for k in 0..<(ei - si) where x[si + k] != y[sj + k] { return x[si + k] < y[sj + k] }
            i = ei; j = ej
        } else {
            if x[i] != y[j] { return x[i] < y[j] }
            i += 1; j += 1
        }
    }
    return x.count - i < y.count - j
}

/// Stores the numbers a reader read into a stream without going through `Vector3`.
extension SensorStream {
    /// Builds a three-axis stream from three columns of `rows`, scaled by `scale`.
    static func fromColumns(kind: StreamKind, name: String? = nil, times: [Double], rows: NumericRows,
                            x: Int, y: Int, z: Int, scale: Double = 1) -> SensorStream {
        var v = [Double]()
        v.reserveCapacity(rows.count * 3)
        for i in 0..<rows.count {
            v.append(rows.value(i, x) * scale); v.append(rows.value(i, y) * scale); v.append(rows.value(i, z) * scale)
        }
        return SensorStream(kind: kind, name: name, times: times, values: v)
    }
}
