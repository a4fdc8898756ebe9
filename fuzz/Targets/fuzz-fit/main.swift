// FIT activity files from memory. The first byte picks a mode: odd values first make the
// rest a well-formed container (14-byte header, data size, both CRCs), so the fuzzer spends
// its time in the message decoder rather than on checksums; even values pass it unchanged.
import FuzzSupport
import MotusCore
import MotusIO

Fuzz.main { data in
    var bytes = Array(data.dropFirst())
    if let mode = data.first, mode & 1 == 1, bytes.count >= 16 {
        let size = UInt32(bytes.count - 16)
        bytes[0] = 14
        for k in 0..<4 { bytes[4 + k] = UInt8(truncatingIfNeeded: size >> (8 * UInt32(k))) }
        bytes[8] = 0x2E; bytes[9] = 0x46; bytes[10] = 0x49; bytes[11] = 0x54
        let h = FITReader.crc16(Array(bytes[0..<12]))
        bytes[12] = UInt8(h & 0xFF); bytes[13] = UInt8(h >> 8)
        let c = FITReader.crc16(Array(bytes[0..<(bytes.count - 2)]))
        bytes[bytes.count - 2] = UInt8(c & 0xFF); bytes[bytes.count - 1] = UInt8(c >> 8)
    }
    Fuzz.check(Fuzz.read { () throws(InputError) in try FITReader.decode(bytes, file: "<fuzz>.fit") })
}
