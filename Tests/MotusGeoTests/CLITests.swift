import Testing
import MotusTestSupport
import Foundation
import MotusIO
@testable import MotusGeo

/// End-to-end: the built `motus` binary on the real files.
enum GeoCLI {
    static let root = DatasetLocator.packageRoot(fromFile: #filePath)
    static var binary: String? {
        let c = [".build/debug/motus", ".build/release/motus"].map { root + "/" + $0 }.filter { FileManager.default.isExecutableFile(atPath: $0) }
        return c.max { a, b in
            let da = (try? FileManager.default.attributesOfItem(atPath: a)[.modificationDate] as? Date) ?? .distantPast
            let db = (try? FileManager.default.attributesOfItem(atPath: b)[.modificationDate] as? Date) ?? .distantPast
            return da < db
        }
    }
    static var available: Bool { binary != nil && TrackData.available }

    static func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary!)
        p.arguments = args
        let o = Pipe(), e = Pipe()
        p.standardOutput = o; p.standardError = e
        try p.run()
        let od = o.fileHandleForReading.readDataToEndOfFile(), ed = e.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: od, as: UTF8.self), String(decoding: ed, as: UTF8.self))
    }
}

@Suite(.serialized) struct GeoCLITests {
    @Test(.enabled(if: GeoCLI.available))
    func rideJSONHasTheIssueKeys() throws {
        let r = try GeoCLI.run(["ride", TrackData.path(TrackData.fenix), "--format", "json", "--mass", "70"])
        #expect(r.status == 0, "\(r.err)")
        let j = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        for k in ["steps", "distance_m", "moving_time_s", "elapsed_time_s", "average_pace_s_per_km", "cadence_spm", "splits", "events",
                  "elevation_gain_m", "elevation_loss_m", "max_speed_mps", "average_speed_mps", "energy_kcal"] {
            #expect(j[k] != nil, "missing \(k)")
        }
        #expect(abs((j["distance_m"] as! Double) - 9008) < 90)
        #expect((j["splits"] as! [Any]).count == 9)
    }

    @Test(.enabled(if: GeoCLI.available))
    func rideKeepsStepsNullForRides() throws {
        let r = try GeoCLI.run(["ride", TrackData.path(TrackData.edge530), "--format", "json"])
        #expect(r.status == 0)
        let j = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        #expect(j["steps"] is NSNull && j["cadence_spm"] is NSNull)
        #expect(j["energy_method"] as? String == "cycling-power")
    }

    /// `motus track` on an activity file prints the ride summary itself, in every format.
    @Test(.enabled(if: GeoCLI.available), arguments: ["table", "json", "csv"])
    func trackOnAnActivityFileIsTheRideSummary(format: String) throws {
        let f = TrackData.path(TrackData.fenix)
        let ride = try GeoCLI.run(["ride", f, "--format", format, "--activity", "ride", "--split", "750"])
        let track = try GeoCLI.run(["track", f, "--mode", "ride", "--format", format, "--split", "750"])
        #expect(ride.status == 0 && track.status == 0, "\(track.err)")
        #expect(track.out == ride.out && !ride.out.isEmpty)
        // Without --mode ride the file's own sport (running) stands.
        let own = try GeoCLI.run(["track", f, "--format", format])
        #expect(own.out == (try GeoCLI.run(["ride", f, "--format", format])).out)
        #expect(own.out != ride.out)
    }

    @Test(.enabled(if: GeoCLI.available))
    func routeWithProfileAndPlot() throws {
        let dir = NSTemporaryDirectory() + "motus-geo-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try GeoCLI.run(["route", TrackData.path("togeojson/trek.gpx"), "--profile", dir + "/p.csv", "--plot", dir + "/p.svg", "--format", "csv"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("distance_m,elevation_gain_m"))
        let csv = try String(contentsOfFile: dir + "/p.csv", encoding: .utf8)
        #expect(csv.hasPrefix("distance_m,elevation_m,grade_percent\n") && csv.split(separator: "\n").count == 53)   // header, 0…5,000 m every 100 m, the end (5,031 m)
        #expect(try String(contentsOfFile: dir + "/p.svg", encoding: .utf8).contains("distance (km)"))
    }

    @Test(.enabled(if: GeoCLI.available))
    func routeFromPolylineText() throws {
        let r = try GeoCLI.run(["route", "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "--format", "json"])
        #expect(r.status == 0)
        let j = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        #expect(j["points"] as? Int == 3)
    }

    @Test(.enabled(if: GeoCLI.available))
    func compareAndRank() throws {
        let a = TrackData.path(TrackData.edge810)
        let c = try GeoCLI.run(["compare", a, a, "--format", "csv", "--step", "10000"])
        #expect(c.status == 0)
        #expect(c.out.split(separator: "\n").count == 6)   // header + 10, 20, 30, 40 km + end
        #expect(c.out.contains(",tie,"))
        let r = try GeoCLI.run(["rank", a, TrackData.path(TrackData.edge530), "--format", "json"])
        #expect(r.status == 0)
        let j = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        let e = j["entries"] as! [[String: Any]]
        #expect(e[0]["rank"] as? Int == 1 && e[1]["finished"] as? Bool == false)
    }

    @Test(.enabled(if: GeoCLI.available))
    func errorsAreOneLine() throws {
        let dir = NSTemporaryDirectory() + "motus-geo-bad-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TrackData.path(TrackData.fenix)))
        _ = FileManager.default.createFile(atPath: dir + "/cut.fit", contents: bytes.prefix(5000))
        let r = try GeoCLI.run(["ride", dir + "/cut.fit"])
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("motus: \(dir)/cut.fit: found 'end of file at byte 5000'"))
        #expect(r.err.split(separator: "\n").count == 1)
        let m = try GeoCLI.run(["ride", dir + "/nothing.gpx"])
        #expect(m.status == 1 && m.err.contains("nothing there"))
    }
}
