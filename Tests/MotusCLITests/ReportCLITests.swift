import Testing
import Foundation
import MotusIO

/// `motus report`, run as a user runs it: the page for a recording and for a folder, its
/// errors, and what it leaves on disk.
@Suite(.serialized) struct ReportCLITests {
    static let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root)

    static func folder() -> String {
        let d = NSTemporaryDirectory() + "motus-report-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    static func page(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test func aRecordingHasItsTablesAndPicture() throws {
        let dir = Self.folder(), out = dir + "/new/walk.html"
        let r = try CLI.run(["report", "datasets/lowback-straight-walk.motus", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "motus: wrote \(out) (recording; 1 picture)\n")
        #expect(r.stdout.isEmpty)
        let html = Self.page(out)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        // inspect's streams and metadata, track's summary and events, plot's picture.
        #expect(html.contains("<caption>Streams (motus inspect)</caption>") && html.contains("<td>acc</td>") && html.contains(">1450</td>"))
        #expect(html.contains("<th scope=\"row\">subject</th><td>MS/001</td>"))
        #expect(html.contains("<th scope=\"row\">steps</th><td>10</td>"))
        #expect(html.contains(">firstSteps</td>") && html.contains(">stillness</td>"))
        #expect(html.components(separatedBy: "<svg ").count == 2)
        #expect(html.contains("steps (reference, 9)") && html.contains("class=\"axis y-axis\""))
        // Quotes in the metadata are escaped, and the page fetches nothing.
        #expect(html.contains("Test5 &quot;Straight Walk Comfortable&quot;"))
        #expect(!html.contains("src=") && !html.contains("<script") && !html.contains("<link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/new") == ["walk.html"])
        // The summary is the one `motus track` prints (same session).
        let t = try CLI.run(["track", "datasets/lowback-straight-walk.motus", "--format", "json"])
        #expect(t.stdout.contains("\"steps\" : 10"))
    }

    @Test func aFolderHasTheEvaluationsItHasTruthForAndSaysWhyNot() throws {
        let out = Self.folder() + "/bundled.html"
        let r = try CLI.run(["report", "datasets", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("report: 1/4 recordings\n") && r.stderr.contains("report: 4/4 recordings\n"))
        #expect(r.stderr.hasSuffix("motus: wrote \(out) (4 recordings: steps 2, classifier 2, pause/resume 2, fusion 0, not scored 2; 2 pictures)\n"), "\(r.stderr)")
        let html = Self.page(out)
        // The shipped model's map names the lower-back recordings' walk and still labels: both are
        // scored by the classifier too. evaluate-steps' figures (live): 9 of 9, and 61 of 63 inside
        // the reference's six walking bouts (the pedometer confirms the short walks late; the
        // live check counts them from the vertical peaks after rest).
        #expect(html.contains("<td>lowback-straight-walk.motus</td><td>lower-back</td><td class=\"num\">9</td><td class=\"num\">9</td>"))
        #expect(html.contains("<td>lowback-daily-activities.motus</td><td>lower-back</td><td class=\"num\">63</td><td class=\"num\">61</td>"))
        #expect(html.contains("Steps counted and true, per recording"))
        // The two lower-back walks have reference steps and no still label: their pauses are
        // judged against the steps (the daily activities' short walks pause once while the
        // reference steps go on, 1.3 s apart).
        #expect(html.contains("2 recordings with reference steps and no still label: judged for false pauses only"))
        #expect(html.contains("false pauses: 1 in 1 trials"))
        // Recordings without truth are listed with the reason of each evaluation.
        #expect(html.contains("<td>iphone-belt-stand-then-walk.motus</td><td>steps: no step events in its ground truth; classifier: no label the map names (moving=TURNING,WALKING,dws,jog,ups,walk,wlk still=SEATED,sit,std,still); pause/resume: no moving label, or neither a still label nor reference steps; fusion: "))
        #expect(html.contains("<td>mobgap/MS001_TimeMeasure1_Test5_Trial1.csv</td>"))
    }

    @Test func errorsAreOneLineAndLeaveNoFile() throws {
        let dir = Self.folder()
        let r = try CLI.run(["report", "datasets/lowback-straight-walk.motus", "--out", dir + "/walk.pdf"])
        #expect(r.status == 64 && r.stderr.contains("--out must name an .html file, not '\(dir)/walk.pdf'"))
        let r2 = try CLI.run(["report", dir + "/nothing.motus", "--out", dir + "/x.html"])
        #expect(r2.status == 1 && r2.stderr == "motus: \(dir)/nothing.motus: no such file or folder\n")
        let bad = CLI.temp("bad.motus", "#motus,1\n@stream,acc,acc,t_s,x_mps2,y_mps2,z_mps2\nacc,0,1,2,3\nacc,0.01,1,x,3\n")
        let r3 = try CLI.run(["report", bad, "--out", dir + "/bad.html"])
        #expect(r3.status == 1 && r3.stderr.hasPrefix("motus: \(bad):4:") && r3.stderr.split(separator: "\n").count == 1, "\(r3.stderr)")
        let r4 = try CLI.run(["report", "datasets/lowback-straight-walk.motus", "--map", "still=still", "--out", dir + "/m.html"])
        #expect(r4.status == 1 && r4.stderr.contains("--map applies to a dataset folder"))
        let r5 = try CLI.run(["report", "datasets", "--height", "1.7", "--out", dir + "/h.html"])
        #expect(r5.status == 1 && r5.stderr == "motus: --height applies to one recording, not to a dataset folder (datasets)\n")
        let gpx = CLI.temp("route.gpx", "<gpx></gpx>")
        let r6 = try CLI.run(["report", gpx, "--out", dir + "/g.html"])
        #expect(r6.status == 1 && r6.stderr.contains("a ride or route file, not a recording of motion sensors"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aNoticeIsSaidOnce() throws {
        let out = Self.folder() + "/mobgap.html"
        let r = try CLI.run(["report", "datasets/mobgap/MS001_TimeMeasure1_Test5_Trial1.csv", "--out", out])
        #expect(r.status == 0)
        #expect(r.stderr == "motus: datasets/mobgap/MS001_TimeMeasure1_Test5_Trial1.csv: left out columns: samples (Motus reads no stream from them)\nmotus: wrote \(out) (recording; 1 picture)\n")
    }

    @Test func labelsAndNamesFromTheFileAreEscaped() throws {
        let path = CLI.temp("<b>&walk.motus", """
            #motus,1
            @meta,subject,"<img src=x onerror=alert(1)>"
            @stream,acc,acc,t_s,x_mps2,y_mps2,z_mps2
            acc,0,0.1,0.2,9.8
            acc,0.01,0.1,0.2,9.8
            acc,0.02,0.1,0.2,9.8
            @label,0,0.02,"</td><script>x</script>"

            """)
        let out = Self.folder() + "/e.html"
        let r = try CLI.run(["report", path, "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let html = Self.page(out)
        #expect(html.contains("<title>&lt;b&gt;&amp;walk.motus</title>"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;") && html.contains("&lt;/td&gt;&lt;script&gt;x&lt;/script&gt;"))
        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("<b>"))
    }

    @Test(.enabled(if: shared != nil, "shared datasets absent: skipping the report on IPOL and BROAD"))
    func theSharedDatasetsGiveStepsPauseResumeAndFusion() throws {
        let ipol = Self.folder() + "/ipol.html"
        let map = ["--map", "moving=walk", "--map", "still=still"]
        let r = try CLI.run(["report", Self.shared! + "/ipol/voisard2023_ipol497", "--out", ipol] + map)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasSuffix("(41 recordings: steps 41, classifier 41, pause/resume 41, fusion 0, not scored 0; 2 pictures)\n"), "\(r.stderr)")
        let page = Self.page(ipol)
        #expect(page.contains("id=\"motion\">Pause and resume</h2>") && page.contains("id=\"classifier\">Moving or still (classifier)</h2>"))
        // The classifier's figures are `motus evaluate`'s on the same data and map.
        let ev = try CLI.run(["evaluate", Self.shared! + "/ipol/voisard2023_ipol497"] + map)
        let accuracy = ev.stdout.split(separator: "\n").first { $0.hasPrefix("accuracy ") }.map { $0.split(separator: " ") }
        #expect(accuracy != nil)
        if let a = accuracy, a.count > 5 {
            #expect(page.contains("accuracy \(a[1]) %, balanced accuracy \(a[5]) %"), "\(a)")
        }
        let broad = Self.folder() + "/broad.html"
        let b = try CLI.run(["report", Self.shared! + "/broad", "--out", broad])
        #expect(b.status == 0, "\(b.stderr)")
        #expect(b.stderr.hasSuffix("(15 recordings: steps 0, classifier 0, pause/resume 0, fusion 15, not scored 0; 1 picture)\n"), "\(b.stderr)")
        // The overall figures are evaluate-fusion's on BROAD (the CI bar: median <= 0.45°).
        let e = try CLI.run(["evaluate-fusion", Self.shared! + "/broad"])
        let all = e.stdout.split(separator: "\n").first { $0.hasPrefix("  all ") }.map { $0.split(separator: " ") }
        #expect(all.map { Array($0.prefix(3)) } == ["all", "468346", "0.40"], "\(e.stdout)")
        let html = Self.page(broad)
        #expect(html.contains("<td>overall</td><td class=\"num\">468346</td><td class=\"num\">0.40</td>"))
        #expect(html.contains("Gravity direction error over time"))
    }
}
