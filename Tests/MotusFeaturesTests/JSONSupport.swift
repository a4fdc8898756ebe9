import Foundation
import MotusFeatures

func encodeJSON(_ c: FeatureConfiguration) throws -> String {
    let e = JSONEncoder()
    e.outputFormatting = [.sortedKeys]
    return String(decoding: try e.encode(c), as: UTF8.self)
}

func decodeJSON(_ s: String) throws -> FeatureConfiguration {
    try JSONDecoder().decode(FeatureConfiguration.self, from: Data(s.utf8))
}
