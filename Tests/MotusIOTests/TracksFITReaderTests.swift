import Testing
import MotusTestSupport
import Foundation
import MotusCore
@testable import MotusIO

@Suite struct FITReaderTests {
    @Test(.enabled(if: TrackData.available), arguments: [
        (TrackData.edge530, 8627), (TrackData.edge810, 4700), (TrackData.edge500, 10686),
        (TrackData.elemnt, 13471), (TrackData.edge1030, 18514), (TrackData.fenix, 2809),
    ])
    func decodesEveryRecord(file: String, records: Int) throws {
        let t = try FITReader.read(path: TrackData.path(file))
        #expect(t.count == records)
        #expect(t.deviceSummary.distanceMeters != nil)
        #expect(t.times.allSatisfy { !$0.isNaN })
        // Timestamps never go backwards.
        #expect(zip(t.times, t.times.dropFirst()).allSatisfy { $0.0 <= $0.1 })
    }

    /// Naive reference: the haversine sums in the datasets' README, from the decoded positions.
    @Test(.enabled(if: TrackData.available), arguments: [
        (TrackData.edge530, 38_824.0), (TrackData.edge810, 41_384.0), (TrackData.edge500, 92_828.0),
        (TrackData.elemnt, 81_156.0), (TrackData.edge1030, 171_819.0), (TrackData.fenix, 8_996.0),
    ])
    func positionsGiveTheReadmeHaversineLength(file: String, meters: Double) throws {
        let t = try FITReader.read(path: TrackData.path(file))
        let d = TrackData.haversineLength(t)
        #expect(abs(d - meters) < 1, "haversine \(d) vs README \(meters)")
    }

    /// The Edge 500 file ships with upstream's expected record values.
    @Test(.enabled(if: TrackData.available))
    func edge500MatchesUpstreamCSV() throws {
        let t = try FITReader.read(path: TrackData.path(TrackData.edge500))
        let text = try String(contentsOfFile: TrackData.path("python-fitparse/garmin-edge-500-activity-records.csv"), encoding: .utf8)
        let rows = text.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == t.count)
        var checked = 0
        for (i, r) in rows.enumerated() where i < t.count {
            // timestamp,heart_rate,cadence,speed,distance,position_lat,position_long,altitude,temperature
            #expect(abs(Double(r[1])! - t.heartRates[i]) < 1e-9)
            #expect(abs(Double(r[3])! - t.speeds[i]) < 1e-6)
            #expect(abs(Double(r[4])! - t.distances[i]) < 1e-6)
            #expect(abs(Double(r[7])! - t.elevations[i]) < 1e-6)
            if !t.latitudes[i].isNaN {
                #expect(abs(Double(r[5])! * 180 / 2147483648 - t.latitudes[i]) < 1e-12)
                #expect(abs(Double(r[6])! * 180 / 2147483648 - t.longitudes[i]) < 1e-12)
                checked += 1
            }
        }
        #expect(checked == 10686 - 9)
        #expect(t.timerEvents.filter { $0.kind == .stop }.count == 48)
        #expect(t.times[0] == 1316955622)   // 2011-09-25 13:00:22 UTC
    }

    @Test(.enabled(if: TrackData.available))
    func edge1030PrefersEnhancedFieldsAndBigEndianWorks() throws {
        let t = try FITReader.read(path: TrackData.path(TrackData.edge1030))
        let hi = t.elevations.filter { !$0.isNaN }.max()!, lo = t.elevations.filter { !$0.isNaN }.min()!
        #expect(abs(hi - 1254.2) < 0.05 && abs(lo - 935.0) < 0.05)
        #expect(t.deviceSummary.ascentMeters == 1800)
    }

    @Test func crcOfKnownBytes() {
        // CRC-16/ARC check value of "123456789" is 0xBB3D.
        #expect(FITReader.crc16(Array("123456789".utf8)) == 0xBB3D)
    }

    // MARK: bad input

    @Test(.enabled(if: TrackData.available))
    func truncatedFileIsAnError() throws {
        let bytes = try TrackData.bytes(TrackData.fenix)
        let cut = Array(bytes.prefix(bytes.count / 2))
        #expect(throws: InputError.self) { try FITReader.decode(cut, file: "cut.fit") }
        do { _ = try FITReader.decode(cut, file: "cut.fit") } catch {
            #expect(error.reason == .truncated)
            #expect(error.found.contains("byte \(cut.count)"))
            #expect(error.location.file == "cut.fit")
        }
    }

    @Test(.enabled(if: TrackData.available))
    func flippedByteFailsTheCRC() throws {
        var bytes = try TrackData.bytes(TrackData.edge530)
        bytes[5000] ^= 0x10
        do { _ = try FITReader.decode(bytes, file: "flip.fit"); Issue.record("no error") } catch {
            #expect(error.reason == .badValue)
            #expect(error.found.hasPrefix("file CRC"))
        }
    }

    @Test func badSignatureAndTinyFiles() {
        var h: [UInt8] = [14, 0x10, 0, 0, 0, 0, 0, 0, 0x2E, 0x46, 0x49, 0x54, 0, 0, 0, 0]
        h[9] = 0x58   // ".XIT"
        do { _ = try FITReader.decode(h, file: "x.fit"); Issue.record("no error") } catch {
            #expect(error.reason == .badHeader)
            #expect(error.expected.contains(".FIT"))
        }
        do { _ = try FITReader.decode([14, 0x10, 0], file: "x.fit"); Issue.record("no error") } catch { #expect(error.reason == .truncated) }
    }

    /// A hand-built file: definition (big-endian record with timestamp and position), data
    /// message, a compressed-timestamp data message, an unknown message skipped, and a data
    /// message for an undefined local type.
    @Test func handBuiltFileAndUndefinedLocalType() throws {
        func file(_ body: [UInt8]) -> [UInt8] {
            var b: [UInt8] = [12, 0x10, 0x08, 0x08]
            let n = UInt32(body.count)
            b += [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
            b += Array(".FIT".utf8) + body
            let c = FITReader.crc16(b)
            return b + [UInt8(c & 0xFF), UInt8(c >> 8)]
        }
        var body: [UInt8] = [0x40, 0, 1, 0, 20, 3, 253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85]
        body += [0x00, 0, 0, 0, 100] + [0x20, 0, 0, 0] + [0x10, 0, 0, 0]  // ts 100, lat 2^29, lon 2^28 semicircles
        body += [0x41, 0, 0, 0x34, 0x12, 1, 1, 2, 0x84] + [0x01, 0xAA, 0xBB]   // unknown global 0x1234 (little-endian), skipped
        // Compressed header: local 0, offset 3; last time 100 has low bits 4 > 3, so t = 96 + 3 + 32 = 131.
        // Its timestamp field is invalid (all ones), so the compressed time stands.
        body += [0x80 | 3] + [0xFF, 0xFF, 0xFF, 0xFF] + [0x7F, 0xFF, 0xFF, 0xFF] + [0x10, 0, 0, 0]
        let t = try FITReader.decode(file(body))
        #expect(t.count == 2)
        #expect(t.times[0] == 100 + FITReader.fitEpochOffset)
        #expect(t.latitudes[0] == 45 && t.longitudes[0] == 22.5)
        #expect(t.times[1] == 131 + FITReader.fitEpochOffset)
        #expect(t.latitudes[1].isNaN)   // 0x7FFFFFFF is invalid
        do { _ = try FITReader.decode(file([0x05, 1, 2])); Issue.record("no error") } catch {
            #expect(error.found == "byte 12: data, local type 5")
        }
    }
}
