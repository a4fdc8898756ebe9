import Testing
@testable import MotusPlot

/// The report page: every text escaped, pictures inline and well formed, nothing fetched.
@Suite struct HTMLPageTests {
    @Test func everyTextIsEscaped() {
        let evil = "<script>alert('x')</script> & \"q\""
        var page = HTMLPage(title: evil, subtitle: [evil])
        page.heading(evil, id: "a\"b")
        page.paragraph(evil)
        page.list([evil])
        page.table([[evil, "n"], [evil, "1"]], caption: evil)
        page.keyValues([(evil, evil)], caption: evil)
        let html = page.render()
        #expect(!html.contains("<script"))
        #expect(!html.contains("'x'") && !html.contains("\"q\""))
        #expect(html.contains("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; &quot;q&quot;"))
        #expect(html.contains("<h2 id=\"a&quot;b\">"))
        // Control characters cannot reach the page either.
        var p2 = HTMLPage(title: "a\u{1B}b")
        p2.paragraph("c\u{07}d")
        #expect(p2.render().contains("a\u{FFFD}b") && p2.render().contains("c\u{FFFD}d"))
    }

    @Test func figuresAlignRightAndTextLeft() {
        var page = HTMLPage(title: "p")
        page.table([["recording", "placement", "error %", "outside", "at"],
                    ["a", "lower-back", "-3.17", "0/12", "0:14"],
                    ["b", "wrist", "-", "-", "1:02:03"]])
        let html = page.render()
        #expect(html.contains("<tr><td>a</td><td>lower-back</td><td class=\"num\">-3.17</td><td class=\"num\">0/12</td><td class=\"num\">0:14</td></tr>"))
        #expect(html.contains("<th>placement</th><th class=\"num\">error %</th>"))
        // A column of nothing but "-" is not a figure column.
        var p2 = HTMLPage(title: "p")
        p2.table([["a", "b"], ["x", "-"]])
        #expect(p2.render().contains("<td>x</td><td>-</td>"))
    }

    @Test func picturesAreInlineAndWellFormed() throws {
        let chart = Chart(title: "t <1>", xLabel: "time (s)", panels: [
            Panel(yLabel: "y (m)", lines: [LineSeries(name: "line", color: Palette.blue, xs: [0, 1, 2], ys: [0, 1, 0])]),
        ])
        var page = HTMLPage(title: "p")
        page.figure(chart.draw(idPrefix: "one-"), title: "first <figure>", caption: "a & b")
        page.figure(chart.draw(idPrefix: "two-"), title: "second")
        #expect(page.figureCount == 2)
        let html = page.render()
        #expect(html.hasPrefix("<!DOCTYPE html>\n") && html.hasSuffix("</html>\n"))
        #expect(!html.contains("<?xml"))
        #expect(html.components(separatedBy: "<svg ").count == 3)
        #expect(html.contains("<figure class=\"figure\" id=\"figure-1\">") && html.contains("id=\"figure-2\""))
        #expect(html.contains("aria-label=\"first &lt;figure&gt;\"") && html.contains("<figcaption>a &amp; b</figcaption>"))
        // Each picture keeps its own ids, so one page never holds two clip paths of one name.
        #expect(html.contains("id=\"one-") && html.contains("id=\"two-"))
        // The element alone is well-formed XML with the chart's axes.
        let elements = try checkXML(chart.draw(idPrefix: "one-").inlineElement(title: "x"))
        #expect(elements.first?.name == "svg")
        #expect(elements.contains { $0.classes.contains("y-axis") })
    }

    @Test func thePageFetchesNothing() {
        var page = HTMLPage(title: "p")
        page.figure(SVGDocument(width: 10, height: 10), title: "empty")
        let html = page.render()
        // The policy refuses every fetch; nothing in the page names another resource.
        #expect(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""))
        for attribute in ["src=", "href=", "@import", "url(http", "<script", "<link"] { #expect(!html.contains(attribute), "\(attribute)") }
    }
}
