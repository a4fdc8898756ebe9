import Foundation
import Testing
import MotusCore
import MotusIO

/// The mutation recipes of #18, kept as a deterministic suite over the bundled files
/// (`datasets/*.motus`, `datasets/mobgap/*.csv`): truncation, byte flips, huge numbers, NaN and
/// infinity, bad and backward timestamps, missing and extra columns, CR-only and CRLF line
/// ends, UTF-16, deep JSON and XML entity tricks. Every mutant goes through the readers in
/// process and must give either a clean read or an `InputError` on one line that names the
/// file and a line (or byte offset). A read must never hold a value the shared rule refuses:
/// a non-finite sample or a time more than 1e10 s from the first. Where a mutation changes
/// data, the exact error and its line are asserted.
///
@Suite("Mutations of the bundled files (#18)")
struct MutationTests {
    // MARK: Sources

    enum Kind: String, Sendable { case native, csvRate, csvTime }

    /// One bundled file, cut to whole lines, and how Motus reads it.
    struct Source: Sendable, CustomStringConvertible {
        var name: String
        var kind: Kind
        var lines: [String]
        var description: String { "\(name) (\(kind.rawValue))" }
        var text: String { lines.joined(separator: "\n") + "\n" }
        var fileName: String { kind == .native ? "mutant.motus" : "mutant.csv" }
        /// Index of the first line that holds a sample.
        var firstSample: Int { lines.firstIndex { Self.isSample($0, kind) }! }
        var sampleLines: Int { lines.filter { Self.isSample($0, kind) }.count }

        static func isSample(_ line: String, _ kind: Kind) -> Bool {
            guard let c = line.first else { return false }
            return kind == .native ? (c != "#" && c != "@") : (c.isNumber || c == "-")
        }
        /// The sample lines of a given stream (native: `acc`; CSV: every row), by index into `lines`.
        var valueLines: [Int] { lines.indices.filter { Self.isSample(lines[$0], kind) && (kind != .native || lines[$0].hasPrefix("acc,")) } }
    }

    static let bundled = DatasetLocator.bundledDatasets(packageRoot: DatasetLocator.packageRoot(fromFile: #filePath))

    static func fileLines(_ path: String) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static let sources: [Source] = {
        var out: [Source] = []
        for name in ["lowback-straight-walk.motus", "lowback-daily-activities.motus", "iphone-belt-stand-then-walk.motus"] {
            let all = fileLines(bundled + "/" + name)
            // The declarations, the first samples, and the labels and events further on.
            let head = Array(all.prefix(300))
            let marks = all.dropFirst(300).filter { $0.hasPrefix("@label") || $0.hasPrefix("@event") }.prefix(10)
            out.append(Source(name: name, kind: .native, lines: head + marks))
        }
        let csv = fileLines(bundled + "/mobgap/MS001_TimeMeasure1_Test5_Trial1.csv")
        out.append(Source(name: "MS001 mobgap", kind: .csvRate, lines: Array(csv.prefix(250))))
        // The same rows with a time column in seconds (samples / 100), so time mutations apply.
        var timed = ["time" + csv[0].drop { $0 != "," }]
        for line in csv.dropFirst().prefix(249) where !line.isEmpty {
            let n = Double(line.prefix { $0 != "," })!
            timed.append("\(n / 100)" + line.drop { $0 != "," })
        }
        out.append(Source(name: "MS001 mobgap, timed", kind: .csvTime, lines: timed))
        return out
    }()

    // MARK: Reading

    enum Outcome {
        case read(Recording)
        case failed(InputError)
        var recording: Recording? { if case .read(let r) = self { r } else { nil } }
        var error: InputError? { if case .failed(let e) = self { e } else { nil } }
    }

    static func options(_ kind: Kind) -> DelimitedOptions {
        var o = DelimitedOptions()
        o.accelUnit = .g
        o.gyroUnit = .degreesPerSecond
        if kind == .csvRate { o.rateHz = 100 }
        return o
    }

    /// Reads `path` as `kind` with the whole-file reader and, for native files, with the
    /// streaming summary `motus inspect` uses. A summary error must have the same shape.
    static func read(_ path: String, _ kind: Kind) -> Outcome {
        do {
            if kind == .native {
                let r = try NativeFormat.read(path: path)
                do { _ = try RecordingLoader.summarize(path: path, allowTruncatedTail: true) } catch { checkShape(error, path: path, "summary") }
                return .read(r)
            }
            return .read(try DelimitedReader(path: path, options: options(kind)).read())
        } catch {
            return .failed(error)
        }
    }

    /// An error a person can act on: one line, the file, and where in it (an empty file has
    /// no position).
    static func checkShape(_ e: InputError, path: String, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let text = e.description
        #expect(!text.contains("\n") && !text.contains("\r"), "\(what): error on more than one line: \(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(e.location.file == path, "\(what): error names \(e.location.file), not the file read: \(text)", sourceLocation: sourceLocation)
        #expect(e.location.line > 0 || e.location.column > 0 || e.reason == .emptyFile,
                "\(what): error without a line or byte offset: \(text)", sourceLocation: sourceLocation)
        #expect(text.hasPrefix(path), "\(what): error does not start with the file: \(text)", sourceLocation: sourceLocation)
    }

    /// What the shared rule forbids in any read: a non-finite sample (where the kind does not
    /// allow a missing value) or a time more than 1e10 s from the first sample.
    static func checkValues(_ r: Recording, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        var first: Double? = nil
        for s in r.streams {
            for i in 0..<s.count {
                let t = s.times[i]
                if first == nil { first = t }
                if !t.isFinite || abs(t - first!) > 1e10 {
                    Issue.record("\(what): stream \(s.name) sample \(i) read with time \(t)", sourceLocation: sourceLocation); return
                }
                for c in 0..<s.width where !s.value(i, c).isFinite && !(s.value(i, c).isNaN && s.kind.allowsMissing(component: c)) {
                    Issue.record("\(what): stream \(s.name) sample \(i) read with value \(s.value(i, c))", sourceLocation: sourceLocation); return
                }
            }
        }
    }

    /// Any outcome is acceptable as long as its shape is: a read without forbidden values, or
    /// a well-formed error.
    static func checkAny(_ o: Outcome, path: String, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        switch o {
        case .read(let r): checkValues(r, what, sourceLocation: sourceLocation)
        case .failed(let e): checkShape(e, path: path, what, sourceLocation: sourceLocation)
        }
    }

    /// The mutant must be refused, at `line` (1-based) when given.
    static func expectError(_ o: Outcome, path: String, line: Int?, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        switch o {
        case .read(let r):
            Issue.record("\(what): read without an error (\(r.streams.map { "\($0.name) \($0.count)" }.joined(separator: ", ")))",
                         sourceLocation: sourceLocation)
        case .failed(let e):
            checkShape(e, path: path, what, sourceLocation: sourceLocation)
            if let line { #expect(e.location.line == line, "\(what): error at line \(e.location.line), expected \(line): \(e)", sourceLocation: sourceLocation) }
        }
    }

    static func samples(_ r: Recording) -> Int { r.streams.reduce(0) { $0 + $1.count } }

    /// Samples a source's lines hold (CSV: one row feeds every stream).
    static func expectedSamples(_ s: Source, lines: ArraySlice<String>) -> Int {
        let rows = lines.filter { Source.isSample($0, s.kind) }.count
        return s.kind == .native ? rows : rows * 2
    }

    /// Writes mutants to one temporary folder, each under a fresh name so that a failure names it.
    final class Files {
        let dir = NSTemporaryDirectory() + "motus-mutations-" + UUID().uuidString
        var n = 0
        init() { try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: dir) }
        func write(_ bytes: [UInt8], _ name: String) -> String {
            n += 1
            let p = "\(dir)/\(n)-\(name)"
            _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
            return p
        }
        func write(_ text: String, _ name: String) -> String { write(Array(text.utf8), name) }
    }

    /// Replaces field `field` (0-based) of line `line` (0-based) by `value`.
    static func setField(_ s: Source, line: Int, field: Int, _ value: String) -> String {
        var lines = s.lines
        var f = lines[line].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        f[field] = value
        lines[line] = f.joined(separator: ",")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The field holding the time, and one holding an acceleration value.
    static func timeField(_ s: Source) -> Int? { s.kind == .native ? 1 : (s.kind == .csvTime ? 0 : nil) }
    static func valueField(_ s: Source) -> Int { s.kind == .native ? 3 : 2 }

    // MARK: The unchanged files

    @Test("every source reads as it is, with one sample per line", arguments: sources)
    func unchanged(_ s: Source) throws {
        let files = Files()
        let p = files.write(s.text, s.fileName)
        let r = try #require(Self.read(p, s.kind).recording, "\(s) does not read")
        #expect(Self.samples(r) == Self.expectedSamples(s, lines: s.lines[...]))
        Self.checkValues(r, "\(s)")
    }

    // MARK: Truncation

    /// Offsets to cut at: every byte of the last 300 and 60 spread over the rest.
    static func cuts(_ count: Int) -> [Int] {
        Array(Set(Array(stride(from: 0, to: count, by: max(1, count / 60))) + Array(max(0, count - 300)..<count))).sorted()
    }

    @Test("a file cut after a whole line reads every line before the cut, and a cut anywhere is never a trap", arguments: sources)
    func truncation(_ s: Source) {
        let bytes = Array(s.text.utf8)
        let files = Files()
        for cut in Self.cuts(bytes.count) {
            let prefix = Array(bytes.prefix(cut))
            let p = files.write(prefix, s.fileName)
            let o = Self.read(p, s.kind)
            Self.checkAny(o, path: p, "\(s) cut at byte \(cut)")
            guard cut > 0, prefix.last == 0x0A else { continue }
            let whole = String(decoding: prefix, as: UTF8.self).split(separator: "\n").map(String.init)
            let n = Self.expectedSamples(s, lines: whole[...])
            guard n > 0 else { continue }
            guard let r = o.recording else {
                Issue.record("\(s) cut after a whole line at byte \(cut) does not read: \(o.error!)"); continue
            }
            #expect(Self.samples(r) == n, "\(s) cut at byte \(cut): \(Self.samples(r)) samples, expected \(n)")
        }
    }

    /// A file cut inside a sample line (no final newline) must say so at that line. The native
    /// format always ends its lines, so there any such cut is an error. Text exports often end
    /// without a newline, so a delimited last line is read when it shows no cut (every field
    /// there, numbers as precise as the rest of their column: docs/FORMAT.md); then its values
    /// must be the uncut line's to within that precision (here under 1e-3).
    static func truncatedLastLine(_ s: Source) {
        let bytes = Array(s.text.utf8)
        let files = Files()
        let lastSample = s.lines.lastIndex { Source.isSample($0, s.kind) }!
        for cut in cuts(bytes.count) where cut > 0 && bytes[cut - 1] != 0x0A {
            let prefix = Array(bytes.prefix(cut))
            let line = prefix.filter { $0 == 0x0A }.count + 1
            guard line > s.firstSample + 1, line <= lastSample + 1 else { continue }
            let p = files.write(prefix, s.fileName)
            let o = read(p, s.kind)
            if s.kind != .native, let r = o.recording {
                // The same file with the cut line whole: what the accepted line must hold.
                let whole = Array(s.lines[...(line - 1)].joined(separator: "\n").utf8) + [0x0A]
                guard let full = read(files.write(whole, "whole-" + s.fileName), s.kind).recording else {
                    Issue.record("\(s): the uncut file does not read"); continue
                }
                #expect(r.streams.map(\.count) == full.streams.map(\.count), "\(s) cut at byte \(cut): the last line was not kept whole")
                for (a, b) in zip(r.streams, full.streams) where a.count == b.count && a.count > 0 {
                    let i = a.count - 1
                    for c in 0..<a.width {
                        let x = a.value(i, c), y = b.value(i, c)
                        #expect(abs(x - y) <= 1e-3 * max(1, abs(y)), "\(s) cut at byte \(cut): \(a.name)[\(c)] read \(x) where the line says \(y)")
                    }
                }
                continue
            }
            expectError(o, path: p, line: line, "\(s) cut at byte \(cut)")
        }
    }

    // MARK: Byte flips

    struct LCG {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
    }
    static let alphabet = Array("0123456789.,-+eE\tNnaIi \n\r#@\"x\u{0}\u{1B}".utf8) + [0xFF, 0xC3]

    @Test("one to four bytes overwritten: a read without forbidden values or a one-line error", arguments: sources)
    func byteFlips(_ s: Source) {
        let bytes = Array(s.text.utf8)
        var rng = LCG(state: 18)
        let files = Files()
        for trial in 0..<150 {
            var m = bytes
            for _ in 0...(trial % 4) { m[rng.next(m.count)] = Self.alphabet[rng.next(Self.alphabet.count)] }
            let p = files.write(m, s.fileName)
            Self.checkAny(Self.read(p, s.kind), path: p, "\(s) flip trial \(trial)")
        }
    }

    // MARK: Numbers

    @Test("a value that overflows to infinity, NaN or infinity written out is an error at its line", arguments: sources)
    func nonFiniteValues(_ s: Source) {
        let files = Files()
        let line = s.valueLines[5]
        for v in ["1e309", "-1e400", "nan", "NaN", "inf", "-inf", "Infinity", "+Inf"] {
            let p = files.write(Self.setField(s, line: line, field: Self.valueField(s), v), s.fileName)
            Self.expectError(Self.read(p, s.kind), path: p, line: line + 1, "\(s) value \(v)")
        }
    }

    @Test("huge but finite values: a read keeps them finite or the reader refuses them", arguments: sources.filter { $0.kind == .native })
    func hugeValues(_ s: Source) { Self.hugeValues(s) }

    static func hugeValues(_ s: Source) {
        let files = Files()
        let line = s.valueLines[7]
        for v in ["1e308", "-1e308", "9.3e18", "1.7976931348623157e308", "4.9e-324"] {
            let p = files.write(setField(s, line: line, field: valueField(s), v), s.fileName)
            checkAny(read(p, s.kind), path: p, "\(s) value \(v)")
        }
    }

    @Test("a time beyond 1e10 s of the first sample, or not finite, is an error at its line", arguments: sources.filter { timeField($0) != nil })
    func hugeTimes(_ s: Source) {
        let files = Files()
        let line = s.valueLines[9]
        for v in ["nan", "inf", "1e309"] {
            let p = files.write(Self.setField(s, line: line, field: Self.timeField(s)!, v), s.fileName)
            Self.expectError(Self.read(p, s.kind), path: p, line: line + 1, "\(s) time \(v)")
        }
    }

    /// Times a clock cannot give relative to the first sample (the shared rule: ±1e10 s).
    static func timesBeyondRule(_ s: Source) {
        let files = Files()
        let line = s.valueLines[9]
        let first = Double(s.lines[s.valueLines[0]].split(separator: ",")[timeField(s)!])!
        for v in ["1e308", "9.3e18", "-1e300", "\(first + 2e10)"] {
            let p = files.write(setField(s, line: line, field: timeField(s)!, v), s.fileName)
            expectError(read(p, s.kind), path: p, line: line + 1, "\(s) time \(v)")
        }
    }

    @Test("a time that steps back more than the tolerance is an error at its line; a small step back is kept",
          arguments: sources.filter { timeField($0) != nil })
    func backwardTimes(_ s: Source) throws {
        let files = Files()
        let lines = s.valueLines
        let line = lines[20]
        let previous = Double(s.lines[lines[19]].split(separator: ",")[Self.timeField(s)!])!
        let back = Self.setField(s, line: line, field: Self.timeField(s)!, "\(previous - 5)")
        let p = files.write(back, s.fileName)
        let o = Self.read(p, s.kind)
        Self.expectError(o, path: p, line: line + 1, "\(s) time 5 s back")
        #expect(o.error?.reason == .timeBackwards, "\(s): \(String(describing: o.error))")

        let small = files.write(Self.setField(s, line: line, field: Self.timeField(s)!, "\(previous - 0.5)"), s.fileName)
        let r = try #require(Self.read(small, s.kind).recording, "\(s): a 0.5 s step back is refused")
        #expect(Self.samples(r) == Self.expectedSamples(s, lines: s.lines[...]))

        for v in ["abc", "", "0x10", "1..5", "--1"] {
            let p = files.write(Self.setField(s, line: line, field: Self.timeField(s)!, v), s.fileName)
            Self.expectError(Self.read(p, s.kind), path: p, line: line + 1, "\(s) time '\(v)'")
        }
    }

    // MARK: Columns

    @Test("a row missing its last column is an error at its line; an extra column is read or refused at its line", arguments: sources)
    func missingAndExtraColumns(_ s: Source) {
        let files = Files()
        let line = s.valueLines[11]
        var lines = s.lines
        lines[line] = lines[line].split(separator: ",", omittingEmptySubsequences: false).dropLast().joined(separator: ",")
        let p = files.write(lines.joined(separator: "\n") + "\n", s.fileName)
        Self.expectError(Self.read(p, s.kind), path: p, line: line + 1, "\(s) row without its last column")

        lines = s.lines
        lines[line] += ",1.5"
        let q = files.write(lines.joined(separator: "\n") + "\n", s.fileName)
        switch Self.read(q, s.kind) {
        case .read(let r): #expect(Self.samples(r) == Self.expectedSamples(s, lines: s.lines[...]), "\(s): extra column changed the count")
        case .failed(let e): Self.checkShape(e, path: q, "\(s) extra column"); #expect(e.location.line == line + 1, "\(e)")
        }
    }

    // MARK: Line ends and encodings

    @Test("CRLF line ends read exactly as LF", arguments: sources)
    func crlf(_ s: Source) throws {
        let files = Files()
        let lf = try #require(Self.read(files.write(s.text, s.fileName), s.kind).recording)
        let p = files.write(s.lines.joined(separator: "\r\n") + "\r\n", s.fileName)
        let r = try #require(Self.read(p, s.kind).recording, "\(s) with CRLF does not read")
        #expect(r.streams == lf.streams)
        #expect(r.labels == lf.labels && r.events == lf.events)
    }

    /// The same recording as the LF file, or a well-formed error: never fewer samples.
    static func sameOrRefused(_ s: Source, _ bytes: [UInt8], _ what: String, files: Files) {
        let lf = Self.read(files.write(s.text, s.fileName), s.kind).recording
        let p = files.write(bytes, s.fileName)
        switch Self.read(p, s.kind) {
        case .read(let r):
            #expect(r.streams == lf?.streams, "\(s) \(what): read \(Self.samples(r)) samples, the LF file has \(lf.map(Self.samples) ?? -1)")
        case .failed(let e):
            Self.checkShape(e, path: p, "\(s) \(what)")
        }
    }

    @Test("CR-only line ends: the same recording or an error, never a silent empty read", arguments: sources.filter { $0.kind == .native })
    func crOnly(_ s: Source) {
        Self.sameOrRefused(s, Array((s.lines.joined(separator: "\r") + "\r").utf8), "CR-only", files: Files())
    }

    @Test("UTF-16 (with BOM, both byte orders) and a UTF-8 BOM: the same recording or an error", arguments: sources)
    func encodings(_ s: Source) {
        let files = Files()
        var le: [UInt8] = [0xFF, 0xFE], be: [UInt8] = [0xFE, 0xFF]
        for u in s.text.utf16 {
            le += [UInt8(u & 0xFF), UInt8(u >> 8)]
            be += [UInt8(u >> 8), UInt8(u & 0xFF)]
        }
        Self.sameOrRefused(s, le, "UTF-16LE", files: files)
        Self.sameOrRefused(s, be, "UTF-16BE", files: files)
        Self.sameOrRefused(s, [0xEF, 0xBB, 0xBF] + Array(s.text.utf8), "UTF-8 BOM", files: files)
    }

    // MARK: JSON

    @Test("deep JSON nesting is an error at a byte offset, not a stack overflow")
    func deepJSON() {
        let files = Files()
        for (name, text) in [("arrays", String(repeating: "[", count: 100_000)),
                             ("objects", String(repeating: "{\"a\":", count: 50_000)),
                             ("mixed", String(repeating: "[{\"x\":", count: 30_000) + "1")] {
            do {
                _ = try ReaderJSON.parse(Array(text.utf8), file: "deep.json")
                Issue.record("\(name): parsed")
            } catch {
                #expect(error.location.file == "deep.json" && error.location.column > 0, "\(name): \(error)")
                #expect(!error.description.contains("\n"))
            }
            let p = files.write(text, "walk_data.json")
            do {
                _ = try MPowerReader.read(path: p)
                Issue.record("\(name): mPower read it")
            } catch {
                Self.checkShape(error, path: p, "mPower \(name)")
            }
            var batch = SampleBatch()
            let (outcome, _) = SensorLoggerParser.parse(Array(text.utf8), into: &batch)
            #expect(outcome.samples == 0 && outcome.malformed == 1, "\(name): \(outcome)")
        }
    }

    // MARK: XML

    /// A file whose contents must never appear in what a reader returns.
    static func secretFile(_ files: Files) -> String { files.write("4242", "secret.txt") }

    @Test("GPX and TCX: external entities are never resolved, and nested entity expansion is bounded")
    func xmlEntitiesInTracks() throws {
        let files = Files()
        let secret = Self.secretFile(files)
        let gpx = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [<!ENTITY xxe SYSTEM "file://\(secret)">]>
            <gpx version="1.1"><trk><trkseg><trkpt lat="59.91" lon="10.75"><ele>&xxe;</ele><time>2023-10-31T12:00:00Z</time></trkpt>
            <trkpt lat="59.92" lon="10.76"><ele>1</ele><time>2023-10-31T12:00:01Z</time></trkpt></trkseg></trk></gpx>
            """
        do {
            let t = try GPXReader.decode(Array(gpx.utf8), file: "xxe.gpx")
            #expect(!t.elevations.contains(4242), "the external entity was resolved: \(t.elevations)")
        } catch {
            #expect(error.location.file == "xxe.gpx" && !error.description.contains("\n"), "\(error)")
        }
        let tcx = """
            <?xml version="1.0"?>
            <!DOCTYPE TrainingCenterDatabase [<!ENTITY xxe SYSTEM "file://\(secret)">]>
            <TrainingCenterDatabase><Activities><Activity Sport="Running"><Id>2023-10-31T12:00:00Z</Id><Lap StartTime="2023-10-31T12:00:00Z"><Track>
            <Trackpoint><Time>2023-10-31T12:00:00Z</Time><Position><LatitudeDegrees>59.91</LatitudeDegrees><LongitudeDegrees>10.75</LongitudeDegrees></Position><AltitudeMeters>&xxe;</AltitudeMeters></Trackpoint>
            </Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        do {
            let t = try TCXReader.decode(Array(tcx.utf8), file: "xxe.tcx")
            #expect(!t.elevations.contains(4242), "the external entity was resolved: \(t.elevations)")
        } catch {
            #expect(error.location.file == "xxe.tcx" && !error.description.contains("\n"), "\(error)")
        }
        // Ten levels of ten: 10^10 expansions if nothing bounds them.
        var decl = "<!ENTITY e0 \"lol\">"
        for i in 1...10 { decl += "<!ENTITY e\(i) \"" + String(repeating: "&e\(i - 1);", count: 10) + "\">" }
        let laughs = "<?xml version=\"1.0\"?><!DOCTYPE gpx [\(decl)]><gpx><trk><name>&e10;</name><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
        let start = Date()
        do { _ = try GPXReader.decode(Array(laughs.utf8), file: "laughs.gpx") } catch {
            #expect(error.location.file == "laughs.gpx" && !error.description.contains("\n"), "\(error)")
        }
        #expect(Date().timeIntervalSince(start) < 10, "entity expansion took \(Date().timeIntervalSince(start)) s")
    }

    @Test("WeAllWalk annotations: an external entity is never resolved and nested entities are bounded")
    func xmlEntitiesInAnnotations() {
        let files = Files()
        let secret = Self.secretFile(files)
        func annotations(_ doctype: String, _ text: String) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            \(doctype)
            <root><PathID>1</PathID><SubjectID>4</SubjectID><MobilityTool>GD</MobilityTool>
            <SubjectAnnotations>\(text)</SubjectAnnotations>
            <Segments><PathSegment><PathSegmentID>1</PathSegmentID><StartTime>1.0</StartTime><EndTime>2.0</EndTime><NSteps>1</NSteps>
            <Direction>E</Direction><Steps><Step><WhichFoot>L</WhichFoot><Time>1.5</Time></Step></Steps></PathSegment></Segments></root>
            """
        }
        let xxe = files.write(annotations("<!DOCTYPE root [<!ENTITY xxe SYSTEM \"file://\(secret)\">]>", "&xxe;"), "T1_ID4_GD.xml")
        do {
            let a = try WeAllWalkReader.readAnnotations(path: xxe)
            #expect(!a.subjectAnnotations.joined().contains("4242"), "the external entity was resolved: \(a.subjectAnnotations)")
        } catch {
            Self.checkShape(error, path: xxe, "WeAllWalk external entity")
        }
        var decl = "<!ENTITY e0 \"lol\">"
        for i in 1...10 { decl += "<!ENTITY e\(i) \"" + String(repeating: "&e\(i - 1);", count: 10) + "\">" }
        let laughs = files.write(annotations("<!DOCTYPE root [\(decl)]>", "&e10;"), "T1_ID4_GD.xml")
        let start = Date()
        do {
            let a = try WeAllWalkReader.readAnnotations(path: laughs)
            #expect(a.subjectAnnotations.joined().utf8.count < 1 << 20, "entities expanded to \(a.subjectAnnotations.joined().utf8.count) bytes")
        } catch {
            Self.checkShape(error, path: laughs, "WeAllWalk nested entities")
        }
        #expect(Date().timeIntervalSince(start) < 10)
    }

    // MARK: Waiting for the #18 reader fixes

    // The readers' shared rule (#18): cut last lines, values non-finite after conversion,
    // CR-only line ends, times beyond 1e10 s.

    @Test("a file cut inside its last line (no final newline) is an error at that line, or (text) read within the column's precision",
          arguments: sources)
    func truncatedLastLineIsAnError(_ s: Source) { Self.truncatedLastLine(s) }

    @Test("a value that becomes infinite after unit conversion (1e308 g) is an error",
          arguments: sources.filter { $0.kind != .native })
    func hugeConvertedValuesAreAnError(_ s: Source) { Self.hugeValues(s) }

    @Test("CR-only line ends in a delimited file: the same recording or an error",
          arguments: sources.filter { $0.kind != .native })
    func crOnlyLineEnds(_ s: Source) { Self.sameOrRefused(s, Array((s.lines.joined(separator: "\r") + "\r").utf8), "CR-only", files: Files()) }

    @Test("a time beyond 1e10 s of the first sample is an error at its line",
          arguments: sources.filter { timeField($0) != nil })
    func timesBeyondTheRuleAreAnError(_ s: Source) { Self.timesBeyondRule(s) }
}
