/// Text fields in Motus's line formats are written in double quotes, with `"` doubled and
/// backslash escapes for newline (`\n`), carriage return (`\r`) and backslash (`\\`), so that
/// any string survives on one line and comes back unchanged.
public enum TextEscaping {
    /// `s` in double quotes with those escapes, ready to be a field of a line.
    public static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\"\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }

    /// Undoes `quote` on the bytes inside the quotes (as `FieldSplitter` hands them over).
    public static func unquote(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        while i < end {
            let b = bytes[i]
            if b == 0x22 && i + 1 < end && bytes[i + 1] == 0x22 { out.append(0x22); i += 2; continue }
            if b == 0x5C && i + 1 < end {
                switch bytes[i + 1] {
                case UInt8(ascii: "n"): out.append(0x0A); i += 2; continue
                case UInt8(ascii: "r"): out.append(0x0D); i += 2; continue
                case 0x5C: out.append(0x5C); i += 2; continue
                default: break
                }
            }
            out.append(b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
