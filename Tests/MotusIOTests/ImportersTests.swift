import Foundation
import Testing
import MotusCore
@testable import MotusIO

@Suite struct ImportTests {
    /// The real MotionDataCollector files: label from the folder, first row dropped, time from
    /// the row index, CoreMotion g and sign converted.
    @Test(.enabled(if: TestFiles.shared != nil, "needs ../shared/datasets")) func motionDataCollectorRealFiles() throws {
        let root = TestFiles.shared! + "/apps/motiondatacollector"
        let out = TestFiles.tempDir()
        let report = try DatasetImporter.run(source: root, format: .motiondatacollector, out: out)
        #expect(report.written.map { $0.split(separator: "/").last! } == ["running-r1.motus", "running-z0.motus", "standing-23E915F4-1705-40F3-BC0F-F3B64635B3F2.motus"])
        let r = try NativeFormat.read(path: out + "/running-r1.motus")
        #expect(r.labelNames == ["running"])
        let grav = try #require(r.stream(.gravity))
        #expect(grav.count == 599)
        #expect(grav.times.first == 0.1 && abs(grav.times.last! - 59.9) < 1e-9)
        // Row 1 of r1.csv (the second data row; row 0 is dropped): gravity (0.019477082416415215, -0.8134974837303162, -0.5812422633171082) g.
        #expect(grav.vector(0) == Vector3(0.019477082416415215, -0.8134974837303162, -0.5812422633171082) * -Units.standardGravity)
        #expect(r.stream(.attitude)?.count == 599 && r.stream(.rotationRate)?.count == 599)
        #expect(r.metadata.nominalRateHz == 10)
    }

    /// Sensor Logger exports were not available; these files are built from the documented
    /// layout (z, y, x column order; string values in JSON; negative seconds_elapsed for
    /// buffered leading rows; iOS without standardisation).
    @Test func sensorLoggerExportBuiltFromTheDocumentedFormat() throws {
        let root = TestFiles.tempDir()
        let dir = root + "/walk-2024"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try """
        version,device name,recording time,platform,appVersion,device id,sensors,sampleRateMs,standardisation
        3,iPhone 13,2024-01-01_10-00-00,ios,1.30,ABC,Accelerometer|Gravity,10,false
        """.write(toFile: dir + "/Metadata.csv", atomically: true, encoding: .utf8)
        try """
        time,seconds_elapsed,z,y,x
        1700000000000000000,-0.02,0.3,0.2,0.1
        1700000000010000000,0.0,0.3,0.2,0.1
        1700000000020000000,0.01,0.6,0.5,0.4
        """.write(toFile: dir + "/Accelerometer.csv", atomically: true, encoding: .utf8)
        try #"""
        [{"sensor":"Gravity","time":"1700000000005000000","seconds_elapsed":"-0.005","z":"-1.0","y":"0","x":"0"},
         {"sensor":"Gravity","time":"1700000000015000000","seconds_elapsed":"0.005","z":"-9.8","y":"0.1","x":"0.2"}]
        """#.write(toFile: dir + "/Gravity.json", atomically: true, encoding: .utf8)
        try """
        time,seconds_elapsed,qz,qy,qx,qw,roll,pitch,yaw
        1700000000010000000,0.0,0,0,0,1,0,0,0
        """.write(toFile: dir + "/Orientation.csv", atomically: true, encoding: .utf8)
        let out = TestFiles.tempDir()
        let report = try DatasetImporter.run(source: root, format: .sensorlogger, out: out)
        #expect(report.written.count == 1)
        let r = try NativeFormat.read(path: out + "/walk-2024.motus")
        let uacc = try #require(r.stream(.userAcceleration))
        #expect(uacc.times == [1700000000.01, 1700000000.02])
        #expect(uacc.vector(1) == Vector3(-0.4, -0.5, -0.6))   // x, y, z by name; iOS sign flipped
        let grav = try #require(r.stream(.gravity))
        #expect(grav.count == 1 && grav.vector(0) == Vector3(-0.2, -0.1, 9.8))
        #expect(r.stream(.attitude)?.quaternion(0) == Quaternion(w: 1, x: 0, y: 0, z: 0))
        #expect(r.metadata.device == "iPhone 13" && r.metadata.extra["platform"] == "ios")
    }

    @Test func sensorLoggerExportErrorsNameTheFile() throws {
        let dir = TestFiles.tempDir()
        try "time,seconds_elapsed,z,y,x\n1700000000000000000,0.0,a,b,c\n".write(toFile: dir + "/Accelerometer.csv", atomically: true, encoding: .utf8)
        try "time,seconds_elapsed,z,y,x\n".write(toFile: dir + "/Gyroscope.csv", atomically: true, encoding: .utf8)
        #expect { try SensorLoggerExportReader.read(folder: dir) } throws: { e in
            (e as? InputError)?.location.file == dir + "/Accelerometer.csv" && (e as? InputError)?.location.line == 2
        }
    }

    /// A dataset Motus knows, imported: every recording written, reading back equal to the
    /// dataset's own loader.
    @Test(.enabled(if: TestFiles.shared != nil, "needs ../shared/datasets")) func mPowerDatasetRoundTrip() throws {
        let root = TestFiles.shared! + "/mpower"
        let out = TestFiles.tempDir()
        let report = try DatasetImporter.run(source: root, format: .mpower, out: out)
        let ds = try DatasetFormat.openDataset(root: root)
        #expect(report.written.count == ds.entries.count && !ds.entries.isEmpty)
        for (e, path) in zip(ds.entries, report.written) {
            let a = try ds.load(e.id), b = try NativeFormat.read(path: path)
            #expect(a.streams == b.streams, "\(e.id)")
        }
    }

    /// The output folder is created with its parents; a path that cannot be a folder is a
    /// write error naming it; a missing source is an input error.
    @Test func outputFoldersAndMissingSource() throws {
        let root = TestFiles.tempDir()
        let src = root + "/running"
        try FileManager.default.createDirectory(atPath: src, withIntermediateDirectories: true)
        try ",attitude.roll,attitude.pitch,attitude.yaw,gravity.x,gravity.y,gravity.z,rotationRate.x,rotationRate.y,rotationRate.z,userAcceleration.x,userAcceleration.y,userAcceleration.z\n0,0,0,0,0,0,-1,0,0,0,0,0,0\n1,0,0,0,0,0,-1,0,0,0,0,0,0.1\n2,0,0,0,0,0,-1,0,0,0,0,0,0.2\n"
            .write(toFile: src + "/a.csv", atomically: true, encoding: .utf8)
        let out = root + "/out/nested/deeper"
        let report = try DatasetImporter.run(source: root, format: .motiondatacollector, out: out)
        #expect(report.written == [out + "/running-a.motus"])
        #expect(try NativeFormat.read(path: out + "/running-a.motus").labelNames == ["running"])

        #expect { _ = try DatasetImporter.run(source: root, format: .motiondatacollector, out: src + "/a.csv/sub") } throws: { e in
            (e as? NativeWriter.WriteError)?.path == src + "/a.csv"   // a file where a folder must go
        }
        #expect { _ = try DatasetImporter.run(source: root + "/nothing", format: .motiondatacollector, out: out) } throws: { e in
            (e as? InputError)?.reason == .unreadable && (e as? InputError)?.found == "nothing there"
        }
    }
}
