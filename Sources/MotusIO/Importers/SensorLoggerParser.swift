import MotusCore

/// Parses Sensor Logger's HTTP push body (FORMATS.md §B.3):
/// `{"messageId":…, "sessionId":…, "deviceId":…, "payload":[{"name":…, "time":<epoch ns>,
/// "values":{…}}, …]}`. A bare array of readings, and a single reading object, are accepted
/// too (for JSON Lines input).
///
/// Streams: `accelerometer` → `uacc` (Sensor Logger's accelerometer has gravity removed),
/// `totalacceleration` → `acc`, `gravity` → `grav`, `gyroscope` → `gyro`, `magnetometer` →
/// `mag`, `orientation` → `att` (qw, qx, qy, qz), `location` → `loc` (negative speed,
/// bearing and accuracies mean "invalid" and become empty), `barometer` → `baro` (mbar → Pa),
/// `pedometer` → `steps`. Other sensors (battery, microphone, wrist motion, …) are counted as
/// ignored. Values may be numbers or strings holding numbers (exports write strings).
///
/// Sign: Android's convention as sent. iOS without "Standardise Units & Frames" sends
/// acceleration and gravity with the opposite sign: `coreMotionSign` negates them.
/// Time: `time` is UTC epoch nanoseconds → seconds since the Unix epoch. Readings are sorted
/// by time, because the app does not promise an order.
public enum SensorLoggerParser {
    /// The envelope of one message.
    public struct Envelope: Sendable, Equatable {
        /// The message's sequence number (`messageId`); nil when absent, or for a bare reading or array.
        public var messageId: Int64?
        /// The recording session the app names (`sessionId`); nil when absent.
        public var sessionId: String?
        /// The sending phone's id (`deviceId`); nil when absent.
        public var deviceId: String?
    }

    /// Parses a push body (see `parse(_:coreMotionSign:into:)` for a parsed value) and appends its
    /// samples to `batch`, in time order; never throws: a body that is not JSON is one malformed
    /// record in the outcome, with the reason as its warning.
    public static func parse(_ body: [UInt8], coreMotionSign: Bool = false, into batch: inout SampleBatch) -> (ParseOutcome, Envelope) {
        body.withUnsafeBufferPointer { parse($0, coreMotionSign: coreMotionSign, into: &batch) }
    }

    /// Parses a push body held in `body`; the same as the `[UInt8]` form.
    public static func parse(_ body: UnsafeBufferPointer<UInt8>, coreMotionSign: Bool = false, into batch: inout SampleBatch) -> (ParseOutcome, Envelope) {
        let v: ReaderJSON
        do { v = try ReaderJSON.parse(body, file: "<message>") } catch { return (.bad("not JSON: \(error)"), Envelope()) }
        return parse(v, coreMotionSign: coreMotionSign, into: &batch)
    }

    /// Appends the samples of an already parsed message (an envelope with `payload`, a bare array
    /// of readings, or one reading) to `batch`, in time order, and returns how many were appended,
    /// rejected or ignored, with the envelope's ids. `coreMotionSign` negates acceleration and
    /// gravity (iOS without standardisation).
    public static func parse(_ v: ReaderJSON, coreMotionSign: Bool = false, into batch: inout SampleBatch) -> (ParseOutcome, Envelope) {
        var env = Envelope()
        let readings: [ReaderJSON]
        switch v.value {
        case .array(let a): readings = a
        case .object:
            if let p = v["payload"] {
                guard let a = p.array else { return (.bad("'payload' is not an array"), env) }
                readings = a
                env.messageId = v["messageId"]?.looseInteger
                env.sessionId = v["sessionId"]?.string
                env.deviceId = v["deviceId"]?.string
            } else if v["name"] != nil {
                readings = [v]
            } else {
                return (.bad("no 'payload' array and no 'name'"), env)
            }
        default: return (.bad("body is neither an object nor an array"), env)
        }
        // Sort by time (stable), so the writer sees each stream in order.
        var order: [(Double, Int)] = []
        order.reserveCapacity(readings.count)
        for (i, r) in readings.enumerated() { order.append((r["time"].flatMap(seconds) ?? .infinity, i)) }
        order.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        var out = ParseOutcome()
        for (_, i) in order { out.merge(reading(readings[i], coreMotionSign: coreMotionSign, into: &batch)) }
        return (out, env)
    }

    /// A `time` value (UTC epoch nanoseconds, as a number or a string) in seconds.
    static func seconds(_ t: ReaderJSON) -> Double? {
        seconds(epochNanoseconds: t.looseInteger, orNumber: t.looseNumber)
    }

    /// Epoch nanoseconds in seconds: from the exact integer when there is one (whole seconds
    /// and the rest apart, so the result is the double nearest the exact time), else from the
    /// number.
    static func seconds(epochNanoseconds ns: Int64?, orNumber d: Double?) -> Double? {
        if let ns {
            let (q, r) = ns.quotientAndRemainder(dividingBy: 1_000_000_000)
            return Double(q) + Double(r) * 1e-9
        }
        if let d, d.isFinite { return d * 1e-9 }
        return nil
    }

    /// One reading `{name, time, values}` → at most one sample.
    public static func reading(_ r: ReaderJSON, coreMotionSign: Bool = false, into batch: inout SampleBatch) -> ParseOutcome {
        guard r.isObject else { return .bad("reading is not an object") }
        guard let name = r["name"]?.string else { return .bad("reading has no 'name'") }
        guard let t = r["time"].flatMap(seconds) else { return .bad("\(name): 'time' is not epoch nanoseconds") }
        guard let values = r["values"], values.isObject else { return .bad("\(name): no 'values' object") }
        return sample(name: name, time: t, coreMotionSign: coreMotionSign, into: &batch) { values[$0]?.looseNumber }
    }

    /// One reading of sensor `name` at `t` (s) → at most one sample; `num` gives a value by key.
    /// Sensor Logger's times are Unix times, so the readers' time rule (`ReadingRules`) is
    /// applied with the epoch as the first sample: a time more than 1e10 s from 1970 is refused,
    /// as is a value that is not finite once in SI units.
    static func sample(name: String, time t: Double, coreMotionSign: Bool, into batch: inout SampleBatch,
                       _ num: (String) -> Double?) -> ParseOutcome {
        guard ReadingRules.timeFits(t, first: 0) else {
            return .bad("\(name): time \(t) s is not a Unix time within 1e10 s of 1970")
        }
        func need(_ keys: String...) -> [Double]? {
            var out: [Double] = []
            for k in keys { guard let v = num(k), v.isFinite else { return nil }; out.append(v) }
            return out
        }
        let sign = coreMotionSign ? -1.0 : 1.0
        let kind: StreamKind
        var v: [Double]
        switch name.lowercased() {
        case "accelerometer", "totalacceleration", "gravity", "gyroscope", "magnetometer":
            guard let xyz = need("x", "y", "z") else { return .bad("\(name): values need finite x, y, z") }
            switch name.lowercased() {
            case "accelerometer": kind = .userAcceleration
            case "totalacceleration": kind = .acceleration
            case "gravity": kind = .gravity
            case "gyroscope": kind = .rotationRate
            default: kind = .magneticField
            }
            let s = (kind == .rotationRate || kind == .magneticField) ? 1.0 : sign
            v = [xyz[0] * s, xyz[1] * s, xyz[2] * s]
        case "orientation":
            guard let q = need("qw", "qx", "qy", "qz") else { return .bad("\(name): values need finite qw, qx, qy, qz") }
            let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).squareRoot()
            guard n > 0.5 && n < 1.5 else { return .bad("\(name): quaternion norm \(n) is not about 1") }
            kind = .attitude
            v = q.map { $0 / n }
        case "location":
            guard let ll = need("latitude", "longitude"), abs(ll[0]) <= 90, abs(ll[1]) <= 180 else {
                return .bad("\(name): values need a latitude and longitude")
            }
            func opt(_ k: String, nonNegative: Bool) -> Double {
                guard let x = num(k), x.isFinite, !(nonNegative && x < 0) else { return .nan }
                return x
            }
            kind = .location
            v = [ll[0], ll[1], opt("altitude", nonNegative: false), opt("speed", nonNegative: true), opt("bearing", nonNegative: true),
                 opt("horizontalAccuracy", nonNegative: true), opt("verticalAccuracy", nonNegative: true)]
        case "barometer":
            guard let p = need("pressure"), p[0] > 0, (p[0] * 100).isFinite else { return .bad("\(name): values need a positive pressure that is finite in Pa") }
            kind = .pressure
            v = [p[0] * 100]
        case "pedometer":
            guard let s = need("steps"), s[0] >= 0 else { return .bad("\(name): values need a step count") }
            kind = .stepCounter
            v = [s[0], .nan]
        default:
            return ParseOutcome(ignored: 1)
        }
        batch.append(kind, time: t, values: v)
        return ParseOutcome(samples: 1)
    }
}

