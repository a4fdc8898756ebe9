import Foundation
import MotusIO

/// Headless Chromium, run as CI runs it (Debian's `chromium` package): loads a page, prints
/// its DOM after parsing or screenshots it, with the page's console on stderr.
enum HeadlessBrowser {
    /// `MOTUS_CHROMIUM`, else the first of chromium, chromium-browser, google-chrome on the PATH.
    static let path: String? = {
        let env = ProcessInfo.processInfo.environment
        if let p = env["MOTUS_CHROMIUM"], FileManager.default.isExecutableFile(atPath: p) { return p }
        let dirs = (env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            for d in dirs where FileManager.default.isExecutableFile(atPath: "\(d)/\(name)") { return "\(d)/\(name)" }
        }
        return nil
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The page's console messages (Chromium logs each as a `CONSOLE` line with
        /// --enable-logging=stderr): script errors, refused fetches, resources that failed.
        var console: [String] { stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init) }
    }

    /// Runs the browser on `page` (a file) with `arguments`; stops it after `timeout` seconds.
    static func run(_ page: String, _ arguments: [String], timeout: Double = 120) throws -> Result {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        let scratch = NSTemporaryDirectory() + "motus-browser-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        // A profile of its own, so runs never share state; no sandbox (CI runs as root).
        p.arguments = ["--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--hide-scrollbars",
                       "--user-data-dir=\(scratch)/profile", "--enable-logging=stderr", "--v=0"]
            + arguments + [URL(fileURLWithPath: page).absoluteString]
        // Output to files, not pipes: a full pipe would stall the browser.
        let out = scratch + "/out", err = scratch + "/err"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try p.run()
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(50_000) }
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        func read(_ f: String) -> String { String(decoding: FileManager.default.contents(atPath: f) ?? Data(), as: UTF8.self) }
        return Result(status: p.terminationStatus, stdout: read(out), stderr: read(err))
    }
}

/// A PNG read back to pixels: 8-bit grey, grey + alpha, RGB or RGBA, not interlaced (what
/// Chromium writes). Enough to tell whether a screenshot shows anything.
struct PNGImage {
    var width: Int
    var height: Int
    /// RGB, 3 bytes per pixel, rows top to bottom.
    var rgb: [UInt8]

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(_ bytes: [UInt8]) throws {
        guard bytes.count > 8, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { throw Failure(description: "not a PNG") }
        func u32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        var i = 8, w = 0, h = 0, depth = 0, colorType = -1, interlace = 0
        var idat: [UInt8] = []
        while i + 12 <= bytes.count {
            let length = u32(i), type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            guard i + 12 + length <= bytes.count else { throw Failure(description: "chunk \(type) runs past the end") }
            let data = bytes[(i + 8)..<(i + 8 + length)]
            if type == "IHDR" {
                w = u32(i + 8); h = u32(i + 12); depth = Int(data[data.startIndex + 8]); colorType = Int(data[data.startIndex + 9])
                interlace = Int(data[data.startIndex + 12])
            } else if type == "IDAT" { idat += data } else if type == "IEND" { break }
            i += 12 + length
        }
        let channels: Int
        switch colorType { case 0: channels = 1; case 2: channels = 3; case 4: channels = 2; case 6: channels = 4
        default: throw Failure(description: "colour type \(colorType)") }
        guard depth == 8, interlace == 0, w > 0, h > 0 else { throw Failure(description: "depth \(depth), interlace \(interlace), \(w)×\(h)") }
        let raw = try Inflate.zlib(idat)
        let stride = w * channels
        guard raw.count >= h * (stride + 1) else { throw Failure(description: "\(raw.count) bytes of pixels for \(w)×\(h)") }
        // Undo each row's filter (PNG spec, 9.2): none, sub, up, average, Paeth.
        var px = [UInt8](repeating: 0, count: h * stride)
        for y in 0..<h {
            let f = raw[y * (stride + 1)], src = y * (stride + 1) + 1, row = y * stride
            for x in 0..<stride {
                let a = x >= channels ? Int(px[row + x - channels]) : 0
                let b = y > 0 ? Int(px[row - stride + x]) : 0
                let c = x >= channels && y > 0 ? Int(px[row - stride + x - channels]) : 0
                let predictor: Int
                switch f {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw Failure(description: "filter \(f) on row \(y)")
                }
                px[row + x] = UInt8((Int(raw[src + x]) + predictor) & 0xFF)
            }
        }
        width = w; height = h
        rgb = [UInt8](repeating: 0, count: w * h * 3)
        for k in 0..<(w * h) {
            let s = k * channels
            if channels >= 3 { rgb[3 * k] = px[s]; rgb[3 * k + 1] = px[s + 1]; rgb[3 * k + 2] = px[s + 2] }
            else { rgb[3 * k] = px[s]; rgb[3 * k + 1] = px[s]; rgb[3 * k + 2] = px[s] }
        }
    }

    /// Pixels darker than light grey (text, lines, bars): a blank page has none.
    var inkedPixels: Int {
        var n = 0
        for k in 0..<(width * height) where min(rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2]) < 200 { n += 1 }
        return n
    }

    /// Pixels with a clear hue (channels at least 60 apart): the report's text and tables are
    /// grey, so these come from its pictures.
    var colouredPixels: Int {
        var n = 0
        for k in 0..<(width * height) {
            let r = rgb[3 * k], g = rgb[3 * k + 1], b = rgb[3 * k + 2]
            if max(r, g, b) - min(r, g, b) >= 60 { n += 1 }
        }
        return n
    }
}
