import Testing
import Foundation
import MotusCore
@testable import MotusIO

/// Sensor Logger export errors (#18): one line, at the reading's own line and column in a JSON
/// export, the row as found and the reason as what was expected; no message inside another.
@Suite struct SensorLoggerExportErrorTests {
    @Test func jsonReadingErrorIsOneLineAtItsObject() throws {
        let dir = TestFiles.tempDir()
        let json = "[\n  {\"time\": \"1700000000000000000\", \"seconds_elapsed\": \"0\", \"x\": \"1\", \"y\": \"2\", \"z\": \"3\"},\n  {\"time\": \"1700000000010000000\", \"seconds_elapsed\": \"0.01\", \"x\": \"a\",\n   \"y\": \"2\", \"z\": \"3\"}\n]\n"
        try json.write(toFile: dir + "/Accelerometer.json", atomically: true, encoding: .utf8)
        do { _ = try SensorLoggerExportReader.read(folder: dir); Issue.record("no error") } catch {
            #expect(error == InputError(.badValue, at: SourceLocation(file: dir + "/Accelerometer.json", line: 3, column: 3),
                                        found: "time=1700000000010000000 x=a y=2 z=3", expected: "a Sensor Logger accelerometer reading (values need finite x, y, z)"))
            #expect(!error.description.contains("\n"))
        }
        // An element that is not an object is an error at it, not a reading left out.
        try "[\n  42\n]\n".write(toFile: dir + "/Accelerometer.json", atomically: true, encoding: .utf8)
        #expect { try SensorLoggerExportReader.read(folder: dir) } throws: { e in
            (e as? InputError)?.location == SourceLocation(file: dir + "/Accelerometer.json", line: 2, column: 3)
                && (e as? InputError)?.expected == "an object per reading (a Sensor Logger export)"
        }
    }
}
