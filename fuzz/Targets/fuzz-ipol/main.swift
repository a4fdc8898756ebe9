// IPOL gait trials: the lower-back XSens export (`_lb.txt`) with its JSON annotations
// (parts: sensor file, annotations as both `<name>.json` and `<name>_ge.json`).
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let p = Fuzz.parts(data, count: 2)
    let lb = Fuzz.write(p[0], to: "2-1_lb.txt")
    if p.count > 1 { Fuzz.write(p[1], to: "2-1.json"); Fuzz.write(p[1], to: "2-1_ge.json") }
    Fuzz.check(Fuzz.read { () throws(InputError) in try IPOLReader.read(path: lb) })
}
