// MotionDataCollector CSV (no time column; rows at the nominal 10 Hz), as `motus import` reads it.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let path = Fuzz.write(Array(data), to: "walking/motion.csv")
    Fuzz.check(Fuzz.read { () throws(InputError) in try MotionDataCollectorReader.read(path: path, label: "walking") })
}
