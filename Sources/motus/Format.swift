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

    /// `value` as `encode` writes it, with one more member, `"exact"`, holding `exact` on one
    /// line with every number as computed (shortest round trip, so a reader gets the same
    /// doubles) and non-finite values `null`: what a per-recording run (`--recording`) carries
    /// so that a driver gathering many of them can pool the figures to those of one whole run
    /// (medians and AUCs cannot be pooled from numbers rounded for reading).
    static func encode<T: Encodable, E: Encodable>(_ value: T, exact: E) throws -> String {
        try appending(exact: exact, to: try encode(value))
    }

    /// `json` (an object as `encode` writes it) with the member `"exact"` added, as above.
    static func appending<E: Encodable>(exact: E, to base: String) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.keyEncodingStrategy = .convertToSnakeCase
        let marker = JSONNumbers.nonFiniteMarker
        e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: marker, negativeInfinity: marker, nan: marker)
        let text = String(decoding: try e.encode(exact), as: UTF8.self)
            .replacingOccurrences(of: "\"\\u0001motus-not-a-number\"", with: "null")
        guard let close = base.lastIndex(of: "}") else { return base }
        let head = base[..<close].trimmingCharacters(in: .whitespacesAndNewlines)
        return head + (head.hasSuffix("{") ? "\n" : ",\n") + "  \"exact\" : " + text + "\n}"
    }
}
