import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// Small hand-written WeAllWalk and sp-sw-har files with one fault each: the reader must throw
/// the exact error at the exact line and column, never crash and never skip the row.
@Suite("Readers: WeAllWalk and sp-sw-har bad input")
struct ReadersWalkDataBadInputTests {
    // MARK: WeAllWalk

    /// A 41-field row at time `t`: identity attitude, phone face up (CoreMotion gravity and raw
    /// accelerometer z = −1 g), calibration accuracy −1.
    static func wawRow(_ t: String) -> String {
        var f = [String](repeating: "0.000000", count: 41)
        f[0] = t; f[16] = "1.000000"; f[25] = "-1.000000"; f[29] = "-1"; f[32] = "-1.000000"; f[39] = "0"; f[40] = "0"
        return f.joined(separator: ",")
    }

    static let xmlLines = [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
        "<root xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"WeAllWalk.xsd\">",
        "<PathID>1</PathID>",
        "<SubjectID>3</SubjectID>",
        "<MobilityTool>WC</MobilityTool>",
        "<Segments>",
        "<PathSegment>",
        "\t<StartTime>0.0</StartTime>",
        "\t<EndTime>0.1</EndTime>",
        "\t<NSteps>1</NSteps>",
        "\t<Direction>E</Direction>",
        "\t<Steps>",
        "\t\t<Step>",
        "\t\t\t<WhichFoot>R</WhichFoot>",
        "\t\t\t<Time>0.04</Time>",
        "\t\t</Step>",
        "\t</Steps>",
        "</PathSegment>",
        "</Segments>",
        "</root>",
    ]

    /// Writes `sensor/iPhoneSensors_T1_ID3_1L_WC.csv` and (unless nil) `xml/T1_ID3_WC.xml`;
    /// `edit` changes the XML lines (index = line − 1). Returns the CSV path.
    func weAllWalk(_ t: TempDir, csv: [String]? = nil, xml edit: ((inout [String]) -> Void)? = { _ in }) -> String {
        if let edit {
            var lines = Self.xmlLines
            edit(&lines)
            t.write("xml/T1_ID3_WC.xml", lines.joined(separator: "\n") + "\n")
        }
        let rows = csv ?? ["0.000000", "0.040000", "0.080000"].map(Self.wawRow)
        return t.write("sensor/iPhoneSensors_T1_ID3_1L_WC.csv", rows.joined(separator: "\n") + "\n")
    }

    func xmlError(_ edit: @escaping (inout [String]) -> Void) -> InputError? {
        let t = TempDir()
        return inputError { _ = try WeAllWalkReader.read(path: weAllWalk(t, xml: edit)) }
    }

    @Test("a good tiny WeAllWalk pair reads (control for the cases below); comments, CDATA and entities are understood")
    func weAllWalkControl() throws {
        let t = TempDir()
        let r = try WeAllWalkReader.read(path: weAllWalk(t, xml: {
            $0.insert("<!-- a comment -->", at: 5)
            $0.insert("<SubjectAnnotations>Cane &amp; dog &#8211; <![CDATA[a <raw> part]]></SubjectAnnotations>", at: 5)
        }))
        #expect(r.stream(.acceleration)?.count == 3 && r.streams.count == 6)
        #expect(r.stream(.acceleration)?.vector(0) == Vector3(0, 0, Units.standardGravity))
        #expect(r.stream(.gravity)?.vector(0) == Vector3(0, 0, Units.standardGravity))
        #expect(r.events == [GroundTruthEvent(time: 0.04, kind: "step", detail: "right")])
        #expect(r.labels == [LabelSegment(start: 0, end: 0.1, label: "walk")])
        #expect(r.metadata.extra["subject_annotations"] == "Cane & dog \u{2013} a <raw> part")
        // Found beside the CSV too.
        let u = TempDir()
        u.write("T1_ID3_WC.xml", Self.xmlLines.joined(separator: "\n"))
        let p = u.write("iPhoneSensors_T1_ID3_1L_WC.csv", Self.wawRow("0.0") + "\n")
        #expect(try WeAllWalkReader.read(path: p).events.count == 1)
    }

    @Test("CSV: a short row is an error at its end, a long row at its first extra field")
    func weAllWalkColumnCount() {
        let t = TempDir()
        let short = Self.wawRow("0.040000").split(separator: ",").dropLast().joined(separator: ",")
        let e = inputError { _ = try WeAllWalkReader.read(path: weAllWalk(t, csv: [Self.wawRow("0.0"), short])) }
        #expect(e?.reason == .missingColumn && e?.location.line == 2 && e?.location.column == short.utf8.count + 1)
        #expect(e?.found == "40 fields" && e?.location.file.hasSuffix("iPhoneSensors_T1_ID3_1L_WC.csv") == true)
        let long = Self.wawRow("0.040000") + ",7"
        let e2 = inputError { _ = try WeAllWalkReader.read(path: weAllWalk(t, csv: [Self.wawRow("0.0"), long])) }
        #expect(e2?.reason == .badValue && e2?.location.line == 2 && e2?.location.column == long.utf8.count)
        #expect(e2?.found == "42 fields" && e2?.expected.hasPrefix("41 fields") == true)
    }

    @Test("CSV: a bad number at its line and column; time going backwards")
    func weAllWalkBadNumber() {
        let t = TempDir()
        var f = Self.wawRow("0.080000").split(separator: ",").map(String.init)
        f[31] = "0.1.2"
        let bad = f.joined(separator: ",")
        let column = f.prefix(31).joined(separator: ",").utf8.count + 2
        let e = inputError { _ = try WeAllWalkReader.read(path: weAllWalk(t, csv: [Self.wawRow("0.0"), Self.wawRow("0.04"), bad])) }
        #expect(e?.reason == .badNumber && e?.location.line == 3 && e?.location.column == column)
        #expect(e?.found == "0.1.2" && e?.expected == "a number (accelerometer.y)")
        let e2 = inputError { _ = try WeAllWalkReader.read(path: weAllWalk(t, csv: [Self.wawRow("0.04"), Self.wawRow("0.08"), Self.wawRow("0.04")])) }
        #expect(e2?.reason == .timeBackwards && e2?.location.line == 3 && e2?.location.column == 1)
    }

    @Test("a CSV without its XML is an error naming the XML it looked for")
    func weAllWalkMissingXML() {
        let t = TempDir()
        let p = weAllWalk(t, xml: nil)
        let e = inputError { _ = try WeAllWalkReader.read(path: p) }
        #expect(e?.reason == .unreadable && e?.location == SourceLocation(file: p))
        #expect(e?.found.contains("T1_ID3_WC.xml") == true && e?.expected.contains("xml/T1_ID3_WC.xml") == true)
        let odd = t.write("sensor/walk.csv", Self.wawRow("0") + "\n")
        #expect(inputError { _ = try WeAllWalkReader.read(path: odd) }?.reason == .badValue)
    }

    @Test("malformed XML: mismatched end tag, truncated file, text after the root, bad entity")
    func weAllWalkMalformedXML() {
        let e = xmlError { $0[14] = "\t\t\t<Time>0.04</Tim>" }
        #expect(e?.reason == .badValue && e?.location.line == 15 && e?.location.column == 14)
        #expect(e?.location.file.hasSuffix("T1_ID3_WC.xml") == true)
        #expect(e?.found.hasPrefix("</Tim>") == true && e?.expected == "</Time> (closing <Time> of line 15, column 4)")
        let e2 = xmlError { $0.removeLast(8) }   // ends after line 12, "\t<Steps>"
        #expect(e2?.reason == .truncated && e2?.location.line == 12 && e2?.location.column == 2 && e2?.expected == "the end tag </Steps>")
        let e3 = xmlError { $0.append("<root/>") }
        #expect(e3?.reason == .badValue && e3?.location.line == 21 && e3?.location.column == 1)
        let e4 = xmlError { $0[4] = "<MobilityTool>W&C</MobilityTool>" }
        #expect(e4?.reason == .badValue && e4?.location.line == 5 && e4?.location.column == 16)
        let e5 = xmlError { $0[1] = "<root a=\"1\" a=\"2\">" }
        #expect(e5?.reason == .badValue && e5?.location.line == 2 && e5?.location.column == 15)
        let e6 = xmlError { $0 = [] }
        #expect(e6?.reason == .emptyFile)
    }

    @Test("annotation content: bad step time, foot, segment times, missing element, another trial's XML")
    func weAllWalkBadAnnotations() {
        let e = xmlError { $0[14] = "\t\t\t<Time>0.O4</Time>" }
        #expect(e?.reason == .badNumber && e?.location.line == 15 && e?.location.column == 10 && e?.found == "0.O4")
        let e2 = xmlError { $0[13] = "\t\t\t<WhichFoot>X</WhichFoot>" }
        #expect(e2?.reason == .badValue && e2?.location.line == 14 && e2?.location.column == 15 && e2?.expected == "L or R in <WhichFoot>")
        let e3 = xmlError { $0[8] = "\t<EndTime>-1</EndTime>" }
        #expect(e3?.reason == .badValue && e3?.location.line == 9 && e3?.location.column == 2)
        let e4 = xmlError { $0.remove(at: 10) }   // no <Direction>
        #expect(e4?.reason == .missingColumn && e4?.location.line == 7 && e4?.location.column == 1)
        let e5 = xmlError { $0[3] = "<SubjectID>4</SubjectID>" }
        #expect(e5?.reason == .badValue && e5?.location.line == 4 && e5?.location.column == 12)
        #expect(e5?.expected.contains("iPhoneSensors_T1_ID3_1L_WC.csv") == true)
        let e6 = xmlError { $0[1] = "<annotations>"; $0[19] = "</annotations>" }
        #expect(e6?.reason == .badValue && e6?.location.line == 2 && e6?.found == "<annotations>")
    }

    // MARK: sp-sw-har

    static let spHeader = "x_acc,y_acc,z_acc,x_gyro,y_gyro,z_gyro,timestamp,label"
    static let spRows = ["0.1,0.2,9.8,0.01,0.02,0.03,1657533977813,SEATED",
                         "0.1,0.2,9.8,0.01,0.02,0.03,1657533977823,SEATED",
                         "0.1,0.2,9.8,0.01,0.02,0.03,1657533977833,STANDING_UP"]

    func spFile(_ t: TempDir, _ rows: [String], header: String = spHeader) -> String {
        t.write("DATA/s01/s01_01_sp.csv", ([header] + rows).joined(separator: "\n") + "\n")
    }

    @Test("sp-sw-har: column count, bad number, header")
    func spswharColumns() throws {
        let t = TempDir()
        #expect(try SPSWHARReader.read(path: spFile(t, Self.spRows)).labels.map(\.label) == ["SEATED", "STANDING_UP"])
        let short = "0.1,0.2,9.8,0.01,0.02,0.03,1657533977843"
        let e = inputError { _ = try SPSWHARReader.read(path: spFile(t, Self.spRows + [short])) }
        #expect(e?.reason == .missingColumn && e?.location.line == 5 && e?.location.column == short.utf8.count + 1 && e?.found == "7 fields")
        let long = Self.spRows[0] + ",x"
        let e2 = inputError { _ = try SPSWHARReader.read(path: spFile(t, [long])) }
        #expect(e2?.reason == .badValue && e2?.location.line == 2 && e2?.location.column == long.utf8.count && e2?.found == "9 fields")
        let e3 = inputError { _ = try SPSWHARReader.read(path: spFile(t, [Self.spRows[0], "0.1,0.2,9.8e,0.01,0.02,0.03,1657533977823,SEATED"])) }
        #expect(e3?.reason == .badNumber && e3?.location.line == 3 && e3?.location.column == 9 && e3?.expected == "a number (z_acc)")
        let e4 = inputError { _ = try SPSWHARReader.read(path: spFile(t, Self.spRows, header: "x_acc,y_acc,z_acc,x_gyro,y_gyro,z_gyro,timestamp,activity")) }
        #expect(e4?.reason == .missingColumn && e4?.location.line == 1 && e4?.expected == "a column named 'label'")
        let e5 = inputError { _ = try SPSWHARReader.read(path: spFile(t, [])) }
        #expect(e5?.reason == .emptyFile)
    }

    @Test("sp-sw-har: timestamps backwards or not whole milliseconds, empty label: at the field")
    func spswharTimestamps() {
        let t = TempDir()
        let column = "0.1,0.2,9.8,0.01,0.02,0.03,".utf8.count + 1
        let back = "0.1,0.2,9.8,0.01,0.02,0.03,1657533977812,SEATED"
        let e = inputError { _ = try SPSWHARReader.read(path: spFile(t, [Self.spRows[0], back])) }
        #expect(e?.reason == .timeBackwards && e?.location.line == 3 && e?.location.column == column && e?.found == "1657533977812")
        let frac = "0.1,0.2,9.8,0.01,0.02,0.03,1657533977823.5,SEATED"
        let e2 = inputError { _ = try SPSWHARReader.read(path: spFile(t, [Self.spRows[0], frac])) }
        #expect(e2?.reason == .badValue && e2?.location.line == 3 && e2?.location.column == column)
        let noLabel = "0.1,0.2,9.8,0.01,0.02,0.03,1657533977823,"
        let e3 = inputError { _ = try SPSWHARReader.read(path: spFile(t, [Self.spRows[0], noLabel])) }
        #expect(e3?.reason == .badValue && e3?.location.line == 3 && e3?.location.column == noLabel.utf8.count + 1)
    }

    @Test("sp-sw-har information files: bad values at their field")
    func spswharInfo() {
        let t = TempDir()
        let p = t.write("subjects_info.csv", "subject_id,age,gender,height,weight,dominant_hand,executions\ns01,54,M,190,83,R,6\ns02,31,X,171,71,R,9\n")
        let e = inputError { _ = try SPSWHARReader.subjectInfo(path: p) }
        #expect(e?.reason == .badValue && e?.location.line == 3 && e?.location.column == 8 && e?.found == "X")
        let p2 = t.write("subjects_info2.csv", "subject_id,age,gender,height,weight,dominant_hand,executions\ns01,54,M,1m90,83,R,6\n")
        let e2 = inputError { _ = try SPSWHARReader.subjectInfo(path: p2) }
        #expect(e2?.reason == .badNumber && e2?.location.line == 2 && e2?.location.column == 10)
        let p3 = t.write("executions_info.csv", "execution_id,orientation,first_turn,second_turn\ns01_01,back,l\n")
        let e3 = inputError { _ = try SPSWHARReader.executionInfo(path: p3) }
        #expect(e3?.reason == .missingColumn && e3?.location.line == 2 && e3?.location.column == "s01_01,back,l".utf8.count + 1)
        // A recording next to bad information files fails on them, not silently without them.
        t.write("DATA/subjects_info.csv", "subject_id,age,gender,height,weight,dominant_hand,executions\ns01,54,M,190,83,R,6.5\n")
        let e4 = inputError { _ = try SPSWHARReader.read(path: spFile(t, Self.spRows)) }
        #expect(e4?.reason == .badValue && e4?.location.file.hasSuffix("subjects_info.csv") == true && e4?.location.line == 2 && e4?.location.column == "s01,54,M,190,83,R,".utf8.count + 1)
    }
}
