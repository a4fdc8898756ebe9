import Testing
import MotusTestSupport
import MotusCore
@testable import MotusIO

@Suite struct PolylineTests {
    @Test func googleExample() throws {
        let p = try Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(p.count == 3)
        let expected = [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]
        for (a, b) in zip(p, expected) { #expect(abs(a.latitude - b.0) < 1e-9 && abs(a.longitude - b.1) < 1e-9) }
        #expect(Polyline.encode(expected.map { (latitude: $0.0, longitude: $0.1) }) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        // Google's single-value example: −179.9832104 → `~oia@ (as the latitude of a point).
        #expect(Polyline.encode([(latitude: -179.9832104, longitude: 0)]).hasPrefix("`~oia@"))
    }

    @Test(.enabled(if: TrackData.available))
    func realFileRoundTrips() throws {
        let bytes = try TrackData.bytes(TrackData.polyline6)
        let ints = try Polyline.decodeIntegers(bytes)
        #expect(ints.count == 4894)
        #expect(ints.first! == (58_542_971, 11_555_798) && ints.last! == (55_339_507, 13_346_944))
        #expect(Polyline.encodeIntegers(ints) == String(decoding: bytes, as: UTF8.self))
        let pts = try Polyline.decode(String(decoding: bytes, as: UTF8.self), precision: 6)
        #expect(Polyline.encode(pts, precision: 6) == String(decoding: bytes, as: UTF8.self))
        #expect(try TrackLoader.detect(path: TrackData.path(TrackData.polyline6)) == .polyline)
        guard case .track(let t) = try TrackLoader.read(path: TrackData.path(TrackData.polyline6)) else { Issue.record("not read as a track"); return }
        #expect(t.count == 4894 && t.latitudes[0] == 58.542971)
        #expect(abs(TrackData.haversineLength(t) - 432_177.4) < 0.5)
    }

    @Test func badPolylines() {
        do { _ = try Polyline.decode("_p~iF ~ps|U"); Issue.record("no error") } catch {
            #expect(error.reason == .badValue && error.location.column == 6)
        }
        do { _ = try Polyline.decode("_p~iF~ps|U_"); Issue.record("no error") } catch { #expect(error.reason == .truncated) }
        do { _ = try Polyline.decode("_p~iF"); Issue.record("no error") } catch { #expect(error.reason == .truncated) }
    }

    @Test func randomRoundTrip() throws {
        var rng = SplitMix64(seed: 42)
        for precision in [5, 6] {
            let f = precision == 5 ? 1e5 : 1e6
            let pts = (0..<500).map { _ in (latitude: ((rng.uniform() * 180 - 90) * f).rounded() / f, longitude: ((rng.uniform() * 360 - 180) * f).rounded() / f) }
            let back = try Polyline.decode(Polyline.encode(pts, precision: precision), precision: precision)
            for (a, b) in zip(pts, back) { #expect(abs(a.latitude - b.latitude) < 0.5 / f && abs(a.longitude - b.longitude) < 0.5 / f) }
        }
    }
}

@Suite struct XMLReaderTests {
    @Test(.enabled(if: TrackData.available))
    func gpxFiles() throws {
        let run = try GPXReader.read(path: TrackData.path("togeojson/run.gpx"))
        #expect(run.count == 206 && run.heartRates.allSatisfy { !$0.isNaN })
        #expect(run.times[0] == 1351121380)   // 2012-10-24T23:29:40Z
        let trek = try GPXReader.read(path: TrackData.path("togeojson/trek.gpx"))
        #expect(trek.count == 120 && !trek.hasTimes && trek.elevations.first == 1298)
        let apple = try GPXReader.read(path: TrackData.path("togeojson/apple_watch_route.gpx"))
        #expect(apple.count == 44 && apple.speeds.allSatisfy { !$0.isNaN } && apple.horizontalAccuracies.allSatisfy { !$0.isNaN })
        let br = try GPXReader.read(path: TrackData.path(TrackData.brouter))
        #expect(br.count == 5127 && br.elevations.filter { !$0.isNaN }.count == 4526)
        #expect(br.deviceSummary.ascentMeters == 1991 && br.deviceSummary.distanceMeters == 166_831)
    }

    @Test(.enabled(if: TrackData.available))
    func tcxFile() throws {
        let t = try TCXReader.read(path: TrackData.path("tcxparser/test.tcx"))
        #expect(t.count == 384 && t.sport == "running")
        #expect(abs(t.deviceSummary.distanceMeters! - 4689.24) < 0.01)
        #expect(t.latitudes.last!.isNaN && !t.times.last!.isNaN)
        #expect(abs(t.distances[t.count - 2] - 4686.31) < 0.01)
    }

    @Test func malformedGPXGivesLineAndColumn() {
        let gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><ele>3</ele></trkpt>\n<trkpt lat=\"1\" lon=\"2\"><ele>3</trkpt>\n</trkseg></trk></gpx>\n"
        do { _ = try GPXReader.decode(Array(gpx.utf8), file: "bad.gpx"); Issue.record("no error") } catch {
            #expect(error.location.file == "bad.gpx")
            #expect(error.location.line == 5)
        }
        let noLat = "<gpx><trk><trkseg><trkpt lon=\"2\"/></trkseg></trk></gpx>"
        do { _ = try GPXReader.decode(Array(noLat.utf8), file: "b.gpx"); Issue.record("no error") } catch {
            #expect(error.reason == .badValue && error.expected.contains("lat and lon"))
        }
        let badEle = "<gpx>\n<rte><rtept lat=\"1\" lon=\"2\"><ele>abc</ele></rtept></rte></gpx>"
        do { _ = try GPXReader.decode(Array(badEle.utf8), file: "c.gpx"); Issue.record("no error") } catch {
            #expect(error.reason == .badNumber && error.found == "abc" && error.location.line == 2)
        }
        do { _ = try GPXReader.decode(Array("<kml></kml>".utf8), file: "d.gpx"); Issue.record("no error") } catch { #expect(error.reason == .badHeader) }
    }

    @Test func isoTimes() {
        #expect(ISOTime.parse("1970-01-01T00:00:00Z") == 0)
        #expect(ISOTime.parse("2012-10-24T23:29:40Z") == 1351121380)
        #expect(ISOTime.parse("2012-10-24T23:29:40.250Z") == 1351121380.25)
        #expect(ISOTime.parse("2012-10-25T01:29:40+02:00") == 1351121380)
        #expect(ISOTime.parse("2000-02-29T00:00:00Z") == 951782400)
        #expect(ISOTime.parse("2012-13-24T23:29:40Z") == nil)
        #expect(ISOTime.parse("yesterday") == nil)
    }
}

@Suite struct TrackLoaderTests {
    /// A recording with a location stream comes back as the recording (MotusGeo turns it into a
    /// track); one without is an error that names its streams.
    @Test func recordingsNeedALocationStream() throws {
        let p = TestFiles.temp("#motus,1\n@stream,loc,loc,t_s,lat_deg,lon_deg,alt_m,speed_mps,course_deg,hacc_m,vacc_m\nloc,1,52.5,13.4,34,,,5,\nloc,2,52.50001,13.4,34,,,5,\n", name: "walk.motus")
        #expect(try TrackLoader.detect(path: p) == .recording)
        guard case .recording(let r) = try TrackLoader.read(path: p) else { Issue.record("not read as a recording"); return }
        #expect(r.stream(.location)?.count == 2)
        let bundled = DatasetLocator.bundledDatasets(packageRoot: TestFiles.packageRoot) + "/lowback-straight-walk.motus"
        #expect { _ = try TrackLoader.read(path: bundled) } throws: { e in
            (e as? InputError)?.reason == .missingColumn && (e as? InputError)?.expected == "a location stream" && (e as? InputError)?.found.hasPrefix("streams ") == true
        }
    }

    @Test func missingFilesAndFolders() {
        #expect { _ = try TrackLoader.read(path: "/nonexistent/ride.fit") } throws: { e in
            (e as? InputError)?.reason == .unreadable && (e as? InputError)?.found == "nothing there"
        }
        #expect { _ = try TrackLoader.read(path: TestFiles.packageRoot) } throws: { e in (e as? InputError)?.found == "a folder" }
        #expect { _ = try FITReader.read(path: "/nonexistent/ride.fit") } throws: { e in (e as? InputError)?.location.file == "/nonexistent/ride.fit" }
    }
}
