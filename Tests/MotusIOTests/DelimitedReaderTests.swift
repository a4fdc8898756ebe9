import Testing
import Foundation
@testable import MotusIO
import MotusCore

@Suite struct DelimitedReaderTests {
    func read(_ text: String, _ configure: (inout DelimitedOptions) -> Void = { _ in }) throws -> Recording {
        var o = DelimitedOptions()
        configure(&o)
        return try DelimitedReader(path: TestFiles.temp(text), options: o).read()
    }

    func message(_ text: String, _ configure: (inout DelimitedOptions) -> Void = { _ in }) -> String {
        let p = TestFiles.temp(text, name: "in.csv")
        var o = DelimitedOptions()
        configure(&o)
        do { _ = try DelimitedReader(path: p, options: o).read(); return "no error" } catch {
            return error.description.replacingOccurrences(of: (p as NSString).deletingLastPathComponent + "/", with: "")
        }
    }

    /// The one delimiter rule (files and the recorder's standard input use it): the most
    /// frequent of tab, comma, semicolon, tab then comma on ties, else a space.
    @Test func delimiterDetection() {
        func d(_ s: String) -> UInt8 { Array(s.utf8).withUnsafeBufferPointer { DelimitedReader.detectDelimiter($0) } }
        #expect(d("t,ax,ay,az") == UInt8(ascii: ","))
        #expect(d("t\tax\tay\taz") == 0x09)
        #expect(d("t;ax;ay;az") == UInt8(ascii: ";"))
        #expect(d("t ax ay az") == 0x20)
        #expect(d("t;a,b;c") == UInt8(ascii: ";") && d("t;a,b") == UInt8(ascii: ","))
        #expect(d("t\ta,b") == 0x09 && d("t,a;b,c,x\td\te") == UInt8(ascii: ","))
    }

    @Test func recognisedHeaderNeedsNoFlags() throws {
        let r = try read("timestamp_ms,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z\n1000,0,0,9.81,0.1,0,0\n1010,0,0.5,9.8,0.2,0,0\n")
        let acc = try #require(r.stream(.acceleration))
        #expect(acc.times == [1.0, 1.01])
        #expect(acc.vector(1) == Vector3(0, 0.5, 9.8))
        #expect(r.stream(.rotationRate)?.vector(0) == Vector3(0.1, 0, 0))
    }

    @Test func flagsSelectColumnsUnitsAndRate() throws {
        // mobgap-style: acc in g, gyro in deg/s, no time column.
        let r = try read("samples,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z\n0,0.97,0.01,0.1,90,0,0\n1,0.98,0.0,0.1,0,180,0\n") {
            $0.rateHz = 100; $0.accelUnit = .g; $0.gyroUnit = .degreesPerSecond
        }
        let acc = try #require(r.stream(.acceleration))
        #expect(acc.times == [0, 0.01])
        #expect(abs(acc.value(0, 0) - 0.97 * 9.80665) < 1e-12)
        #expect(abs(r.stream(.rotationRate)!.value(0, 0) - Double.pi / 2) < 1e-12)
        #expect(abs(r.stream(.rotationRate)!.value(1, 1) - Double.pi) < 1e-12)
    }

    @Test func noHeaderWithIndexesTabsAndNanoseconds() throws {
        let r = try read("1016752819830886\t3\t0.17\t4.5\t9.85\n1016752827234022\t3\t0.29\t4.53\t10.54\n") {
            $0.noHeader = true; $0.timeColumn = .index(0); $0.timeUnit = .nanoseconds
            $0.accelColumns = [.index(2), .index(3), .index(4)]
        }
        let acc = try #require(r.stream(.acceleration))
        #expect(acc.count == 2)
        #expect(abs(acc.times[1] - acc.times[0] - 0.007403136) < 1e-9)
    }

    @Test func coreMotionHeaderIsConvertedToSIAndAndroidSign() throws {
        let r = try read(",attitude.roll,attitude.pitch,attitude.yaw,gravity.x,gravity.y,gravity.z,rotationRate.x,rotationRate.y,rotationRate.z,userAcceleration.x,userAcceleration.y,userAcceleration.z\n0,0,0,0,0,0,-1,0.5,0,0,0.1,0,0\n") {
            $0.rateHz = 50
        }
        #expect(r.stream(.gravity)?.vector(0) == Vector3(0, 0, 9.80665))
        #expect(abs(r.stream(.userAcceleration)!.value(0, 0) + 0.980665) < 1e-15)
        #expect(r.stream(.rotationRate)?.vector(0) == Vector3(0.5, 0, 0))
        #expect(r.stream(.attitude)?.quaternion(0) == Quaternion.identity)
    }

    @Test func badInputIsReportedExactly() {
        #expect(message("") == "in.csv: found nothing, expected a header line and rows of numbers")
        #expect(message("t,acc_x,acc_y,acc_z\n0,1,2,3\n0.01,1,2.5.1,3\n") == "in.csv:3:8: found '2.5.1', expected a number in column 'acc_y'")
        #expect(message("t,acc_x,acc_y,acc_z\n0,1,2,3\n0.01,1,2\n") == "in.csv:3:9: found '3 fields', expected at least 4 fields ('acc_z' is missing)")
        #expect(message("t,acc_x,acc_y,acc_z\n0,1,NaN,3\n") == "in.csv:2:5: found 'NaN', expected a finite number in column 'acc_y'")
        #expect(message("t,acc_x,acc_y,acc_z\n0,1,,3\n") == "in.csv:2:5: found nothing, expected a number in column 'acc_y'")
        #expect(message("t,acc_x,acc_y,acc_z\n5,1,2,3\n3,1,2,3\n") == "in.csv:3:1: found '3', expected a time no more than 1.0 s before the latest (5.0)")
        #expect(message("acc_x,acc_y,acc_z\n1,2,3\n") == "in.csv:1: found 'no time column', expected --time-column C (with --time-unit) or --rate HZ for equally spaced rows (as flags, or in a motus-layout file beside it)")
        #expect(message("foo,bar\n1,2\n") == "in.csv:1: found 'foo,bar', expected columns Motus knows (acc_x…, userAcceleration.x…) or --accel-columns / --gyro-columns / --gravity-columns / --user-accel-columns")
        #expect(message("t,a,b,c\n0,1,2,3\n") { $0.accelColumns = [.name("a"), .name("b"), .name("q")] }
                == "in.csv:1: found 'q', expected a column named for acceleration; the header has t, a, b, c")
    }

    @Test func commentsAndBlankLinesAreTheOnlyLinesPassedOver() throws {
        let r = try read("# exported by app\nt,acc_x,acc_y,acc_z\n\n0,1,2,3\n// note\n0.01,1,2,3\n")
        #expect(r.stream(.acceleration)?.count == 2)
    }

    @Test func realMotionSenseFileReadsWithoutFlagsButRate() throws {
        guard TestFiles.hasShared, let shared = TestFiles.shared else { return }
        let p = shared + "/motionsense/A_DeviceMotion_data/wlk_15/sub_1.csv"
        let r = try DelimitedReader(path: p, options: { var o = DelimitedOptions(); o.rateHz = 50; return o }()).read()
        let lines = FileManager.default.contents(atPath: p)!.split(separator: 0x0A).count
        let g = try #require(r.stream(.gravity))
        #expect(g.count == lines - 1)
        // |gravity| is 1 g everywhere.
        for i in 0..<g.count { #expect(abs(g.vector(i).norm - 9.80665) < 0.01) }
    }

    @Test func realOxfordFileReadsEveryRow() throws {
        guard TestFiles.hasShared, let shared = TestFiles.shared else { return }
        let p = shared + "/oxford/optimisation/data/Pixel_Jamie_Hard_NeckPouch_1/accelerometer.csv"
        var o = DelimitedOptions()
        o.noHeader = true; o.timeColumn = .index(0); o.timeUnit = .nanoseconds; o.accelColumns = [.index(2), .index(3), .index(4)]
        let r = try DelimitedReader(path: p, options: o).read()
        let lines = FileManager.default.contents(atPath: p)!.split(separator: 0x0A).count
        #expect(r.stream(.acceleration)?.count == lines)
    }
}
