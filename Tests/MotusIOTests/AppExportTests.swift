import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// Phone-app exports read without flags: the real phyphox and HyperIMU files of
/// ../shared/datasets/apps, and files written by hand to the layouts the apps document where no
/// real sample could be had (Android logger and `x_acc` headers, phyphox's `Raw Data.csv`,
/// location, barometer and step-counter columns).
@Suite("Readers: phone-app exports")
struct AppExportTests {
    func load(_ path: String) throws -> Recording { try RecordingLoader.load(path: path) }

    @Test("phyphox export folder: accelerometer, gyroscope and GPS merged on phyphox's clock", .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func phyphoxFolder() throws {
        let r = try load(ReadersData.path("apps/phyphox"))
        #expect(r.streams.map(\.kind) == [.acceleration, .rotationRate, .location])
        let acc = try #require(r.stream(.acceleration)), gyro = try #require(r.stream(.rotationRate)), loc = try #require(r.stream(.location))
        // Counts and first rows as the README measures them; the three files keep their own times.
        #expect(acc.count == 10577 && gyro.count == 10575 && loc.count == 35)
        #expect(acc.times[0] == 3.446083327e-3 && gyro.times[0] == 1.958608333e-2 && loc.times[0] == 1.004350185e-1)
        #expect(acc.vector(0) == Vector3(-4.806504822e-1, 1.707798615e0, 9.449848938e0))
        #expect(gyro.vector(0) == Vector3(1.314016283e-1, 1.265425533e-1, 7.930336893e-2))
        #expect(loc.value(0, 0) == 4.356515300e1 && loc.value(0, 1) == 1.392583764e0 && loc.value(0, 2) == 1.571142731e2)
        #expect(r.metadata.extra["app"] == "phyphox")
        // One recording, not three, wherever a folder of recordings is taken.
        #expect(try RecordingLoader.recordings(under: ReadersData.path("apps/phyphox")) == [ReadersData.path("apps/phyphox")])
        #expect(!SensorLoggerExportReader.isExport(ReadersData.path("apps/phyphox")))
    }

    @Test("phyphox single-sensor file: the file name says the sensor, the header the units", .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func phyphoxFile() throws {
        let g = try load(ReadersData.path("apps/phyphox/Gyroscope.csv"))
        #expect(g.streams.map(\.kind) == [.rotationRate] && g.stream(.rotationRate)?.count == 10575)
    }

    @Test("HyperIMU: '@' preamble, epoch-ms timestamps, linear acceleration and gravity by sensor name", .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func hyperIMU() throws {
        let r = try load(ReadersData.path("apps/hyperimu/short_y_impulse.csv"))
        #expect(Set(r.streams.map(\.kind)) == [.acceleration, .gravity, .userAcceleration, .rotationRate])
        let acc = try #require(r.stream(.acceleration))
        #expect(acc.count == 371 && acc.times[0] == 1500989996.591 && acc.times[1] == 1500989996.616)
        #expect(acc.vector(0) == Vector3(0.118213706, 0.054468088, 9.834333))
        // Android's gravity points up as Motus's does: no sign change.
        #expect(r.stream(.gravity)?.vector(0) == Vector3(0.097414084, 0.009277532, 9.806051))
        #expect(r.stream(.userAcceleration)?.vector(0) == Vector3(0.006434417, 0.07631518, 0.012120646))
        #expect(r.metadata.nominalRateHz == 50 && r.metadata.extra["app"] == "HyperIMU")

        let m = try load(ReadersData.path("apps/hyperimu/HIMU-new_with_timestamp.csv"))
        #expect(Set(m.streams.map(\.kind)) == [.acceleration, .userAcceleration, .rotationRate, .magneticField])
        #expect(m.stream(.magneticField)?.vector(0) == Vector3(-785.457, -655.622, -1005.397))

        // No timestamp column: rows at the nominal "Sampling Time: 50ms".
        let n = try load(ReadersData.path("apps/hyperimu/HIMU-new_without_timestamp.csv"))
        let a = try #require(n.stream(.acceleration))
        #expect(a.count == 24 && a.times[1] == 0.05 && a.vector(0) == Vector3(-0.23927054, 6.002114, 7.953239))
    }

    @Test("an '@' line after the header is an error at its line, not a comment")
    func atLineAfterHeader() {
        let t = TempDir()
        let p = t.write("h.csv", "@ HyperIMU - ianovir - 2017\n\ntimestamp,MPL_Accelerometer.x,MPL_Accelerometer.y,MPL_Accelerometer.z\n1500989996591,0.1,0.2,9.8\n@label walk\n")
        let e = inputError { _ = try RecordingLoader.load(path: p) }
        #expect(e?.reason == .badNumber && e?.location.line == 5 && e?.location.column == 1)
    }

    @Test("Android logger and x_acc headers, written to their layouts")
    func androidAndAxisFirst() throws {
        let t = TempDir()
        let android = t.write("a.csv", "time_ns,lsm6dsr_accelerometer.x,lsm6dsr_accelerometer.y,lsm6dsr_accelerometer.z,lsm6dsr_gyroscope.x,lsm6dsr_gyroscope.y,lsm6dsr_gyroscope.z\n"
                              + "1000000000,0.1,0.2,9.8,0.01,0.02,0.03\n1010000000,0.2,0.3,9.7,0.02,0.03,0.04\n")
        let r = try load(android)
        #expect(r.stream(.acceleration)?.vector(1) == Vector3(0.2, 0.3, 9.7) && r.stream(.rotationRate)?.vector(0) == Vector3(0.01, 0.02, 0.03))
        #expect(r.stream(.acceleration)?.times == [1.0, 1.01])

        let axisFirst = t.write("b.csv", "time,x_acc,y_acc,z_acc,x_gyro,y_gyro,z_gyro\n0,0.1,0.2,9.8,0.01,0.02,0.03\n0.01,0.1,0.2,9.8,0.01,0.02,0.03\n")
        let b = try load(axisFirst)
        #expect(b.stream(.acceleration)?.vector(0) == Vector3(0.1, 0.2, 9.8) && b.stream(.rotationRate)?.vector(0) == Vector3(0.01, 0.02, 0.03))
    }

    @Test("phyphox Raw Data.csv of the linear-acceleration experiment: user acceleration, kept as such")
    func phyphoxRawDataLinear() throws {
        let t = TempDir()
        let p = t.write("Raw Data.csv", "\"Time (s)\",\"Linear Acceleration x (m/s^2)\",\"Linear Acceleration y (m/s^2)\",\"Linear Acceleration z (m/s^2)\",\"Absolute acceleration (m/s^2)\"\n"
                        + "0.01,0.1,0.2,0.3,0.374\n0.02,0.2,0.1,0.0,0.224\n")
        let r = try load(p)
        #expect(r.streams.map(\.kind) == [.userAcceleration])
        #expect(r.stream(.userAcceleration)?.vector(0) == Vector3(0.1, 0.2, 0.3))
        // The same export as a folder is one recording.
        #expect(try load(t.path).streams.map(\.kind) == [.userAcceleration])
    }

    @Test("units in the header: (g) and (deg/s) scaled; a unit Motus does not know is refused")
    func headerUnits() throws {
        let t = TempDir()
        let p = t.write("u.csv", "Time (ms),acc_x (g),acc_y (g),acc_z (g),gyr_x (deg/s),gyr_y (deg/s),gyr_z (deg/s)\n0,0,0,1,180,0,0\n10,0,0,1,0,0,0\n")
        let r = try load(p)
        #expect(r.stream(.acceleration)?.vector(0) == Vector3(0, 0, Units.standardGravity))
        #expect(r.stream(.rotationRate)?.vector(0).x == Double.pi)
        #expect(r.stream(.acceleration)?.times == [0, 0.01])
        let bad = t.write("v.csv", "time,acc_x (furlong),acc_y (furlong),acc_z (furlong)\n0,0,0,1\n")
        let e = inputError { _ = try RecordingLoader.load(path: bad) }
        #expect(e?.reason == .badHeader && e?.found == "acc_x (furlong)" && e?.expected.hasPrefix("a unit Motus knows for acceleration") == true)
    }

    @Test("location, barometer and step-counter columns; components without a column are NaN")
    func locationPressureSteps() throws {
        let t = TempDir()
        let p = t.write("l.csv", "time,latitude,longitude,speed,pressure (hPa),steps\n0,48.1,11.5,1.2,1013.25,10\n1,48.10001,11.50002,1.3,1013.20,12\n")
        let r = try load(p)
        let loc = try #require(r.stream(.location)), baro = try #require(r.stream(.pressure)), steps = try #require(r.stream(.stepCounter))
        #expect(loc.value(1, 0) == 48.10001 && loc.value(1, 1) == 11.50002 && loc.value(0, 3) == 1.2)
        #expect(loc.value(0, 2).isNaN && loc.value(0, 4).isNaN && loc.value(0, 6).isNaN)
        #expect(baro.value(0, 0) == 101325 && steps.value(1, 0) == 12 && steps.value(1, 1).isNaN)
        let bad = t.write("m.csv", "time,latitude,longitude\n0,48.1,11.5\n1,95.0,11.5\n")
        let e = inputError { _ = try RecordingLoader.load(path: bad) }
        #expect(e?.reason == .badValue && e?.location.line == 3 && e?.location.column == 3 && e?.found == "95.0")
    }

    /// A ZIP archive of `files`, stored (no compression), as the APPNOTE lays it out.
    static func storedZip(_ files: [(String, [UInt8])]) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var out: [UInt8] = [], directory: [UInt8] = []
        for (name, data) in files {
            let crc = Int(ZipArchive.crc32(data)), offset = out.count, n = Array(name.utf8)
            out += le(0x0403_4B50, 4) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4) + le(data.count, 4) + le(data.count, 4)
                + le(n.count, 2) + le(0, 2) + n + data
            directory += le(0x0201_4B50, 4) + le(20, 2) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4) + le(data.count, 4) + le(data.count, 4)
                + le(n.count, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(offset, 4) + n
        }
        let start = out.count
        return out + directory + le(0x0605_4B50, 4) + le(0, 2) + le(0, 2) + le(files.count, 2) + le(files.count, 2)
            + le(directory.count, 4) + le(start, 4) + le(0, 2)
    }

    @Test("phyphox export as a .zip: the same recording as the folder; a damaged entry is an error at its byte", .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func phyphoxZip() throws {
        let t = TempDir()
        let names = ["Accelerometer.csv", "Gyroscope.csv", "Location.csv"]
        let files = try names.map { n in (n, Array(try Data(contentsOf: URL(fileURLWithPath: ReadersData.path("apps/phyphox/" + n))))) }
        let zip = t.path + "/phyphox export.zip"
        _ = FileManager.default.createFile(atPath: zip, contents: Data(Self.storedZip(files + [("meta/device.csv", Array("property,value\n".utf8))])))
        let folder = try load(ReadersData.path("apps/phyphox"))
        let r = try load(zip)
        #expect(r.streams == folder.streams && r.metadata.source == "phyphox export phyphox export.zip")
        // The deflated archive Python's zipfile writes, when python3 is there.
        let deflated = t.path + "/deflated.zip"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n    [z.write(sys.argv[2] + '/' + n, n) for n in sys.argv[3:]]",
                       deflated, ReadersData.path("apps/phyphox")] + names
        if (try? p.run()) != nil {
            p.waitUntilExit()
            if p.terminationStatus == 0 { #expect(try load(deflated).streams == folder.streams) }
        }
        // One byte of the accelerometer's data changed: its CRC-32 no longer matches.
        var damaged = Self.storedZip(files)
        damaged[30 + 17 + 1000] ^= 0x01
        let bad = t.path + "/bad.zip"
        _ = FileManager.default.createFile(atPath: bad, contents: Data(damaged))
        let e = inputError { _ = try RecordingLoader.load(path: bad) }
        #expect(e?.reason == .badValue && e?.location.column == 47 && e?.found.hasPrefix("CRC-32") == true && e?.found.hasSuffix("'Accelerometer.csv'") == true)
    }
}
