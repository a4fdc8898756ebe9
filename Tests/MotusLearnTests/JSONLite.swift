import Foundation

/// JSON round trip through Foundation (tests only; the library itself does not import Foundation).
enum JSONEncoderLite {
    static func encode<T: Encodable>(_ v: T) throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return try e.encode(v)
    }
    static func decode<T: Decodable>(_ t: T.Type, from d: Data) throws -> T {
        try JSONDecoder().decode(t, from: d)
    }
}
