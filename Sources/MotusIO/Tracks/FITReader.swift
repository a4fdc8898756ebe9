import MotusCore

/// Reads FIT activity files (Garmin, Wahoo, …), written from the published FIT protocol
/// description: a 12- or 14-byte header (`.FIT` signature, optional header CRC), definition
/// and data messages, a CRC-16 over everything before it, and possibly further chained files.
///
/// What it takes: `record` (20: timestamp, position in semicircles, altitude and
/// enhanced_altitude, speed and enhanced_speed, distance, heart rate, cadence with
/// fractional cadence, power), `session` (18: the device's totals), timer `event`s (21) and
/// `file_id` (0). Both byte orders, compressed-timestamp headers and developer fields are
/// handled; every other message is skipped by its defined size. Invalid values (all ones,
/// or 0 for the `z` types) become NaN. The header CRC (when not 0) and the file CRC are
/// verified. One pass over the bytes, no allocation per message.
public enum FITReader {
    /// Seconds from the Unix epoch to the FIT epoch, 1989-12-31 00:00:00 UTC.
    public static let fitEpochOffset: Seconds = 631_065_600.0

    /// True when the bytes start like a FIT file (header size 12 or 14 and `.FIT` at byte 8).
    public static func looksLikeFIT(_ head: some Collection<UInt8>) -> Bool {
        let b = Array(head.prefix(12))
        return b.count >= 12 && (b[0] == 12 || b[0] == 14) && b[8] == 0x2E && b[9] == 0x46 && b[10] == 0x49 && b[11] == 0x54
    }

    /// Reads the FIT file at `path` into a track: times in Unix seconds (the FIT epoch
    /// shifted), positions in degrees, altitude and distance in m, speed in m/s, heart rate and
    /// cadence per minute, power in W. Throws `InputError` naming the byte of the problem: an empty
    /// file, a header that is not FIT's, a CRC that does not match, a message cut short or whose
    /// local type was never defined, a timestamp out of range or going back (`.timeBackwards`).
    public static func read(path: String) throws(InputError) -> Track {
        let bytes = try ReaderFiles.readBytes(path)
        return try decode(bytes, file: path)
    }

    /// Decodes a FIT file held in memory. `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String = "<memory>") throws(InputError) -> Track {
        var result: Result<Track, InputError> = .failure(InputError(.emptyFile, at: SourceLocation(file: file), found: "", expected: "a FIT file"))
        bytes.withUnsafeBufferPointer { p in
            var d = Decoder(p: p, file: file)
            do throws(InputError) { try d.run(); result = .success(d.finish()) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// FIT's CRC-16 (reflected polynomial 0xA001, initial value 0) over `bytes`.
    public static func crc16(_ bytes: UnsafeBufferPointer<UInt8>, from: Int = 0, to: Int? = nil, seed: UInt16 = 0) -> UInt16 {
        var crc = seed
        let end = min(to ?? bytes.count, bytes.count)
        guard from < end, let base = bytes.baseAddress else { return crc }
        crcTable.withUnsafeBufferPointer { table in
            let tb = table.baseAddress!
            var i = from
            while i < end {
                crc = (crc >> 8) ^ tb[Int((crc ^ UInt16(base[i])) & 0xFF)]
                i += 1
            }
        }
        return crc
    }

    /// FIT's CRC-16 over all of `bytes`, from 0.
    public static func crc16(_ bytes: [UInt8]) -> UInt16 { bytes.withUnsafeBufferPointer { crc16($0) } }

    static let crcTable: [UInt16] = (0..<256).map { n -> UInt16 in
        var c = UInt16(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0xA001 : c >> 1 }
        return c
    }
}

// MARK: - Decoder

/// Where a field's value goes.
private enum Slot: UInt8 {
    case timestamp, lat, lon, altitude, enhancedAltitude, speed, enhancedSpeed, distance, heartRate, cadence, fractionalCadence, power
    case sEvent, sEventType, sSport, sElapsed, sTimer, sDistance, sAscent, sDescent, sAvgSpeed, sMaxSpeed, sCalories
    case eEvent, eEventType
    case fManufacturer, fProduct
}

private struct FieldSlot {
    var slot: Slot
    var offset: Int
    var size: Int
    var base: UInt8
}

private struct LocalDefinition {
    var global: UInt16 = 0
    var bigEndian = false
    var size = 0
    var slots: [FieldSlot] = []
    var defined = false
}

private struct Decoder {
    let p: UnsafeBufferPointer<UInt8>
    let file: String
    var defs = [LocalDefinition](repeating: LocalDefinition(), count: 16)
    var track = Track()
    var lastTimestamp: UInt32 = 0
    /// The time of the last record (FIT seconds), which the next may not precede.
    var lastRecordTime = -Double.infinity
    var values = [Double](repeating: .nan, count: 32)
    var sessions = 0
    var manufacturer = Double.nan, product = Double.nan

    init(p: UnsafeBufferPointer<UInt8>, file: String) {
        self.p = p; self.file = file
        track.source = file
        track.reserveCapacity(p.count / 30)
    }

    func fail(_ reason: InputError.Reason, _ found: String, _ expected: String) -> InputError {
        InputError(reason, at: SourceLocation(file: file), found: found, expected: expected)
    }

    mutating func run() throws(InputError) {
        var start = 0
        var files = 0
        while start < p.count {
            if files > 0 && p.count - start < 12 { break }   // trailing padding after a chained file
            start = try decodeFile(at: start)
            files += 1
        }
        if files == 0 { throw fail(.emptyFile, "0 bytes", "a FIT header of 12 or 14 bytes") }
    }

    /// Decodes one FIT file starting at `start`; returns the offset after its CRC.
    mutating func decodeFile(at start: Int) throws(InputError) -> Int {
        let left = p.count - start
        guard left >= 12 else { throw fail(.truncated, "\(left) bytes at byte \(start)", "a FIT header of 12 or 14 bytes") }
        let headerSize = Int(p[start])
        guard headerSize == 12 || headerSize == 14 || (headerSize > 14 && headerSize <= left) else {
            throw fail(.badHeader, "header size \(headerSize) at byte \(start)", "12 or 14")
        }
        guard p[start + 8] == 0x2E, p[start + 9] == 0x46, p[start + 10] == 0x49, p[start + 11] == 0x54 else {
            let sig = (8..<12).map { p[start + $0] }.map { ($0 >= 32 && $0 < 127) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
            throw fail(.badHeader, "'\(sig)' at byte \(start + 8)", "the signature '.FIT'")
        }
        guard left >= headerSize else { throw fail(.truncated, "\(left) bytes at byte \(start)", "a \(headerSize)-byte header") }
        if headerSize >= 14 {
            let stored = UInt16(p[start + 12]) | UInt16(p[start + 13]) << 8
            if stored != 0 {
                let computed = FITReader.crc16(p, from: start, to: start + 12)
                guard computed == stored else {
                    throw fail(.badValue, "header CRC 0x\(hex(stored)) at byte \(start + 12)", "0x\(hex(computed)) (CRC of bytes \(start)–\(start + 11))")
                }
            }
        }
        let dataSize = Int(UInt32(p[start + 4]) | UInt32(p[start + 5]) << 8 | UInt32(p[start + 6]) << 16 | UInt32(p[start + 7]) << 24)
        let dataStart = start + headerSize
        let dataEnd = dataStart + dataSize
        guard dataEnd + 2 <= p.count else {
            throw fail(.truncated, "end of file at byte \(p.count)", "\(dataSize) data bytes from byte \(dataStart) and a 2-byte CRC (file of \(dataEnd + 2) bytes)")
        }
        let storedCRC = UInt16(p[dataEnd]) | UInt16(p[dataEnd + 1]) << 8
        let computedCRC = FITReader.crc16(p, from: start, to: dataEnd)
        guard storedCRC == computedCRC else {
            throw fail(.badValue, "file CRC 0x\(hex(storedCRC)) at byte \(dataEnd)", "0x\(hex(computedCRC)) (CRC of bytes \(start)–\(dataEnd - 1))")
        }
        for i in 0..<16 { defs[i].defined = false }
        var i = dataStart
        while i < dataEnd {
            let h = p[i]
            if h & 0x80 != 0 {
                // Compressed timestamp header: local type in bits 5–6, time offset in bits 0–4.
                let local = Int((h >> 5) & 0x03)
                let offset = UInt32(h & 0x1F)
                var ts = (lastTimestamp & ~UInt32(0x1F)) | offset
                if offset < (lastTimestamp & 0x1F) { ts &+= 0x20 }
                lastTimestamp = ts
                i = try dataMessage(local: local, at: i + 1, header: i, end: dataEnd, compressedTime: ts)
            } else if h & 0x40 != 0 {
                i = try definition(local: Int(h & 0x0F), developer: h & 0x20 != 0, at: i + 1, header: i, end: dataEnd)
            } else {
                i = try dataMessage(local: Int(h & 0x0F), at: i + 1, header: i, end: dataEnd, compressedTime: nil)
            }
        }
        return dataEnd + 2
    }

    mutating func definition(local: Int, developer: Bool, at start: Int, header: Int, end: Int) throws(InputError) -> Int {
        guard start + 5 <= end else { throw fail(.truncated, "end of data at byte \(end)", "a definition message of at least 5 bytes from byte \(start) (header at byte \(header))") }
        let big = p[start + 1] == 1
        guard p[start + 1] <= 1 else { throw fail(.badValue, "architecture \(p[start + 1]) at byte \(start + 1)", "0 (little-endian) or 1 (big-endian)") }
        let global = big ? UInt16(p[start + 2]) << 8 | UInt16(p[start + 3]) : UInt16(p[start + 2]) | UInt16(p[start + 3]) << 8
        let nFields = Int(p[start + 4])
        var i = start + 5
        guard i + 3 * nFields <= end else { throw fail(.truncated, "end of data at byte \(end)", "\(nFields) field definitions from byte \(i)") }
        var d = LocalDefinition()
        d.global = global; d.bigEndian = big; d.defined = true
        var offset = 0
        for _ in 0..<nFields {
            let num = p[i], size = Int(p[i + 1]), base = p[i + 2]
            if let slot = Self.slot(global: global, field: num) {
                d.slots.append(FieldSlot(slot: slot, offset: offset, size: size, base: base))
            }
            offset += size
            i += 3
        }
        if developer {
            guard i < end else { throw fail(.truncated, "end of data at byte \(end)", "the developer field count at byte \(i)") }
            let nDev = Int(p[i]); i += 1
            guard i + 3 * nDev <= end else { throw fail(.truncated, "end of data at byte \(end)", "\(nDev) developer field definitions from byte \(i)") }
            for _ in 0..<nDev { offset += Int(p[i + 1]); i += 3 }
        }
        d.size = offset
        defs[local] = d
        return i
    }

    static func slot(global: UInt16, field: UInt8) -> Slot? {
        switch global {
        case 20:
            switch field {
            case 253: .timestamp
            case 0: .lat
            case 1: .lon
            case 2: .altitude
            case 78: .enhancedAltitude
            case 6: .speed
            case 73: .enhancedSpeed
            case 5: .distance
            case 3: .heartRate
            case 4: .cadence
            case 53: .fractionalCadence
            case 7: .power
            default: nil
            }
        case 18:
            switch field {
            case 253: .timestamp
            case 0: .sEvent
            case 1: .sEventType
            case 5: .sSport
            case 7: .sElapsed
            case 8: .sTimer
            case 9: .sDistance
            case 22: .sAscent
            case 23: .sDescent
            case 14: .sAvgSpeed
            case 15: .sMaxSpeed
            case 11: .sCalories
            default: nil
            }
        case 21:
            switch field {
            case 253: .timestamp
            case 0: .eEvent
            case 1: .eEventType
            default: nil
            }
        case 0:
            switch field {
            case 1: .fManufacturer
            case 2: .fProduct
            default: nil
            }
        default:
            // Any other message: only its timestamp matters (it moves the compressed-time base).
            field == 253 ? .timestamp : nil
        }
    }

    mutating func dataMessage(local: Int, at start: Int, header: Int, end: Int, compressedTime: UInt32?) throws(InputError) -> Int {
        guard defs[local].defined else {
            throw fail(.badValue, "byte \(header): data, local type \(local)", "a definition message for local type \(local) before it")
        }
        let size = defs[local].size, global = defs[local].global, big = defs[local].bigEndian
        guard start + size <= end else {
            throw fail(.truncated, "end of data at byte \(end)", "\(size) bytes of a message (global \(global)) from byte \(start)")
        }
        let interesting = global == 20 || global == 18 || global == 21 || global == 0
        if interesting { for k in 0..<values.count { values[k] = .nan } }
        var timestamp: Double = compressedTime.map { Double($0) } ?? .nan
        let nSlots = defs[local].slots.count
        var k = 0
        while k < nSlots {
            let s = defs[local].slots[k]
            k += 1
            if s.slot == .timestamp {
                let v = raw(at: start + s.offset, size: s.size, base: s.base, big: big)
                if !v.isNaN {
                    // FIT time is a uint32 of seconds; a field declared with another base type can
                    // decode outside it.
                    guard v >= 0 && v <= Double(UInt32.max) else {
                        throw InputError(.badValue, at: .byteOffset(start + s.offset, in: file), found: "a timestamp of \(v)",
                                         expected: "a timestamp 0…4294967295 s since 1989-12-31")
                    }
                    timestamp = v; lastTimestamp = UInt32(v)
                }
            } else if interesting {
                values[Int(s.slot.rawValue)] = raw(at: start + s.offset, size: s.size, base: s.base, big: big)
            }
        }
        switch global {
        case 20:
            // Records follow each other in time; one that goes back (a file pasted together,
            // a corrupt timestamp) is refused where it is.
            if !timestamp.isNaN {
                guard timestamp >= lastRecordTime else {
                    throw InputError(.timeBackwards, at: .byteOffset(header, in: file), found: "a record at FIT time \(Int(timestamp))",
                                     expected: "a time at or after the record before (FIT time \(Int(lastRecordTime))): records in time order")
                }
                lastRecordTime = timestamp
            }
            appendRecord(timestamp)
        case 18: addSession()
        case 21: addEvent(timestamp)
        case 0: manufacturer = values[Int(Slot.fManufacturer.rawValue)]; product = values[Int(Slot.fProduct.rawValue)]
        default: break
        }
        return start + size
    }

    @inline(__always) func v(_ s: Slot) -> Double { values[Int(s.rawValue)] }

    mutating func appendRecord(_ fitTime: Double) {
        let semicircle = 180.0 / 2147483648.0
        let altRaw = v(.enhancedAltitude).isNaN ? v(.altitude) : v(.enhancedAltitude)
        let spdRaw = v(.enhancedSpeed).isNaN ? v(.speed) : v(.enhancedSpeed)
        var cad = v(.cadence)
        if !cad.isNaN, !v(.fractionalCadence).isNaN { cad += v(.fractionalCadence) / 128 }
        let lat = v(.lat) * semicircle, lon = v(.lon) * semicircle
        let ok = !lat.isNaN && !lon.isNaN && abs(lat) <= 90 && abs(lon) <= 180
        track.append(time: fitTime.isNaN ? .nan : fitTime + FITReader.fitEpochOffset,
                     latitude: ok ? lat : .nan, longitude: ok ? lon : .nan,
                     elevation: altRaw / 5 - 500, speed: spdRaw / 1000, distance: v(.distance) / 100,
                     heartRate: v(.heartRate), cadence: cad, power: v(.power))
    }

    mutating func addSession() {
        sessions += 1
        func add(_ a: Double?, _ b: Double) -> Double? { b.isNaN ? a : (a ?? 0) + b }
        var s = track.deviceSummary
        s.elapsedSeconds = add(s.elapsedSeconds, v(.sElapsed) / 1000)
        s.timerSeconds = add(s.timerSeconds, v(.sTimer) / 1000)
        s.distanceMeters = add(s.distanceMeters, v(.sDistance) / 100)
        s.ascentMeters = add(s.ascentMeters, v(.sAscent))
        s.descentMeters = add(s.descentMeters, v(.sDescent))
        s.calories = add(s.calories, v(.sCalories))
        if !v(.sMaxSpeed).isNaN { s.maxSpeedMetersPerSecond = max(s.maxSpeedMetersPerSecond ?? 0, v(.sMaxSpeed) / 1000) }
        if sessions == 1, !v(.sAvgSpeed).isNaN { s.averageSpeedMetersPerSecond = v(.sAvgSpeed) / 1000 }
        track.deviceSummary = s
        if track.sport == nil, !v(.sSport).isNaN {
            switch v(.sSport) {
            case 1: track.sport = "running"
            case 2: track.sport = "cycling"
            case 11: track.sport = "walking"
            case 17: track.sport = "hiking"
            default: track.sport = "sport \(FITReader.idText(v(.sSport)))"
            }
        }
    }

    mutating func addEvent(_ fitTime: Double) {
        guard v(.eEvent) == 0, !fitTime.isNaN else { return }   // 0 = timer
        let t = fitTime + FITReader.fitEpochOffset
        switch v(.eEventType) {
        case 0: track.timerEvents.append(TimerEvent(time: t, kind: .start))
        case 1, 4: track.timerEvents.append(TimerEvent(time: t, kind: .stop))
        default: break
        }
    }

    /// One field's value as a double; NaN when invalid. An array field gives its first element.
    @inline(__always)
    func raw(at o: Int, size: Int, base: UInt8, big: Bool) -> Double {
        let type = base & 0x1F
        let width: Int
        switch type {
        case 0, 1, 2, 7, 10, 13: width = 1
        case 3, 4, 11: width = 2
        case 5, 6, 8, 12: width = 4
        case 9, 14, 15, 16: width = 8
        default: return .nan
        }
        guard size >= width else { return .nan }
        var u: UInt64 = 0
        if big {
            for k in 0..<width { u = u << 8 | UInt64(p[o + k]) }
        } else {
            var k = width - 1
            while k >= 0 { u = u << 8 | UInt64(p[o + k]); k -= 1 }
        }
        switch type {
        case 0, 2, 13: return u == 0xFF ? .nan : Double(u)
        case 10: return u == 0 ? .nan : Double(u)
        case 1: return u == 0x7F ? .nan : Double(Int8(truncatingIfNeeded: u))
        case 3: return u == 0x7FFF ? .nan : Double(Int16(truncatingIfNeeded: u))
        case 4: return u == 0xFFFF ? .nan : Double(u)
        case 11: return u == 0 ? .nan : Double(u)
        case 5: return u == 0x7FFF_FFFF ? .nan : Double(Int32(truncatingIfNeeded: u))
        case 6: return u == 0xFFFF_FFFF ? .nan : Double(u)
        case 12: return u == 0 ? .nan : Double(u)
        case 8: let f = Float(bitPattern: UInt32(u)); return f.isFinite ? Double(f) : .nan
        case 9: let f = Double(bitPattern: u); return f.isFinite ? f : .nan
        case 14: return u == 0x7FFF_FFFF_FFFF_FFFF ? .nan : Double(Int64(bitPattern: u))
        case 15: return u == UInt64.max ? .nan : Double(u)
        case 16: return u == 0 ? .nan : Double(u)
        default: return .nan
        }
    }

    func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - s.count) + s
    }

    mutating func finish() -> Track {
        if !manufacturer.isNaN {
            let m: String
            switch manufacturer {
            case 1: m = "Garmin"
            case 32: m = "Wahoo"
            default: m = "manufacturer \(FITReader.idText(manufacturer))"
            }
            track.creator = product.isNaN ? m : "\(m) product \(FITReader.idText(product))"
        }
        return track
    }

}

extension FITReader {
    /// An id field's value as text: the integer when it is one (FIT ids are 16-bit), else the
    /// number as read (a file may declare any base type for the field; no value traps).
    static func idText(_ v: Double) -> String {
        v == v.rounded() && Swift.abs(v) < 9_007_199_254_740_992 ? String(Int64(v)) : "\(v)"
    }
}
