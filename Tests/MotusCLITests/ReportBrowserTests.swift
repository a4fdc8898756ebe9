import Testing
import Foundation

/// `motus report`'s page loaded in a real browser (headless Chromium): it renders with an
/// empty console, its DOM holds the pictures as SVG, and the screenshot shows them. CI
/// installs Debian's `chromium`; without it these tests are skipped and say so.
@Suite(.serialized) struct ReportBrowserTests {
    static let browser = HeadlessBrowser.path

    /// CI sets MOTUS_REQUIRE_BROWSER: there a missing browser is a failure, not a skip.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MOTUS_REQUIRE_BROWSER"] != nil, "MOTUS_REQUIRE_BROWSER not set: a missing browser skips the tests below"))
    func theBrowserIsThereWhenRequired() {
        #expect(Self.browser != nil, "MOTUS_REQUIRE_BROWSER is set but no chromium was found on the PATH (or in MOTUS_CHROMIUM)")
    }

    static func folder() -> String {
        let d = NSTemporaryDirectory() + "motus-report-browser-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    /// Loads `page` twice: the DOM after parsing, then a screenshot `width`×`height`.
    static func load(_ page: String, width: Int = 1200, height: Int) throws -> (dom: HeadlessBrowser.Result, shot: HeadlessBrowser.Result, png: PNGImage) {
        let dom = try HeadlessBrowser.run(page, ["--dump-dom"])
        let png = page + ".png"
        let shot = try HeadlessBrowser.run(page, ["--screenshot=\(png)", "--window-size=\(width),\(height)"])
        let image = try PNGImage(Array(try Data(contentsOf: URL(fileURLWithPath: png))))
        return (dom, shot, image)
    }

    static func count(_ s: String, _ of: String) -> Int { s.components(separatedBy: of).count - 1 }

    @Test(.enabled(if: browser != nil, "chromium not found (Debian: apt-get install chromium; or set MOTUS_CHROMIUM): the report page is not checked in a browser"))
    func aRecordingsPageRendersWithItsPicture() throws {
        let page = Self.folder() + "/walk.html"
        let r = try CLI.run(["report", "datasets/lowback-straight-walk.motus", "--out", page])
        #expect(r.status == 0, "\(r.stderr)")
        let (dom, shot, png) = try Self.load(page, height: 2600)
        #expect(dom.status == 0 && shot.status == 0, "\(shot.stderr.suffix(2000))")
        #expect(dom.console.isEmpty, "console: \(dom.console)")
        #expect(shot.console.isEmpty, "console: \(shot.console)")
        // The DOM the browser built: the tables, and the picture as SVG with its four panels.
        let d = dom.stdout
        #expect(d.contains("<h1>lowback-straight-walk.motus</h1>") && d.contains("<caption>Streams (motus inspect)</caption>"))
        #expect(Self.count(d, "<svg ") == 1 && Self.count(d, "class=\"axis y-axis\"") == 4, "\(d.prefix(400))")
        #expect(d.contains("steps (reference, 9)"))
        // The screenshot: as large as asked, not blank, and the picture drawn in colour
        // (the page's text and tables are grey).
        #expect(png.width == 1200 && png.height == 2600)
        #expect(png.inkedPixels > 20_000, "\(png.inkedPixels) inked pixels")
        #expect(png.colouredPixels > 10_000, "\(png.colouredPixels) coloured pixels")
    }

    @Test(.enabled(if: browser != nil, "chromium not found (Debian: apt-get install chromium; or set MOTUS_CHROMIUM): the report page is not checked in a browser"))
    func aDatasetsPageRendersWithItsPictures() throws {
        let page = Self.folder() + "/bundled.html"
        let r = try CLI.run(["report", "datasets", "--out", page])
        #expect(r.status == 0, "\(r.stderr)")
        let (dom, shot, png) = try Self.load(page, height: 1400)
        #expect(dom.console.isEmpty && shot.console.isEmpty, "console: \(dom.console + shot.console)")
        #expect(Self.count(dom.stdout, "<svg ") == 2 && dom.stdout.contains("Steps counted and true, per recording"))
        #expect(dom.stdout.contains("<h2 id=\"skipped\">Not scored</h2>"))
        #expect(png.colouredPixels > 2_000, "\(png.colouredPixels) coloured pixels")
    }

    /// The checks above can fail: a page that fetches an image is refused by the report's
    /// policy and shows in the console, and a page without pictures has no coloured pixels.
    @Test(.enabled(if: browser != nil, "chromium not found (Debian: apt-get install chromium; or set MOTUS_CHROMIUM): the report page is not checked in a browser"))
    func theChecksSeeAFetchAndAMissingPicture() throws {
        let dir = Self.folder()
        let report = dir + "/walk.html"
        #expect(try CLI.run(["report", "datasets/lowback-straight-walk.motus", "--out", report]).status == 0)
        let html = try String(contentsOfFile: report, encoding: .utf8)
        let fetching = dir + "/fetching.html"
        try html.replacingOccurrences(of: "<main>", with: "<main><img src=\"https://example.invalid/logo.png\" alt=\"\">")
            .write(toFile: fetching, atomically: true, encoding: .utf8)
        let f = try HeadlessBrowser.run(fetching, ["--dump-dom"])
        #expect(f.console.contains { $0.contains("example.invalid") && $0.contains("Content Security Policy") }, "\(f.stderr.suffix(1500))")
        // The same page with its picture cut out.
        guard let a = html.range(of: "<figure"), let b = html.range(of: "</figure>") else { Issue.record("no figure in the page"); return }
        let bare = dir + "/bare.html"
        try (String(html[..<a.lowerBound]) + String(html[b.upperBound...])).write(toFile: bare, atomically: true, encoding: .utf8)
        let (dom, _, png) = try Self.load(bare, height: 2600)
        #expect(dom.console.isEmpty && Self.count(dom.stdout, "<svg ") == 0)
        #expect(png.inkedPixels > 5_000 && png.colouredPixels < 100, "\(png.inkedPixels) inked, \(png.colouredPixels) coloured")
    }
}
