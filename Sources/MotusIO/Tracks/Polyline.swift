import MotusCore

/// Google's encoded polyline format: each coordinate rounded to 10^-precision degrees,
/// delta-encoded from the previous point, zig-zag signed, and written as 5-bit chunks + 63.
/// Precision 5 is Google's; OSRM and Valhalla emit precision 6.
public enum Polyline {
    /// Decodes `text` into (latitude, longitude) pairs in degrees.
    public static func decode(_ text: String, precision: Int = 5, file: String = "<polyline>") throws(InputError) -> [(latitude: Degrees, longitude: Degrees)] {
        let ints = try decodeIntegers(Array(text.utf8), file: file)
        let factor = power10(precision)
        var out: [(latitude: Double, longitude: Double)] = []
        out.reserveCapacity(ints.count)
        for p in ints { out.append((Double(p.0) / factor, Double(p.1) / factor)) }
        return out
    }

    /// Decodes into the integer coordinates (degrees × 10^precision), exactly as stored.
    public static func decodeIntegers(_ bytes: [UInt8], file: String = "<polyline>") throws(InputError) -> [(Int64, Int64)] {
        var out: [(Int64, Int64)] = []
        out.reserveCapacity(bytes.count / 4)
        var lat: Int64 = 0, lon: Int64 = 0
        var i = 0
        var values: [Int64] = [0, 0]
        var which = 0
        var end = bytes.count
        while end > 0 && (bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D || bytes[end - 1] == 0x20) { end -= 1 }
        while i < end {
            var result: Int64 = 0, shift: Int64 = 0
            let start = i
            while true {
                guard i < end else {
                    throw InputError(.truncated, at: SourceLocation(file: file, line: 1, column: start + 1), found: "end of text in the value starting at column \(start + 1)",
                                     expected: "a final chunk (a character below '_')")
                }
                let c = bytes[i]
                guard c >= 63 && c <= 126 else {
                    throw InputError(.badValue, at: SourceLocation(file: file, line: 1, column: i + 1), found: String(decoding: [c], as: UTF8.self),
                                     expected: "a polyline character ('?' to '~')")
                }
                guard shift < 60 else {
                    throw InputError(.badValue, at: SourceLocation(file: file, line: 1, column: i + 1), found: "a value of more than 12 chunks", expected: "at most 64 bits")
                }
                let b = Int64(c) - 63
                result |= (b & 0x1F) << shift
                shift += 5
                i += 1
                if b < 0x20 { break }
            }
            values[which] = (result & 1) != 0 ? ~(result >> 1) : (result >> 1)
            which += 1
            if which == 2 {
                lat += values[0]; lon += values[1]
                out.append((lat, lon))
                which = 0
            }
        }
        if which != 0 {
            throw InputError(.truncated, at: SourceLocation(file: file, line: 1, column: end), found: "a latitude without its longitude", expected: "pairs of values")
        }
        return out
    }

    /// Encodes (latitude, longitude) pairs in degrees.
    public static func encode(_ points: [(latitude: Degrees, longitude: Degrees)], precision: Int = 5) -> String {
        let factor = power10(precision)
        return encodeIntegers(points.map { (Int64(($0.latitude * factor).rounded()), Int64(($0.longitude * factor).rounded())) })
    }

    /// Encodes integer coordinates (degrees × 10^precision).
    public static func encodeIntegers(_ points: [(Int64, Int64)]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(points.count * 8)
        var pLat: Int64 = 0, pLon: Int64 = 0
        func put(_ v: Int64) {
            var u = UInt64(bitPattern: v < 0 ? ~(v << 1) : v << 1)
            while u >= 0x20 {
                out.append(UInt8((u & 0x1F) | 0x20) + 63)
                u >>= 5
            }
            out.append(UInt8(u) + 63)
        }
        for p in points {
            put(p.0 - pLat); put(p.1 - pLon)
            pLat = p.0; pLon = p.1
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func power10(_ p: Int) -> Double {
        var f = 1.0
        for _ in 0..<max(0, p) { f *= 10 }
        return f
    }

    /// Reads a polyline file (the text, optionally followed by a newline) as a route.
    /// Precision: 6 when the file name ends in `6` (`.polyline6`), else `precision`.
    public static func readTrack(path: String, precision: Int? = nil) throws(InputError) -> Track {
        let bytes = try ReaderFiles.readBytes(path)
        let p = precision ?? (path.hasSuffix("6") ? 6 : 5)
        return try track(from: try decodeIntegers(bytes, file: path), precision: p, source: path)
    }

    /// The route of decoded points; a point off the globe (a corrupt chunk, or the wrong
    /// precision) is an error naming it.
    static func track(from ints: [(Int64, Int64)], precision: Int, source: String) throws(InputError) -> Track {
        var t = Track()
        t.source = source
        t.reserveCapacity(ints.count)
        let f = power10(precision)
        for (k, (a, b)) in ints.enumerated() {
            let lat = Double(a) / f, lon = Double(b) / f
            guard abs(lat) <= 90 && abs(lon) <= 180 else {
                throw InputError(.badValue, at: SourceLocation(file: source == "polyline" ? "<polyline>" : source, line: 1),
                                 found: "point \(k + 1) at latitude \(lat)°, longitude \(lon)°",
                                 expected: "a position on the globe (|latitude| ≤ 90°, |longitude| ≤ 180°; precision \(precision) assumed)")
            }
            t.append(time: .nan, latitude: lat, longitude: lon)
        }
        return t
    }

    /// A route from polyline text given on the command line.
    public static func track(text: String, precision: Int = 5) throws(InputError) -> Track {
        try track(from: try decodeIntegers(Array(text.utf8), file: "<polyline>"), precision: precision, source: "polyline")
    }
}
