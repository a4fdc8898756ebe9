import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// Small hand-written files with one fault each: the reader must throw the exact error at the
/// exact line and column, never crash and never skip the row.
@Suite("Readers: bad input")
struct ReadersBadInputTests {
    static let msHeader = ",attitude.roll,attitude.pitch,attitude.yaw,gravity.x,gravity.y,gravity.z,rotationRate.x,rotationRate.y,rotationRate.z,userAcceleration.x,userAcceleration.y,userAcceleration.z\n"
    static let msRow0 = "0,1.5,-0.7,0.6,0.74,0.67,-0.03,0.3,0.7,1.0,0.29,-0.18,0.37\n"

    func msFile(_ t: TempDir, _ body: String) -> String {
        t.write("A_DeviceMotion_data/wlk_7/sub_1.csv", Self.msHeader + body)
    }

    @Test("a good tiny MotionSense file reads (control for the cases below)")
    func goodControl() throws {
        let t = TempDir()
        let r = try MotionSenseReader.read(path: msFile(t, Self.msRow0 + "1,1.5,-0.7,0.6,0.74,0.67,-0.03,0.3,0.7,1.0,0.29,-0.18,0.37"))
        #expect(r.stream(.gravity)?.count == 2 && r.labels.first?.label == "wlk" && r.metadata.subject == "sub_1")
        #expect(r.stream(.gravity)!.vector(0) == Vector3(0.74, 0.67, -0.03) * -Units.standardGravity)
    }

    @Test("bad number: line and column of the field")
    func badNumber() {
        let t = TempDir()
        let e = inputError { _ = try MotionSenseReader.read(path: msFile(t, Self.msRow0 + "1,1.5,-0.7,0.6,0.74,0.6x7,-0.03,0.3,0.7,1.0,0.29,-0.18,0.37\n")) }
        #expect(e?.reason == .badNumber)
        #expect(e?.location.line == 3 && e?.location.column == 21)
        #expect(e?.found == "0.6x7" && e?.expected.contains("gravity.y") == true)
        #expect(e?.description.hasSuffix("sub_1.csv:3:21: found '0.6x7', expected a number (gravity.y)") == true)
    }

    @Test("missing column: a short row")
    func missingColumn() {
        let t = TempDir()
        let short = "1,1.5,-0.7,0.6,0.74,0.67,-0.03,0.3,0.7,1.0,0.29,-0.18"
        let e = inputError { _ = try MotionSenseReader.read(path: msFile(t, Self.msRow0 + short + "\n")) }
        #expect(e?.reason == .missingColumn)
        #expect(e?.location.line == 3 && e?.location.column == short.utf8.count + 1)
        #expect(e?.found == "12 fields")
    }

    @Test("missing column in the header")
    func missingHeaderColumn() {
        let t = TempDir()
        let p = t.write("A_DeviceMotion_data/wlk_7/sub_1.csv", Self.msHeader.replacingOccurrences(of: "gravity.z", with: "gravity.w") + Self.msRow0)
        let e = inputError { _ = try MotionSenseReader.read(path: p) }
        #expect(e?.reason == .missingColumn && e?.location.line == 1 && e?.expected == "a column named 'gravity.z'")
    }

    @Test("empty file and header-only file")
    func empty() {
        let t = TempDir()
        let e1 = inputError { _ = try MotionSenseReader.read(path: t.write("A_DeviceMotion_data/wlk_7/sub_2.csv", "")) }
        #expect(e1?.reason == .emptyFile && e1?.location.line == 0)
        let e2 = inputError { _ = try MotionSenseReader.read(path: msFile(t, "")) }
        #expect(e2?.reason == .emptyFile)
    }

    @Test("NaN and inf values are refused as non-finite, at their column")
    func nonFinite() {
        let t = TempDir()
        let e = inputError { _ = try MotionSenseReader.read(path: msFile(t, "0,1.5,-0.7,NaN,0.74,0.67,-0.03,0.3,0.7,1.0,0.29,-0.18,0.37\n")) }
        #expect(e?.reason == .nonFinite && e?.location.line == 2 && e?.location.column == 12 && e?.found == "NaN")
        let e2 = inputError { _ = try MotionSenseReader.read(path: msFile(t, "0,1.5,-0.7,0.6,0.74,0.67,-0.03,0.3,0.7,1.0,0.29,-0.18,-inf\n")) }
        #expect(e2?.reason == .nonFinite && e2?.location.line == 2)
    }

    @Test("a blank line in the middle is an error, blank lines at the end are not")
    func blankLines() throws {
        let t = TempDir()
        let e = inputError { _ = try MotionSenseReader.read(path: msFile(t, Self.msRow0 + "\n" + Self.msRow0)) }
        #expect(e?.reason == .missingColumn && e?.location.line == 3)
        let r = try MotionSenseReader.read(path: msFile(t, Self.msRow0 + "\n\n"))
        #expect(r.stream(.gravity)?.count == 1)
    }

    @Test("subject info: bad gender value")
    func subjectInfo() {
        let t = TempDir()
        let p = t.write("data_subjects_info.csv", "\u{FEFF}code,weight,height,age,gender\n1,102,188,46,1\n2,72,180,28,3")
        let e = inputError { _ = try MotionSenseReader.subjectInfo(path: p) }
        #expect(e?.reason == .badValue && e?.location.line == 3)
    }

    // MARK: Oxford

    func oxford(_ t: TempDir, acc: String, steps: String) -> String {
        t.write("Samsung_Dario_Hard_Purse_1/accelerometer.csv", acc)
        t.write("Samsung_Dario_Hard_Purse_1/stepcounter.csv", steps)
        return t.path + "/Samsung_Dario_Hard_Purse_1"
    }

    @Test("Oxford: good tiny walk, then a foot-switch value 2, time going backwards, a short row")
    func oxfordCases() throws {
        let t = TempDir()
        let acc = "1000000000,3,0.1,0.2,9.8\r\n1005000000,3,0.1,0.2,9.8\r\n1010000000,3,0.2,0.2,9.7\r\n"
        let r = try OxfordReader.read(folder: oxford(t, acc: acc, steps: "1000000000,1,1\n1100000000,0,1\n1200000000,1,0\n1300000000,1,1\n"))
        #expect(r.events == [GroundTruthEvent(time: 1.2, kind: "step", detail: "right"), GroundTruthEvent(time: 1.3, kind: "step", detail: "left")])
        #expect(r.metadata.extra["repeated_values"] == "1" && r.stream(.acceleration)?.count == 3 && r.metadata.placement == "bag")

        let e1 = inputError { _ = try OxfordReader.read(folder: oxford(t, acc: acc, steps: "1000000000,1,1\n1100000000,2,1\n")) }
        #expect(e1?.reason == .badValue && e1?.location.line == 2 && e1?.location.file.hasSuffix("stepcounter.csv") == true)

        let back = "1000000000,3,0.1,0.2,9.8\r\n999000000,3,0.1,0.2,9.8\r\n"
        let e2 = inputError { _ = try OxfordReader.read(folder: oxford(t, acc: back, steps: "1000000000,1,1\n")) }
        #expect(e2?.reason == .timeBackwards && e2?.location.line == 2 && e2?.location.column == 1)

        let short = "1000000000,3,0.1,0.2,9.8\r\n1005000000,3,0.1,0.2\r\n"
        let e3 = inputError { _ = try OxfordReader.read(folder: oxford(t, acc: short, steps: "1000000000,1,1\n")) }
        #expect(e3?.reason == .missingColumn && e3?.location.line == 2 && e3?.location.column == 21)

        let e4 = inputError { _ = try OxfordReader.read(folder: t.path + "/nothing-here") }
        #expect(e4?.reason == .unreadable)
    }

    // MARK: IPOL

    static let lbHeader = "Acquisition frequency: 100 Hz\nPacketCounter\tAcc_X\tAcc_Y\tAcc_Z\tGyr_X\tGyr_Y\tGyr_Z\tMag_X\tMag_Y\tMag_Z\n"
    static func lbRow(_ c: Int) -> String { "\(c).0\t9.7\t0.1\t0.2\t0.01\t0.02\t0.03\t-0.3\t0.1\t-0.7\n" }

    @Test("IPOL: gaps kept, NaN in JSON read as unknown, labels; bad header; counter backwards; JSON syntax error")
    func ipolCases() throws {
        let t = TempDir()
        var rows = ""
        for c in [0, 1, 2, 5, 6, 7, 8, 9] { rows += Self.lbRow(c) }
        let p = t.write("GaitData/2-2_lb.txt", Self.lbHeader + rows)
        t.write("GaitData/2-2.json", #"{"Subject": 2, "Trial": 2, "Age": 60, "Gender": "M", "Height": NaN, "Weight": NaN, "TrialBoundaries": [1, 8], "UTurnBoundaries": [4, 5], "LeftFootEvents": [[1, 3]], "RightFootEvents": [[5, 8], [8, 9]]}"#)
        let r = try IPOLReader.read(path: p)
        #expect(r.stream(.acceleration)?.times == [0, 0.01, 0.02, 0.05, 0.06, 0.07, 0.08, 0.09])
        #expect(r.metadata.extra["lost_packets"] == "2" && r.metadata.heightMeters == nil && r.metadata.weightKg == nil)
        #expect(r.metadata.age == 60 && r.metadata.gender == "male" && r.metadata.subject == "2")
        #expect(r.labels == [LabelSegment(start: 0, end: 0.01, label: "still"), LabelSegment(start: 0.01, end: 0.04, label: "walk"),
                             LabelSegment(start: 0.04, end: 0.06, label: "turn"), LabelSegment(start: 0.06, end: 0.09, label: "walk"),
                             LabelSegment(start: 0.09, end: 0.1, label: "still")])
        #expect(r.events.filter { $0.kind == "step" }.map(\.time) == [0.03, 0.08, 0.09])
        #expect(r.metadata.extra["steps_after_trial"] == "1")

        let bad = t.write("GaitData/3-1_lb.txt", "Acquisition frequency: 100 Hz\nCounter\tAcc_X\n")
        let e1 = inputError { _ = try IPOLReader.read(path: bad) }
        #expect(e1?.reason == .badHeader && e1?.location.line == 2)

        let backwards = t.write("GaitData/4-1_lb.txt", Self.lbHeader + Self.lbRow(5) + Self.lbRow(3))
        let e2 = inputError { _ = try IPOLReader.read(path: backwards) }
        #expect(e2?.reason == .timeBackwards && e2?.location.line == 4)

        let missing = t.write("GaitData/5-1_lb.txt", Self.lbHeader + Self.lbRow(0) + "1.0\t9.7\t0.1\n")
        let e3 = inputError { _ = try IPOLReader.read(path: missing) }
        #expect(e3?.reason == .missingColumn && e3?.location.line == 4)

        // A PacketCounter beyond XSens's 16 bits is an error at its row (it once trapped, or
        // made a gap of 10^16 s).
        for (k, c) in ["9300000000000000000.0", "1000000000000000000.0", "65536.0"].enumerated() {
            let huge = t.write("GaitData/7-\(k)_lb.txt", Self.lbHeader + Self.lbRow(0) + c + "\t9.7\t0.1\t0.2\t0.01\t0.02\t0.03\t-0.3\t0.1\t-0.7\n")
            let e = inputError { _ = try IPOLReader.read(path: huge) }
            #expect(e?.reason == .badValue && e?.location.line == 4 && e?.location.column == 1, "\(c): \(String(describing: e))")
        }

        // Heights a person cannot have are errors at their place in the JSON (they once reached
        // the stride model as 0 m or −1.75 m).
        for (k, h) in ["0", "-175", "1e300"].enumerated() {
            let lb = t.write("GaitData/8-\(k)_lb.txt", Self.lbHeader + rows)
            t.write("GaitData/8-\(k).json", #"{"Subject": 8, "TrialBoundaries": [1, 8], "UTurnBoundaries": [4, 5], "LeftFootEvents": [[1, 3]], "RightFootEvents": [[5, 8]],"# + "\n \"Height\": \(h)}")
            let e = inputError { _ = try IPOLReader.read(path: lb) }
            #expect(e?.reason == .badValue && e?.location.line == 2 && e?.location.column == 12, "\(h): \(String(describing: e))")
        }

        let p6 = t.write("GaitData/6-1_lb.txt", Self.lbHeader + Self.lbRow(0))
        t.write("GaitData/6-1.json", "{\"Subject\": 6,\n \"TrialBoundaries\": [1, 8],, \"x\": 1}")
        let e4 = inputError { _ = try IPOLReader.read(path: p6) }
        #expect(e4?.reason == .badValue && e4?.location.line == 2 && e4?.location.column == 28)
        #expect(e4?.location.file.hasSuffix("6-1.json") == true)
    }

    // MARK: mPower

    static func dm(_ t: Double, gravityZ: String = "-1.0", extra: String = "") -> String {
        #"{"attitude":{"y":0,"w":1,"z":0,"x":0},"timestamp":\#(t),"rotationRate":{"x":0.1,"y":0,"z":0},"userAcceleration":{"x":0,"y":0,"z":0.5},"gravity":{"x":0,"y":0,"z":\#(gravityZ)},"magneticField":{"y":0,"z":0,"x":0,"accuracy":-1}\#(extra)}"#
    }

    @Test("mPower: good tiny file; missing key; NaN value; time backwards; empty array; not JSON")
    func mpowerCases() throws {
        let t = TempDir()
        let good = try MPowerReader.read(path: t.write("a.json", "[" + Self.dm(0) + ",\n" + Self.dm(0.01) + "]"))
        #expect(good.stream(.gravity)?.vector(0) == Vector3(0, 0, Units.standardGravity))
        #expect(good.stream(.acceleration)?.vector(1) == Vector3(0, 0, Units.standardGravity - 0.5 * Units.standardGravity))
        #expect(good.stream(.magneticField) == nil && good.stream(.attitude)?.quaternion(0) == .identity)

        let noGravity = Self.dm(0.01).replacingOccurrences(of: #""gravity""#, with: #""gravityX""#)
        let e1 = inputError { _ = try MPowerReader.read(path: t.write("b.json", "[" + Self.dm(0) + ",\n  " + noGravity + "]")) }
        #expect(e1?.reason == .missingColumn && e1?.location.line == 2 && e1?.location.column == 3)
        #expect(e1?.expected.contains("'gravity'") == true)

        let e2 = inputError { _ = try MPowerReader.read(path: t.write("c.json", "[" + Self.dm(0, gravityZ: "NaN") + "]")) }
        #expect(e2?.reason == .nonFinite && e2?.location.line == 1 && e2?.found.hasPrefix("NaN") == true)

        let e3 = inputError { _ = try MPowerReader.read(path: t.write("d.json", "[" + Self.dm(1) + "," + Self.dm(0.5) + "]")) }
        #expect(e3?.reason == .timeBackwards)

        let e4 = inputError { _ = try MPowerReader.read(path: t.write("e.json", " [ ] ")) }
        #expect(e4?.reason == .emptyFile)
        let e5 = inputError { _ = try MPowerReader.read(path: t.write("f.json", "")) }
        #expect(e5?.reason == .emptyFile)
        let e6 = inputError { _ = try MPowerReader.read(path: t.write("g.json", "[{\"timestamp\": 0.0,\n\"gravity\": tru}]")) }
        #expect(e6?.reason == .badNumber && e6?.location.line == 2 && e6?.location.column == 12)
        let e7 = inputError { _ = try MPowerReader.read(path: t.write("h.json", "[{\"timestamp\": 0.0")) }
        #expect(e7?.reason == .truncated)
    }

    @Test("JSON parser: escapes, unicode, nesting, NaN tokens, numbers exactly as NumberParser")
    func jsonParser() throws {
        let text = #"{"a": "x\"y\\z\n\u00e9\ud83d\ude00", "b": [1, -2.5e3, NaN, -Infinity, true, false, null], "c": {"d": []}}"#
        let doc = try ReaderJSONDocument(path: "t.json", bytes: Array(text.utf8))
        #expect(doc.root["a"]?.string == "x\"y\\z\né😀")
        let b = try #require(doc.root["b"]?.array)
        #expect(b.count == 7 && b[0].number == 1 && b[1].number == -2500 && b[2].number!.isNaN && b[3].number == -.infinity)
        #expect(b[6].isNull && doc.root["c"]?["d"]?.array?.isEmpty == true)
        #expect(doc.location(b[1]) == SourceLocation(file: "t.json", line: 1, column: 47))
        for bad in ["[1,]", "{\"a\" 1}", "[nan]", "[01x]", "\"abc", "[1] 2"] {
            #expect(inputError { _ = try ReaderJSONDocument(path: "t.json", bytes: Array(bad.utf8)) } != nil, "\(bad) should fail")
        }
    }
}
