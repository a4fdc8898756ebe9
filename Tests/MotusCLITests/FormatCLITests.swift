import Testing
import Foundation
import MotusIO

/// `--format`: every value a command's help lists works, and the others are refused by the
/// argument parser naming the ones that do.
@Suite(.serialized) struct FormatCLITests {
    /// The values `--help` lists for `--format` ("Output format: table, json or csv.").
    static func listed(_ command: String) throws -> [String] {
        let help = try CLI.run([command, "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        guard let r = help.range(of: "Output format: ") else { return [] }
        let text = help[r.upperBound...].prefix { $0 != "." && $0 != "(" }
        return text.replacingOccurrences(of: " or ", with: ", ").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test(arguments: [
        ["inspect", "datasets"],
        ["classify", "datasets/lowback-straight-walk.motus"],
        ["track", "datasets/lowback-straight-walk.motus"],
        ["evaluate", "datasets/lowback-straight-walk.motus", "datasets/lowback-daily-activities.motus", "--map", "moving=walk", "--map", "still=none"],
        ["evaluate-steps", "datasets/lowback-straight-walk.motus"],
        ["route", "_p~iF~ps|U_ulLnnqC_mqNvxq`@"],
    ])
    func everyListedFormatWorks(_ args: [String]) throws {
        let formats = try Self.listed(args[0])
        #expect(formats.count >= 2, "\(args[0]): \(formats)")
        for f in ["table", "json", "csv"] {
            let r = try CLI.run(args + ["--format", f])
            if !formats.contains(f) {
                #expect(r.status == 64, "\(args[0]) --format \(f) is not listed, so it is refused")
                #expect(r.stderr.contains("The value '\(f)' is invalid for '--format <format>'"))
                continue
            }
            #expect(r.status == 0, "\(args[0]) --format \(f): \(r.stderr)")
            switch f {
            case "json":
                #expect((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) != nil, "\(args[0]): valid JSON")
                #expect(!r.stdout.contains("\"nan\"") && !r.stdout.contains("\"inf\""), "\(args[0])")
                #expect(r.stdout.range(of: #"[:\[,]\s*-?\d+\.\d*(0000000|9999999)\d*\s*[,\n\]]"#, options: .regularExpression) == nil, "\(args[0]): float noise in \(r.stdout)")
            case "csv":
                let lines = r.stdout.split(separator: "\n")
                #expect(lines.count >= 2 && lines.allSatisfy { $0.contains(",") }, "\(args[0]): \(r.stdout)")
            default:
                #expect(!r.stdout.isEmpty)
            }
        }
    }

    @Test func evaluationsListTableAndJSONOnly() throws {
        for c in ["evaluate", "evaluate-steps", "evaluate-motion"] { #expect(try Self.listed(c) == ["table", "json"], "\(c)") }
        #expect(try Self.listed("inspect") == ["table", "json", "csv"])
    }

    /// `import --from` names the input's format; the old `--format` still works, with a notice.
    @Test func importTakesFrom() throws {
        guard let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root) else {
            print("skipping: ../shared/datasets not found (set MOTUS_DATASETS)"); return
        }
        let source = shared + "/apps/motiondatacollector"
        let dir = (CLI.temp("x", "") as NSString).deletingLastPathComponent
        let new = try CLI.run(["import", source, "--from", "motiondatacollector", "--out", dir + "/a"])
        #expect(new.status == 0, "\(new.stderr)")
        #expect(new.stderr.hasPrefix("motus: wrote 3 recordings"))
        let old = try CLI.run(["import", source, "--format", "motiondatacollector", "--out", dir + "/b"])
        #expect(old.status == 0)
        #expect(old.stderr.hasPrefix("motus: import --format is now --from (the input's format): give --from motiondatacollector\n"))
        let a = try FileManager.default.contentsOfDirectory(atPath: dir + "/a").sorted(), b = try FileManager.default.contentsOfDirectory(atPath: dir + "/b").sorted()
        #expect(a == b && a.count == 3)
        let none = try CLI.run(["import", source, "--out", dir + "/c"])
        #expect(none.status == 64 && none.stderr.contains("give --from, the input's format"))
    }
}
