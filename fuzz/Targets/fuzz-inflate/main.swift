// The DEFLATE/zlib decoder under MAT-files: whole streams with an output cap, raw DEFLATE,
// and a prefix decode.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    let bytes = Array(data)
    _ = Fuzz.read { () throws(InputError) in try Inflate.zlib(bytes, maxOutputBytes: 1 << 24) }
    _ = Fuzz.read { () throws(InputError) in try Inflate.deflate(bytes, maxOutputBytes: 1 << 24) }
    _ = Fuzz.read { () throws(InputError) in try Inflate.zlibPrefix(bytes, count: 1024) }
}
