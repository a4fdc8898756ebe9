// sp-sw-har: a phone recording with the dataset's subject and execution tables in DATA/
// (parts: recording, subjects_info.csv, executions_info.csv).
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let p = Fuzz.parts(data, count: 3)
    let rec = Fuzz.write(p[0], to: "sp/DATA/s02/s02_02_sp.csv")
    if p.count > 1 { Fuzz.write(p[1], to: "sp/DATA/subjects_info.csv") }
    if p.count > 2 { Fuzz.write(p[2], to: "sp/DATA/executions_info.csv") }
    Fuzz.check(Fuzz.read { () throws(InputError) in try SPSWHARReader.read(path: rec) })
}
