import Testing
import Foundation
@testable import MotusIO

/// JSON numbers say what the measurement carries, and values that are not numbers are null.
@Suite struct JSONNumbersTests {
    struct Sample: Encodable {
        var distance_m: Double, time_s: Double, t: Double, latitude: Double, lon_deg: Double, pace: Double
        var missing: Double, up: Double, down: Double, steps: Int, values: [Double], note: String
    }

    func encode(_ s: Sample) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        let m = JSONNumbers.nonFiniteMarker
        e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: m, negativeInfinity: m, nan: m)
        return JSONNumbers.tidy(String(decoding: try e.encode(s), as: UTF8.self))
    }

    @Test func noiseRoundedNonFiniteNullAndValidJSON() throws {
        let json = try encode(Sample(distance_m: 6.3999999999999515, time_s: 1623964476.8600001, t: 0.1 + 0.2, latitude: 59.123456789012,
                                     lon_deg: -10.98765432101, pace: 1095.9582932116566, missing: .nan, up: .infinity, down: -.infinity,
                                     steps: 43, values: [0.30000000000000004, 1e-7, 123456789.123], note: "nan 6.3999999999999515 \u{1}"))
        let o = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(json.contains("\"distance_m\" : 6.4,"))
        #expect(json.contains("\"time_s\" : 1623964476.86,"))
        #expect(json.contains("\"t\" : 0.3,"))
        #expect(json.contains("\"latitude\" : 59.1234568,") && json.contains("\"lon_deg\" : -10.9876543,"))
        #expect(json.contains("\"pace\" : 1095.96,"))
        #expect(json.contains("\"missing\" : null,") && json.contains("\"up\" : null,") && json.contains("\"down\" : null,"))
        #expect(!json.contains("motus-not-a-number"))
        #expect(json.contains("\"steps\" : 43,"))
        #expect(json.contains("0.3,") && json.contains("1e-07") && json.contains("123456789\n"))
        #expect(o["note"] as? String == "nan 6.3999999999999515 \u{1}", "text is left as it is")
        #expect(o["missing"] is NSNull)
    }

    @Test func precisionByKey() {
        #expect(JSONNumbers.precision(forKey: "first_time_s") == .decimals(6))
        #expect(JSONNumbers.precision(forKey: "time") == .decimals(6))
        #expect(JSONNumbers.precision(forKey: "average_pace_s_per_km") == .significant(6))
        #expect(JSONNumbers.precision(forKey: "lat") == .decimals(7) && JSONNumbers.precision(forKey: "start_longitude") == .decimals(7))
        #expect(JSONNumbers.format(0.000012345678, .decimals(6)) == "0.000012" || JSONNumbers.format(0.000012345678, .decimals(6)) == "1.2e-05")
        #expect(JSONNumbers.format(-0.0, .significant(6)) == "0")
        #expect(JSONNumbers.format(9.80665, .significant(6)) == "9.80665")
        #expect(JSONNumbers.format(99.99999999, .significant(6)) == "100")
        #expect(JSONNumbers.format(1623964476.8600001, .significant(6)) == "1623964477", "a whole part is never rounded away")
        #expect(JSONNumbers.precision(forKey: "start") == .decimals(6) && JSONNumbers.precision(forKey: "end") == .decimals(6))
    }
}
