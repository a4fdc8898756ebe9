import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// Inputs coverage-guided fuzzing found (fuzz/findings): each is now a clean error.
@Suite struct FuzzFindingsTests {
    /// A FIT file whose timestamp field has a signed base type and decodes negative: it trapped
    /// converting to UInt32 (fuzz-fit, 50 bytes, sizes and CRCs valid).
    @Test func fitTimestampOutsideUInt32IsAnError() throws {
        let bytes = [UInt8](Data(base64Encoded: "Djjg/yIAAAAuRklUIEZAAAEAFQT9DwFvAP+yAAAAAAAAy/8ASW50AU9wdGlvAABva20=")!)
        #expect(bytes.count == 50)
        #expect { try FITReader.decode(bytes, file: "t.fit") } throws: { e in
            guard let e = e as? InputError else { return false }
            return e.reason == .badValue && e.expected == "a timestamp 0…4294967295 s since 1989-12-31" && !e.description.contains("\n")
        }
    }
}

extension FuzzFindingsTests {
    /// `Subtri@` decodes to a longitude of 223.4° (fuzz-polyline): a point off the globe is an
    /// error naming it, not a route.
    @Test func polylinePointOffTheGlobeIsAnError() throws {
        #expect { try Polyline.track(text: "Subtri@") } throws: { e in
            guard let e = e as? InputError else { return false }
            return e.reason == .badValue && e.found.hasPrefix("point 1 at latitude") && e.expected.hasPrefix("a position on the globe")
        }
        // A real route still reads.
        #expect(try Polyline.track(text: "_p~iF~ps|U_ulLnnqC_mqNvxq`@").count == 3)
    }
}
