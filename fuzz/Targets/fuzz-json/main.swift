// The JSON parser the dataset readers and the recorder share (`ReaderJSON`), in memory.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    _ = Fuzz.read { () throws(InputError) in try ReaderJSON.parse(data, file: "<fuzz>") }
    _ = ReaderJSON.splitObjects(data)
}
