import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// A value no sensor can give (`ReadingRules.limit`: 1e26 m/s² is a damaged digit or a unit
/// mix-up) is an error at its line and column in every reader, never a result changed without
/// a word (#18). Values up to the limit still read.
@Suite struct SensorRangeTests {
    @Test func nativeValuePastTheLimitIsAnErrorAtIt() throws {
        let p = TestFiles.temp("#motus,1\n@stream,a,acc,t_s,x,y,z\na,0,0,0,9.8\na,0.01,0,1e26,9.8\n", name: "r.motus")
        #expect { try NativeFormat.read(path: p) } throws: { e in
            guard let e = e as? InputError else { return false }
            return e.location.line == 4 && e.location.column == 10 && e.found == "1e26" && e.expected.hasPrefix("an acceleration y_mps2 within ±10000 ")
        }
        let ok = TestFiles.temp("#motus,1\n@stream,a,acc,t_s,x,y,z\na,0,0,0,9999\n@stream,g,gyro,t_s,x,y,z\ng,0,999,0,0\n", name: "ok.motus")
        #expect(try NativeFormat.read(path: ok).stream(.acceleration)?.count == 1)
    }

    /// Small files take the row parser; large ones the whole-file reader's direct paths, which
    /// hand a row past the limit to the row parser to name it.
    @Test(arguments: [10, 200_000])
    func delimitedValuePastTheLimitIsAnErrorAtIt(rows: Int) throws {
        var text = "t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z\n"
        let bad = rows / 2
        for i in 0..<rows {
            text += i == bad ? "\(Double(i) * 0.01),0.125,0.25,9.75,0.5,12000.5,0.25\n" : "\(Double(i) * 0.01),0.125,0.25,9.75,0.5,0.5,0.25\n"
        }
        let p = TestFiles.temp(text, name: "r.csv")
        #expect { try DelimitedReader(path: p).read() } throws: { e in
            guard let e = e as? InputError else { return false }
            return e.location.line == bad + 2 && e.found == "12000.5" && e.expected.contains("rotation rate")
        }
        var reader = try SampleReader(path: p, kinds: [.rotationRate, .acceleration])
        #expect(throws: InputError.self) { try reader.forEach { _ in } }
    }

    @Test func datasetTableValuePastTheLimitIsAnErrorAtIt() throws {
        let dir = TestFiles.tempDir()
        try "263239144953734,2,1.94,5.16,10.16\n263239149989134,2,1.5,4.97e7,9.89\n".write(toFile: dir + "/accelerometer.csv", atomically: true, encoding: .utf8)
        try "263239144953734,0,0\n".write(toFile: dir + "/stepcounter.csv", atomically: true, encoding: .utf8)
        #expect { try OxfordReader.read(folder: dir) } throws: { e in
            guard let e = e as? InputError else { return false }
            return e.location.line == 2 && e.found == "4.97e7"
        }
    }
}

extension SensorRangeTests {
    /// A GPX heart rate or elevation no device gives is an error at its text.
    @Test func gpxNumbersPastWhatADeviceGivesAreAnError() throws {
        func gpx(_ ele: String, _ hr: String) -> String {
            """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
            <trk><trkseg>
            <trkpt lat="52.5" lon="13.4"><ele>\(ele)</ele><time>2024-01-01T10:00:00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(hr)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
            <trkpt lat="52.5001" lon="13.4"><ele>34</ele><time>2024-01-01T10:00:01Z</time></trkpt>
            </trkseg></trk></gpx>

            """
        }
        #expect(try GPXReader.read(path: TestFiles.temp(gpx("34", "120"), name: "ok.gpx")).count == 2)
        #expect { try GPXReader.read(path: TestFiles.temp(gpx("9.3e18", "120"), name: "ele.gpx")) } throws: { e in
            (e as? InputError)?.location.line == 4 && (e as? InputError)?.found == "9.3e18"
        }
        #expect { try GPXReader.read(path: TestFiles.temp(gpx("34", "1e26"), name: "hr.gpx")) } throws: { e in
            (e as? InputError)?.found == "1e26" && (e as? InputError)?.expected.hasPrefix("a heart rate") == true
        }
    }
}
