import Testing
import Foundation
import MotusIO

/// `.ci/tour`, the CI check that runs the README's tour as written, run here with the built
/// binary: it passes on the README and fails, naming the command, when a command is broken.
@Suite(.serialized) struct TourTests {
    struct Run { var status: Int32; var output: String }

    /// Runs `.ci/tour` on `readme` with the `motus` the CLI tests use; `shared` nil hides the
    /// public datasets (their commands are then skipped, as on a fresh clone).
    static func tour(readme: String, shared: String? = nil, arguments: [String] = []) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [CLI.root + "/.ci/tour"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["README"] = readme
        env["MOTUS_BIN"] = (CLI.binary as NSString).deletingLastPathComponent
        env["MOTUS_DATASETS"] = shared ?? "/nonexistent/motus-tour-test"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out; p.standardError = out
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, output: String(decoding: o, as: UTF8.self))
    }

    @Test func theREADMEsTourOnTheBundledDataWorksAsWritten() throws {
        let r = try Self.tour(readme: CLI.root + "/README.md")
        #expect(r.status == 0, "\(r.output)")
        // The tour opens with the bundled folder, mobgap's CSV included (read through its layout file).
        #expect(r.output.contains("$ motus inspect datasets "))
        #expect(r.output.contains("$ motus evaluate-steps datasets/lowback-straight-walk.motus"))
        #expect(r.output.contains("skipped (no /nonexistent/motus-tour-test): motus train ../shared/datasets/motionsense"))
        #expect(!r.output.contains("FAILED"))
    }

    @Test func aBrokenTourCommandFailsTheCheckAndIsNamed() throws {
        let readme = CLI.temp("README.md", """
            # A project

            <!-- tour:begin -->
            ```sh
            motus inspect datasets/lowback-straight-walk.motus        # works
            # a comment line, not a command
            motus inspect datasets/no-such-recording.motus            # broken: no such file
            motus track datasets/lowback-straight-walk.motus --format yaml
            motus classify datasets/iphone-belt-stand-then-walk.motus --segments
            ```
            <!-- tour:end -->

            ```sh
            motus not-in-the-tour
            ```
            """)
        let r = try Self.tour(readme: readme)
        #expect(r.status == 1)
        #expect(r.output.contains("tour: 2 of 4 commands worked, 0 skipped"), "\(r.output)")
        #expect(r.output.contains("tour: this README command did not work as written: motus inspect datasets/no-such-recording.motus"))
        #expect(r.output.contains("tour: this README command did not work as written: motus track datasets/lowback-straight-walk.motus --format yaml"))
        #expect(r.output.contains("| motus: datasets/no-such-recording.motus: found 'nothing there'"), "the command's stderr is shown")
        #expect(!r.output.contains("not-in-the-tour"))
    }

    /// The tour's first command: every bundled file reads, mobgap's CSV through its layout file
    /// (it used to stop the command with "no time column").
    @Test func inspectOfTheBundledFolderReadsEveryFile() throws {
        let r = try CLI.run(["inspect", "datasets", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "motus: datasets/mobgap/MS001_TimeMeasure1_Test5_Trial1.csv: left out columns: samples (Motus reads no stream from them)\n")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(json.compactMap { $0["path"] as? String } == ["datasets/iphone-belt-stand-then-walk.motus", "datasets/lowback-daily-activities.motus",
                                                               "datasets/lowback-straight-walk.motus", "datasets/mobgap/MS001_TimeMeasure1_Test5_Trial1.csv"])
        let csv = json[3], streams = try #require(csv["streams"] as? [[String: Any]])
        #expect((csv["metadata"] as? [String: Any]).flatMap { ($0["extra"] as? [String: String])?["layout"] } == "datasets/mobgap/motus-layout")
        let accMean = try #require(streams.first?["mean_magnitude"] as? Double)
        #expect(abs(accMean - 9.70) < 0.05, "acceleration read in g, as the layout says: \(accMean)")
    }

    @Test func aREADMEWithoutTheMarkersFails() throws {
        let r = try Self.tour(readme: CLI.temp("README.md", "```sh\nmotus help\n```\n"))
        #expect(r.status == 1)
        #expect(r.output.contains("tour: no commands between <!-- tour:begin --> and <!-- tour:end -->"))
    }
}
