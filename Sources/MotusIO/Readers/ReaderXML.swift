import MotusCore

/// An element of a small XML document read by `ReaderXMLParser`: its name, attributes, child
/// elements and the character data directly inside it. Offsets are bytes into the document, so
/// readers can point at the element or the text that is wrong.
struct ReaderXMLElement {
    var name: String
    var attributes: [(name: String, value: String)] = []
    var children: [ReaderXMLElement] = []
    /// Character data directly inside the element (entities decoded, CDATA included), in order,
    /// from its first character that is not white space; the text of child elements is not part
    /// of it.
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
        self.bytes = try ReaderXMLParser.utf8(bytes, path: path)
        var p = ReaderXMLParser(path: path, bytes: self.bytes)
        var builder = ReaderXMLTreeBuilder()
        try p.parse(into: &builder)
        guard let r = builder.root else {
            throw InputError(.emptyFile, at: SourceLocation(file: path), found: "", expected: "an XML document with a root element")
        }
        root = r
    }

    func location(_ offset: Int) -> SourceLocation { ReaderXMLParser.location(path: path, bytes: bytes, offset: offset) }
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

/// What `ReaderXMLParser.parse(into:)` reports, in document order. A handler may throw to stop
/// the parse (its error is the parse's error).
protocol ReaderXMLHandler {
    /// A start tag (or an empty-element tag, which is followed by `endElement` at once).
    mutating func startElement(_ name: String, attributes: [(name: String, value: String)], offset: Int) throws(InputError)
    /// An end tag, with the element's direct text (see `ReaderXMLElement.text`) and the byte
    /// offset of its first character that is not white space (-1 when there is none).
    mutating func endElement(_ name: String, text: [UInt8], textOffset: Int) throws(InputError)
    /// The text of a comment, between `<!--` and `-->`.
    mutating func comment(_ text: ArraySlice<UInt8>)
}

extension ReaderXMLHandler {
    mutating func comment(_ text: ArraySlice<UInt8>) {}
}

/// Builds the element tree of `ReaderXMLDocument` from the parser's events.
struct ReaderXMLTreeBuilder: ReaderXMLHandler {
    var open: [ReaderXMLElement] = []
    var root: ReaderXMLElement?

    mutating func startElement(_ name: String, attributes: [(name: String, value: String)], offset: Int) throws(InputError) {
        open.append(ReaderXMLElement(name: name, attributes: attributes, offset: offset, textOffset: offset))
    }

    mutating func endElement(_ name: String, text: [UInt8], textOffset: Int) throws(InputError) {
        guard var e = open.popLast() else { return }
        e.text = String(decoding: text, as: UTF8.self)
        if textOffset >= 0 { e.textOffset = textOffset }
        if open.isEmpty { root = e } else { open[open.count - 1].children.append(e) }
    }
}

/// A small byte-level XML parser for the readers (WeAllWalk annotations, GPX, TCX), so that
/// MotusIO needs no Foundation. It reads well-formed XML 1.0 as such files use it: the
/// declaration and processing instructions, comments, a DOCTYPE (an internal subset is skipped,
/// and the entities it declares are not expanded: a reference to one is an error), elements
/// with attributes, CDATA sections, the five predefined entities and character references.
/// Namespaces are not resolved (`gpxtpx:hr` stays the name). Anything malformed — an unclosed
/// or mismatched tag, an unknown entity, text outside the root, a truncated file — is an
/// `InputError` at its line and column.
///
/// The parser streams: it holds the open elements and their direct text only, and reports each
/// element to a `ReaderXMLHandler` as it ends. Limits keep its memory bounded whatever the
/// input: text of at most `maxTextBytes` per element (counted from its first character that is
/// not white space), attribute values of at most `maxTextBytes`, `maxAttributes` attributes per
/// element, `maxDepth` levels of nesting. Each is an error naming the limit at the place where
/// it is passed.
struct ReaderXMLParser {
    let path: String
    let bytes: [UInt8]
    var i = 0
    static let maxDepth = 256
    static let maxTextBytes = 1 << 20
    static let maxAttributes = 256

    struct Open {
        var name: String
        var offset: Int
        var text: [UInt8] = []
        var textStart = -1
    }

    init(path: String, bytes: [UInt8]) { self.path = path; self.bytes = bytes }

    /// Line and column (in bytes) of `offset` in `bytes`.
    static func location(path: String, bytes: [UInt8], offset: Int) -> SourceLocation {
        bytes.withUnsafeBufferPointer { ReaderJSONParser.location(path: path, bytes: $0, offset: offset) }
    }

    func location(_ offset: Int) -> SourceLocation { ReaderXMLParser.location(path: path, bytes: bytes, offset: offset) }

    func error(_ reason: InputError.Reason, at offset: Int, expected: String) -> InputError {
        let end = min(bytes.count, offset + 20)
        let found = offset < bytes.count ? String(decoding: bytes[offset..<end], as: UTF8.self) : ""
        return InputError(reason, at: location(offset), found: found, expected: expected)
    }

    /// The document as UTF-8: UTF-8 as it is (a byte order mark stays, the parser skips it);
    /// UTF-16 (with a byte order mark, or without one when the file starts with `<` as a 16-bit
    /// unit) decoded, so that line numbers stay those of the file (columns then count UTF-8
    /// bytes of the decoded text). UTF-32 is an error that says so.
    static func utf8(_ bytes: [UInt8], path: String) throws(InputError) -> [UInt8] {
        let n = bytes.count
        if n >= 4 && ((bytes[0] == 0xFF && bytes[1] == 0xFE && bytes[2] == 0 && bytes[3] == 0) || (bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0xFE && bytes[3] == 0xFF)) {
            throw InputError(.badValue, at: SourceLocation(file: path), found: "UTF-32 text", expected: "UTF-8 or UTF-16 XML (convert it with: iconv -f UTF-32 -t UTF-8)")
        }
        var bigEndian: Bool
        var start = 0
        if n >= 2 && bytes[0] == 0xFF && bytes[1] == 0xFE { bigEndian = false; start = 2 }
        else if n >= 2 && bytes[0] == 0xFE && bytes[1] == 0xFF { bigEndian = true; start = 2 }
        else if n >= 2 && bytes[0] == UInt8(ascii: "<") && bytes[1] == 0 { bigEndian = false }
        else if n >= 2 && bytes[0] == 0 && bytes[1] == UInt8(ascii: "<") { bigEndian = true }
        else { return bytes }
        guard (n - start) % 2 == 0 else {
            throw InputError(.truncated, at: .byteOffset(n - 1, in: path), found: "an odd number of bytes in UTF-16 text",
                             expected: "whole 16-bit units (the file is cut, or not UTF-16: convert it with iconv -f UTF-16 -t UTF-8)")
        }
        var units: [UInt16] = []
        units.reserveCapacity((n - start) / 2)
        var k = start
        while k + 1 < n {
            units.append(bigEndian ? UInt16(bytes[k]) << 8 | UInt16(bytes[k + 1]) : UInt16(bytes[k + 1]) << 8 | UInt16(bytes[k]))
            k += 2
        }
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        var offset = start
        var it = units.makeIterator()
        var parser = Unicode.UTF16.ForwardParser()
        decoding: while true {
            switch parser.parseScalar(from: &it) {
            case .valid(let e):
                let s = Unicode.UTF16.decode(e)
                offset += s.value > 0xFFFF ? 4 : 2
                appendUTF8(s, to: &out)
            case .error:
                throw InputError(.badValue, at: .byteOffset(offset, in: path), found: "an unpaired UTF-16 surrogate",
                                 expected: "UTF-16 text (or UTF-8)")
            case .emptyInput: break decoding
            }
        }
        return out
    }

    /// Appends the UTF-8 encoding of `s`.
    static func appendUTF8(_ s: Unicode.Scalar, to out: inout [UInt8]) {
        let v = s.value
        switch v {
        case 0..<0x80: out.append(UInt8(v))
        case 0x80..<0x800: out.append(UInt8(0xC0 | v >> 6)); out.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | v >> 12)); out.append(UInt8(0x80 | (v >> 6) & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
        default:
            out.append(UInt8(0xF0 | v >> 18)); out.append(UInt8(0x80 | (v >> 12) & 0x3F))
            out.append(UInt8(0x80 | (v >> 6) & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
        }
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

    /// Parses the whole document, reporting to `handler`: the prolog, one root element, then
    /// only white space, comments and processing instructions. An empty document (nothing but
    /// white space) is `.emptyFile`.
    mutating func parse<H: ReaderXMLHandler>(into handler: inout H) throws(InputError) {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        var rootName: String? = nil
        var open: [Open] = []
        while true {
            if open.isEmpty {
                // Prolog or epilog.
                skipSpace()
                if i >= bytes.count { break }
                guard bytes[i] == UInt8(ascii: "<") else {
                    throw error(.badValue, at: i, expected: rootName.map { "nothing after the root element </\($0)>" } ?? "'<' starting the root element")
                }
                if try skipMarkup(into: &handler, doctypeAllowed: rootName == nil) { continue }
                if let r = rootName { throw error(.badValue, at: i, expected: "nothing after the root element </\(r)>") }
                if starts(with: "</", at: i) { throw error(.badValue, at: i, expected: "a start tag (no element is open)") }
                if starts(with: "<![CDATA[", at: i) { throw error(.badValue, at: i, expected: "'<' starting the root element") }
                let (o, closed) = try startTag(into: &handler, depth: 1)
                rootName = o.name
                if !closed { open.append(o) }
                continue
            }
            // Content of the innermost open element.
            guard i < bytes.count else {
                let o = open[open.count - 1]
                throw error(.truncated, at: o.offset, expected: "the end tag </\(o.name)>")
            }
            let b = bytes[i]
            if b == UInt8(ascii: "<") {
                if starts(with: "</", at: i) {
                    let endStart = i
                    i += 2
                    let closing = try parseName(what: "an element name after '</'")
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw error(i < bytes.count ? .badValue : .truncated, at: i, expected: "'>' closing the end tag </\(closing)>") }
                    let o = open.removeLast()
                    guard closing == o.name else {
                        let at = location(o.offset)
                        throw error(.badValue, at: endStart, expected: "</\(o.name)> (closing <\(o.name)> of line \(at.line), column \(at.column))")
                    }
                    i += 1
                    try handler.endElement(o.name, text: o.text, textOffset: o.textStart)
                    continue
                }
                if starts(with: "<![CDATA[", at: i) {
                    let cs = i
                    i += 9
                    while i + 2 < bytes.count && !starts(with: "]]>", at: i) {
                        try appendText(bytes[i], to: &open[open.count - 1])
                        i += 1
                    }
                    guard starts(with: "]]>", at: i) else { throw error(.truncated, at: cs, expected: "']]>' closing this CDATA section") }
                    i += 3
                    continue
                }
                if try skipMarkup(into: &handler, doctypeAllowed: false) { continue }
                let (o, closed) = try startTag(into: &handler, depth: open.count + 1)
                if !closed { open.append(o) }
                continue
            }
            if b == UInt8(ascii: "&") {
                var decoded: [UInt8] = []
                let at = i
                try parseReference(into: &decoded)
                for d in decoded { try appendText(d, to: &open[open.count - 1], at: at) }
                continue
            }
            try appendText(b, to: &open[open.count - 1])
            i += 1
        }
        if rootName == nil {
            throw InputError(.emptyFile, at: location(bytes.count), found: "", expected: "an XML document with a root element")
        }
    }

    /// Adds a byte of character data at `i` (or `at`) to `o`'s text: white space before the
    /// first other character is dropped; the rest counts against `maxTextBytes`.
    @inline(__always) mutating func appendText(_ b: UInt8, to o: inout Open, at: Int? = nil) throws(InputError) {
        if o.textStart < 0 {
            if ReaderXMLParser.isSpace(b) { return }
            o.textStart = at ?? i
        }
        guard o.text.count < ReaderXMLParser.maxTextBytes else {
            throw InputError(.badValue, at: location(o.textStart), found: "a text node longer than \(ReaderXMLParser.maxTextBytes) bytes",
                             expected: "text of at most \(ReaderXMLParser.maxTextBytes) bytes in <\(o.name)>")
        }
        o.text.append(b)
    }

    /// Skips a comment (reported to `handler`), processing instruction or DOCTYPE at `i`
    /// (which is at `<`); false when `i` is at something else (an element or a CDATA section).
    mutating func skipMarkup<H: ReaderXMLHandler>(into handler: inout H, doctypeAllowed: Bool) throws(InputError) -> Bool {
        let start = i
        if starts(with: "<!--", at: i) {
            i += 4
            while i + 2 < bytes.count && !starts(with: "-->", at: i) { i += 1 }
            guard starts(with: "-->", at: i) else { throw error(.truncated, at: start, expected: "'-->' closing this comment") }
            handler.comment(bytes[(start + 4)..<i])
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
            guard doctypeAllowed else { throw error(.badValue, at: i, expected: "a DOCTYPE only before the root element") }
            // Quoted literals may hold '>'; an internal subset is skipped to its ']'.
            i += 9
            var quote: UInt8 = 0
            var inSubset = false
            while i < bytes.count {
                let b = bytes[i]
                if quote != 0 { if b == quote { quote = 0 } }
                else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { quote = b }
                else if inSubset && starts(with: "<!--", at: i) {
                    i += 4
                    while i + 2 < bytes.count && !starts(with: "-->", at: i) { i += 1 }
                    i += 2
                }
                else if b == UInt8(ascii: "[") { inSubset = true }
                else if b == UInt8(ascii: "]") { inSubset = false }
                else if b == UInt8(ascii: ">") && !inSubset { break }
                i += 1
            }
            guard i < bytes.count else { throw error(.truncated, at: start, expected: "'>' closing this DOCTYPE") }
            i += 1
            return true
        }
        return false
    }

    /// A start tag at `i` (at `<`), reported to `handler`; an empty-element tag is ended at
    /// once (`closed`), else the element is to be pushed.
    mutating func startTag<H: ReaderXMLHandler>(into handler: inout H, depth: Int) throws(InputError) -> (open: Open, closed: Bool) {
        let start = i
        if depth > ReaderXMLParser.maxDepth { throw error(.badValue, at: start, expected: "elements nested at most \(ReaderXMLParser.maxDepth) deep") }
        i += 1
        let name = try parseName(what: "an element name after '<'")
        var attributes: [(name: String, value: String)] = []
        while true {
            let before = i
            skipSpace()
            guard i < bytes.count else { throw error(.truncated, at: start, expected: "'>' closing the start tag <\(name)>") }
            if bytes[i] == UInt8(ascii: ">") {
                i += 1
                try handler.startElement(name, attributes: attributes, offset: start)
                return (Open(name: name, offset: start), false)
            }
            if bytes[i] == UInt8(ascii: "/") {
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") else { throw error(.badValue, at: i, expected: "'/>' or '>'") }
                i += 2
                try handler.startElement(name, attributes: attributes, offset: start)
                try handler.endElement(name, text: [], textOffset: -1)
                return (Open(name: name, offset: start), true)
            }
            guard i > before else { throw error(.badValue, at: i, expected: "white space before an attribute, or '>'") }
            guard attributes.count < ReaderXMLParser.maxAttributes else {
                throw error(.badValue, at: i, expected: "at most \(ReaderXMLParser.maxAttributes) attributes in <\(name)>")
            }
            let an = try parseName(what: "an attribute name, '>' or '/>' in <\(name)>")
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw error(i < bytes.count ? .badValue : .truncated, at: i, expected: "'=' after the attribute \(an)") }
            i += 1
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw error(i < bytes.count ? .badValue : .truncated, at: i, expected: "a quoted value for the attribute \(an)")
            }
            let quote = bytes[i], vs = i
            i += 1
            var value: [UInt8] = []
            while i < bytes.count && bytes[i] != quote {
                guard value.count < ReaderXMLParser.maxTextBytes else {
                    throw InputError(.badValue, at: location(vs), found: "an attribute value over \(ReaderXMLParser.maxTextBytes) bytes",
                                     expected: "a value of at most \(ReaderXMLParser.maxTextBytes) bytes for the attribute \(an)")
                }
                if bytes[i] == UInt8(ascii: "<") { throw error(.badValue, at: i, expected: "no '<' inside the attribute value of \(an)") }
                if bytes[i] == UInt8(ascii: "&") { try parseReference(into: &value); continue }
                value.append(bytes[i]); i += 1
            }
            guard i < bytes.count else { throw error(.truncated, at: vs, expected: "a closing quote for the attribute \(an)") }
            i += 1
            if attributes.contains(where: { $0.name == an }) { throw error(.badValue, at: vs, expected: "one value for the attribute \(an)") }
            attributes.append((an, String(decoding: value, as: UTF8.self)))
        }
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
                throw error(.badValue, at: s, expected: "&amp; &lt; &gt; &quot; &apos; or a character reference &#…; (entities a DOCTYPE declares are not expanded)")
            }
            ReaderXMLParser.appendUTF8(u, to: &out)
        }
        i = j + 1
    }
}
