import Foundation
import Testing
@testable import MotusLearn

/// A scaler restored from a model file passes the checks `init(mean:scale:)` makes: a scale
/// array one value longer (a line doubled in the file) shifted every feature without a word.
@Suite struct ScalerDecodingTests {
    @Test func decodingChecksShapesAndValues() throws {
        let ok = try JSONDecoder().decode(StandardScaler.self, from: Data(#"{"mean":[0,1],"scale":[1,2]}"#.utf8))
        #expect(ok.featureCount == 2)
        for bad in [#"{"mean":[0,1],"scale":[1,2,2]}"#, #"{"mean":[0,1],"scale":[1,0]}"#, #"{"mean":[0,1e400],"scale":[1,2]}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(StandardScaler.self, from: Data(bad.utf8)) }
        }
        // A round trip keeps it.
        let back = try JSONDecoder().decode(StandardScaler.self, from: try JSONEncoder().encode(ok))
        #expect(back == ok)
    }
}
