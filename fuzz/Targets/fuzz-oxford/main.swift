// Oxford step-counting walks: a walk folder holding accelerometer.csv and stepcounter.csv
// (parts in that order), read as `motus evaluate-steps` reads each walk.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let p = Fuzz.parts(data, count: 2)
    Fuzz.write(p[0], to: "Pixel_Jamie_Hard_InHand_1/accelerometer.csv")
    if p.count > 1 { Fuzz.write(p[1], to: "Pixel_Jamie_Hard_InHand_1/stepcounter.csv") }
    Fuzz.check(Fuzz.read { () throws(InputError) in try OxfordReader.read(folder: Fuzz.path("Pixel_Jamie_Hard_InHand_1")) })
}
