// Sensor Logger CSV export folder (parts: Accelerometer.csv, Gyroscope.csv, Metadata.csv,
// Orientation.csv), read as `motus import --from sensorlogger` reads it.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let p = Fuzz.parts(data, count: 4)
    let names = ["Accelerometer.csv", "Gyroscope.csv", "Metadata.csv", "Orientation.csv"]
    for (i, bytes) in p.enumerated() { Fuzz.write(bytes, to: "export/" + names[i]) }
    Fuzz.check(Fuzz.read { () throws(InputError) in try SensorLoggerExportReader.read(folder: Fuzz.path("export")) })
}
