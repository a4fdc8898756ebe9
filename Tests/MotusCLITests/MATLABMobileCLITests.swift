import Testing
import Foundation
import MotusIO

/// A MATLAB Mobile sensor log as a user opens it: no flags, its streams listed, the timetable
/// Motus does not read named once on stderr.
@Suite(.serialized) struct MATLABMobileCLITests {
    @Test func inspectReadsALogWithNoFlags() throws {
        let log = "Tests/HandWritten/matlab-mobile/sensorlog_20260101_120000.mat"
        let r = try CLI.run(["inspect", log])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("source: MATLAB Mobile sensorlog_20260101_120000.mat"))
        let rows = r.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains { $0.prefix(4) == ["acc", "acceleration", "30", "10.00"] })
        #expect(rows.contains { $0.prefix(4) == ["loc", "location", "3", "1.00"] })
        let notices = r.stderr.split(separator: "\n").filter { $0.contains("left out") }
        #expect(notices == ["motus: \(log): left out: Orientation (30 rows of azimuth, pitch and roll in degrees: their rotation order is not documented, so no attitude is made from them)"])
    }

    /// A folder of logs (as MATLAB Drive's MobileSensorData) lists them; `make_sample.py`
    /// beside the log is not a recording.
    @Test func aFolderOfLogsListsThem() throws {
        let r = try CLI.run(["inspect", "Tests/HandWritten/matlab-mobile"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("source: MATLAB Mobile sensorlog_20260101_120000.mat") && !r.stdout.contains("make_sample"))
    }
}
