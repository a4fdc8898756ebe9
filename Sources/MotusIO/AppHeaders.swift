import MotusCore

/// Header cells as phone sensor-logging apps write them, reduced to a key the column mapping
/// compares, with the unit the cell names.
///
/// - phyphox: `"Time (s)"`, `"Linear Acceleration x (m/s^2)"`, `"X (rad/s)"`: the unit in
///   parentheses, words separated by spaces;
/// - HyperIMU and Android loggers: `MPL_Accelerometer.x`, `lsm6dsr_accelerometer.x`: the
///   device's sensor name, then the axis;
/// - `x_acc`, `x_gyro`: the axis first.
///
/// The key is the cell lowercased, its trailing `(unit)` or `[unit]` removed and its spaces
/// turned into `_`, so `Linear Acceleration x (m/s^2)` becomes `linear_acceleration_x` with
/// unit `m/s^2`.
struct HeaderName {
    let key: String
    let unit: String?

    init(_ raw: String) {
        var s = Substring(raw.trimmingSpaces())
        var unit: String? = nil
        if let close = s.last, close == ")" || close == "]" {
            let open: Character = close == ")" ? "(" : "["
            if let o = s.lastIndex(of: open) {
                let inner = s[s.index(after: o)..<s.index(before: s.endIndex)]
                unit = String(inner).trimmingSpaces()
                s = s[..<o]
            }
        }
        var key = ""
        var lastUnderscore = false
        for ch in s.lowercased().trimmingSpaces() {
            if ch == " " || ch == "\t" {
                if !lastUnderscore { key.append("_") }
                lastUnderscore = true
            } else {
                key.append(ch)
                lastUnderscore = ch == "_"
            }
        }
        self.key = key
        self.unit = unit
    }

    /// The factor into SI named by a unit for a stream kind: nil when the text names no unit
    /// Motus knows for that kind (the caller reports it).
    static func scale(unit: String, for kind: StreamKind) -> Double? {
        let u = unit.lowercased().replacingSpaces()
        switch kind {
        case .acceleration, .userAcceleration, .gravity:
            switch u {
            case "m/s^2", "m/s²", "m/s2", "ms^-2", "ms-2", "mps2", "m/s/s": return 1
            case "g": return Units.standardGravity
            case "mg": return Units.standardGravity / 1000
            default: return nil
            }
        case .rotationRate:
            switch u {
            case "rad/s", "rads", "rad/sec": return 1
            case "deg/s", "°/s", "degs", "dps", "deg/sec": return Double.pi / 180
            default: return nil
            }
        case .magneticField:
            switch u {
            case "µt", "μt", "ut", "microtesla": return 1
            case "nt": return 0.001
            case "mg", "milligauss": return 0.1
            case "g", "gauss": return 100
            default: return nil
            }
        case .pressure:
            switch u {
            case "pa": return 1
            case "hpa", "mbar": return 100
            case "kpa": return 1000
            default: return nil
            }
        case .stepCounter, .location, .attitude:
            return 1
        }
    }

    /// The time unit a header cell names (`Time (s)`, `timestamp [ms]`), nil for none or an
    /// unknown one.
    static func timeUnit(_ unit: String?) -> TimeUnit? {
        switch unit?.lowercased().replacingSpaces() {
        case "s", "sec", "seconds": .seconds
        case "ms": .milliseconds
        case "us", "µs", "μs": .microseconds
        case "ns": .nanoseconds
        default: nil
        }
    }
}

/// What the lines before a delimited file's header say about its columns. HyperIMU writes
///
/// ```
/// @ HyperIMU - ianovir - 2017
/// @ Date: Sat Nov 11 15:39:03 GMT+01:00 2017, Sampling Time: 50ms
/// ```
///
/// before the header: its `timestamp` column is then Unix epoch milliseconds, and a file
/// without one is sampled at the nominal period (which the app does not keep exactly: the
/// notice says so).
struct AppPreamble: Equatable {
    /// The unit of a `timestamp` column the header's name leaves open.
    var timestampUnit: TimeUnit?
    /// The nominal rate (Hz) when the file has no time column.
    var nominalRateHz: Double?
    /// The app that wrote the file, for the notice about the nominal rate.
    var app: String?

    init() {}

    /// Reads the first lines of `path` (a regular file; nothing for pipes, which the loaders
    /// copy to a file first).
    init(path: String) {
        guard path != "-", DelimitedReader.isRegularFile(path) else { return }
        let head = String(decoding: ReaderFiles.headBytes(path, count: 512), as: UTF8.self)
        guard head.hasPrefix("@ HyperIMU") else { return }
        app = "HyperIMU"
        timestampUnit = .milliseconds
        let marker = Array("Sampling Time:")
        for line in head.split(separator: "\n").prefix(4) where line.hasPrefix("@") {
            let chars = Array(line)
            guard let at = chars.indices.first(where: { chars[$0...].starts(with: marker) }) else { continue }
            let rest = Substring(String(chars[(at + marker.count)...])).trimmingPrefix(" ")
            let digits = rest.prefix { $0.isNumber || $0 == "." }
            if let ms = Double(digits), ms > 0, rest.dropFirst(digits.count).hasPrefix("ms") { nominalRateHz = 1000 / ms }
        }
    }
}

/// The sensor a single-sensor export file holds, from its file name, for files whose columns
/// are only `X`, `Y`, `Z` (phyphox's `Accelerometer.csv`, `Gyroscope.csv`, `Linear
/// Acceleration.csv`, `Magnetometer.csv`).
enum SensorFileName {
    static func kind(path: String) -> StreamKind? {
        var name = ReaderFiles.lastComponent(path).lowercased()
        if let dot = name.lastIndex(of: ".") { name = String(name[..<dot]) }
        switch name.replacingSpaces() {
        case "accelerometer", "acceleration", "accelerometer_with_g", "acceleration_with_g": return .acceleration
        case "linear_acceleration", "linearacceleration", "acceleration_without_g", "linear_accelerometer", "user_acceleration": return .userAcceleration
        case "gyroscope", "gyro": return .rotationRate
        case "magnetometer", "magnetic_field", "magneticfield": return .magneticField
        case "gravity": return .gravity
        default: return nil
        }
    }
}

extension String {
    /// Spaces turned into `_` (for file names and units compared as keys).
    func replacingSpaces() -> String { String(map { $0 == " " ? "_" : $0 }) }
}

extension Substring {
    func trimmingPrefix(_ c: Character) -> Substring { drop { $0 == c } }
}
