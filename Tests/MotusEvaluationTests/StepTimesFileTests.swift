import Testing
import Foundation
import MotusCore
@testable import MotusEvaluation

/// `StepTimesFile`: another detector's steps for `evaluate-steps --steps-from`, every row read
/// or the file refused with its line and column.
@Suite struct StepTimesFileTests {
    /// `text` written to a new file named `peer.csv` in its own folder; its path.
    func file(_ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("step-times-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("peer.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func readsEveryRowAndSaysWhichRecordingsFoundNone() throws {
        let path = try file("recording,time_s\r\n3-1,4.25\r\n3-1,4.8\nT1_ID3_1L,\n3-1,5.35\n\n")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let steps = try StepTimesFile.read(path)
        #expect(steps["3-1"] == [4.25, 4.8, 5.35])
        #expect(steps["T1_ID3_1L"] == [], "ran, found none")
        #expect(steps.count == 2)
    }

    @Test func refusesWhatItCannotReadWithLineAndColumn() throws {
        let cases: [(String, String)] = [
            ("", "peer.csv: found nothing, expected the header 'recording,time_s' and one row per step"),
            ("id,t\n3-1,1\n", "peer.csv:1: found 'id,t', expected the header 'recording,time_s'"),
            ("recording,time_s\n3-1\n", "peer.csv:2: found '3-1', expected two fields: recording,time_s"),
            ("recording,time_s\n3-1,1,2\n", "peer.csv:2: found '3-1,1,2', expected two fields: recording,time_s"),
            ("recording,time_s\n,1\n", "peer.csv:2:1: found nothing, expected a recording id"),
            ("recording,time_s\n3-1,1\n3-1,abc\n", "peer.csv:3:5: found 'abc', expected a time in seconds"),
            ("recording,time_s\nT1_ID3_1L,inf\n", "peer.csv:2:11: found 'inf', expected a finite time in seconds"),
        ]
        for (text, message) in cases {
            let path = try file(text)
            defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
            let folder = (path as NSString).deletingLastPathComponent + "/"
            #expect(throws: InputError.self) { try StepTimesFile.read(path) }
            do { _ = try StepTimesFile.read(path) } catch { #expect("\(error)" == folder + message) }
        }
    }

    @Test func anUnreadableFileSaysSo() {
        do {
            _ = try StepTimesFile.read("/nonexistent/peer.csv")
            Issue.record("read a file that does not exist")
        } catch {
            #expect(error.reason == .unreadable && "\(error)".hasPrefix("/nonexistent/peer.csv: "))
        }
    }
}
