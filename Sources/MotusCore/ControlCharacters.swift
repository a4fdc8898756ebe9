/// Escaping of control characters in text that came from outside (files, the network).
extension String {
    /// The text with every control character written as a visible escape (`\u{1B}`): C0
    /// controls (tab and newline included), DEL, C1 controls and the bidirectional overrides
    /// and isolates. Messages that quote input (file contents, names, network packets) pass
    /// through it, so input can neither break a message onto several lines nor send escape
    /// sequences to the operator's terminal (set its title, move the cursor, hide text).
    public var escapingControlCharacters: String {
        func isControl(_ v: UInt32) -> Bool {
            v < 0x20 || (v >= 0x7F && v <= 0x9F) || (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)
        }
        guard unicodeScalars.contains(where: { isControl($0.value) }) else { return self }
        var out = String.UnicodeScalarView()
        for s in unicodeScalars {
            if isControl(s.value) {
                out.append(contentsOf: "\\u{\(String(s.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(s)
            }
        }
        return String(out)
    }
}
