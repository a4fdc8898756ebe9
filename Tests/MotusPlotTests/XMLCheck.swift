/// A small, strict reader of the XML our SVG writer produces, used to check that a picture is
/// well formed: tags nest and close, attribute values are quoted, every `&` starts one of the
/// five predefined entities (or a numeric one), and no raw `<` is left in text. It returns
/// the elements with their attributes and text (entities decoded), for the tests to look for
/// axes, series and legends.
struct XMLElement {
    var name: String
    var attributes: [String: String]
    var text: String
    var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }
}

struct XMLCheckError: Error, CustomStringConvertible {
    var description: String
}

func checkXML(_ s: String) throws -> [XMLElement] {
    let b = Array(s.utf8)
    var i = 0
    var stack: [Int] = []
    var out: [XMLElement] = []
    var roots = 0
    func fail(_ m: String) -> XMLCheckError { XMLCheckError(description: "byte \(i): \(m)") }
    func checkText(_ t: ArraySlice<UInt8>) throws {
        var j = t.startIndex
        while j < t.endIndex {
            if t[j] == UInt8(ascii: "<") { throw fail("raw < in text") }
            if t[j] == UInt8(ascii: "&") {
                guard let semi = t[j...].firstIndex(of: UInt8(ascii: ";")) else { throw fail("& without ;") }
                let ent = String(decoding: t[(j + 1)..<semi], as: UTF8.self)
                let ok = ["amp", "lt", "gt", "quot", "apos"].contains(ent) || (ent.hasPrefix("#") && ent.count > 1)
                if !ok { throw fail("unknown entity &\(ent);") }
                j = semi
            }
            if t[j] < 0x20 && t[j] != 0x09 && t[j] != 0x0A && t[j] != 0x0D { throw fail("control byte \(t[j])") }
            j += 1
        }
    }
    while i < b.count {
        if b[i] != UInt8(ascii: "<") {
            let start = i
            while i < b.count && b[i] != UInt8(ascii: "<") { i += 1 }
            try checkText(b[start..<i])
            if let top = stack.last { out[top].text += decodeEntities(String(decoding: b[start..<i], as: UTF8.self)) }
            else if !b[start..<i].allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { throw fail("text outside the root") }
            continue
        }
        guard let close = b[i...].firstIndex(of: UInt8(ascii: ">")) else { throw fail("unclosed tag") }
        let inner = Array(b[(i + 1)..<close])
        i = close + 1
        if inner.first == UInt8(ascii: "?") { continue }
        if inner.first == UInt8(ascii: "/") {
            let name = String(decoding: inner.dropFirst(), as: UTF8.self)
            guard let top = stack.popLast(), out[top].name == name else { throw fail("</\(name)> closes nothing open") }
            continue
        }
        let selfClosing = inner.last == UInt8(ascii: "/")
        let body = selfClosing ? Array(inner.dropLast()) : inner
        var k = 0
        while k < body.count && body[k] != 0x20 { k += 1 }
        let name = String(decoding: body[0..<k], as: UTF8.self)
        guard !name.isEmpty else { throw fail("empty tag name") }
        var attrs: [String: String] = [:]
        while k < body.count {
            while k < body.count && body[k] == 0x20 { k += 1 }
            if k >= body.count { break }
            let ks = k
            while k < body.count && body[k] != UInt8(ascii: "=") { k += 1 }
            let key = String(decoding: body[ks..<k], as: UTF8.self)
            guard k + 1 < body.count, body[k + 1] == UInt8(ascii: "\"") else { throw fail("attribute \(key) not quoted") }
            k += 2
            let vs = k
            while k < body.count && body[k] != UInt8(ascii: "\"") { k += 1 }
            guard k < body.count else { throw fail("attribute \(key) not closed") }
            try checkText(body[vs..<k])
            guard attrs[key] == nil else { throw fail("attribute \(key) twice") }
            attrs[key] = decodeEntities(String(decoding: body[vs..<k], as: UTF8.self))
            k += 1
        }
        if stack.isEmpty { roots += 1; if roots > 1 { throw fail("a second root element") } }
        out.append(XMLElement(name: name, attributes: attrs, text: ""))
        if !selfClosing { stack.append(out.count - 1) }
    }
    guard stack.isEmpty else { throw XMLCheckError(description: "unclosed <\(out[stack[stack.count - 1]].name)>") }
    guard roots == 1, out.first?.name == "svg" else { throw XMLCheckError(description: "no single <svg> root") }
    return out
}

/// The text with the five predefined entities decoded (`&amp;` last, so `&amp;lt;` stays `&lt;`).
func decodeEntities(_ s: String) -> String {
    s.replacingAll("&lt;", "<").replacingAll("&gt;", ">").replacingAll("&quot;", "\"").replacingAll("&apos;", "'").replacingAll("&amp;", "&")
}

extension String {
    func replacingAll(_ a: String, _ b: String) -> String { split(separator: a, omittingEmptySubsequences: false).joined(separator: b) }
}

extension Array where Element == XMLElement {
    /// Elements whose class list holds `c`.
    func withClass(_ c: String) -> [XMLElement] { filter { $0.classes.contains(c) } }
    /// The texts of every `<text>` element.
    var texts: [String] { filter { $0.name == "text" }.map(\.text) }
}
