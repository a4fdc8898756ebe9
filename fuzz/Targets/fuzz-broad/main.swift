// BROAD trials: a MAT-file read as a recording with its reference attitude and phases.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let path = Fuzz.write(Array(data), to: "01_undisturbed_slow_rotation_A.mat")
    Fuzz.check(Fuzz.read { () throws(InputError) in try BROADReader.read(path: path, groups: ["undisturbed"]) })
}
