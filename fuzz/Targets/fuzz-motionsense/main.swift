// MotionSense: a device-motion file in its dataset tree, with the subject table and the raw
// accelerometer file of the same trial beside it (parts: device motion, data_subjects_info.csv,
// B_Accelerometer raw file). A fourth part, when present, is read alone as a raw file.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let p = Fuzz.parts(data, count: 4)
    let dm = Fuzz.write(p[0], to: "ms/A_DeviceMotion_data/wlk_7/sub_3.csv")
    if p.count > 1 { Fuzz.write(p[1], to: "ms/data_subjects_info.csv") }
    if p.count > 2 { Fuzz.write(p[2], to: "ms/B_Accelerometer_data/wlk_7/sub_3.csv") }
    Fuzz.check(Fuzz.read { () throws(InputError) in try MotionSenseReader.read(path: dm) })
    if p.count > 3 {
        let raw = Fuzz.write(p[3], to: "ms/C_Gyroscope_data/jog_9/sub_5.csv")
        Fuzz.check(Fuzz.read { () throws(InputError) in try MotionSenseReader.read(path: raw) })
    }
}
