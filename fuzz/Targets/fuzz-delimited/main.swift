// Delimited text (CSV, TSV, space) with the header auto-detection, as `motus inspect x.csv`
// reads it; the first byte of the input also picks a set of column flags, so the paths
// taken with `--no-header`, column indexes and `--rate` are fuzzed too.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let mode = data.first.map { Int($0) % 5 } ?? 0
    let path = Fuzz.write(Array(data.dropFirst()), to: "recording.csv")
    var o = DelimitedOptions()
    switch mode {
    case 1: o.noHeader = true; o.timeColumn = .index(0); o.accelColumns = [.index(1), .index(2), .index(3)]
    case 2: o.rateHz = 100; o.accelColumns = [.index(0), .index(1), .index(2)]; o.gyroColumns = [.index(3), .index(4), .index(5)]
    case 3: o.timeColumn = .name("time"); o.timeUnit = .milliseconds; o.accelColumns = [.name("ax"), .name("ay"), .name("az")]
    case 4: o.delimiter = UInt8(ascii: ";"); o.backwardsTolerance = 0
    default: break
    }
    Fuzz.check(Fuzz.read { () throws(InputError) in try DelimitedReader(path: path, options: o).read(maxThreads: 1) })
    if mode == 0 {
        _ = Fuzz.read { () throws(InputError) in try RecordingLoader.summarize(path: path, options: o) }
    }
}
