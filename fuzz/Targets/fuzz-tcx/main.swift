// TCX (Garmin Training Center) tracks from memory.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    Fuzz.check(Fuzz.read { () throws(InputError) in try TCXReader.decode(Array(data), file: "<fuzz>.tcx") })
}
