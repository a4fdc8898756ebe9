import Testing
import Foundation
@testable import MotusIO
import MotusCore

/// Layout files: the input flags written once beside delimited files (`DelimitedLayout`).
@Suite struct DelimitedLayoutTests {
    static let mobgapCSV = TestFiles.packageRoot + "/datasets/mobgap/MS001_TimeMeasure1_Test5_Trial1.csv"

    /// The bundled mobgap CSV (sample index, g, deg/s) reads with no flags through the folder's
    /// `motus-layout`, to the same samples as the flags give and as the bundled `.motus` holds.
    @Test func bundledMobgapCSVReadsThroughItsFolderLayout() throws {
        let viaLayout = try RecordingLoader.load(path: Self.mobgapCSV)
        var flags = DelimitedOptions()
        flags.rateHz = 100; flags.accelUnit = .g; flags.gyroUnit = .degreesPerSecond
        let viaFlags = try DelimitedReader(path: Self.mobgapCSV, options: flags).read()
        #expect(viaLayout.streams == viaFlags.streams)
        #expect(viaLayout.metadata.extra["layout"] == TestFiles.packageRoot + "/datasets/mobgap/motus-layout")
        #expect(viaLayout.metadata.nominalRateHz == 100)
        let acc = try #require(viaLayout.stream(.acceleration))
        #expect(acc.count == 1450)
        #expect(abs(acc.times[1] - 0.01) < 1e-12)
        #expect(abs(acc.vector(0).norm - 9.62) < 0.1, "g read as g: |a| at rest is about 9.8 m/s², not 1")
        let native = try RecordingLoader.load(path: TestFiles.packageRoot + "/datasets/lowback-straight-walk.motus")
        let nativeAcc = try #require(native.stream(.acceleration))
        for i in stride(from: 0, to: 1450, by: 97) {
            #expect(abs(acc.vector(i).x - nativeAcc.vector(i).x) < 1e-9)
        }
        // The streamed road (track, classify) and the one-pass summary (inspect) see the same.
        var reader = try SampleReader(path: Self.mobgapCSV, kinds: [.acceleration, .rotationRate])
        var n = 0
        try reader.forEach { _ in n += 1 }
        #expect(n == 2900)
        let summary = try RecordingLoader.summarize(path: Self.mobgapCSV)
        #expect(summary.streams.map(\.samples) == [1450, 1450])
    }

    @Test func ownFileWinsOverTheFolderAndFlagsWinOverBoth() throws {
        let dir = TestFiles.tempDir()
        let csv = dir + "/walk.csv"
        _ = FileManager.default.createFile(atPath: csv, contents: Data("n,acc_x,acc_y,acc_z\n0,0,0,1\n1,0,0,1\n".utf8))
        _ = FileManager.default.createFile(atPath: dir + "/motus-layout", contents: Data("--rate 10\n--accel-unit g\n".utf8))
        var r = try RecordingLoader.load(path: csv)
        #expect(r.stream(.acceleration)?.times == [0, 0.1])
        #expect(r.stream(.acceleration)?.vector(0).z == 9.80665)
        _ = FileManager.default.createFile(atPath: csv + ".motus-layout", contents: Data("  # its own\n\n--rate=20\n".utf8))
        r = try RecordingLoader.load(path: csv)
        #expect(r.stream(.acceleration)?.times == [0, 0.05])
        #expect(r.stream(.acceleration)?.vector(0).z == 1, "the file's own layout replaces the folder's whole")
        #expect(r.metadata.extra["layout"] == csv + ".motus-layout")
        var given = DelimitedOptions()
        given.accelUnit = .g
        given.timeColumn = .name("n")
        r = try RecordingLoader.load(path: csv, options: given)
        #expect(r.stream(.acceleration)?.times == [0, 1], "a time column on the command line replaces the layout's rate")
        #expect(r.stream(.acceleration)?.vector(0).z == 9.80665)
    }

    @Test func aFolderLayoutIsOnlyForDelimitedTextAndNeverForNativeFiles() throws {
        let dir = TestFiles.tempDir()
        _ = FileManager.default.createFile(atPath: dir + "/motus-layout", contents: Data("--accel-unit g\n".utf8))
        let native = dir + "/r.motus"
        _ = FileManager.default.createFile(atPath: native, contents: Data("#motus,1\n@stream,acc,acc\nacc,0,0,0,9.5\n".utf8))
        #expect(try RecordingLoader.load(path: native).stream(.acceleration)?.vector(0).z == 9.5)
        #expect(DelimitedLayout.file(for: dir + "/x.json") == nil)
        #expect(DelimitedLayout.file(for: dir + "/x.txt") == nil, "no such file")
        _ = FileManager.default.createFile(atPath: dir + "/x.txt", contents: Data())
        #expect(DelimitedLayout.file(for: dir + "/x.txt") == dir + "/motus-layout")
        // A folder listing does not take layout files for recordings.
        #expect(try RecordingLoader.recordings(under: dir) == [native, dir + "/x.txt"])
    }

    @Test func badLayoutLinesAreErrorsAtTheirLineAndColumn() {
        func message(_ layout: String) -> String {
            let dir = TestFiles.tempDir()
            _ = FileManager.default.createFile(atPath: dir + "/a.csv", contents: Data("t,acc_x,acc_y,acc_z\n0,0,0,1\n".utf8))
            _ = FileManager.default.createFile(atPath: dir + "/motus-layout", contents: Data(layout.utf8))
            do { _ = try RecordingLoader.load(path: dir + "/a.csv"); return "no error" } catch {
                return error.description.replacingOccurrences(of: dir + "/", with: "")
            }
        }
        #expect(message("# fine\n--accel-unit furlongs\n") == "motus-layout:2:14: found 'furlongs', expected g or mps2 after --accel-unit")
        #expect(message("--rate   -3\n") == "motus-layout:1:10: found '-3', expected a positive number of Hz after --rate")
        #expect(message("--rate\n") == "motus-layout:1:1: found nothing, expected a value after --rate")
        #expect(message("--no-header yes\n") == "motus-layout:1:13: found 'yes', expected no value after --no-header")
        #expect(message("--accel-columns a,b\n") == "motus-layout:1:17: found 'a,b', expected three columns X,Y,Z after --accel-columns")
        #expect(message("  --colour red\n").hasPrefix("motus-layout:1:3: found '--colour', expected an input flag (--time-column, --time-unit, --rate,"))
        #expect(message("rate 100\n") == "motus-layout:1:1: found 'rate 100', expected an input flag such as '--rate 100' (or a # comment)")
        #expect(message("--rate 100\n--time-column t\n") == "motus-layout: found '--time-column and --rate', expected one of them")
        #expect(message("--accel-unit g\n") == "no error")
    }
}
