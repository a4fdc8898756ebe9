// mPower JSON: an array of CoreMotion samples.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let path = Fuzz.write(Array(data), to: "walk_data.json")
    Fuzz.check(Fuzz.read { () throws(InputError) in try MPowerReader.read(path: path) })
}
