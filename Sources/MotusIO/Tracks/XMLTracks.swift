import MotusCore

/// Reads GPX 1.0 and 1.1 (tracks `trk/trkseg/trkpt` and routes `rte/rtept`; `<ele>`,
/// `<time>`, GPX 1.0 `<speed>`/`<course>`, Garmin TrackPointExtension `hr`/`cad`/`speed`,
/// Apple Health's unprefixed `speed`/`course`/`hAcc` extensions). Waypoints are ignored.
/// BRouter's summary comment (`track-length = … filtered ascend = …`) becomes the track's
/// `deviceSummary`.
public enum GPXReader {
    /// Reads the GPX file at `path`: times in Unix seconds, positions in degrees, elevation in
    /// m, speed in m/s, heart rate and cadence per minute. Throws `InputError` at the line and
    /// column of XML that does not parse, a number or time that does not read, a value past
    /// its limit (`ReadingRules`) or a point earlier than the one before (`.timeBackwards`), and
    /// for an empty file or a root element other than `<gpx>`.
    public static func read(path: String) throws(InputError) -> Track {
        try XMLTrackParser.parse(bytes: try ReaderFiles.readBytes(path), file: path, kind: .gpx)
    }
    /// Decodes a GPX document held in memory, as `read(path:)` does; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String = "<memory>") throws(InputError) -> Track {
        try XMLTrackParser.parse(bytes: bytes, file: file, kind: .gpx)
    }
}

/// Reads Garmin Training Center XML (TCX): `Activity[@Sport]/Lap/Track/Trackpoint` with
/// `Time`, `Position`, `AltitudeMeters`, `DistanceMeters`, `HeartRateBpm/Value`, `Cadence`
/// and the `TPX` extension's `Speed`/`Watts`/`RunCadence`. Lap totals (time, distance,
/// calories, maximum speed) become the track's `deviceSummary`.
public enum TCXReader {
    /// Reads the TCX file at `path`: times in Unix seconds, positions in degrees, altitude and
    /// distance in m, speed in m/s, heart rate and cadence per minute, power in W. Throws
    /// `InputError` at the line and column of XML that does not parse, a number or time that
    /// does not read, a value past its limit (`ReadingRules`) or a point earlier than the one
    /// before (`.timeBackwards`), and for an empty file or a root element other than
    /// `<TrainingCenterDatabase>`.
    public static func read(path: String) throws(InputError) -> Track {
        try XMLTrackParser.parse(bytes: try ReaderFiles.readBytes(path), file: path, kind: .tcx)
    }
    /// Decodes a TCX document held in memory, as `read(path:)` does; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String = "<memory>") throws(InputError) -> Track {
        try XMLTrackParser.parse(bytes: bytes, file: file, kind: .tcx)
    }
}

/// The GPX and TCX reader: a `ReaderXMLHandler` that turns the parser's elements into a
/// `Track` as they end, so a file is read in one pass without a tree. Element names are taken
/// without their namespace prefix (`gpxtpx:hr` is `hr`). Errors point at the text or element
/// that is wrong.
struct XMLTrackParser: ReaderXMLHandler {
    enum Kind { case gpx, tcx }
    let kind: Kind
    let file: String
    let bytes: [UInt8]
    var track = Track()
    var path: [String] = []
    var inPoint = false
    var sawRoot = false
    // Current point.
    var time = Double.nan, lat = Double.nan, lon = Double.nan, ele = Double.nan, speed = Double.nan
    var hr = Double.nan, cad = Double.nan, power = Double.nan, hacc = Double.nan, dist = Double.nan
    /// Where the current point's time is, and the last point's time and its text and place.
    var timeOffset = -1, timeText = ""
    var lastTime = -Double.infinity, lastTimeText = "", lastTimeOffset = -1
    // TCX lap totals.
    var lapTime = 0.0, lapDistance = 0.0, lapCalories = 0.0, lapMaxSpeed = 0.0, laps = 0

    init(kind: Kind, file: String, bytes: [UInt8]) { self.kind = kind; self.file = file; self.bytes = bytes; track.source = file }

    var what: String { kind == .gpx ? "GPX" : "TCX" }

    static func parse(bytes raw: [UInt8], file: String, kind: Kind) throws(InputError) -> Track {
        let bytes = try ReaderXMLParser.utf8(raw, path: file)
        var d = XMLTrackParser(kind: kind, file: file, bytes: bytes)
        var p = ReaderXMLParser(path: file, bytes: bytes)
        do { try p.parse(into: &d) } catch {
            if error.reason == .emptyFile {
                throw InputError(.emptyFile, at: error.location, found: raw.isEmpty ? "an empty file" : "no element",
                                 expected: kind == .gpx ? "a GPX file (<gpx> …)" : "a TCX file (<TrainingCenterDatabase> …)")
            }
            throw error
        }
        if kind == .tcx && d.laps > 0 {
            d.track.deviceSummary.distanceMeters = d.lapDistance
            d.track.deviceSummary.timerSeconds = d.lapTime
            if d.lapCalories > 0 { d.track.deviceSummary.calories = d.lapCalories }
            if d.lapMaxSpeed > 0 { d.track.deviceSummary.maxSpeedMetersPerSecond = d.lapMaxSpeed }
        }
        return d.track
    }

    func location(_ offset: Int) -> SourceLocation { ReaderXMLParser.location(path: file, bytes: bytes, offset: offset) }

    static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    mutating func startElement(_ qualified: String, attributes: [(name: String, value: String)], offset: Int) throws(InputError) {
        let name = XMLTrackParser.localName(qualified)
        if path.isEmpty {
            sawRoot = (kind == .gpx && name == "gpx") || (kind == .tcx && name == "TrainingCenterDatabase")
            if !sawRoot {
                throw InputError(.badHeader, at: location(offset), found: "<\(qualified)>",
                                 expected: kind == .gpx ? "<gpx> as the root element" : "<TrainingCenterDatabase> as the root element")
            }
        }
        path.append(name)
        func attribute(_ n: String) -> String? { attributes.first { XMLTrackParser.localName($0.name) == n }?.value }
        switch (kind, name) {
        case (.gpx, "trkpt"), (.gpx, "rtept"):
            resetPoint()
            inPoint = true
            guard let la = attribute("lat"), let lo = attribute("lon"), let a = NumberParser.parseDouble(la), let b = NumberParser.parseDouble(lo),
                  abs(a) <= 90, abs(b) <= 180 else {
                throw InputError(.badValue, at: location(offset), found: "<\(name)> lat=\(attribute("lat") ?? "none") lon=\(attribute("lon") ?? "none")",
                                 expected: "lat and lon attributes in degrees")
            }
            lat = a; lon = b
        case (.gpx, "trkseg"), (.gpx, "rte"):
            track.startSegment()
        case (.tcx, "Trackpoint"):
            resetPoint(); inPoint = true
        case (.tcx, "Track"):
            track.startSegment()
        case (.tcx, "Activity"):
            if track.sport == nil, let s = attribute("Sport") { track.sport = s == "Biking" ? "cycling" : s.lowercased() }
        case (.tcx, "Lap"):
            laps += 1
        case (.gpx, "gpx"):
            track.creator = attribute("creator")
        default: break
        }
    }

    mutating func comment(_ text: ArraySlice<UInt8>) {
        // BRouter: "track-length = 166831 filtered ascend = 1991 plain-ascend = -213 ..."
        let c = String(decoding: text.prefix(4096), as: UTF8.self)
        func number(after key: String) -> Double? {
            guard let r = c.firstRange(of: key) else { return nil }
            let rest = c[r.upperBound...].drop { $0 == " " || $0 == "=" }
            return NumberParser.parseDouble(String(rest.prefix { $0 == "-" || $0 == "." || $0.isNumber }))
        }
        if let d = number(after: "track-length"), d.isFinite { track.deviceSummary.distanceMeters = d }
        if let a = number(after: "filtered ascend"), a.isFinite { track.deviceSummary.ascentMeters = a }
    }

    mutating func endElement(_ qualified: String, text: [UInt8], textOffset: Int) throws(InputError) {
        let name = XMLTrackParser.localName(qualified)
        defer { path.removeLast() }
        let value = ReaderXMLParser.trimmed(String(decoding: text, as: UTF8.self))
        let parent = path.count >= 2 ? path[path.count - 2] : ""
        /// A number no device reports past `limit` (heart rate, cadence, power, distance): a
        /// larger one is a damaged digit, an error at its place rather than a changed summary.
        func number(within limit: Double, _ what: String) throws(InputError) -> Double {
            let v = try number()
            guard v.isNaN || abs(v) <= limit else {
                throw InputError(.badValue, at: location(textOffset), found: value, expected: "\(what) within ±\(Int(limit))")
            }
            return v
        }
        func number() throws(InputError) -> Double {
            if value.isEmpty { return .nan }
            guard let v = NumberParser.parseDouble(value) else {
                throw InputError(.badNumber, at: location(textOffset), found: value, expected: "a number in <\(qualified)>")
            }
            guard v.isFinite else { throw InputError(.nonFinite, at: location(textOffset), found: value, expected: "a finite number in <\(qualified)>") }
            return v
        }
        if inPoint {
            switch name {
            case "ele", "AltitudeMeters":
                ele = try number()
                // Below the deepest trench, above where anything records a track: a damaged digit.
                guard ele.isNaN || abs(ele) <= ReadingRules.limit(.location, 2) else {
                    throw InputError(.badValue, at: location(textOffset), found: value, expected: "an elevation in metres within ±100000")
                }
            case "time", "Time":
                guard let t = ISOTime.parse(value) else {
                    throw InputError(.badValue, at: location(textOffset >= 0 ? textOffset : 0), found: value, expected: "an ISO 8601 time such as 2012-10-24T23:29:40Z")
                }
                time = t; timeText = value; timeOffset = textOffset
            case "speed", "Speed":
                speed = try number()
                guard speed.isNaN || abs(speed) <= ReadingRules.limit(.location, 3) else {
                    throw InputError(.badValue, at: location(textOffset), found: value, expected: "a speed in m/s within ±10000")
                }
            case "hr": hr = try number(within: 1000, "a heart rate in beats per minute")
            case "Value" where parent == "HeartRateBpm": hr = try number(within: 1000, "a heart rate in beats per minute")
            case "cad", "Cadence", "RunCadence": cad = try number(within: 1000, "a cadence per minute")
            case "Watts", "power": power = try number(within: 100_000, "a power in watts")
            case "hAcc": hacc = try number()
            case "LatitudeDegrees":
                lat = try number()
                guard lat.isNaN || abs(lat) <= 90 else { throw InputError(.badValue, at: location(textOffset), found: value, expected: "a latitude in degrees (-90 to 90)") }
            case "LongitudeDegrees":
                lon = try number()
                guard lon.isNaN || abs(lon) <= 180 else { throw InputError(.badValue, at: location(textOffset), found: value, expected: "a longitude in degrees (-180 to 180)") }
            case "DistanceMeters": dist = try number(within: 1e8, "a distance in metres")
            case "trkpt", "rtept", "Trackpoint":
                inPoint = false
                if !time.isNaN {
                    // Points follow each other in time; a file whose points go back (reversed,
                    // or two sessions pasted together) is refused where it happens.
                    guard time >= lastTime else {
                        let prev = location(lastTimeOffset)
                        throw InputError(.timeBackwards, at: location(timeOffset), found: timeText,
                                         expected: "a time at or after \(lastTimeText) (the point before, line \(prev.line)): \(what) points in time order")
                    }
                    lastTime = time; lastTimeText = timeText; lastTimeOffset = timeOffset
                }
                track.append(time: time, latitude: lat, longitude: lon, elevation: ele, speed: speed, distance: dist,
                             heartRate: hr, cadence: cad, power: power, horizontalAccuracy: hacc)
            default: break
            }
        } else if kind == .tcx && parent == "Lap" {
            switch name {
            case "TotalTimeSeconds": lapTime += try number().nanToZero
            case "DistanceMeters": lapDistance += try number().nanToZero
            case "Calories": lapCalories += try number().nanToZero
            case "MaximumSpeed": lapMaxSpeed = max(lapMaxSpeed, try number().nanToZero)
            default: break
            }
        } else if kind == .tcx && name == "Name" && parent == "Creator" && track.creator == nil {
            track.creator = value
        }
    }

    mutating func resetPoint() {
        time = .nan; lat = .nan; lon = .nan; ele = .nan; speed = .nan; hr = .nan; cad = .nan; power = .nan; hacc = .nan; dist = .nan
        timeOffset = -1; timeText = ""
    }
}

extension Double {
    var nanToZero: Double { isNaN ? 0 : self }
}

/// ISO 8601 times as GPX and TCX write them: `YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]` → Unix s.
public enum ISOTime {
    /// Seconds since the Unix epoch (UTC) for an ISO 8601 time `YYYY-MM-DDThh:mm:ss` (a space
    /// for the `T` also read) with an optional fraction and `Z` or `±hh:mm` offset (none: UTC);
    /// nil for any other text or an impossible date or time.
    public static func parse(_ s: String) -> Seconds? {
        let b = Array(s.utf8)
        guard b.count >= 19, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 32, b[13] == 58, b[16] == 58 else { return nil }
        func num(_ from: Int, _ len: Int) -> Int? {
            var v = 0
            for k in from..<from + len { guard b[k] >= 48 && b[k] <= 57 else { return nil }; v = v * 10 + Int(b[k] - 48) }
            return v
        }
        guard let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), let h = num(11, 2), let mi = num(14, 2), let se = num(17, 2),
              (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, se < 61 else { return nil }
        var i = 19
        var frac = 0.0
        if i < b.count && b[i] == 46 {
            i += 1
            var scale = 0.1
            while i < b.count && b[i] >= 48 && b[i] <= 57 { frac += Double(b[i] - 48) * scale; scale /= 10; i += 1 }
        }
        var offset = 0
        if i < b.count {
            if b[i] == 90 { i += 1 } else if (b[i] == 43 || b[i] == 45) && i + 6 <= b.count, let oh = num(i + 1, 2), let om = num(i + 4, 2) {
                offset = (b[i] == 43 ? 1 : -1) * (oh * 3600 + om * 60); i += 6
            } else { return nil }
        }
        guard i == b.count else { return nil }
        // Days from 1970-01-01 (proleptic Gregorian), Howard Hinnant's civil-from-days inverse.
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return Double(days * 86400 + h * 3600 + mi * 60 + se - offset) + frac
    }
}
