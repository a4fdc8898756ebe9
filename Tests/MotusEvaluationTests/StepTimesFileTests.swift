import Testing
import MotusCore
@testable import MotusEvaluation

/// `StepTimesFile`: another detector's steps for `evaluate-steps --steps-from`, every row read
/// or the file refused with its line and column.
@Suite struct StepTimesFileTests {
    @Test func readsEveryRowAndSaysWhichRecordingsFoundNone() throws {
        let text = "recording,time_s\r\n3-1,4.25\r\n3-1,4.8\nT1_ID3_1L,\n3-1,5.35\n\n"
        let steps = try StepTimesFile.parse(text, file: "peer.csv")
        #expect(steps["3-1"] == [4.25, 4.8, 5.35])
        #expect(steps["T1_ID3_1L"] == [], "ran, found none")
        #expect(steps.count == 2)
    }

    @Test func refusesWhatItCannotReadWithLineAndColumn() {
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
            #expect(throws: InputError.self) { try StepTimesFile.parse(text, file: "peer.csv") }
            do { _ = try StepTimesFile.parse(text, file: "peer.csv") } catch { #expect("\(error)" == message) }
        }
    }

    @Test func anUnreadableFileSaysSo() {
        do {
            _ = try StepTimesFile.read("/nonexistent/peer.csv")
            Issue.record("read a file that does not exist")
        } catch let e as InputError {
            #expect(e.reason == .unreadable && "\(e)".hasPrefix("/nonexistent/peer.csv: "))
        } catch { Issue.record("\(error)") }
    }
}
