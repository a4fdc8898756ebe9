// Sensor Logger JSON: the live HTTP push body (`SensorLoggerParser`, as the recorder parses
// it) and the same bytes as an export's Accelerometer.json read by `motus import`.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    var batch = SampleBatch()
    _ = SensorLoggerParser.parse(data, coreMotionSign: data.count % 2 == 1, into: &batch)
    for i in 0..<batch.count where !SampleBatch.isValid(batch.kinds[i], time: batch.times[i], batch.values(of: i)) {
        if Fuzz.strict { fatalError("strict: push reading \(i) (\(batch.kinds[i])) at \(batch.times[i]) holds \(Array(batch.values(of: i)))") }
    }
    Fuzz.write(Array(data), to: "export/Accelerometer.json")
    Fuzz.check(Fuzz.read { () throws(InputError) in try SensorLoggerExportReader.read(folder: Fuzz.path("export")) })
}
