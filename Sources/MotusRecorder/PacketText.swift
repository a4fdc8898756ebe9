import MotusIO

/// Comma-separated tokens of one line, trimmed of spaces (SensorStream pads numbers).
struct Tokens {
    var starts: [Int] = []
    var ends: [Int] = []

    mutating func split(_ p: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, delimiter: UInt8 = UInt8(ascii: ",")) {
        starts.removeAll(keepingCapacity: true); ends.removeAll(keepingCapacity: true)
        var i = s
        while true {
            var a = i
            while i < e && p[i] != delimiter { i += 1 }
            var b = i
            while a < b && (p[a] == 0x20 || p[a] == 0x09) { a += 1 }
            while b > a && (p[b - 1] == 0x20 || p[b - 1] == 0x09) { b -= 1 }
            starts.append(a); ends.append(b)
            if i >= e { break }
            i += 1
        }
    }

    var count: Int { starts.count }

    func number(_ p: UnsafeBufferPointer<UInt8>, _ k: Int) -> Double? {
        guard starts[k] < ends[k], let v = NumberParser.parseDouble(p, starts[k], ends[k]), v.isFinite else { return nil }
        return v
    }

    func int(_ p: UnsafeBufferPointer<UInt8>, _ k: Int) -> Int? {
        guard starts[k] < ends[k] else { return nil }
        return NumberParser.parseInt(p, starts[k], ends[k])
    }

    func text(_ p: UnsafeBufferPointer<UInt8>, _ k: Int) -> String { p.text(starts[k], ends[k]) }
}

/// Shortens text for a log line.
func excerpt(_ bytes: UnsafeBufferPointer<UInt8>, _ s: Int = 0, _ e: Int? = nil, max: Int = 40) -> String {
    let end = e ?? bytes.count
    let t = String(decoding: UnsafeBufferPointer(rebasing: bytes[s..<Swift.min(end, s + max)]), as: UTF8.self)
    return end - s > max ? t + "…" : t
}
