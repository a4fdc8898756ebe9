/// A self-contained HTML page: headings, paragraphs, tables and SVG pictures, written inline.
///
/// The page loads nothing: its style sheet is inline, the pictures are inline `<svg>` elements,
/// and there are no scripts and no fonts to fetch. A Content-Security-Policy in the page says so
/// to the browser (`default-src 'none'`), so anything that would reach out (an image URL, a
/// script) is refused and shows as an error in the browser's console, where a test sees it.
/// Every text given to the page is escaped (`escapeXML`), so file names, labels and metadata
/// can hold `<`, `&` or quotes without changing the page.
public struct HTMLPage: Sendable {
    /// The page's title (the `<title>` and the first heading).
    public var title: String
    /// Lines of small text under the title.
    public var subtitle: [String]
    var body: [String] = []
    var figures = 0

    /// An empty page.
    public init(title: String, subtitle: [String] = []) {
        self.title = title; self.subtitle = subtitle
    }

    /// A section heading (`level` 2 or 3), with an `id` for links when given.
    public mutating func heading(_ text: String, level: Int = 2, id: String? = nil) {
        let l = min(max(level, 2), 4)
        let idAttribute = id.map { " id=\"\(escapeXML($0))\"" } ?? ""
        body.append("<h\(l)\(idAttribute)>\(escapeXML(text))</h\(l)>")
    }

    /// A paragraph; `note` sets it in the smaller, grey style of remarks.
    public mutating func paragraph(_ text: String, note: Bool = false) {
        body.append("<p\(note ? " class=\"note\"" : "")>\(escapeXML(text))</p>")
    }

    /// A bulleted list.
    public mutating func list(_ items: [String]) {
        guard !items.isEmpty else { return }
        body.append("<ul>" + items.map { "<li>\(escapeXML($0))</li>" }.joined() + "</ul>")
    }

    /// A table: the first row is the header. With `numeric`, columns after the first whose
    /// cells all read as figures ("12", "-3.2", "0/12", "0:14", or "-" for none) are
    /// right-aligned, so figures line up; text columns stay left. Rows shorter than the header
    /// are padded with empty cells.
    public mutating func table(_ rows: [[String]], caption: String? = nil, numeric: Bool = true, cls: String? = nil) {
        guard let header = rows.first else { return }
        let body = rows.dropFirst()
        let right = header.indices.map { i in
            numeric && i > 0 && body.contains { i < $0.count && Self.isFigure($0[i]) && $0[i] != "-" }
                && body.allSatisfy { i >= $0.count || Self.isFigure($0[i]) }
        }
        var s = "<table\(cls.map { " class=\"\(escapeXML($0))\"" } ?? "")>"
        if let caption { s += "<caption>\(escapeXML(caption))</caption>" }
        s += "<thead><tr>" + header.enumerated().map { "<th\(right[$0.offset] ? " class=\"num\"" : "")>\(escapeXML($0.element))</th>" }.joined() + "</tr></thead><tbody>"
        for r in body {
            s += "<tr>"
            for i in 0..<max(header.count, r.count) {
                let c = i < r.count ? r[i] : ""
                s += i < right.count && right[i] ? "<td class=\"num\">\(escapeXML(c))</td>" : "<td>\(escapeXML(c))</td>"
            }
            s += "</tr>"
        }
        self.body.append(s + "</tbody></table>")
    }

    /// A cell that holds a figure: a number with an optional sign, possibly with `/`, `:` or
    /// `.` inside and a unit after a space, or "-", "n/j" for none.
    static func isFigure(_ c: String) -> Bool {
        if c == "-" || c == "n/j" || c.isEmpty { return true }
        var u = c.unicodeScalars.makeIterator()
        guard var first = u.next() else { return true }
        if first == "-" || first == "+" { guard let n = u.next() else { return false }; first = n }
        return first.properties.numericType != nil && ("0"..."9").contains(first)
    }

    /// Names and values, two columns (a summary).
    public mutating func keyValues(_ pairs: [(String, String)], caption: String? = nil) {
        guard !pairs.isEmpty else { return }
        var s = "<table class=\"kv\">"
        if let caption { s += "<caption>\(escapeXML(caption))</caption>" }
        s += "<tbody>" + pairs.map { "<tr><th scope=\"row\">\(escapeXML($0.0))</th><td>\(escapeXML($0.1))</td></tr>" }.joined() + "</tbody></table>"
        body.append(s)
    }

    /// A picture, inline, with a caption. Its ids are the document's own (give each picture
    /// of a page its own `idPrefix` when drawing it); the figure itself gets the id
    /// `figure-N` and the class `figure`.
    public mutating func figure(_ doc: SVGDocument, title: String, caption: String? = nil) {
        figures += 1
        var s = "<figure class=\"figure\" id=\"figure-\(figures)\">"
        s += doc.inlineElement(title: title)
        if let caption { s += "<figcaption>\(escapeXML(caption))</figcaption>" }
        body.append(s + "</figure>")
    }

    /// How many pictures the page holds.
    public var figureCount: Int { figures }

    /// The whole page.
    public func render() -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(escapeXML(title))</title>\n<style>\n\(Self.style)</style>\n</head>\n<body>\n<main>\n"
        out += "<h1>\(escapeXML(title))</h1>\n"
        for s in subtitle { out += "<p class=\"note\">\(escapeXML(s))</p>\n" }
        for b in body { out += b; out += "\n" }
        out += "</main>\n</body>\n</html>\n"
        return out
    }

    /// The page's style: system fonts only (nothing to fetch), tables that read as tables,
    /// pictures that shrink with the window.
    static let style = """
    body { margin: 0; background: #f6f6f6; color: #1a1a1a; font: 14px/1.45 "DejaVu Sans", Arial, sans-serif; }
    main { max-width: 1000px; margin: 0 auto; padding: 16px 20px 40px; background: #ffffff; }
    h1 { font-size: 22px; margin: 8px 0 4px; overflow-wrap: anywhere; }
    h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #dddddd; padding-bottom: 4px; }
    h3 { font-size: 15px; margin: 18px 0 6px; }
    p.note { color: #555555; font-size: 12.5px; margin: 2px 0; }
    table { border-collapse: collapse; margin: 8px 0 12px; font-size: 12.5px; }
    caption { text-align: left; font-weight: bold; padding: 4px 0; }
    caption { white-space: nowrap; }
    th, td { padding: 3px 8px; border-bottom: 1px solid #e4e4e4; text-align: left; vertical-align: top; }
    thead th { border-bottom: 2px solid #bbbbbb; background: #fafafa; }
    th.num { text-align: right; }
    td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
    table.kv th { font-weight: normal; color: #555555; }
    figure { margin: 12px 0 20px; }
    figure svg { max-width: 100%; height: auto; display: block; border: 1px solid #e4e4e4; }
    figcaption { color: #555555; font-size: 12.5px; margin-top: 4px; }

    """
}

extension SVGDocument {
    /// The picture as an `<svg>` element to put inside an HTML page (no XML declaration), with
    /// `role="img"` and its title for screen readers.
    public func inlineElement(title: String) -> String {
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(num(width, 0))\" height=\"\(num(height, 0))\" viewBox=\"0 0 \(num(width, 0)) \(num(height, 0))\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\" role=\"img\" aria-label=\"\(escapeXML(title))\">\n"
        out += "<title>\(escapeXML(title))</title>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(num(width, 0))\" height=\"\(num(height, 0))\" fill=\"#ffffff\"/>\n"
        for p in parts { out += p; out += "\n" }
        out += "</svg>"
        return out
    }
}
