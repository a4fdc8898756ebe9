/// Values per named row (one row per recording, say), as horizontal bars or dots, with an
/// optional note at the end of each row. Grows downwards with the number of rows.
public struct RowChart: Sendable {
    /// One value per row, drawn as bars from zero or as dots.
    public struct Series: Sendable {
        /// A bar from zero to the value, or a dot at the value.
        public enum Style: Sendable {
            /// A bar from zero (or the range's edge nearest it) to the value.
            case bar
            /// A dot at the value.
            case dot
        }
        /// The legend's name.
        public var name: String
        /// An SVG colour, e.g. one of `Palette`'s.
        public var color: String
        /// One value per row; NaN for none.
        public var values: [Double]
        /// Bars or dots.
        public var style: Style
        /// A series; see the properties for each argument. `values` pair with the chart's rows by index.
        public init(name: String, color: String, values: [Double], style: Style) {
            self.name = name; self.color = color; self.values = values; self.style = style
        }
    }
    /// The title at the top.
    public var title: String
    /// Lines of small text under the title.
    public var notes: [String]
    /// The value axis title with its unit.
    public var xLabel: String
    /// The rows' names, top to bottom (a long one keeps its end).
    public var rows: [String]
    /// The values drawn in each row: the bar series one under another within the row, dots over them.
    public var series: [Series]
    /// Text after each row (an error, a score); empty for none.
    public var rowNotes: [String]
    /// Fixed value range; nil: from the values (with 0 when `includeZero`).
    public var xRange: ClosedRange<Double>?
    /// Stretch the automatic value range to include 0 (bars start from zero).
    public var includeZero: Bool
    /// The picture's width (px); its height follows from the rows.
    public var width: Pixels

    /// A row chart; see the properties for each argument. `width` is in pixels.
    public init(title: String, notes: [String] = [], xLabel: String, rows: [String], series: [Series], rowNotes: [String] = [],
                xRange: ClosedRange<Double>? = nil, includeZero: Bool = true, width: Pixels = 960) {
        self.title = title; self.notes = notes; self.xLabel = xLabel; self.rows = rows; self.series = series
        self.rowNotes = rowNotes; self.xRange = xRange; self.includeZero = includeZero; self.width = width
    }

    /// A row's height: more for several bars.
    var rowHeight: Double {
        let bars = series.filter { $0.style == .bar }.count
        return bars >= 2 ? 8 * Double(bars) + 8 : 18
    }

    /// The picture as an SVG document.
    public func svg() -> String { draw().render(title: title) }

    /// The picture, to be rendered or stacked with others.
    public func draw() -> SVGDocument {
        // Long names keep their end, where recordings' names differ.
        let labels = rows.map { $0.count > 42 ? "…" + String($0.suffix(41)) : $0 }
        let left = 16 + min(42, Double(labels.map(\.count).max() ?? 4)) * 6.6
        let noteW = rowNotes.isEmpty ? 20.0 : 16 + Double(rowNotes.map(\.count).max() ?? 0) * 6.6
        let plotW = max(200, width - left - noteW)
        var lo = Double.infinity, hi = -Double.infinity
        if let r = xRange { lo = r.lowerBound; hi = r.upperBound } else {
            for s in series { for v in s.values where v.isFinite { lo = min(lo, v); hi = max(hi, v) } }
            if includeZero && lo.isFinite { lo = min(lo, 0); hi = max(hi, 0) }
        }
        let ticks = Ticks(lo, hi, target: max(4, Int(plotW / 90)))
        let x0 = xRange?.lowerBound ?? ticks.lower, x1 = xRange?.upperBound ?? ticks.upper
        func px(_ v: Double) -> Double { left + (min(max(v, x0), x1) - x0) / (x1 - x0) * plotW }
        var top = 36.0 + Double(notes.count) * 15 + 8
        let legendY = top + 12
        top += 24
        let h = Double(max(rows.count, 1)) * rowHeight
        let height = top + h + 50
        var doc = SVGDocument(width: width, height: height)
        doc.text(width / 2, 24, title, anchor: .middle, size: 16, bold: true, cls: "title")
        for (i, n) in notes.enumerated() { doc.text(width / 2, 51 + Double(i) * 15, n, anchor: .middle, size: 11, fill: "#444444", cls: "note") }
        doc.begin(cls: "legend")
        var lx = left
        for s in series {
            if s.style == .bar { doc.rect(lx, legendY - 6, 18, 12, fill: s.color, opacity: 0.8) } else { doc.circle(lx + 9, legendY, r: 4.5, fill: s.color) }
            doc.text(lx + 23, legendY + 4, s.name, size: 11)
            lx += 23 + Double(s.name.count) * 6.4 + 18
        }
        doc.end()
        doc.begin(cls: "axis x-axis")
        for t in ticks.values where t >= x0 - 1e-9 && t <= x1 + 1e-9 {
            doc.line(px(t), top, px(t), top + h, stroke: "#e3e3e3")
            doc.line(px(t), top + h, px(t), top + h + 5, stroke: "#000000")
            doc.text(px(t), top + h + 18, ticks.label(t), anchor: .middle, size: 11)
        }
        doc.text(left + plotW / 2, height - 10, xLabel, anchor: .middle, cls: "axis-title")
        doc.end()
        doc.begin(cls: "axis y-axis")
        for (i, l) in labels.enumerated() {
            let yc = top + (Double(i) + 0.5) * rowHeight
            if i % 2 == 1 { doc.rect(left, yc - rowHeight / 2, plotW, rowHeight, fill: "#f4f4f4") }
            doc.text(left - 6, yc + 4, l, anchor: .end, size: 11)
        }
        doc.end()
        let bars = series.filter { $0.style == .bar }
        let barH = (rowHeight - 4) / Double(max(bars.count, 1))
        doc.begin(cls: "series")
        var b = 0
        for s in series {
            for (i, v) in s.values.enumerated() where i < rows.count && v.isFinite {
                let yc = top + (Double(i) + 0.5) * rowHeight
                switch s.style {
                case .bar:
                    let a = px(max(min(0, x1), x0)), e = px(v)
                    doc.rect(min(a, e), top + Double(i) * rowHeight + 2 + Double(b) * barH, abs(e - a), barH, fill: s.color, opacity: 0.8,
                             cls: "bar", title: "\(rows[i]): \(s.name) \(num(v, 3))")
                case .dot:
                    doc.circle(px(v), yc, r: 4.5, fill: s.color, stroke: "#ffffff", cls: "dot")
                }
            }
            if s.style == .bar { b += 1 }
        }
        doc.end()
        doc.begin(cls: "row-notes")
        for (i, n) in rowNotes.enumerated() where i < rows.count {
            doc.text(left + plotW + 8, top + (Double(i) + 0.5) * rowHeight + 4, n, size: 11)
        }
        doc.end()
        doc.rect(left, top, plotW, h, fill: "none", stroke: "#000000", cls: "frame")
        return doc
    }
}

/// A table of counts as shaded cells (a confusion matrix): each cell's shade is its share of
/// its row, and it shows the count and that share.
public struct MatrixChart: Sendable {
    /// The title at the top.
    public var title: String
    /// Lines of small text under the title.
    public var notes: [String]
    /// What the rows are, e.g. "true class".
    public var rowTitle: String
    /// What the columns are, e.g. "predicted class".
    public var columnTitle: String
    /// The names of the rows, which are also the columns'.
    public var labels: [String]
    /// `counts[row][column]`.
    public var counts: [[Int]]
    /// The picture's width; nil: as narrow as the table and notes allow. The table is centred.
    public var width: Pixels?

    /// A matrix chart; see the properties for each argument. `counts` is square, one row and one
    /// column per label.
    public init(title: String, notes: [String] = [], rowTitle: String, columnTitle: String, labels: [String], counts: [[Int]], width: Pixels? = nil) {
        self.title = title; self.notes = notes; self.rowTitle = rowTitle; self.columnTitle = columnTitle
        self.labels = labels; self.counts = counts; self.width = width
    }

    /// The picture as an SVG document.
    public func svg() -> String { draw().render(title: title) }

    /// The picture, to be rendered or stacked with others.
    public func draw() -> SVGDocument {
        let k = labels.count
        let cell = max(56, min(110, 560 / Double(max(k, 1))))
        let names = labels.map { $0.count > 18 ? String($0.prefix(17)) + "…" : $0 }
        let labelW = 40 + Double(names.map(\.count).max() ?? 4) * 6.6
        let top = 70.0 + Double(notes.count) * 15 + 20
        let width = max(self.width ?? 0, 420, labelW + Double(k) * cell + 40, 40 + Double(notes.map(\.count).max() ?? 0) * 6.2)
        let left = max(labelW, (width - Double(k) * cell) / 2)
        let height = top + Double(k) * cell + 40
        var doc = SVGDocument(width: width, height: height)
        doc.text(width / 2, 24, title, anchor: .middle, size: 16, bold: true, cls: "title")
        for (i, n) in notes.enumerated() { doc.text(width / 2, 44 + Double(i) * 15, n, anchor: .middle, size: 11, fill: "#444444", cls: "note") }
        doc.begin(cls: "axis")
        doc.text(left + Double(k) * cell / 2, top - 28, columnTitle, anchor: .middle, bold: true, cls: "axis-title")
        doc.text(left - labelW + 14, top + Double(k) * cell / 2, rowTitle, anchor: .middle, bold: true, rotate: -90, cls: "axis-title")
        for (i, n) in names.enumerated() {
            doc.text(left + (Double(i) + 0.5) * cell, top - 8, n, anchor: .middle, size: 11)
            doc.text(left - 8, top + (Double(i) + 0.5) * cell + 4, n, anchor: .end, size: 11)
        }
        doc.end()
        doc.begin(cls: "series cells")
        for r in 0..<k {
            let row = r < counts.count ? counts[r] : []
            let total = row.reduce(0, +)
            for c in 0..<k {
                let n = c < row.count ? row[c] : 0
                let share = total > 0 ? Double(n) / Double(total) : 0
                let x = left + Double(c) * cell, y = top + Double(r) * cell
                doc.rect(x, y, cell, cell, fill: r == c ? Palette.blue : Palette.vermillion, opacity: 0.05 + 0.85 * share, stroke: "#ffffff",
                         cls: "cell", title: "\(labels[r]) → \(labels[c]): \(n)")
                let ink = share > 0.55 ? "#ffffff" : "#000000"
                doc.text(x + cell / 2, y + cell / 2, "\(n)", anchor: .middle, size: 13, fill: ink, bold: true)
                doc.text(x + cell / 2, y + cell / 2 + 16, total > 0 ? "\(num(share * 100, 1)) %" : "-", anchor: .middle, size: 10, fill: ink)
            }
        }
        doc.end()
        doc.rect(left, top, Double(k) * cell, Double(k) * cell, fill: "none", stroke: "#000000", cls: "frame")
        return doc
    }
}
