import Foundation
import Testing
import MotusCore
@testable import MotusIO

@Suite("MotionSense reader")
struct ReadersMotionSenseTests {
    @Test("Euler to quaternion equals the naive product qz(yaw)·qx(pitch)·qy(roll)")
    func eulerMatchesNaiveProduct() {
        var worst = 0.0
        for r in stride(from: -3.1, through: 3.1, by: 0.7) {
            for p in stride(from: -1.5, through: 1.5, by: 0.5) {
                for y in stride(from: -3.0, through: 3.0, by: 0.9) {
                    let naive = Quaternion(axis: Vector3(0, 0, 1), angle: y) * Quaternion(axis: Vector3(1, 0, 0), angle: p)
                        * Quaternion(axis: Vector3(0, 1, 0), angle: r)
                    let q = MotionSenseReader.attitude(roll: r, pitch: p, yaw: y)
                    worst = max(worst, abs(q.w - naive.w), abs(q.x - naive.x), abs(q.y - naive.y), abs(q.z - naive.z))
                }
            }
        }
        #expect(worst < 1e-12)
    }

    @Test("subject info: 24 subjects, BOM and no final newline handled, height in metres",
          .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func subjects() throws {
        let info = try MotionSenseReader.subjectInfo(path: ReadersData.path("motionsense/data_subjects_info.csv"))
        #expect(info.count == 24)
        let s1 = try #require(info[1])
        #expect(s1.weightKg == 102 && s1.heightMeters == 1.88 && s1.age == 46 && s1.gender == "male")
        #expect(info[3]?.gender == "female")
        #expect(info.values.filter { $0.gender == "male" }.count == 14)
        #expect(info[24] != nil)   // last line has no newline
    }

    @Test("every device-motion file: counts, units, derived acc, attitude reproduces gravity",
          .enabled(if: ReadersData.available, ReadersData.skipMessage),
          arguments: ReadersData.motionSenseFiles)
    func deviceMotionFile(_ rel: String) throws {
        let path = ReadersData.path("motionsense/A_DeviceMotion_data/" + rel)
        let r = try MotionSenseReader.read(path: path)
        let expectedRows = ReadersData.lines(path).count - 1
        for name in ["acc", "gyro", "grav", "uacc", "att"] {
            let s = try #require(r.stream(named: name), "missing stream \(name)")
            #expect(s.count == expectedRows, "\(name) has \(s.count) samples, file has \(expectedRows) rows")
        }
        let grav = r.stream(.gravity)!, uacc = r.stream(.userAcceleration)!, acc = r.stream(.acceleration)!, att = r.stream(.attitude)!
        #expect(grav.times[1] == 0.02 && grav.times[0] == 0)
        var worstNorm = 0.0, worstAngle = 0.0, worstSum = 0.0
        var angles: [Double] = []
        for i in 0..<grav.count {
            let g = grav.vector(i)
            worstNorm = max(worstNorm, abs(g.norm - Units.standardGravity))
            // CoreMotion reference-frame gravity (0,0,-1 g) rotated into the device frame by the
            // attitude must give the file's gravity column; in Motus' sign that is (0,0,+g).
            let predicted = att.quaternion(i).inverseRotate(Vector3(0, 0, Units.standardGravity))
            let a = predicted.angle(to: g)
            angles.append(a)
            worstAngle = max(worstAngle, a)
            worstSum = max(worstSum, (acc.vector(i) - (g + uacc.vector(i))).norm)
        }
        #expect(worstNorm < 0.01, "|gravity| deviates by \(worstNorm) m/s²")
        // Euler angles printed with 6 decimals agree to ~1e-4 rad; near pitch = ±90° CoreMotion's
        // Euler extraction loses precision (seen up to 5.5e-3 rad). A wrong convention is off by
        // tenths of a radian or more.
        angles.sort()
        #expect(angles[angles.count / 2] < 1e-3, "median attitude/gravity disagreement \(angles[angles.count / 2]) rad")
        #expect(worstAngle < 0.01, "attitude and gravity disagree by \(worstAngle) rad")
        #expect(worstSum == 0)
        let folder = String(rel.split(separator: "/")[0])
        let act = String(folder.split(separator: "_")[0])
        #expect(r.labels.count == 1 && r.labels[0].label == act && r.labels[0].start == 0)
        #expect(r.labels[0].end == Double(expectedRows) / 50)
        let sub = String(rel.split(separator: "/")[1].dropLast(4))
        #expect(r.metadata.subject == sub)
        #expect(r.metadata.nominalRateHz == 50 && r.metadata.device == "iPhone 6s" && r.metadata.placement == "front-pocket")
        let h = try #require(r.metadata.heightMeters)
        #expect(h > 1.4 && h < 2.1)
        #expect(r.metadata.weightKg != nil && r.metadata.age != nil && r.metadata.gender != nil)
    }

    @Test("sign convention on still recordings: gravity up (+9.81 along the up axis), mean acc ≈ mean gravity",
          .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func stillSignConvention() throws {
        for rel in ReadersData.motionSenseFiles where rel.hasPrefix("std_") || rel.hasPrefix("sit_") {
            let r = try MotionSenseReader.read(path: ReadersData.path("motionsense/A_DeviceMotion_data/" + rel))
            let ma = r.stream(.acceleration)!.mean(), mg = r.stream(.gravity)!.mean()
            // Putting the phone in and out of the pocket gives userAcceleration a small mean.
            #expect((ma - mg).norm < 1.5, "\(rel): mean acc \(ma) vs mean gravity \(mg)")
            #expect(ma.angle(to: mg) < 0.15, "\(rel): mean acc \(ma) vs mean gravity \(mg)")
            #expect(abs(ma.norm - 9.81) < 0.5, "\(rel): |mean acc| = \(ma.norm)")
        }
        // Standing, phone upright in the pocket: gravity is along ±y (top up or top down), ≈ 9.8.
        let std = try MotionSenseReader.read(path: ReadersData.path("motionsense/A_DeviceMotion_data/std_14/sub_3.csv"))
        #expect(abs(std.stream(.gravity)!.mean().y) > 8.5)
    }

    @Test("raw B/C streams for subject 3: counts, g→m/s² with the same sign as derived acc",
          .enabled(if: ReadersData.available, ReadersData.skipMessage),
          arguments: ["dws_11", "ups_12", "wlk_15", "jog_16", "sit_13", "std_14"])
    func rawStreams(_ trial: String) throws {
        let r = try MotionSenseReader.read(path: ReadersData.path("motionsense/A_DeviceMotion_data/\(trial)/sub_3.csv"))
        let raw = try #require(r.stream(named: "acc.raw"))
        let gyroRaw = try #require(r.stream(named: "gyro.raw"))
        #expect(raw.kind == .acceleration && gyroRaw.kind == .rotationRate)
        #expect(raw.count == ReadersData.lines(ReadersData.path("motionsense/B_Accelerometer_data/\(trial)/sub_3.csv")).count - 1)
        #expect(gyroRaw.count == ReadersData.lines(ReadersData.path("motionsense/C_Gyroscope_data/\(trial)/sub_3.csv")).count - 1)
        // Means over the whole trial agree between raw and derived acceleration (same sign, units).
        let d = (raw.mean() - r.stream(.acceleration)!.mean()).norm
        #expect(d < 0.6, "raw vs derived mean acceleration differ by \(d) m/s²")
        // The dynamic part of the raw and derived acceleration must correlate positively (a
        // sign error on userAcceleration relative to gravity would make it negative). B runs
        // ~2% more rows than A, so compare a short window (150 samples) at the best lag.
        if ["jog_16", "wlk_15", "dws_11", "ups_12"].contains(trial) {
            let derived = r.stream(.acceleration)!
            for c in 0..<3 {
                var best = 0.0
                for lag in -200...200 where 300 + lag >= 0 && 450 + lag <= raw.count {
                    let xs = (300..<450).map { derived.value($0, c) }, ys = (300..<450).map { raw.value($0 + lag, c) }
                    let k = correlation(xs, ys)
                    if abs(k) > abs(best) { best = k }
                }
                #expect(best > 0.7, "axis \(c): raw/derived acceleration correlation \(best)")
            }
        }
        // Reading the B file alone gives one `acc` stream.
        let alone = try MotionSenseReader.read(path: ReadersData.path("motionsense/B_Accelerometer_data/\(trial)/sub_3.csv"))
        #expect(alone.streams.map(\.name) == ["acc"] && alone.streams[0] == raw.readerRenamed("acc"))
    }
}

func correlation(_ a: [Double], _ b: [Double]) -> Double {
    let n = Double(a.count)
    let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
    var sab = 0.0, saa = 0.0, sbb = 0.0
    for i in a.indices { sab += (a[i] - ma) * (b[i] - mb); saa += (a[i] - ma) * (a[i] - ma); sbb += (b[i] - mb) * (b[i] - mb) }
    return sab / (saa * sbb).squareRoot()
}
