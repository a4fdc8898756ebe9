// Native `.motus` text: the whole-file read (`motus read`/`track`) and the streaming summary
// `motus inspect` makes, which allows a cut-off last line.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let path = Fuzz.write(Array(data), to: "recording.motus")
    Fuzz.check(Fuzz.read { () throws(InputError) in try NativeFormat.read(path: path) })
    _ = Fuzz.read { () throws(InputError) in try RecordingLoader.summarize(path: path, allowTruncatedTail: true) }
}
