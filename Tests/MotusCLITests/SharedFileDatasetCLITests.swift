import Testing
import Foundation
import Motus

/// `inspect` and `track` on a file or folder that holds several recordings of a dataset (a
/// WISDM v1.1 file of several users, a UCI HAR folder), on the hand-written samples: inspect
/// shows each recording with its id, track refuses without `--recording` (naming the ids and
/// the flag) and with it tracks the recording the dataset gives.
@Suite(.serialized) struct SharedFileDatasetCLITests {
    static let hand = CLI.root + "/Tests/HandWritten"
    static let wisdm = hand + "/wisdm/WISDM_ar_v1.1_raw.txt"
    static let uci = hand + "/uci-har/UCI HAR Dataset"

    static func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test(arguments: [(wisdm, ["WISDM_ar_v1.1_raw/19", "WISDM_ar_v1.1_raw/20", "WISDM_ar_v1.1_raw/33"]), (uci, ["train/1", "train/3"])])
    func inspectShowsEveryRecordingWithItsId(path: String, ids: [String]) throws {
        let r = try CLI.run(["inspect", path, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let items = try Self.json(r.stdout)
        #expect(items.map { $0["recording"] as? String } == ids)
        // Each one is the dataset's recording: its acceleration samples as the library reads them.
        let ds = try DatasetFormat.openDataset(root: path)
        for (item, id) in zip(items, ids) {
            let acc = try #require(try ds.load(id).stream(.acceleration))
            let streams = item["streams"] as? [[String: Any]] ?? []
            #expect(streams.first { $0["kind"] as? String == StreamKind.acceleration.rawValue }?["samples"] as? Int == acc.count, "\(id)")
        }
        let table = try CLI.run(["inspect", path])
        #expect(ids.allSatisfy { table.stdout.contains(": recording \($0)\n") }, "\(table.stdout.prefix(400))")
    }

    @Test(arguments: [(wisdm, "WISDM_ar_v1.1_raw/33"), (uci, "train/3")])
    func trackTakesTheRecordingById(path: String, id: String) throws {
        let refused = try CLI.run(["track", path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("give one with --recording ID") && refused.stderr.contains(id), "\(refused.stderr)")
        // The same as tracking that recording written on its own.
        let dir = NSTemporaryDirectory() + "motus-shared-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/one.motus"
        try NativeWriter.write(try DatasetFormat.openDataset(root: path).load(id), to: file)
        let one = try CLI.run(["track", path, "--recording", id, "--format", "json"])
        let alone = try CLI.run(["track", file, "--format", "json"])
        #expect(one.status == 0 && alone.status == 0, "\(one.stderr) \(alone.stderr)")
        #expect(one.stdout == alone.stdout && one.stdout.contains("\"steps\""))
        let unknown = try CLI.run(["track", path, "--recording", "nope"])
        #expect(unknown.status != 0 && unknown.stderr.contains("found 'nope', expected the id of one of its"), "\(unknown.stderr)")
    }

    @Test func aDatasetFolderNeedsTheFlagToo() throws {
        let r = try CLI.run(["track", CLI.root + "/datasets"])
        #expect(r.status != 0 && r.stderr.contains("holds 4 recordings (") && r.stderr.contains("--recording ID"), "\(r.stderr)")
        let one = try CLI.run(["track", CLI.root + "/datasets", "--recording", "lowback-straight-walk.motus", "--format", "json"])
        let alone = try CLI.run(["track", CLI.root + "/datasets/lowback-straight-walk.motus", "--format", "json"])
        #expect(one.status == 0 && one.stdout == alone.stdout, "\(one.stderr)")
    }
}
