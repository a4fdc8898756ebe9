import Testing
import MotusTestSupport
@testable import MotusPlot

@Suite struct DrawingTests {
    @Test func ticksAreRoundAndCoverTheRange() {
        let t = Ticks(0.3, 9.7)
        #expect(t.values == [0, 2, 4, 6, 8, 10])
        #expect(t.label(4) == "4")
        let f = Ticks(-0.013, 0.041, target: 4)
        #expect(f.lower <= -0.013 && f.upper >= 0.041)
        #expect(f.step == 0.01 && f.decimals == 2)
        #expect(f.label(-0.02) == "-0.02")
        #expect(Ticks(0, 0.7, target: 7).values.contains(0.6))
        #expect(Ticks(5, 5).values.count >= 2)
        #expect(Ticks(.nan, 3).values == [0, 0.2, 0.4, 0.6, 0.8, 1])
        #expect(Ticks(0, 1e300).values.count <= 50)
    }

    @Test func numbersAreFixedPoint() {
        #expect(num(1.25, 1) == "1.3" || num(1.25, 1) == "1.2")
        #expect(num(-0.04, 1) == "0")
        #expect(num(12, 2) == "12")
        #expect(num(-3.5, 2) == "-3.5")
        #expect(num(.nan) == "0")
    }

    @Test func textIsEscaped() throws {
        #expect(escapeXML("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;")
        #expect(escapeXML("x\u{1}y\u{FFFF}") == "x\u{FFFD}y\u{FFFD}")
        let c = Chart(title: "walk <1> & \"2\"\u{7}", xLabel: "time (s)",
                      panels: [Panel(yLabel: "a&b", lines: [LineSeries(name: "<s>", color: Palette.blue, xs: [0, 1], ys: [1, 2])])])
        let svg = c.svg()
        #expect(svg.contains(">walk &lt;1&gt; &amp; &quot;2&quot;\u{FFFD}</text>"))
        let els = try checkXML(svg)
        #expect(els.texts.contains("walk <1> & \"2\"\u{FFFD}") && els.texts.contains("a&b") && els.texts.contains("<s>"))
    }

    @Test func gapsAreGapsAndTheLegendNamesEverySeries() throws {
        let xs: [Double] = [0, 1, 2, 3, 10, 11, 12, 13, 14]
        let ys: [Double] = [1, 2, 1, .nan, 2, 3, 2, 3, 1]
        let c = Chart(title: "gaps", xLabel: "x (s)", panels: [
            Panel(yLabel: "y (m)", lines: [LineSeries(name: "signal", color: Palette.blue, xs: xs, ys: ys, maxGap: 2)],
                  spans: [SpanSeries(name: "gap", color: Palette.grey, intervals: [(3, 10)], hatched: true)],
                  marks: [MarkSeries(name: "event", color: Palette.vermillion, xs: [1, 12], style: .across, ends: [2, .nan], labels: ["a", "b"])]),
        ])
        let svg = c.svg()
        let els = try checkXML(svg)
        let lines = els.withClass("line")
        #expect(lines.count == 1)
        // NaN at x = 3 and the step from 3 to 10 (> 2) end the line: two pieces.
        #expect(lines[0].attributes["d"]?.filter { $0 == "M" }.count == 2)
        #expect(els.withClass("legend").count == 1)
        #expect(els.texts.contains("signal") && els.texts.contains("gap") && els.texts.contains("event"))
        #expect(els.withClass("event").count == 2)
        #expect(els.withClass("latency").count == 2)
        #expect(els.withClass("x-axis").count == 1 && els.withClass("y-axis").count == 1)
        #expect(els.texts.contains("x (s)") && els.texts.contains("y (m)"))
        #expect(svg == c.svg())
    }

    @Test func longSeriesAreThinnedKeepingPeaks() throws {
        let n = 100_000
        var ys = [Double](repeating: 0, count: n)
        ys[54_321] = 50
        ys[77_777] = -20
        let xs = (0..<n).map(Double.init)
        let c = Chart(title: "thin", xLabel: "t (s)", width: 600, panels: [Panel(yLabel: "y", lines: [LineSeries(name: "y", color: Palette.blue, xs: xs, ys: ys)])])
        let els = try checkXML(c.svg())
        let d = try #require(els.withClass("line").first?.attributes["d"])
        #expect(d.filter { $0 == "L" }.count < 4 * 600)
        let tickTexts = els.withClass("y-axis").count
        #expect(tickTexts == 1)
        // The peaks set the y range: ticks from -20 to 60 hold -20 and 50.
        #expect(els.texts.contains("60") && els.texts.contains("-20"))
    }

    @Test func rowAndMatrixChartsAreWellFormed() throws {
        let r = RowChart(title: "rows", xLabel: "steps", rows: ["a", "b&c"], series: [
            .init(name: "true", color: Palette.black, values: [10, 20], style: .dot),
            .init(name: "counted", color: Palette.blue, values: [11, .nan], style: .bar),
        ], rowNotes: ["+10 %", "-"])
        let e = try checkXML(r.svg())
        #expect(e.withClass("bar").count == 1 && e.withClass("dot").count == 2)
        #expect(e.texts.contains("b&c"))
        let m = MatrixChart(title: "cm", rowTitle: "true", columnTitle: "predicted", labels: ["still", "moving"], counts: [[9, 1], [0, 0]])
        let me = try checkXML(m.svg())
        #expect(me.withClass("cell").count == 4)
        #expect(me.texts.contains("90 %") && me.texts.contains("-"))
    }
}

@Suite struct AwkwardValueTests {
    /// Whatever the values (NaN, infinities, 1e300, subnormals, a single point, nothing), the
    /// picture is well formed, finite and drawn in bounded time.
    @Test func anyValuesGiveAWellFormedPicture() throws {
        var g = SplitMix64(seed: 22)
        let awkward: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, .leastNonzeroMagnitude, 0, -0.0, 1, 1e-300, 42]
        for round in 0..<60 {
            let n = Int(g.next() % 50)
            var xs: [Double] = [], ys: [Double] = []
            for i in 0..<n {
                let pick = g.next() % 4
                xs.append(pick == 0 ? awkward[Int(g.next() % UInt64(awkward.count))] : Double(i))
                ys.append(pick == 1 ? awkward[Int(g.next() % UInt64(awkward.count))] : Double(g.next() % 1000) / 10)
            }
            let span = SpanSeries(name: "s", color: Palette.grey, intervals: [(xs.first ?? 0, xs.last ?? 1), (.nan, 3)], labels: ["a"], hatched: round % 2 == 0)
            let marks = MarkSeries(name: "m", color: Palette.black, xs: xs, style: .across, ends: ys, labels: xs.map { _ in "e" })
            let range: ClosedRange<Double>? = round % 3 == 0 ? 2...7 : nil
            let c = Chart(title: "round \(round)", xLabel: "x", xRange: range, panels: [
                Panel(yLabel: "y", lines: [LineSeries(name: "l", color: Palette.blue, xs: xs, ys: ys, maxGap: round % 2 == 0 ? 3 : nil,
                                                     stepped: round % 4 == 1, filled: round % 5 == 2)],
                      spans: [span], marks: [marks]),
                Panel(yLabel: "empty"),
            ])
            let svg = c.svg()
            _ = try checkXML(svg)
            #expect(!svg.contains("nan") && !svg.contains("inf"), "round \(round)")
            let r = RowChart(title: "rows", xLabel: "v", rows: xs.map { "\($0)" }, series: [.init(name: "v", color: Palette.blue, values: ys, style: .bar)])
            _ = try checkXML(r.svg())
        }
        for (lo, hi) in [(-1e300, 1e300), (-Double.greatestFiniteMagnitude, .greatestFiniteMagnitude), (Double.leastNonzeroMagnitude, 2 * Double.leastNonzeroMagnitude), (1, 1 + 1e-15), (0, 0)] {
            let t = Ticks(lo, hi)
            #expect(t.values.count >= 2 && t.values.count <= 50 && t.values.allSatisfy(\.isFinite) && t.lower < t.upper, "\(lo)…\(hi)")
        }
    }
}

@Suite struct SteppedLineTests {
    /// A stepped value holds to the next x, also when that x has no value (the last bin of a
    /// profile, a bin left out): the line reaches it.
    @Test func aSteppedValueHoldsToTheNextX() throws {
        let c = Chart(title: "steps", xLabel: "d (km)", xRange: 0...4, width: 480, panels: [
            Panel(yLabel: "g (%)", yRange: 0...10, lines: [LineSeries(name: "g", color: Palette.orange, xs: [0, 1, 2, 3, 4], ys: [5, 10, .nan, 5, .nan], stepped: true)]),
        ])
        let els = try checkXML(c.svg())
        let d = try #require(els.withClass("line").first?.attributes["d"])
        // Two pieces: 0→2 (5 then 10, held to x = 2) and 3→4 (5 held to x = 4).
        let pieces = d.split(separator: "M")
        #expect(pieces.count == 2)
        let left = Chart.left, w = 480 - Chart.left - Chart.right
        func x(_ v: Double) -> String { num(left + v / 4 * w) }
        #expect(pieces[0].contains("L\(x(2)),") && !pieces[0].contains("L\(x(3)),"))
        #expect(pieces[1].contains("L\(x(4)),"))
    }
}
