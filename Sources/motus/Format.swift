import Foundation
import Motus

/// Number and table formatting for the CLI's human-readable output.
enum Fmt {
    static func f(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return v.isNaN ? "-" : (v > 0 ? "inf" : "-inf") }
        return String(format: "%.\(digits)f", v)
    }

    /// A number for a CSV cell, rounded as JSON output rounds the number under `key`
    /// (`JSONNumbers`); empty when it is not a number.
    static func csv(_ v: Double, _ key: String) -> String {
        v.isFinite ? JSONNumbers.format(v, JSONNumbers.precision(forKey: key)) : ""
    }

    /// Left-aligned first column, right-aligned others.
    static func table(_ rows: [[String]], indent: Int = 0) -> String {
        guard let first = rows.first else { return "" }
        var widths = [Int](repeating: 0, count: first.count)
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
        let pad = String(repeating: " ", count: indent)
        var out = ""
        for r in rows {
            var line = pad
            for (i, c) in r.enumerated() {
                let space = String(repeating: " ", count: widths[i] - c.count)
                line += i == 0 ? c + space : "  " + space + c
            }
            out += line + "\n"
        }
        return out
    }
}

/// JSON as every command prints it: pretty, keys sorted and in snake case, numbers rounded to
/// what they carry and non-finite values `null` (`JSONNumbers`).
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        e.keyEncodingStrategy = .convertToSnakeCase
        let marker = JSONNumbers.nonFiniteMarker
        e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: marker, negativeInfinity: marker, nan: marker)
        return JSONNumbers.tidy(String(decoding: try e.encode(value), as: UTF8.self))
    }
}
