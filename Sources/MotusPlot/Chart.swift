/// A line through (x, y) points, drawn with real gaps: a NaN value, or two neighbours further
/// apart in x than `maxGap`, end the line and the next point starts a new one.
public struct LineSeries: Sendable {
    /// The legend's name (empty: not in the legend).
    public var name: String
    /// An SVG colour, e.g. one of `Palette`'s.
    public var color: String
    /// The points, in x order, in the chart's units (NaN y: no value, a gap).
    public var xs: [Double]
    /// The y values, one per x, in the panel's y units; NaN (or a missing value past the end of
    /// `xs`) is a gap.
    public var ys: [Double]
    /// Largest x step drawn as a line (nil: any); wider steps are gaps.
    public var maxGap: Double?
    /// Stroke width (px).
    public var width: Pixels
    /// Draw the line dashed (a reference or a second scale beside a solid series).
    public var dashed: Bool
    /// Draw as steps: each value holds until the next x (a value per bin, such as a grade).
    public var stepped: Bool
    /// Fill the area under the line down to the axis (an elevation profile).
    public var filled: Bool

    /// A line series; see the properties for each argument. `xs` and `ys` pair by index.
    public init(name: String, color: String, xs: [Double], ys: [Double], maxGap: Double? = nil, width: Pixels = 1.2,
                dashed: Bool = false, stepped: Bool = false, filled: Bool = false) {
        self.name = name; self.color = color; self.xs = xs; self.ys = ys; self.maxGap = maxGap
        self.width = width; self.dashed = dashed; self.stepped = stepped; self.filled = filled
    }
}

/// Intervals of x shaded in a panel (segments: labels, moving spans, gaps in the data).
public struct SpanSeries: Sendable {
    /// The legend's name (empty: not in the legend).
    public var name: String
    /// An SVG colour for the shading and its legend entry, e.g. one of `Palette`'s.
    public var color: String
    /// The shaded stretches of x, each from `start` to `end`.
    public var intervals: [(start: Double, end: Double)]
    /// Text written in each interval when it is wide enough (label names); empty for none.
    public var labels: [String]
    /// Hatched instead of filled: how gaps in the data are drawn.
    public var hatched: Bool
    /// Fill opacity (0…1) when not hatched.
    public var opacity: Double
    /// The part of the panel's height covered, as fractions from the top (0…1).
    public var band: (top: Double, bottom: Double)

    /// A span series; see the properties for each argument. The default `band` shades the
    /// panel's whole height.
    public init(name: String, color: String, intervals: [(start: Double, end: Double)], labels: [String] = [], hatched: Bool = false,
                opacity: Double = 0.18, band: (top: Double, bottom: Double) = (0, 1)) {
        self.name = name; self.color = color; self.intervals = intervals; self.labels = labels; self.hatched = hatched
        self.opacity = opacity; self.band = band
    }
}

/// Events at single x values: ticks along the top or bottom edge, or lines across the panel.
/// An event may carry an end (drawn as a bar from x to it, such as a decision latency) and a
/// short label.
public struct MarkSeries: Sendable {
    /// Short ticks along the top or bottom edge, or a dashed line across the panel.
    public enum Style: Sendable {
        /// A short tick down from the panel's top edge.
        case top
        /// A short tick up from the panel's bottom edge.
        case bottom
        /// A dashed line across the panel's whole height.
        case across
    }
    /// The legend's name (empty: not in the legend).
    public var name: String
    /// An SVG colour for the ticks, lines, bars and labels, e.g. one of `Palette`'s.
    public var color: String
    /// Where the events are, in the chart's x units.
    public var xs: [Double]
    /// How each event is drawn: a tick at the top, at the bottom, or a line across.
    public var style: Style
    /// Per event: where its bar ends (NaN: no bar); empty for none.
    public var ends: [Double]
    /// Per event: a label; empty for none.
    public var labels: [String]

    /// A mark series; see the properties for each argument. `ends` and `labels`, when given, pair
    /// with `xs` by index.
    public init(name: String, color: String, xs: [Double], style: Style, ends: [Double] = [], labels: [String] = []) {
        self.name = name; self.color = color; self.xs = xs; self.style = style; self.ends = ends; self.labels = labels
    }
}

/// One plot area with its own y axis.
public struct Panel: Sendable {
    /// The y axis title with its unit, e.g. "|acceleration| (m/s²)".
    public var yLabel: String
    /// The plot area's height (px), legend rows not included.
    public var height: Pixels
    /// Fixed y range; nil: from the visible data.
    public var yRange: ClosedRange<Double>?
    /// Stretch the automatic y range to include 0.
    public var includeZero: Bool
    /// The lines, drawn over the spans and under the marks.
    public var lines: [LineSeries]
    /// Shaded intervals, drawn first, under the lines.
    public var spans: [SpanSeries]
    /// Event marks, drawn last, over the lines.
    public var marks: [MarkSeries]

    /// A panel; see the properties for each argument. `height` is in pixels.
    public init(yLabel: String, height: Pixels = 170, yRange: ClosedRange<Double>? = nil, includeZero: Bool = false,
                lines: [LineSeries] = [], spans: [SpanSeries] = [], marks: [MarkSeries] = []) {
        self.yLabel = yLabel; self.height = height; self.yRange = yRange; self.includeZero = includeZero
        self.lines = lines; self.spans = spans; self.marks = marks
    }
}

/// Panels stacked over one shared x axis, each with its y axis, grid, legend and series.
public struct Chart: Sendable {
    /// The title at the top (and the document's `<title>`).
    public var title: String
    /// Lines of small text under the title (what was left out, where the data has gaps).
    public var notes: [String]
    /// The x axis title with its unit, e.g. "time (s)".
    public var xLabel: String
    /// Fixed x range; nil: from the data of every panel.
    public var xRange: ClosedRange<Double>?
    /// The picture's width (px); its height follows from the panels.
    public var width: Pixels
    /// Top to bottom; the x tick labels are under the last.
    public var panels: [Panel]

    /// A chart; see the properties for each argument. `width` is in pixels.
    public init(title: String, notes: [String] = [], xLabel: String, xRange: ClosedRange<Double>? = nil, width: Pixels = 960,
                panels: [Panel] = []) {
        self.title = title; self.notes = notes; self.xLabel = xLabel; self.xRange = xRange; self.width = width; self.panels = panels
    }

    static let left = 80.0, right = 28.0, legendLine = 17.0, panelGap = 16.0

    /// The x range drawn: `xRange`, or the finite extent of every series, span and mark.
    public var resolvedXRange: ClosedRange<Double> {
        if let r = xRange, r.lowerBound.isFinite, r.upperBound.isFinite, r.upperBound > r.lowerBound { return r }
        var lo = Double.infinity, hi = -Double.infinity
        for p in panels {
            for l in p.lines { for x in l.xs where x.isFinite { lo = min(lo, x); hi = max(hi, x) } }
            for s in p.spans { for i in s.intervals where i.start.isFinite && i.end.isFinite { lo = min(lo, i.start); hi = max(hi, i.end) } }
        }
        guard lo.isFinite, hi > lo else { return lo.isFinite ? lo...(lo + 1) : 0...1 }
        return lo...hi
    }

    /// The picture as an SVG document.
    public func svg() -> String { draw().render(title: title) }

    /// The picture, to be rendered or stacked with others; `idPrefix` keeps its ids apart.
    public func draw(idPrefix: String = "") -> SVGDocument {
        let plotW = width - Self.left - Self.right
        let xr = resolvedXRange
        let xTicks = Ticks(xr.lowerBound, xr.upperBound, target: max(4, Int(plotW / 90)))
        // Ticks outside the range are not drawn; the axis spans exactly the range asked for.
        let x0 = xr.lowerBound, x1 = xr.upperBound
        func px(_ x: Double) -> Double { Self.left + (x - x0) / (x1 - x0) * plotW }
        let legendRows = panels.map { LegendLayout.rows(Self.legendItems($0), width: plotW) }
        var height = 36.0 + Double(notes.count) * 15 + 8
        for (k, p) in panels.enumerated() { height += Double(legendRows[k].count) * Self.legendLine + p.height + Self.panelGap }
        height += 44
        var doc = SVGDocument(width: width, height: height, idPrefix: idPrefix)
        doc.hatch(id: "gap-hatch", color: Palette.grey)
        doc.text(width / 2, 24, title, anchor: .middle, size: 16, bold: true, cls: "title")
        var y = 36.0
        for n in notes { y += 15; doc.text(width / 2, y, n, anchor: .middle, size: 11, fill: "#444444", cls: "note") }
        y += 8
        for (k, p) in panels.enumerated() {
            // Legend rows above the panel.
            doc.begin(cls: "legend")
            for row in legendRows[k] {
                y += Self.legendLine
                for placed in row { Self.drawLegendItem(placed.item, x: Self.left + placed.x, y: y - 4, doc: &doc) }
            }
            doc.end()
            let top = y + 4, h = p.height
            drawPanel(p, index: k, top: top, height: h, plotW: plotW, xTicks: xTicks, px: px, doc: &doc,
                      bottomAxis: k == panels.count - 1, x0: x0, x1: x1)
            y = top + h + Self.panelGap
        }
        doc.text(Self.left + plotW / 2, height - 10, xLabel, anchor: .middle, cls: "axis-title")
        return doc
    }

    func drawPanel(_ p: Panel, index k: Int, top: Double, height h: Double, plotW: Double, xTicks: Ticks, px: (Double) -> Double,
                   doc: inout SVGDocument, bottomAxis: Bool, x0: Double, x1: Double) {
        // The y range: fixed, or from the lines' values inside the x range.
        var lo = Double.infinity, hi = -Double.infinity
        if let r = p.yRange { lo = r.lowerBound; hi = r.upperBound } else {
            for l in p.lines {
                for i in l.xs.indices where i < l.ys.count && l.ys[i].isFinite && l.xs[i] >= x0 && l.xs[i] <= x1 {
                    lo = min(lo, l.ys[i]); hi = max(hi, l.ys[i])
                }
            }
            if p.includeZero && lo.isFinite { lo = min(lo, 0); hi = max(hi, 0) }
        }
        let hasData = lo.isFinite && hi.isFinite
        let yTicks = p.yRange != nil ? Ticks(lo, hi, target: 4) : (hasData ? Ticks(lo, hi, target: 4) : Ticks(0, 1))
        let y0 = p.yRange?.lowerBound ?? yTicks.lower, y1 = p.yRange?.upperBound ?? yTicks.upper
        func py(_ v: Double) -> Double { top + h - (v - y0) / (y1 - y0) * h }
        let clip = "clip-\(k)"
        doc.clipRect(id: clip, Self.left, top, plotW, h)
        // Grid and axes.
        doc.begin(cls: "axis y-axis")
        for t in yTicks.values where t >= y0 - 1e-9 * abs(y1 - y0) && t <= y1 + 1e-9 * abs(y1 - y0) {
            doc.line(Self.left, py(t), Self.left + plotW, py(t), stroke: "#e3e3e3")
            doc.line(Self.left - 5, py(t), Self.left, py(t), stroke: "#000000")
            doc.text(Self.left - 8, py(t) + 4, yTicks.label(t), anchor: .end, size: 11)
        }
        doc.text(18, top + h / 2, p.yLabel, anchor: .middle, rotate: -90, cls: "axis-title")
        doc.end()
        doc.begin(cls: "axis x-axis")
        for t in xTicks.values where t >= x0 - 1e-9 * (x1 - x0) && t <= x1 + 1e-9 * (x1 - x0) {
            doc.line(px(t), top, px(t), top + h, stroke: "#eeeeee")
            doc.line(px(t), top + h, px(t), top + h + 5, stroke: "#000000")
            if bottomAxis { doc.text(px(t), top + h + 18, xTicks.label(t), anchor: .middle, size: 11) }
        }
        doc.end()
        // Spans under the lines.
        doc.begin(cls: "spans", clip: clip)
        for s in p.spans {
            let yt = top + h * s.band.top, yb = top + h * s.band.bottom
            for (i, iv) in s.intervals.enumerated() where iv.start.isFinite && iv.end.isFinite && iv.end > x0 && iv.start < x1 {
                let a = px(max(iv.start, x0)), b = px(min(iv.end, x1))
                let label = i < s.labels.count ? s.labels[i] : nil
                doc.rect(a, yt, max(b - a, 0.8), yb - yt, fill: s.hatched ? doc.ref("gap-hatch") : s.color, opacity: s.hatched ? nil : s.opacity,
                         cls: "span", title: label ?? s.name)
                if let label, Double(label.count) * 6.2 + 6 < b - a {
                    doc.text((a + b) / 2, yt + 12, label, anchor: .middle, size: 10, fill: "#222222", cls: "span-label")
                }
            }
        }
        doc.end()
        if !hasData && p.lines.contains(where: { !$0.xs.isEmpty }) || (!hasData && p.spans.isEmpty && p.marks.isEmpty) {
            doc.text(Self.left + plotW / 2, top + h / 2, "no data", anchor: .middle, fill: "#666666", cls: "no-data")
        }
        // Lines.
        doc.begin(cls: "series", clip: clip)
        if hasData {
            for l in p.lines {
                let d = Self.pathData(l, x0: x0, x1: x1, plotW: plotW, px: px, py: py, floorY: py(max(y0, min(0, y1))))
                if l.filled, !d.area.isEmpty { doc.path(d.area.text, stroke: "none", fill: l.color + "55", cls: "area") }
                doc.path(d.line.text, stroke: l.color, width: l.width, dash: l.dashed ? "5,3" : nil, cls: "line")
            }
        }
        doc.end()
        // Marks over the lines. Labels and latency bars take the lowest free row, so that
        // events close together (a resume and its retraction) stay readable.
        var labelRows: [[(Double, Double)]] = [], barRows: [[(Double, Double)]] = []
        func row(_ rows: inout [[(Double, Double)]], _ a: Double, _ b: Double, limit: Int) -> Int {
            for r in rows.indices where !rows[r].contains(where: { $0.0 < b + 4 && $0.1 > a - 4 }) { rows[r].append((a, b)); return r }
            if rows.count < limit { rows.append([(a, b)]); return rows.count - 1 }
            return rows.count - 1
        }
        doc.begin(cls: "marks", clip: clip)
        for m in p.marks {
            let showLabels = m.labels.count == m.xs.count && m.xs.filter({ $0 >= x0 && $0 <= x1 }).count <= 40
            for (i, x) in m.xs.enumerated() where x.isFinite && x >= x0 && x <= x1 {
                let xp = px(x)
                switch m.style {
                case .top: doc.line(xp, top, xp, top + 10, stroke: m.color, width: 1.4, cls: "tick")
                case .bottom: doc.line(xp, top + h - 10, xp, top + h, stroke: m.color, width: 1.4, cls: "tick")
                case .across: doc.line(xp, top, xp, top + h, stroke: m.color, width: 1.1, dash: "4,3", cls: "event")
                }
                if i < m.ends.count, m.ends[i].isFinite {
                    let e = px(min(max(m.ends[i], x0), x1))
                    let yb = top + 14 + Double(row(&barRows, min(xp, e), max(xp, e), limit: 4)) * 7
                    doc.line(xp, yb, e, yb, stroke: m.color, width: 2.4, cls: "latency")
                    doc.line(e, yb - 3, e, yb + 3, stroke: m.color, width: 1.4, cls: "latency")
                }
                if showLabels {
                    // Right of the mark, or left of it when it would run past the frame.
                    let w = Double(m.labels[i].count) * 6
                    let leftward = xp + 3 + w > Self.left + plotW
                    let a = leftward ? xp - 3 - w : xp + 3
                    let r = row(&labelRows, a, a + w, limit: max(1, Int(h / 2 / 13)))
                    doc.text(leftward ? xp - 3 : xp + 3, top + h - 4 - Double(r) * 13, m.labels[i], anchor: leftward ? .end : .start, size: 10,
                             fill: m.color, cls: "mark-label")
                }
            }
        }
        doc.end()
        doc.rect(Self.left, top, plotW, h, fill: "none", stroke: "#000000", cls: "frame")
    }

    /// The line (and area under it) in pixels. Runs between gaps are kept apart; a run with
    /// more points than 3 per pixel column is thinned to each column's first, lowest, highest
    /// and last point (in x order), which keeps every peak.
    static func pathData(_ l: LineSeries, x0: Double, x1: Double, plotW: Double, px: (Double) -> Double, py: (Double) -> Double,
                         floorY: Double) -> (line: PathData, area: PathData) {
        var line = PathData(), area = PathData()
        let n = min(l.xs.count, l.ys.count)
        let span = x1 - x0
        var run: [(Double, Double)] = []
        func flush() {
            guard !run.isEmpty else { return }
            var pts = run
            if pts.count > Int(plotW) * 3 {
                var thinned: [(Double, Double)] = []
                var col = -1, first = 0, lo = 0, hi = 0, last = 0
                func emit() {
                    guard col >= 0 else { return }
                    for j in Set([first, lo, hi, last]).sorted() { thinned.append(pts[j]) }
                }
                for j in pts.indices {
                    // The column, clamped: points just outside the range share the edge columns.
                    let c = Int(min(max((pts[j].0 - x0) / span * plotW, -1), plotW + 1))
                    if c != col { emit(); col = c; first = j; lo = j; hi = j }
                    if pts[j].1 < pts[lo].1 { lo = j }
                    if pts[j].1 > pts[hi].1 { hi = j }
                    last = j
                }
                emit()
                pts = thinned
            }
            line.breakLine()
            for (x, y) in pts { line.lineTo(px(x), py(y)) }
            if l.filled, let f = pts.first, let z = pts.last {
                area.move(px(f.0), floorY)
                for (x, y) in pts { area.lineTo(px(x), py(y)) }
                area.lineTo(px(z.0), floorY); area.close()
            }
            run.removeAll(keepingCapacity: true)
        }
        var prevX = -Double.infinity
        for i in 0..<n {
            let x = l.xs[i], y = l.ys[i]
            guard x.isFinite, y.isFinite else {
                // A stepped value holds until the next x, even when the next has no value.
                if l.stepped, x.isFinite, x <= x1 || prevX <= x1, let last = run.last, last.0 < x { run.append((x, last.1)) }
                flush(); prevX = -Double.infinity; continue
            }
            if let g = l.maxGap, x - prevX > g { flush() }
            // Points just outside the range keep the line running to the edge (clipped).
            if x < x0 || x > x1 {
                let next = i + 1 < n ? l.xs[i + 1] : x
                let prev = i > 0 ? l.xs[i - 1] : x
                if !(x < x0 && next >= x0) && !(x > x1 && prev <= x1) { flush(); prevX = x; continue }
            }
            if l.stepped, let last = run.last, last.0 < x { run.append((x, last.1)) }
            run.append((x, y))
            prevX = x
        }
        flush()
        return (line, area)
    }

    // MARK: Legend

    enum LegendItem {
        case line(String, String, dashed: Bool), span(String, String, hatched: Bool), mark(String, String)
        var name: String {
            switch self { case .line(let n, _, _), .span(let n, _, _), .mark(let n, _): n }
        }
    }

    static func legendItems(_ p: Panel) -> [LegendItem] {
        var out: [LegendItem] = []
        for l in p.lines where !l.name.isEmpty { out.append(.line(l.name, l.color, dashed: l.dashed)) }
        for m in p.marks where !m.name.isEmpty { out.append(.mark(m.name, m.color)) }
        for s in p.spans where !s.name.isEmpty { out.append(.span(s.name, s.color, hatched: s.hatched)) }
        return out
    }

    static func drawLegendItem(_ item: LegendItem, x: Double, y: Double, doc: inout SVGDocument) {
        switch item {
        case .line(let n, let c, let dashed):
            doc.line(x, y, x + 18, y, stroke: c, width: 2.2, dash: dashed ? "5,3" : nil)
            doc.text(x + 23, y + 4, n, size: 11)
        case .span(let n, let c, let hatched):
            doc.rect(x, y - 6, 18, 12, fill: hatched ? doc.ref("gap-hatch") : c, opacity: hatched ? nil : 0.35, stroke: hatched ? Palette.grey : nil)
            doc.text(x + 23, y + 4, n, size: 11)
        case .mark(let n, let c):
            doc.line(x + 9, y - 7, x + 9, y + 7, stroke: c, width: 2)
            doc.text(x + 23, y + 4, n, size: 11)
        }
    }

    enum LegendLayout {
        struct Placed { var item: LegendItem; var x: Double }
        /// Items left to right, wrapping at `width`; text width is estimated from its length.
        static func rows(_ items: [LegendItem], width: Double) -> [[Placed]] {
            var rows: [[Placed]] = [], row: [Placed] = [], x = 0.0
            for it in items {
                let w = 23 + Double(it.name.count) * 6.4 + 18
                if x + w > width && !row.isEmpty { rows.append(row); row = []; x = 0 }
                row.append(Placed(item: it, x: x)); x += w
            }
            if !row.isEmpty { rows.append(row) }
            return rows
        }
    }
}
