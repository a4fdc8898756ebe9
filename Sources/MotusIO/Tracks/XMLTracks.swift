import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MotusCore

/// Reads GPX 1.0 and 1.1 (tracks `trk/trkseg/trkpt` and routes `rte/rtept`; `<ele>`,
/// `<time>`, GPX 1.0 `<speed>`/`<course>`, Garmin TrackPointExtension `hr`/`cad`/`speed`,
/// Apple Health's unprefixed `speed`/`course`/`hAcc` extensions). Waypoints are ignored.
/// BRouter's summary comment (`track-length = … filtered ascend = …`) becomes the track's
/// `deviceSummary`.
public enum GPXReader {
    public static func read(path: String) throws(InputError) -> Track {
        try XMLTrackParser.parse(bytes: try ReaderFiles.readBytes(path), file: path, kind: .gpx)
    }
    public static func decode(_ bytes: [UInt8], file: String = "<memory>") throws(InputError) -> Track {
        try XMLTrackParser.parse(bytes: bytes, file: file, kind: .gpx)
    }
}

/// Reads Garmin Training Center XML (TCX): `Activity[@Sport]/Lap/Track/Trackpoint` with
/// `Time`, `Position`, `AltitudeMeters`, `DistanceMeters`, `HeartRateBpm/Value`, `Cadence`
/// and the `TPX` extension's `Speed`/`Watts`/`RunCadence`. Lap totals (time, distance,
/// calories, maximum speed) become the track's `deviceSummary`.
public enum TCXReader {
    public static func read(path: String) throws(InputError) -> Track {
        try XMLTrackParser.parse(bytes: try ReaderFiles.readBytes(path), file: path, kind: .tcx)
    }
    public static func decode(_ bytes: [UInt8], file: String = "<memory>") throws(InputError) -> Track {
        try XMLTrackParser.parse(bytes: bytes, file: file, kind: .tcx)
    }
}

final class XMLTrackParser: NSObject, XMLParserDelegate {
    enum Kind { case gpx, tcx }
    let kind: Kind
    let file: String
    var track = Track()
    var error: InputError?
    weak var parser: XMLParser?
    var path: [String] = []
    var text = ""
    var inPoint = false
    var sawRoot = false
    // Current point.
    var time = Double.nan, lat = Double.nan, lon = Double.nan, ele = Double.nan, speed = Double.nan
    var hr = Double.nan, cad = Double.nan, power = Double.nan, hacc = Double.nan, dist = Double.nan
    // TCX lap totals.
    var lapTime = 0.0, lapDistance = 0.0, lapCalories = 0.0, lapMaxSpeed = 0.0, laps = 0

    init(kind: Kind, file: String) { self.kind = kind; self.file = file; track.source = file }

    static func parse(bytes: [UInt8], file: String, kind: Kind) throws(InputError) -> Track {
        let p = XMLParser(data: Data(bytes))
        p.shouldProcessNamespaces = true
        let d = XMLTrackParser(kind: kind, file: file)
        d.parser = p
        p.delegate = d
        let ok = p.parse()
        if let e = d.error { throw e }
        if !ok || p.parserError != nil {
            let msg = p.parserError.map { "\($0.localizedDescription)" } ?? "malformed XML"
            throw InputError(.badValue, at: SourceLocation(file: file, line: max(1, p.lineNumber), column: max(1, p.columnNumber)),
                             found: "malformed XML (\(msg))", expected: kind == .gpx ? "well-formed GPX" : "well-formed TCX")
        }
        if !d.sawRoot {
            throw InputError(.badHeader, at: SourceLocation(file: file, line: 1), found: "no <\(kind == .gpx ? "gpx" : "TrainingCenterDatabase")> element",
                             expected: kind == .gpx ? "a GPX file" : "a TCX file")
        }
        if kind == .tcx && d.laps > 0 {
            d.track.deviceSummary.distanceMeters = d.lapDistance
            d.track.deviceSummary.timerSeconds = d.lapTime
            if d.lapCalories > 0 { d.track.deviceSummary.calories = d.lapCalories }
            if d.lapMaxSpeed > 0 { d.track.deviceSummary.maxSpeedMetersPerSecond = d.lapMaxSpeed }
        }
        return d.track
    }

    func fail(_ reason: InputError.Reason, _ found: String, _ expected: String) {
        guard error == nil else { return }
        error = InputError(reason, at: SourceLocation(file: file, line: parser?.lineNumber ?? 0, column: parser?.columnNumber ?? 0), found: found, expected: expected)
        parser?.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if path.isEmpty {
            sawRoot = (kind == .gpx && name == "gpx") || (kind == .tcx && name == "TrainingCenterDatabase")
            if !sawRoot { fail(.badHeader, "<\(name)>", kind == .gpx ? "<gpx> as the root element" : "<TrainingCenterDatabase> as the root element") }
        }
        path.append(name)
        text = ""
        switch (kind, name) {
        case (.gpx, "trkpt"), (.gpx, "rtept"):
            resetPoint()
            inPoint = true
            guard let la = attributes["lat"], let lo = attributes["lon"], let a = Double(la), let b = Double(lo), abs(a) <= 90, abs(b) <= 180 else {
                fail(.badValue, "<\(name)> lat=\(attributes["lat"] ?? "none") lon=\(attributes["lon"] ?? "none")", "lat and lon attributes in degrees")
                return
            }
            lat = a; lon = b
        case (.gpx, "trkseg"), (.gpx, "rte"):
            track.startSegment()
        case (.tcx, "Trackpoint"):
            resetPoint(); inPoint = true
        case (.tcx, "Track"):
            track.startSegment()
        case (.tcx, "Activity"):
            if track.sport == nil, let s = attributes["Sport"] { track.sport = s == "Biking" ? "cycling" : s.lowercased() }
        case (.tcx, "Lap"):
            laps += 1
        case (.gpx, "gpx"):
            track.creator = attributes["creator"]
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    // Linux's XMLParser reports errors here and may still return true from parse().
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard error == nil else { return }
        error = InputError(.badValue, at: SourceLocation(file: file, line: max(1, parser.lineNumber), column: max(1, parser.columnNumber)),
                           found: "malformed XML (\((parseError as NSError).code))", expected: kind == .gpx ? "well-formed GPX" : "well-formed TCX")
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, foundComment comment: String) {
        // BRouter: "track-length = 166831 filtered ascend = 1991 plain-ascend = -213 ..."
        func number(after key: String) -> Double? {
            guard let r = comment.range(of: key) else { return nil }
            let rest = comment[r.upperBound...].drop { $0 == " " || $0 == "=" }
            return Double(rest.prefix { $0 == "-" || $0 == "." || $0.isNumber })
        }
        if let d = number(after: "track-length") { track.deviceSummary.distanceMeters = d }
        if let a = number(after: "filtered ascend") { track.deviceSummary.ascentMeters = a }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { path.removeLast(); text = "" }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parent = path.count >= 2 ? path[path.count - 2] : ""
        if inPoint {
            switch name {
            case "ele", "AltitudeMeters": ele = number(value, name)
            case "time", "Time":
                guard let t = ISOTime.parse(value) else { fail(.badValue, value, "an ISO 8601 time such as 2012-10-24T23:29:40Z"); return }
                time = t
            case "speed", "Speed": speed = number(value, name)
            case "hr": hr = number(value, name)
            case "Value" where parent == "HeartRateBpm": hr = number(value, name)
            case "cad", "Cadence", "RunCadence": cad = number(value, name)
            case "Watts", "power": power = number(value, name)
            case "hAcc": hacc = number(value, name)
            case "LatitudeDegrees": lat = number(value, name)
            case "LongitudeDegrees": lon = number(value, name)
            case "DistanceMeters": dist = number(value, name)
            case "trkpt", "rtept", "Trackpoint":
                inPoint = false
                track.append(time: time, latitude: lat, longitude: lon, elevation: ele, speed: speed, distance: dist,
                             heartRate: hr, cadence: cad, power: power, horizontalAccuracy: hacc)
            default: break
            }
        } else if kind == .tcx && parent == "Lap" {
            switch name {
            case "TotalTimeSeconds": lapTime += number(value, name).nanToZero
            case "DistanceMeters": lapDistance += number(value, name).nanToZero
            case "Calories": lapCalories += number(value, name).nanToZero
            case "MaximumSpeed": lapMaxSpeed = max(lapMaxSpeed, number(value, name).nanToZero)
            default: break
            }
        } else if kind == .tcx && name == "Name" && parent == "Creator" && track.creator == nil {
            track.creator = value
        }
    }

    func number(_ s: String, _ element: String) -> Double {
        if s.isEmpty { return .nan }
        guard let v = Double(s), v.isFinite else { fail(.badNumber, s, "a number in <\(element)>"); return .nan }
        return v
    }

    func resetPoint() {
        time = .nan; lat = .nan; lon = .nan; ele = .nan; speed = .nan; hr = .nan; cad = .nan; power = .nan; hacc = .nan; dist = .nan
    }
}

extension Double {
    var nanToZero: Double { isNaN ? 0 : self }
}

/// ISO 8601 times as GPX and TCX write them: `YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]` → Unix s.
public enum ISOTime {
    public static func parse(_ s: String) -> Double? {
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
