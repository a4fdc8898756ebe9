import MotusCore

/// An element of a small XML document read by `ReaderXMLParser`: its name, attributes, child
/// elements and the character data directly inside it. Offsets are bytes into the document, so
/// readers can point at the element or the text that is wrong.
struct ReaderXMLElement {
    var name: String
    var attributes: [(name: String, value: String)] = []
    var children: [ReaderXMLElement] = []
    /// Character data directly inside the element (entities decoded, CDATA included), in order;
    /// the text of child elements is not part of it.
    var text = ""
    /// Byte offset of the element's `<`.
    var offset: Int
    /// Byte offset of the first character of `text` that is not white space (the element's
    /// offset when there is none).
    var textOffset: Int

    /// The children named `name`, in document order.
    func children(_ name: String) -> [ReaderXMLElement] { children.filter { $0.name == name } }
    /// The first child named `name`.
    func child(_ name: String) -> ReaderXMLElement? { children.first { $0.name == name } }
    /// `text` without leading and trailing white space.
    var trimmedText: String { ReaderXMLParser.trimmed(text) }
}

/// A parsed XML file with what is needed to turn offsets into line:column, and typed access
/// whose errors point at the text.
struct ReaderXMLDocument {
    let path: String
    let bytes: [UInt8]
    let root: ReaderXMLElement

    init(path: String) throws(InputError) {
        try self.init(path: path, bytes: try ReaderFiles.readBytes(path))
    }

    init(path: String, bytes: [UInt8]) throws(InputError) {
        self.path = path
        self.bytes = bytes
        var p = ReaderXMLParser(path: path, bytes: bytes)
        root = try p.parseDocument()
    }

    func location(_ offset: Int) -> SourceLocation { bytes.withUnsafeBufferPointer { ReaderJSONParser.location(path: path, bytes: $0, offset: offset) } }
    func location(_ e: ReaderXMLElement) -> SourceLocation { location(e.offset) }

    /// The first child `name` of `e`; `.missingColumn` at `e` when there is none.
    func child(_ e: ReaderXMLElement, _ name: String, context: String) throws(InputError) -> ReaderXMLElement {
        guard let c = e.child(name) else {
            throw InputError(.missingColumn, at: location(e), found: "<\(e.name)> without <\(name)>",
                             expected: "a <\(name)> element (\(context))")
        }
        return c
    }

    /// The text of `e` as a finite number.
    func number(_ e: ReaderXMLElement, context: String) throws(InputError) -> Double {
        let t = e.trimmedText
        guard let v = NumberParser.parseDouble(t) else {
            throw InputError(.badNumber, at: location(e.textOffset), found: t, expected: "a number in <\(e.name)> (\(context))")
        }
        guard v.isFinite else {
            throw InputError(.nonFinite, at: location(e.textOffset), found: t, expected: "a finite number in <\(e.name)> (\(context))")
        }
        return v
    }

    /// The number in the child `name` of `e`.
    func number(_ e: ReaderXMLElement, _ name: String, context: String) throws(InputError) -> Double {
        try number(try child(e, name, context: context), context: context)
    }

    /// The trimmed text of `e`, which must not be empty.
    func text(_ e: ReaderXMLElement, context: String) throws(InputError) -> String {
        let t = e.trimmedText
        guard !t.isEmpty else {
            throw InputError(.badValue, at: location(e), found: "<\(e.name)> without text", expected: "text in <\(e.name)> (\(context))")
        }
        return t
    }
}

/// A small byte-level XML parser for the dataset readers (WeAllWalk annotations), so that
/// MotusIO needs no Foundation. It reads well-formed XML 1.0 as such files use it: the
/// declaration and processing instructions, comments, a DOCTYPE without an internal subset,
/// elements with attributes, CDATA sections, the five predefined entities and character
/// references. Namespaces are not resolved (`xsi:…` stays a plain attribute name). Anything
/// malformed — an unclosed or mismatched tag, an unknown entity, text outside the root, a
/// truncated file — is an `InputError` at its line and column.
struct ReaderXMLParser {
    let path: String
    let bytes: [UInt8]
    var i = 0
    var depth = 0
    static let maxDepth = 256

    init(path: String, bytes: [UInt8]) { self.path = path; self.bytes = bytes }

    func error(_ reason: InputError.Reason, at offset: Int, expected: String) -> InputError {
        let end = min(bytes.count, offset + 20)
        let found = offset < bytes.count ? String(decoding: bytes[offset..<end], as: UTF8.self) : ""
        return InputError(reason, at: bytes.withUnsafeBufferPointer { ReaderJSONParser.location(path: path, bytes: $0, offset: offset) }, found: found, expected: expected)
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    /// A byte that may be part of a name: anything but white space and XML punctuation.
    @inline(__always) static func isNameByte(_ b: UInt8) -> Bool {
        !isSpace(b) && b != UInt8(ascii: "<") && b != UInt8(ascii: ">") && b != UInt8(ascii: "/") && b != UInt8(ascii: "=")
            && b != UInt8(ascii: "\"") && b != UInt8(ascii: "'") && b != UInt8(ascii: "&") && b != UInt8(ascii: "?")
            && b != UInt8(ascii: "!")
    }

    static func trimmed(_ s: String) -> String {
        var t = s[...]
        while let f = t.first, f == " " || f == "\t" || f == "\n" || f == "\r" || f == "\r\n" { t.removeFirst() }
        while let l = t.last, l == " " || l == "\t" || l == "\n" || l == "\r" || l == "\r\n" { t.removeLast() }
        return String(t)
    }

    func starts(with s: StaticString, at k: Int) -> Bool {
        let n = s.utf8CodeUnitCount
        guard k + n <= bytes.count else { return false }
        let p = s.utf8Start
        for j in 0..<n where bytes[k + j] != p[j] { return false }
        return true
    }

    mutating func skipSpace() { while i < bytes.count && ReaderXMLParser.isSpace(bytes[i]) { i += 1 } }

    /// The prolog, one root element, then only white space, comments and processing instructions.
    mutating func parseDocument() throws(InputError) -> ReaderXMLElement {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        var root: ReaderXMLElement? = nil
        while true {
            skipSpace()
            if i >= bytes.count { break }
            guard bytes[i] == UInt8(ascii: "<") else {
                throw error(.badValue, at: i, expected: root == nil ? "'<' starting the root element" : "nothing after the root element")
            }
            if try skipMarkup() { continue }
            guard root == nil else { throw error(.badValue, at: i, expected: "nothing after the root element </\(root!.name)>") }
            if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/") {
                throw error(.badValue, at: i, expected: "a start tag (no element is open)")
            }
            root = try parseElement()
        }
        guard let r = root else {
            throw InputError(.emptyFile, at: bytes.withUnsafeBufferPointer { ReaderJSONParser.location(path: path, bytes: $0, offset: bytes.count) },
                             found: "", expected: "an XML document with a root element")
        }
        return r
    }

    /// Skips a comment, processing instruction, DOCTYPE at `i` (which is at `<`); false when
    /// `i` is at something else (an element or a CDATA section).
    mutating func skipMarkup() throws(InputError) -> Bool {
        let start = i
        if starts(with: "<!--", at: i) {
            i += 4
            while i + 2 < bytes.count && !starts(with: "-->", at: i) { i += 1 }
            guard starts(with: "-->", at: i) else { throw error(.truncated, at: start, expected: "'-->' closing this comment") }
            i += 3
            return true
        }
        if starts(with: "<?", at: i) {
            i += 2
            while i + 1 < bytes.count && !starts(with: "?>", at: i) { i += 1 }
            guard starts(with: "?>", at: i) else { throw error(.truncated, at: start, expected: "'?>' closing this processing instruction") }
            i += 2
            return true
        }
        if starts(with: "<!DOCTYPE", at: i) {
            while i < bytes.count && bytes[i] != UInt8(ascii: ">") {
                if bytes[i] == UInt8(ascii: "[") { throw error(.badValue, at: i, expected: "a DOCTYPE without an internal subset") }
                i += 1
            }
            guard i < bytes.count else { throw error(.truncated, at: start, expected: "'>' closing this DOCTYPE") }
            i += 1
            return true
        }
        return false
    }

    /// An element starting at `i` (at `<`), through its end tag.
    mutating func parseElement() throws(InputError) -> ReaderXMLElement {
        let start = i
        depth += 1
        defer { depth -= 1 }
        if depth > ReaderXMLParser.maxDepth { throw error(.badValue, at: start, expected: "elements nested at most \(ReaderXMLParser.maxDepth) deep") }
        i += 1
        let name = try parseName(what: "an element name after '<'")
        var e = ReaderXMLElement(name: name, offset: start, textOffset: start)
        // Attributes, then '>' or '/>'.
        while true {
            let before = i
            skipSpace()
            guard i < bytes.count else { throw error(.truncated, at: start, expected: "'>' closing the start tag <\(name)>") }
            if bytes[i] == UInt8(ascii: ">") { i += 1; break }
            if bytes[i] == UInt8(ascii: "/") {
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") else { throw error(.badValue, at: i, expected: "'/>' or '>'") }
                i += 2
                return e
            }
            guard i > before else { throw error(.badValue, at: i, expected: "white space before an attribute, or '>'") }
            let an = try parseName(what: "an attribute name, '>' or '/>' in <\(name)>")
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw error(.badValue, at: i, expected: "'=' after the attribute \(an)") }
            i += 1
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw error(.badValue, at: i, expected: "a quoted value for the attribute \(an)")
            }
            let quote = bytes[i], vs = i
            i += 1
            var value: [UInt8] = []
            while i < bytes.count && bytes[i] != quote {
                if bytes[i] == UInt8(ascii: "<") { throw error(.badValue, at: i, expected: "no '<' inside the attribute value of \(an)") }
                if bytes[i] == UInt8(ascii: "&") { try parseReference(into: &value); continue }
                value.append(bytes[i]); i += 1
            }
            guard i < bytes.count else { throw error(.truncated, at: vs, expected: "a closing quote for the attribute \(an)") }
            i += 1
            if e.attributes.contains(where: { $0.name == an }) { throw error(.badValue, at: vs, expected: "one value for the attribute \(an)") }
            e.attributes.append((an, String(decoding: value, as: UTF8.self)))
        }
        // Content.
        var text: [UInt8] = []
        var textStart = -1
        while true {
            guard i < bytes.count else { throw error(.truncated, at: start, expected: "the end tag </\(name)>") }
            let b = bytes[i]
            if b == UInt8(ascii: "<") {
                if starts(with: "</", at: i) {
                    let endStart = i
                    i += 2
                    let closing = try parseName(what: "an element name after '</'")
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw error(.badValue, at: i, expected: "'>' closing the end tag </\(closing)>") }
                    guard closing == name else {
                        let open = bytes.withUnsafeBufferPointer { ReaderJSONParser.location(path: path, bytes: $0, offset: start) }
                        throw error(.badValue, at: endStart, expected: "</\(name)> (closing <\(name)> of line \(open.line), column \(open.column))")
                    }
                    i += 1
                    break
                }
                if starts(with: "<![CDATA[", at: i) {
                    let cs = i
                    i += 9
                    while i + 2 < bytes.count && !starts(with: "]]>", at: i) {
                        if textStart < 0 && !ReaderXMLParser.isSpace(bytes[i]) { textStart = i }
                        text.append(bytes[i]); i += 1
                    }
                    guard starts(with: "]]>", at: i) else { throw error(.truncated, at: cs, expected: "']]>' closing this CDATA section") }
                    i += 3
                    continue
                }
                if try skipMarkup() { continue }
                e.children.append(try parseElement())
                continue
            }
            if textStart < 0 && !ReaderXMLParser.isSpace(b) { textStart = i }
            if b == UInt8(ascii: "&") { try parseReference(into: &text); continue }
            text.append(b); i += 1
        }
        e.text = String(decoding: text, as: UTF8.self)
        if textStart >= 0 { e.textOffset = textStart }
        return e
    }

    mutating func parseName(what: String) throws(InputError) -> String {
        let s = i
        while i < bytes.count && ReaderXMLParser.isNameByte(bytes[i]) { i += 1 }
        guard i > s else { throw error(i < bytes.count ? .badValue : .truncated, at: s, expected: what) }
        return String(decoding: bytes[s..<i], as: UTF8.self)
    }

    /// `&name;` or `&#n;` / `&#xh;` at `i`, appended as UTF-8.
    mutating func parseReference(into out: inout [UInt8]) throws(InputError) {
        let s = i
        var j = i + 1
        while j < bytes.count && j - s <= 12 && bytes[j] != UInt8(ascii: ";") { j += 1 }
        guard j < bytes.count, bytes[j] == UInt8(ascii: ";") else {
            throw error(.badValue, at: s, expected: "an entity reference ending in ';' (write '&' as '&amp;')")
        }
        let name = String(decoding: bytes[(s + 1)..<j], as: UTF8.self)
        switch name {
        case "amp": out.append(UInt8(ascii: "&"))
        case "lt": out.append(UInt8(ascii: "<"))
        case "gt": out.append(UInt8(ascii: ">"))
        case "quot": out.append(UInt8(ascii: "\""))
        case "apos": out.append(UInt8(ascii: "'"))
        default:
            var code: UInt32? = nil
            if name.hasPrefix("#x") { code = UInt32(name.dropFirst(2), radix: 16) } else if name.hasPrefix("#") { code = UInt32(name.dropFirst(1)) }
            guard let c = code, c != 0, let u = Unicode.Scalar(c) else {
                throw error(.badValue, at: s, expected: "&amp; &lt; &gt; &quot; &apos; or a character reference &#…;")
            }
            out.append(contentsOf: Array(String(Character(u)).utf8))
        }
        i = j + 1
    }
}
