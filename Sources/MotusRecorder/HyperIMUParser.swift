import MotusCore
import MotusIO

/// Parses HyperIMU packets (FORMATS.md §B.1): CSV lines ended by CR LF or `#` (several may
/// share a datagram), or back-to-back JSON objects.
///
/// CSV: an optional epoch-millisecond timestamp, an optional MAC address (recognised by its
/// shape, anywhere), then three values per enabled sensor in the app's list order, optionally
/// a GPS `lat,long,alt` triple and NMEA sentences (`$…`, ignored). The wire carries no sensor
/// names, so the mapping comes from, in this order: a header line the app sends
/// (`timestamp,MPL_Gyroscope.x,…`, learnt when seen), the `sensors` given at creation
/// (`--sensors acc,gyro,mag`), else the default acc, gyro, mag. With `sensors` given, one
/// extra group at the end is read as GPS. Without a timestamp column (value count 3·N rather
/// than 3·N+1) the laptop receive time is used.
///
/// Units: Android's, which are Motus's (m/s², rad/s, µT, Android sign); rotation vectors
/// become attitude quaternions. Time: epoch ms → s since the Unix epoch.
public struct HyperIMUParser: Sendable {
    /// What each group of three values is: a stream kind, or nil to skip the group.
    public private(set) var groups: [StreamKind?]
    /// The group list came from configuration (`--sensors`) rather than the default.
    public let configured: Bool
    /// True after a header line fixed the layout.
    public private(set) var learnedHeader = false
    /// From a header line: whether the first column is the timestamp.
    var headerHasTimestamp: Bool?
    var tokens = Tokens()
    var scratch: [Double] = []

    public static let defaultGroups: [StreamKind?] = [.acceleration, .rotationRate, .magneticField]

    public init(sensors: [StreamKind?]? = nil) {
        groups = sensors ?? Self.defaultGroups
        configured = sensors != nil
    }

    public mutating func parse(_ bytes: [UInt8], receivedAt: Double, into batch: inout SampleBatch) -> ParseOutcome {
        bytes.withUnsafeBufferPointer { parse($0, receivedAt: receivedAt, into: &batch) }
    }

    /// Parses one datagram (or a chunk of a TCP stream ending at a terminator).
    public mutating func parse(_ p: UnsafeBufferPointer<UInt8>, receivedAt: Double, into batch: inout SampleBatch) -> ParseOutcome {
        var first = 0
        while first < p.count && (p[first] == 0x20 || p[first] == 0x0A || p[first] == 0x0D) { first += 1 }
        if first < p.count && p[first] == UInt8(ascii: "{") { return parseJSON(p, receivedAt: receivedAt, into: &batch) }
        var out = ParseOutcome()
        var s = 0
        var i = 0
        while i <= p.count {
            if i == p.count || p[i] == 0x0A || p[i] == 0x0D || p[i] == UInt8(ascii: "#") {
                if i > s { out.merge(parseLine(p, s, i, receivedAt: receivedAt, into: &batch)) }
                s = i + 1
            }
            i += 1
        }
        return out
    }

    mutating func parseLine(_ p: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, receivedAt: Double, into batch: inout SampleBatch) -> ParseOutcome {
        var a = s
        while a < e && (p[a] == 0x20 || p[a] == 0x09) { a += 1 }
        if a == e { return ParseOutcome() }
        if p[a] == UInt8(ascii: "@") { return ParseOutcome() }  // file-style comment line
        tokens.split(p, a, e)
        // A header line: a first token that is neither a number nor a MAC address.
        if tokens.number(p, 0) == nil && !Self.isMAC(p, tokens.starts[0], tokens.ends[0]) {
            return learnHeader(p)
        }
        var nums: [Double] = []
        swap(&nums, &scratch)
        nums.removeAll(keepingCapacity: true)
        defer { swap(&nums, &scratch) }
        for k in 0..<tokens.count {
            let ts = tokens.starts[k], te = tokens.ends[k]
            if ts == te { return .bad("empty field \(k + 1) in '\(excerpt(p, a, e))'") }
            if Self.isMAC(p, ts, te) { continue }
            if p[ts] == UInt8(ascii: "$") { break }   // NMEA sentences close the line
            guard let v = tokens.number(p, k) else {
                return .bad("field \(k + 1) '\(p.text(ts, te))' is not a finite number")
            }
            nums.append(v)
        }
        let hasTime: Bool
        if let h = headerHasTimestamp { hasTime = h } else {
            switch nums.count % 3 {
            case 0: hasTime = false
            case 1: hasTime = true
            default: return .bad("\(nums.count) values: expected 3 per sensor, plus 1 for a timestamp")
            }
        }
        var t = receivedAt
        var k = 0
        if hasTime {
            guard let ms = nums.first, ms > 1e11, ms < 1e14 else {
                return .bad("first value '\(nums.first.map { "\($0)" } ?? "")' is not an epoch time in milliseconds")
            }
            t = ms / 1000
            k = 1
        }
        let groupCount = (nums.count - k) / 3
        if (nums.count - k) % 3 != 0 { return .bad("\(nums.count - k) sensor values: expected a multiple of 3") }
        if groupCount == 0 { return .bad("no sensor values") }
        var out = ParseOutcome()
        let before = batch.count
        for g in 0..<groupCount {
            let x = nums[k], y = nums[k + 1], z = nums[k + 2]
            k += 3
            let kind: StreamKind?
            if g < groups.count { kind = groups[g] }
            else if g == groups.count && configured && !learnedHeader { kind = .location }
            else { kind = nil }
            guard let kind else { continue }
            switch kind {
            case .attitude:
                guard let q = SensorNames.quaternion(rotationVector: x, y, z) else {
                    batch.truncate(to: before)
                    return .bad("rotation vector (\(x), \(y), \(z)) longer than 1")
                }
                batch.append(.attitude, time: t, values: [q.0, q.1, q.2, q.3])
            case .location:
                guard abs(x) <= 90, abs(y) <= 180 else {
                    batch.truncate(to: before)
                    return .bad("GPS (\(x), \(y)) is not a latitude and longitude")
                }
                batch.append(.location, time: t, values: [x, y, z, .nan, .nan, .nan, .nan])
            case .acceleration, .userAcceleration, .gravity, .rotationRate, .magneticField:
                batch.append(kind, time: t, x, y, z)
            default: continue
            }
            out.samples += 1
        }
        if groupCount > groups.count + (configured ? 1 : 0) && out.warning == nil {
            out.warning = "\(groupCount) sensor groups but \(groups.count) named; extra groups ignored (give --sensors)"
        }
        return out
    }

    /// `timestamp,MPL_Gyroscope.x,MPL_Gyroscope.y,…`: fixes the layout.
    mutating func learnHeader(_ p: UnsafeBufferPointer<UInt8>) -> ParseOutcome {
        var names: [String] = []
        for k in 0..<tokens.count { names.append(tokens.text(p, k)) }
        var hasTime = false
        var rest = names[...]
        if let f = rest.first?.lowercased(), f == "timestamp" || f == "time" { hasTime = true; rest = rest.dropFirst() }
        guard rest.count >= 3, rest.count % 3 == 0 else {
            return .bad("header-like line '\(names.prefix(4).joined(separator: ","))' does not have three columns per sensor")
        }
        var g: [StreamKind?] = []
        let cols = Array(rest)
        for k in stride(from: 0, to: cols.count, by: 3) {
            let base = cols[k].dropLast(2)
            guard !base.isEmpty, cols[k].lowercased().hasSuffix(".x"), cols[k + 1].lowercased() == base.lowercased() + ".y",
                  cols[k + 2].lowercased() == base.lowercased() + ".z" else {
                return .bad("line '\(names.prefix(4).joined(separator: ","))' is neither numbers nor a header of <sensor>.x,.y,.z columns")
            }
            g.append(SensorNames.kind(String(base)))
        }
        groups = g
        headerHasTimestamp = hasTime
        learnedHeader = true
        return ParseOutcome()
    }

    /// `AA:BB:CC:DD:EE:FF`.
    static func isMAC(_ p: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Bool {
        guard e - s == 17 else { return false }
        for k in 0..<17 {
            let c = p[s + k]
            if k % 3 == 2 { if c != UInt8(ascii: ":") && c != UInt8(ascii: "-") { return false } }
            else if !((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)) { return false }
        }
        return true
    }

    /// JSON mode: `{"op":"hyperimu","Timestamp":…,"<Sensor name>":[x,y,z],…}` objects, back to back.
    mutating func parseJSON(_ p: UnsafeBufferPointer<UInt8>, receivedAt: Double, into batch: inout SampleBatch) -> ParseOutcome {
        var out = ParseOutcome()
        let (objects, rest) = ReaderJSON.splitObjects(p)
        if rest < p.count {
            var k = rest
            while k < p.count && (p[k] == 0x20 || p[k] == 0x0A || p[k] == 0x0D) { k += 1 }
            if k < p.count { out.merge(.bad("unfinished JSON object '\(excerpt(p, rest))'")) }
        }
        for r in objects {
            let v: ReaderJSON
            do { v = try ReaderJSON.parse(UnsafeBufferPointer(rebasing: p[r]), file: "<packet>") } catch { out.merge(.bad("JSON \(error)")); continue }
            guard let members = v.members else { out.merge(.bad("JSON value is not an object")); continue }
            var t = receivedAt
            if let ts = v["Timestamp"] ?? v["timestamp"] {
                guard let ms = ts.looseNumber, ms > 1e11, ms < 1e14 else { out.merge(.bad("Timestamp is not epoch milliseconds")); continue }
                t = ms / 1000
            }
            let before = batch.count
            var n = 0
            var bad: String? = nil
            for (key, value) in members {
                guard let arr = value.array, let kind = SensorNames.kind(key) else { continue }
                let nums = arr.compactMap(\.looseNumber)
                guard nums.count >= 3, nums.count == arr.count, nums[0].isFinite, nums[1].isFinite, nums[2].isFinite else {
                    bad = "sensor '\(key)' does not hold three finite numbers"; break
                }
                if kind == .attitude {
                    guard let q = SensorNames.quaternion(rotationVector: nums[0], nums[1], nums[2]) else { bad = "rotation vector longer than 1"; break }
                    batch.append(.attitude, time: t, values: [q.0, q.1, q.2, q.3])
                } else if kind.width == 3 {
                    batch.append(kind, time: t, nums[0], nums[1], nums[2])
                } else { continue }
                n += 1
            }
            if let bad { batch.truncate(to: before); out.merge(.bad(bad)); continue }
            out.samples += n
        }
        return out
    }
}
