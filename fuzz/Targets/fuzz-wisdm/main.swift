// WISDM: a v1.1 raw file read as the dataset lists it (every user, then each user's recording),
// and a 2019 subject's accelerometer and gyroscope files in the raw/phone layout
// (parts: v1.1 file, 2019 accel file, 2019 gyro file).
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let p = Fuzz.parts(data, count: 3)
    let v1 = Fuzz.write(p[0], to: "v1/WISDM_ar_v1.1_raw.txt")
    if let users = Fuzz.read({ () throws(InputError) in try WISDMReader.users(path: v1) }) {
        for u in users.prefix(8) { Fuzz.check(Fuzz.read { () throws(InputError) in try WISDMReader.read(path: v1, user: u) }) }
    }
    if p.count > 1 {
        let accel = Fuzz.write(p[1], to: "w/raw/phone/accel/data_1600_accel_phone.txt")
        if p.count > 2 { Fuzz.write(p[2], to: "w/raw/phone/gyro/data_1600_gyro_phone.txt") }
        Fuzz.check(Fuzz.read { () throws(InputError) in try WISDMReader.read(path: accel) })
        // The dataset's listing and load of the same folder (the partner file found by name).
        if let ds = Fuzz.read({ () throws(InputError) in try WISDMDataset(root: Fuzz.path("w")) }) {
            for e in ds.entries.prefix(4) { Fuzz.check(Fuzz.read { () throws(InputError) in try ds.load(e.id) }) }
        }
    }
}
