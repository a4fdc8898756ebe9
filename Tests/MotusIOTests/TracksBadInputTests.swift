import Testing
import Foundation
import MotusTestSupport
import MotusCore
@testable import MotusIO

/// Issue #18's track inputs: detection by content, empty files, XML limits and messages, points
/// going back in time, and output paths. Each feeds the exact bad input and checks the error.
@Suite struct TracksBadInputTests {
    /// A small valid GPX track of three points, one second apart.
    static let gpxBody = """
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
        <trk><trkseg>
        <trkpt lat="52.5" lon="13.4"><ele>34</ele><time>2020-01-01T00:00:00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
        <trkpt lat="52.5001" lon="13.4"><ele>35</ele><time>2020-01-01T00:00:01Z</time></trkpt>
        <trkpt lat="52.5002" lon="13.4"><ele>36</ele><time>2020-01-01T00:00:02Z</time></trkpt>
        </trkseg></trk></gpx>

        """

    static func write(_ bytes: [UInt8], name: String) -> String {
        let p = TestFiles.tempPath(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
        return p
    }

    static func readsAsTheTrack(_ path: String) throws {
        #expect(try TrackLoader.detect(path: path) == .gpx)
        guard case .track(let t) = try TrackLoader.read(path: path) else { Issue.record("not a track"); return }
        #expect(t.count == 3 && t.latitudes == [52.5, 52.5001, 52.5002] && t.times[0] == 1_577_836_800)
        #expect(t.heartRates[0] == 120 && t.creator == "test")
    }

    /// GPX found by its root element, not by "<gpx" in the first 512 bytes.
    @Test func gpxIsFoundPastCommentsDoctypeAndBOM() throws {
        let decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let comment = "<!-- " + String(repeating: "x", count: 600) + " -->\n"
        try Self.readsAsTheTrack(Self.write(Array((decl + comment + Self.gpxBody).utf8), name: "comment.gpx"))
        let doctype = "<!DOCTYPE gpx PUBLIC \"-//example//GPX 1.1>\" \"http://example.com/gpx.dtd\">\n"
        try Self.readsAsTheTrack(Self.write(Array((decl + doctype + Self.gpxBody).utf8), name: "doctype.gpx"))
        try Self.readsAsTheTrack(Self.write([0xEF, 0xBB, 0xBF] + Array((decl + Self.gpxBody).utf8), name: "bom.gpx"))
        // A name that says nothing: still found by content.
        try Self.readsAsTheTrack(Self.write(Array((comment + Self.gpxBody).utf8), name: "track.xml"))
    }

    /// UTF-16 files (little and big endian, with a byte order mark, and without one) are decoded.
    @Test func utf16IsDecoded() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" + Self.gpxBody
        let le = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        try Self.readsAsTheTrack(Self.write([0xFF, 0xFE] + le, name: "le.gpx"))
        try Self.readsAsTheTrack(Self.write([0xFE, 0xFF] + be, name: "be.gpx"))
        try Self.readsAsTheTrack(Self.write(le, name: "le-no-bom.gpx"))
        // Cut in the middle of a 16-bit unit.
        let cut = Self.write([0xFF, 0xFE] + le.dropLast(), name: "cut.gpx")
        #expect { _ = try TrackLoader.read(path: cut) } throws: { e in
            let e = e as? InputError
            return e?.reason == .truncated && e?.found == "an odd number of bytes in UTF-16 text" && e?.location == .byteOffset(2 + le.count - 2, in: cut)
        }
    }

    /// Empty files say which format they were expected to be.
    @Test func emptyFilesNameTheirFormat() throws {
        let cases = [("ride.fit", "a FIT file (a 12 or 14 byte header, then records)"), ("ride.gpx", "a GPX file (<gpx> …)"),
                     ("ride.tcx", "a TCX file (<TrainingCenterDatabase> …)"), ("data.json", "a JSON document"),
                     ("walk.motus", "a native recording (#motus,1 …)")]
        for (name, expected) in cases {
            let p = Self.write([], name: name)
            #expect { _ = try TrackLoader.read(path: p) } throws: { e in
                (e as? InputError) == InputError(.emptyFile, at: SourceLocation(file: p), found: "an empty file", expected: expected)
            }
            #expect { _ = try RecordingLoader.load(path: p) } throws: { e in
                (e as? InputError) == InputError(.emptyFile, at: SourceLocation(file: p), found: "an empty file", expected: expected)
            }
        }
        // Delimited text keeps its reader's own message.
        let csv = Self.write([], name: "walk.csv")
        #expect { _ = try RecordingLoader.load(path: csv) } throws: { e in (e as? InputError)?.expected == "a header line and rows of numbers" }
        // Only white space in a GPX.
        #expect { _ = try GPXReader.decode(Array("  \n".utf8), file: "w.gpx") } throws: { e in
            (e as? InputError)?.reason == .emptyFile && (e as? InputError)?.expected == "a GPX file (<gpx> …)"
        }
    }

    /// A text node past the limit is refused before it is built, naming the limit and where.
    @Test func longTextNodeIsRefusedNamingTheLimit() {
        let n = ReaderXMLParser.maxTextBytes
        var bytes = Array("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><name>".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: n + 1)
        bytes += Array("</name></trk></gpx>\n".utf8)
        #expect { _ = try GPXReader.decode(bytes, file: "huge.gpx") } throws: { e in
            (e as? InputError) == InputError(.badValue, at: SourceLocation(file: "huge.gpx", line: 2, column: 31),
                                             found: "a text node longer than \(n) bytes", expected: "text of at most \(n) bytes in <name>")
        }
        // Exactly at the limit is fine (the name is not used).
        var ok = Array("<gpx><trk><name>".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: n) + Array("</name></trk></gpx>".utf8)
        #expect((try? GPXReader.decode(ok, file: "ok.gpx")) != nil)
        // Attribute values too.
        ok = Array("<gpx creator=\"".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: n + 1) + Array("\"></gpx>".utf8)
        #expect { _ = try GPXReader.decode(ok, file: "attr.gpx") } throws: { e in
            (e as? InputError)?.found == "an attribute value over \(n) bytes" && (e as? InputError)?.location == SourceLocation(file: "attr.gpx", line: 1, column: 14)
        }
    }

    /// Malformed XML: what was found and expected, at line and column (no bare number).
    @Test func malformedXMLSaysWhatAndWhere() {
        let bad = "<?xml version=\"1.0\"?>\n<gpx><trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><ele>3</trkpt></trkseg></trk></gpx>"
        #expect { _ = try GPXReader.decode(Array(bad.utf8), file: "bad.gpx") } throws: { e in
            (e as? InputError) == InputError(.badValue, at: SourceLocation(file: "bad.gpx", line: 3, column: 30), found: "</trkpt></trkseg></t",
                                             expected: "</ele> (closing <ele> of line 3, column 24)")
        }
        // An entity a DOCTYPE declares is never expanded.
        let entity = "<!DOCTYPE gpx [<!ENTITY a \"aaaa\">]>\n<gpx><trk><name>&a;</name></trk></gpx>"
        #expect { _ = try GPXReader.decode(Array(entity.utf8), file: "e.gpx") } throws: { e in
            (e as? InputError)?.location == SourceLocation(file: "e.gpx", line: 2, column: 17) && (e as? InputError)?.found.hasPrefix("&a;") == true
        }
        let truncated = "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">"
        #expect { _ = try GPXReader.decode(Array(truncated.utf8), file: "t.gpx") } throws: { e in
            (e as? InputError)?.reason == .truncated && (e as? InputError)?.expected == "the end tag </trkpt>"
        }
        #expect { _ = try TCXReader.decode(Array("<gpx></gpx>".utf8), file: "x.tcx") } throws: { e in
            (e as? InputError) == InputError(.badHeader, at: SourceLocation(file: "x.tcx", line: 1, column: 1), found: "<gpx>",
                                             expected: "<TrainingCenterDatabase> as the root element")
        }
    }

    /// Points going back in time are refused at the point where it happens.
    @Test func pointsGoingBackInTime() {
        let reversed = Self.gpxBody.replacingOccurrences(of: "00:00:01Z", with: "00:00:03Z")
        #expect { _ = try GPXReader.decode(Array(reversed.utf8), file: "r.gpx") } throws: { e in
            (e as? InputError) == InputError(.timeBackwards, at: SourceLocation(file: "r.gpx", line: 5, column: 52), found: "2020-01-01T00:00:02Z",
                                             expected: "a time at or after 2020-01-01T00:00:03Z (the point before, line 4): GPX points in time order")
        }
        // Equal times are kept.
        let same = Self.gpxBody.replacingOccurrences(of: "00:00:01Z", with: "00:00:00Z")
        #expect((try? GPXReader.decode(Array(same.utf8), file: "s.gpx"))?.count == 3)
    }

    /// Real GPX and TCX files read the same as before (counts, first time, device totals).
    @Test(.enabled(if: TrackData.available)) func realFilesStillRead() throws {
        let run = try GPXReader.read(path: TrackData.path("togeojson/run.gpx"))
        #expect(run.count == 206 && run.times[0] == 1351121380 && run.heartRates.allSatisfy { !$0.isNaN })
        let tcx = try TCXReader.read(path: TrackData.path("tcxparser/test.tcx"))
        #expect(tcx.count == 384 && tcx.sport == "running" && tcx.creator != nil)
        for f in TrackData.fitFiles { #expect((try? FITReader.read(path: TrackData.path(f))) != nil, "\(f)") }
    }

    /// A FIT file whose second record's timestamp is before the first one's is refused at
    /// that record's byte offset.
    @Test func fitRecordGoingBack() throws {
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        // Definition of local type 0 = global 20 (record) with one field: 253 timestamp, uint32.
        var body: [UInt8] = [0x40, 0, 0, 20, 0, 1, 253, 4, 0x86]
        body += [0x00] + u32(1000)
        body += [0x00] + u32(999)
        var file: [UInt8] = [12, 0x10, 0x08, 0x08] + u32(UInt32(body.count)) + Array(".FIT".utf8) + body
        let crc = file.withUnsafeBufferPointer { FITReader.crc16($0) }
        file += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        let p = TracksBadInputTests.write(file, name: "back.fit")
        #expect { _ = try FITReader.read(path: p) } throws: { e in
            (e as? InputError) == InputError(.timeBackwards, at: .byteOffset(12 + 9 + 5, in: p), found: "a record at FIT time 999",
                                             expected: "a time at or after the record before (FIT time 1000): records in time order")
        }
        // In order, it reads.
        file[12 + 9 + 5 + 1] = 0xE9; file[12 + 9 + 5 + 2] = 0x03   // 1001
        var ok = Array(file.dropLast(2))
        ok[12 + 9 + 5 + 1] = UInt8(1001 & 0xFF)
        let crc2 = ok.withUnsafeBufferPointer { FITReader.crc16($0) }
        ok += [UInt8(crc2 & 0xFF), UInt8(crc2 >> 8)]
        #expect(try FITReader.read(path: TracksBadInputTests.write(ok, name: "ok.fit")).count == 2)
    }
}

@Suite struct OutputPathTests {
    @Test func aFileInTheWayIsNamed() throws {
        let file = TestFiles.temp("not a folder", name: "plain.txt")
        #expect(throws: OutputPathError("cannot create folder '\(file)/x': '\(file)' is not a folder")) { try OutputPath.prepareFolder(file + "/x/") }
        #expect(throws: OutputPathError("cannot write '\(file)/x/y.motus': '\(file)' is not a folder")) { try OutputPath.prepareFile(file + "/x/y.motus") }
        #expect(throws: OutputPathError("cannot write '\(file)/x/': '\(file)' is not a folder")) { try OutputPath.prepareFile(file + "/x/") }
        let dir = TestFiles.tempDir()
        #expect(throws: OutputPathError("cannot write '\(dir)': expected a file name, found a folder")) { try OutputPath.prepareFile(dir) }
        // Missing folders are made.
        try OutputPath.prepareFile(dir + "/a/b/out.json")
        #expect(DatasetLocator.isDirectory(dir + "/a/b"))
        try OutputPath.prepareFolder(dir + "/c/d/")
        #expect(DatasetLocator.isDirectory(dir + "/c/d"))
    }
}
