// MATLAB v5 MAT-files from memory (all variables), and the cheap variable listing.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    _ = Fuzz.read { () throws(InputError) in try MATFile.decode(Array(data), file: "<fuzz>.mat") }
    let path = Fuzz.write(Array(data), to: "trial.mat")
    _ = Fuzz.read { () throws(InputError) in try MATFile.variableNames(path: path) }
}
