import MotusCore

/// An SVG document written element by element.
///
/// Every number is written with a fixed count of decimals and attributes in a fixed order, so
/// the same picture gives the same bytes on every machine. Text is escaped for XML, and
/// characters XML 1.0 cannot hold (most control characters) become U+FFFD, so any file name
/// or label can be shown without breaking the document.
public struct SVGDocument: Sendable {
    /// The width in px (user units).
    public let width: Pixels
    /// The height in px (user units).
    public let height: Pixels
    /// Put before every id this document defines (clip paths, patterns), so that documents
    /// stacked into one figure do not share ids.
    public let idPrefix: String
    var parts: [String] = []

    /// An empty document of that size.
    public init(width: Pixels, height: Pixels, idPrefix: String = "") {
        self.width = width; self.height = height; self.idPrefix = idPrefix
    }

    /// A reference to the id `name` defines in this document, for `fill` or `clip`.
    public func ref(_ name: String) -> String { "url(#\(idPrefix)\(name))" }

    /// A straight line.
    public mutating func line(_ x1: Pixels, _ y1: Pixels, _ x2: Pixels, _ y2: Pixels, stroke: String, width: Pixels = 1,
                              dash: String? = nil, cls: String? = nil) {
        var s = "<line\(Self.cls(cls)) x1=\"\(num(x1))\" y1=\"\(num(y1))\" x2=\"\(num(x2))\" y2=\"\(num(y2))\" stroke=\"\(stroke)\""
        if width != 1 { s += " stroke-width=\"\(num(width))\"" }
        if let dash { s += " stroke-dasharray=\"\(dash)\"" }
        parts.append(s + "/>")
    }

    /// A rectangle; `fill` "none" for an outline.
    public mutating func rect(_ x: Pixels, _ y: Pixels, _ w: Pixels, _ h: Pixels, fill: String, opacity: Double? = nil,
                              stroke: String? = nil, cls: String? = nil, title: String? = nil) {
        var s = "<rect\(Self.cls(cls)) x=\"\(num(x))\" y=\"\(num(y))\" width=\"\(num(max(w, 0)))\" height=\"\(num(max(h, 0)))\" fill=\"\(fill)\""
        if let opacity { s += " fill-opacity=\"\(num(opacity, 3))\"" }
        if let stroke { s += " stroke=\"\(stroke)\"" }
        if let title { parts.append(s + "><title>\(escapeXML(title))</title></rect>") } else { parts.append(s + "/>") }
    }

    /// A path from its `d` data (see `PathData`).
    public mutating func path(_ d: String, stroke: String, width: Pixels = 1, fill: String = "none", dash: String? = nil,
                              cls: String? = nil) {
        guard !d.isEmpty else { return }
        var s = "<path\(Self.cls(cls)) d=\"\(d)\" fill=\"\(fill)\" stroke=\"\(stroke)\""
        if width != 1 { s += " stroke-width=\"\(num(width))\"" }
        if let dash { s += " stroke-dasharray=\"\(dash)\"" }
        parts.append(s + " stroke-linejoin=\"round\"/>")
    }

    /// A small circle (a point in a scatter).
    public mutating func circle(_ x: Pixels, _ y: Pixels, r: Pixels, fill: String, stroke: String? = nil, cls: String? = nil) {
        var s = "<circle\(Self.cls(cls)) cx=\"\(num(x))\" cy=\"\(num(y))\" r=\"\(num(r))\" fill=\"\(fill)\""
        if let stroke { s += " stroke=\"\(stroke)\"" }
        parts.append(s + "/>")
    }

    /// Where the text sits against its x: starting, centred or ending there.
    public enum Anchor: String, Sendable {
        /// The text starts at x (SVG `text-anchor="start"`).
        case start
        /// The text is centred on x.
        case middle
        /// The text ends at x.
        case end
    }

    /// One line of text at (x, y), the baseline; `rotate` in degrees about (x, y).
    public mutating func text(_ x: Pixels, _ y: Pixels, _ string: String, anchor: Anchor = .start, size: Pixels = 12,
                              fill: String = "#000000", bold: Bool = false, rotate: Degrees = 0, cls: String? = nil) {
        var s = "<text\(Self.cls(cls)) x=\"\(num(x))\" y=\"\(num(y))\""
        if anchor != .start { s += " text-anchor=\"\(anchor.rawValue)\"" }
        if size != 12 { s += " font-size=\"\(num(size))\"" }
        if fill != "#000000" { s += " fill=\"\(fill)\"" }
        if bold { s += " font-weight=\"bold\"" }
        if rotate != 0 { s += " transform=\"rotate(\(num(rotate)) \(num(x)) \(num(y)))\"" }
        parts.append(s + ">\(escapeXML(string))</text>")
    }

    /// Opens a group; close it with `end()`. `id` and `cls` name what it holds.
    public mutating func begin(cls: String? = nil, id: String? = nil, clip: String? = nil) {
        var s = "<g"
        if let id { s += " id=\"\(escapeXML(id))\"" }
        s += Self.cls(cls)
        if let clip { s += " clip-path=\"\(ref(clip))\"" }
        parts.append(s + ">")
    }

    /// Closes the group `begin` opened.
    public mutating func end() { parts.append("</g>") }

    /// A rectangular clip path named `id`, for groups that must not draw outside a plot area.
    public mutating func clipRect(id: String, _ x: Pixels, _ y: Pixels, _ w: Pixels, _ h: Pixels) {
        parts.append("<clipPath id=\"\(idPrefix)\(id)\"><rect x=\"\(num(x))\" y=\"\(num(y))\" width=\"\(num(w))\" height=\"\(num(h))\"/></clipPath>")
    }

    /// A diagonal hatch pattern named `id` in `color`, to fill gaps in the data.
    public mutating func hatch(id: String, color: String) {
        parts.append("<pattern id=\"\(idPrefix)\(id)\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" patternTransform=\"rotate(45)\">"
                     + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"\(color)\" stroke-width=\"2\"/></pattern>")
    }

    /// The whole document, with a white background and the font set once.
    public func render(title: String) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(num(width, 0))\" height=\"\(num(height, 0))\" viewBox=\"0 0 \(num(width, 0)) \(num(height, 0))\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n"
        out += "<title>\(escapeXML(title))</title>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(num(width, 0))\" height=\"\(num(height, 0))\" fill=\"#ffffff\"/>\n"
        for p in parts { out += p; out += "\n" }
        out += "</svg>\n"
        return out
    }

    /// Documents one above the other, as one document as wide as the widest.
    public static func stacked(_ docs: [SVGDocument]) -> SVGDocument {
        var out = SVGDocument(width: docs.map(\.width).max() ?? 0, height: docs.reduce(0) { $0 + $1.height })
        var y = 0.0
        for d in docs {
            out.parts.append("<g transform=\"translate(0 \(num(y)))\">")
            out.parts.append(contentsOf: d.parts)
            out.parts.append("</g>")
            y += d.height
        }
        return out
    }

    static func cls(_ c: String?) -> String { c.map { " class=\"\($0)\"" } ?? "" }
}

/// Path data (`d` attribute) built from points, with a fixed number of decimals.
public struct PathData: Sendable {
    /// The `d` attribute's text so far.
    public private(set) var text = ""
    var open = false
    /// Empty path data.
    public init() {}
    /// Starts a new piece at (x, y).
    public mutating func move(_ x: Pixels, _ y: Pixels) {
        if !text.isEmpty { text += " " }
        text += "M\(num(x)),\(num(y))"; open = true
    }
    /// Continues the piece to (x, y), or starts one when none is open.
    public mutating func lineTo(_ x: Pixels, _ y: Pixels) {
        guard open else { move(x, y); return }
        text += " L\(num(x)),\(num(y))"
    }
    /// Ends the current piece: the next point starts a new one (a gap).
    public mutating func breakLine() { open = false }
    /// Closes the current piece back to its start (an area).
    public mutating func close() { text += " Z"; open = false }
    /// True when nothing has been drawn.
    public var isEmpty: Bool { text.isEmpty }
}

/// Escapes `&`, `<`, `>`, `"` and `'`, and replaces characters XML 1.0 does not allow (control
/// characters other than tab, newline and carriage return; U+FFFE and U+FFFF) with U+FFFD.
public func escapeXML(_ s: String) -> String {
    var o = ""
    o.reserveCapacity(s.utf8.count)
    for u in s.unicodeScalars {
        switch u {
        case "&": o += "&amp;"
        case "<": o += "&lt;"
        case ">": o += "&gt;"
        case "\"": o += "&quot;"
        case "'": o += "&apos;"
        case "\t", "\n", "\r": o.unicodeScalars.append(u)
        default:
            if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF { o += "\u{FFFD}" } else { o.unicodeScalars.append(u) }
        }
    }
    return o
}

/// Fixed-point text of `v` with `digits` decimals (trailing zeros kept off), without Foundation:
/// the same bytes on every platform. Non-finite values print as 0, which never reaches a
/// picture (callers leave them out).
func num(_ v: Double, _ digits: Int = 1, trimmed: Bool = true) -> String {
    guard v.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let a = (abs(v) * scale).rounded()
    guard a < 9e15 else { return v < 0 ? "-9e15" : "9e15" }
    let neg = v < 0 && a != 0
    let whole = UInt64(a / scale)
    var out = (neg ? "-" : "") + String(whole)
    if digits > 0 {
        var frac = String(UInt64(a.truncatingRemainder(dividingBy: scale)))
        while frac.count < digits { frac = "0" + frac }
        while trimmed && frac.hasSuffix("0") { frac.removeLast() }
        if !frac.isEmpty { out += "." + frac }
    }
    return out
}
