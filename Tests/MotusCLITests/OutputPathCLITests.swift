import Testing
import Foundation

/// `--out` through a file (#18): every command that writes says which component is in the way,
/// on one line, and exits non-zero before doing the work.
@Suite(.serialized) struct OutputPathCLITests {
    @Test func aFileInTheOutputPathIsNamed() throws {
        let file = CLI.temp("plain.txt", "not a folder")
        let sample = "datasets/lowback-straight-walk.motus"
        let cases: [([String], String)] = [
            (["convert", sample, "--out", file + "/x/"], "motus: cannot write '\(file)/x/': '\(file)' is not a folder\n"),
            (["convert", sample, "--out", file + "/x/walk.motus"], "motus: cannot write '\(file)/x/walk.motus': '\(file)' is not a folder\n"),
            (["import", "datasets", "--from", "motiondatacollector", "--out", file + "/x/"], "motus: cannot create folder '\(file)/x': '\(file)' is not a folder\n"),
            (["train", sample, "--out", file + "/m.json"], "motus: cannot write '\(file)/m.json': '\(file)' is not a folder\n"),
            (["route", "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "--plot", file + "/x/p.svg"], "motus: cannot write '\(file)/x/p.svg': '\(file)' is not a folder\n"),
            (["record", "--source", "stdin", "--out", file + "/x/"], "motus: cannot create folder '\(file)/x': '\(file)' is not a folder\n"),
        ]
        for (args, message) in cases {
            let r = try CLI.run(args, stdin: "")
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr == message, "\(args)")
        }
    }

    /// Missing folders of an output file are created.
    @Test func missingFoldersAreMade() throws {
        let dir = NSTemporaryDirectory() + "motus-cli-" + UUID().uuidString
        let r = try CLI.run(["route", "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "--profile", dir + "/a/b/profile.csv"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/a/b/profile.csv"))
    }
}
