// WeAllWalk: an iPhone sensor CSV and its XML annotations in ../xml/ (parts in that order).
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let p = Fuzz.parts(data, count: 2)
    let csv = Fuzz.write(p[0], to: "wa/sensor/iPhoneSensors_T1_ID4_2R_GD.csv")
    if p.count > 1 { Fuzz.write(p[1], to: "wa/xml/T1_ID4_GD.xml") }
    Fuzz.check(Fuzz.read { () throws(InputError) in try WeAllWalkReader.read(path: csv) })
}
