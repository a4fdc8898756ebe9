import Foundation
import Testing
import MotusCore
import MotusIO

/// Shared helpers of the reader tests: where the real data is, independent (Foundation-based,
/// obviously-right) listings and counts to compare the readers with, and temporary files.
enum ReadersData {
    static let root: String? = DatasetLocator.sharedDatasets(packageRoot: DatasetLocator.packageRoot(fromFile: #filePath))
    static let available = root != nil
    static let skipMessage: Comment = "shared datasets not found (../shared/datasets or MOTUS_DATASETS): skipping real-data test"

    static func path(_ rel: String) -> String { (root ?? "/nonexistent") + "/" + rel }

    static func list(_ rel: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path(rel))) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// "act_trial/sub_n.csv" for every MotionSense device-motion file.
    static var motionSenseFiles: [String] {
        list("motionsense/A_DeviceMotion_data").flatMap { t in list("motionsense/A_DeviceMotion_data/\(t)").map { "\(t)/\($0)" } }
    }
    static var oxfordWalks: [String] { list("oxford/optimisation/data").filter { !$0.hasPrefix("_") } }
    static var ipolTrials: [String] {
        list("ipol/voisard2023_ipol497/GaitData").filter { $0.hasSuffix("_lb.txt") }.map { String($0.dropLast(7)) }
    }
    static var semiogramFiles: [String] {
        list("ipol/voisard_semiogram_ipol535/example_datasets").flatMap { g in
            list("ipol/voisard_semiogram_ipol535/example_datasets/\(g)").filter { $0.hasSuffix("_lb.txt") }.map { "\(g)/\($0)" }
        }
    }
    static var mpowerFiles: [String] { list("mpower/mhealthtools").filter { $0.hasSuffix(".json") } }

    /// Non-empty lines of a text file (the reference for sample counts).
    static func lines(_ fullPath: String) -> [Substring] {
        guard let d = FileManager.default.contents(atPath: fullPath) else { return [] }
        let s = String(decoding: d, as: UTF8.self)
        return s.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Foundation's JSON parse, with bare NaN turned into null (reference for the own parser).
    static func json(_ fullPath: String) -> Any? {
        guard let d = FileManager.default.contents(atPath: fullPath) else { return nil }
        let s = String(decoding: d, as: UTF8.self).replacingOccurrences(of: ": NaN", with: ": null")
        return try? JSONSerialization.jsonObject(with: Data(s.utf8))
    }
}

/// A temporary folder for bad-input files, removed at the end.
final class TempDir {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "motus-readers-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    func write(_ rel: String, _ text: String) -> String {
        let p = path + "/" + rel
        try? FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }
}

/// Runs `body` and returns the `InputError` it throws (nil when it does not throw).
func inputError(_ body: () throws -> Void) -> InputError? {
    do { try body(); return nil } catch let e as InputError { return e } catch { return nil }
}

extension SensorStream {
    func mean() -> Vector3 {
        var s = Vector3.zero
        for i in 0..<count { s += vector(i) }
        return count > 0 ? s / Double(count) : s
    }
}
