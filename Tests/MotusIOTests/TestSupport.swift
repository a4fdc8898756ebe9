import Foundation
@testable import MotusIO
import MotusCore

enum TestFiles {
    static let packageRoot = DatasetLocator.packageRoot(fromFile: #filePath)
    static let shared = DatasetLocator.sharedDatasets(packageRoot: packageRoot)
    static var hasShared: Bool {
        if shared == nil { print("skipping: ../shared/datasets not found (set MOTUS_DATASETS to run tests on the real data)") }
        return shared != nil
    }

    /// A fresh temporary file path with the given contents.
    static func temp(_ contents: String, name: String = "input.csv") -> String {
        let dir = NSTemporaryDirectory() + "motus-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let p = dir + "/" + name
        _ = FileManager.default.createFile(atPath: p, contents: Data(contents.utf8))
        return p
    }

    static func tempPath(_ name: String) -> String {
        let dir = NSTemporaryDirectory() + "motus-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir + "/" + name
    }

    /// A fresh, empty temporary folder.
    static func tempDir() -> String {
        let dir = NSTemporaryDirectory() + "motus-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
