// MATLAB objects in MAT-files: MATLAB Mobile sensor logs through their reader, and every
// timetable, datetime and duration variable of any MAT-file through the typed readers.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let path = Fuzz.write(Array(data), to: "sensorlog_20260101_120000.mat")
    Fuzz.check(Fuzz.read { () throws(InputError) in try MATLABMobileReader.read(path: path) })
    guard let f = Fuzz.read({ () throws(InputError) in try MATFile.decode(Array(data), file: "<fuzz>.mat") }) else { return }
    for name in f.names {
        switch f[name]?.className {
        case "timetable": _ = Fuzz.read { () throws(InputError) in try f.timetable(name) }
        case "datetime": _ = Fuzz.read { () throws(InputError) in try f.datetime(name) }
        case "duration": _ = Fuzz.read { () throws(InputError) in try f.duration(name) }
        default: break
        }
    }
}
