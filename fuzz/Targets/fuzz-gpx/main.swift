// GPX tracks from memory, and the same bytes through `TrackLoader` (detection by content).
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    Fuzz.check(Fuzz.read { () throws(InputError) in try GPXReader.decode(Array(data), file: "<fuzz>.gpx") })
    let path = Fuzz.write(Array(data), to: "track.gpx")
    if case .track(let t)? = Fuzz.read({ () throws(InputError) in try TrackLoader.read(path: path) }) { Fuzz.check(t) }
}
