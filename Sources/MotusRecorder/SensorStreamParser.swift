import MotusCore
import MotusIO

/// Parses SensorStream IMU+GPS datagrams (FORMATS.md §B.2): `timestamp, id, values…, id,
/// values…` with numbers padded by spaces, one datagram per accelerometer event, no
/// terminator.
///
/// Groups kept: 3 accelerometer (`acc`), 4 gyroscope (`gyro`), 5 magnetometer (`mag`), 82
/// linear acceleration (`uacc`), 83 gravity (`grav`), 84 rotation vector (→ `att` quaternion),
/// 87 pressure (hPa → Pa, `baro`), 1 GPS (→ `loc`, one sample per new fix: the app repeats
/// the last fix in every packet, so fixes are deduplicated on id 8's fix time, or on the
/// position when id 8 is absent). Groups consumed and ignored: 6, 7 (ECEF, derived), 8 (fix
/// time, used for deduplication), 81 (legacy orientation), 85 (rotation matrix), 86
/// (quaternion, same as 84), 88 (battery temperature). The older numbering in the author's
/// client script (85 = pressure, 86 = battery, one value each) is recognised by counting what
/// follows. An unknown id ends the packet: what was read before it is kept, with a warning.
///
/// Time: the packet's timestamp, seconds since the phone booted (`SensorEvent.timestamp`).
public struct SensorStreamParser: Sendable {
    var tokens = Tokens()
    var lastFixTime: Double?
    var lastFix: (Double, Double, Double)?

    public init() {}

    public static let knownIDs: Set<Int> = [1, 3, 4, 5, 6, 7, 8, 81, 82, 83, 84, 85, 86, 87, 88]

    public mutating func parse(_ bytes: [UInt8], into batch: inout SampleBatch) -> ParseOutcome {
        bytes.withUnsafeBufferPointer { parse($0, into: &batch) }
    }

    public mutating func parse(_ p: UnsafeBufferPointer<UInt8>, into batch: inout SampleBatch) -> ParseOutcome {
        var e = p.count
        while e > 0 && (p[e - 1] == 0x0A || p[e - 1] == 0x0D || p[e - 1] == 0x20 || p[e - 1] == 0) { e -= 1 }
        if e == 0 { return .bad("empty packet") }
        tokens.split(p, 0, e)
        guard let t = tokens.number(p, 0) else {
            return .bad("timestamp '\(tokens.text(p, 0))' is not a number of seconds")
        }
        let before = batch.count
        var out = ParseOutcome()
        var k = 1
        var fixTime: Double? = nil
        var fix: (Double, Double, Double)? = nil
        func values(_ n: Int) -> [Double]? {
            guard k + n <= tokens.count else { return nil }
            var v: [Double] = []
            v.reserveCapacity(n)
            for j in k..<(k + n) { guard let x = tokens.number(p, j) else { return nil }; v.append(x) }
            return v
        }
        /// Whether a group of `n` values after the id at `k` ends at the packet's end or at a known id.
        func fits(_ n: Int) -> Bool {
            let next = k + 1 + n
            if next == tokens.count { return true }
            guard next < tokens.count, let id = tokens.int(p, next) else { return false }
            return Self.knownIDs.contains(id)
        }
        while k < tokens.count {
            guard let id = tokens.int(p, k) else {
                if tokens.starts[k] == tokens.ends[k] { batch.truncate(to: before); return .bad("empty field \(k + 1)") }
                out.warning = "'\(tokens.text(p, k))' at field \(k + 1) is not a sensor id; rest of packet ignored"
                break
            }
            var n: Int
            switch id {
            case 1, 3, 4, 5, 6, 7, 81, 82, 83, 84: n = 3
            case 8, 87, 88: n = 1
            case 85: n = fits(9) || !fits(1) ? 9 : 1
            case 86: n = fits(4) || !fits(1) ? 4 : 1
            default:
                out.warning = "unknown sensor id \(id) at field \(k + 1); rest of packet ignored"
                n = -1
            }
            if n < 0 { break }
            let oldNumbering = (id == 85 && n == 1) || (id == 86 && n == 1)
            k += 1
            guard let v = values(n) else {
                batch.truncate(to: before)
                return .bad("sensor id \(id) needs \(n) numbers at field \(k + 1)")
            }
            k += n
            switch id {
            case 3: batch.append(.acceleration, time: t, v[0], v[1], v[2])
            case 4: batch.append(.rotationRate, time: t, v[0], v[1], v[2])
            case 5: batch.append(.magneticField, time: t, v[0], v[1], v[2])
            case 82: batch.append(.userAcceleration, time: t, v[0], v[1], v[2])
            case 83: batch.append(.gravity, time: t, v[0], v[1], v[2])
            case 84:
                guard let q = SensorNames.quaternion(rotationVector: v[0], v[1], v[2]) else { continue }
                batch.append(.attitude, time: t, values: [q.0, q.1, q.2, q.3])
            case 87: batch.append(.pressure, time: t, values: [v[0] * 100])
            case 85 where oldNumbering: batch.append(.pressure, time: t, values: [v[0] * 100])
            case 1:
                guard abs(v[0]) <= 90, abs(v[1]) <= 180 else {
                    batch.truncate(to: before)
                    return .bad("GPS (\(v[0]), \(v[1])) is not a latitude and longitude")
                }
                fix = (v[0], v[1], v[2])
            case 8: fixTime = v[0]
            default: break
            }
        }
        if let f = fix {
            let isNew: Bool
            if let ft = fixTime { isNew = ft != lastFixTime } else { isNew = lastFix.map { $0 != f } ?? true }
            if isNew {
                batch.append(.location, time: t, values: [f.0, f.1, f.2, .nan, .nan, .nan, .nan])
                lastFixTime = fixTime; lastFix = f
            }
        }
        out.samples = batch.count - before
        if out.samples == 0 && out.warning != nil { out.malformed = 1 }
        return out
    }
}
