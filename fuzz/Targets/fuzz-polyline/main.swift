// Encoded polylines: as a file (precision 6 from the name) and as text given on the command line.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let path = Fuzz.write(Array(data), to: "route.polyline6")
    Fuzz.check(Fuzz.read { () throws(InputError) in try Polyline.readTrack(path: path) })
    Fuzz.check(Fuzz.read { () throws(InputError) in try Polyline.track(text: String(decoding: data, as: UTF8.self)) })
}
