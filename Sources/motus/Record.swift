import ArgumentParser
import Foundation
import Motus
import MotusRecorder

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record live sensor data from a phone app (or standard input) into a native recording.",
        discussion: """
        Sources:
          stdin    CSV (same flags as every reader: --time-column, --accel-columns, …) or JSON Lines \
        ({"t":1.5,"acc":[x,y,z]} or Sensor Logger readings); without a time column the laptop time is used.
          udp      HyperIMU or SensorStream IMU+GPS packets (--packet-format, --port, default 5555).
          http     Sensor Logger's HTTP push (POST JSON; --port, default 8000; optional --token, \
        sent as ?token=… in the app's URL or as 'Authorization: Bearer …').
          phyphox  polls a phone running phyphox with remote access on (--url http://PHONE:8080).

        The recording goes to DIR/recording-<UTC start time>.motus (or to --out FILE.motus, which must \
        not exist yet: a recording is never overwritten). It is \
        flushed at least every 0.25 s, so `kill -9` loses at most that; Ctrl-C or SIGTERM closes \
        it cleanly; a full disk stops it with one error line and a non-zero status, the file keeping \
        its complete lines. `motus inspect DIR` reads it, also while recording goes on. Network sources \
        listen on 127.0.0.1 unless --bind says otherwise (use --bind 0.0.0.0 for a phone on the LAN).

        Limits against a hostile network: a sample whose time no clock gives (not finite, beyond \
        ±1e10 s, or for a network source more than 10 s ahead of or an hour behind the clock its \
        first 0.3 s of samples showed) is left out and counted as "bad time"; at most \
        --max-sources senders are taken (each UDP address and port, each HTTP device), packets \
        from more are counted as refused; HTTP requests are refused from their headers (token, \
        method, size) before any body byte is read, headers must arrive within --header-timeout \
        seconds, and at most --max-connections are open (a new one evicts the oldest still \
        without headers).

        Examples:
          motus record --source udp --packet-format sensorstream --bind 0.0.0.0 --out rec/
          motus record --source http --port 8000 --bind 0.0.0.0 --token s3cret --keys w=walking,r=running --event-key m --pause-key p --out rec/
          motus record --source stdin --time-column t --accel-columns ax,ay,az --out rec/ < walk.csv
        """)

    @Option(help: "Where the recording goes: a folder, or a path ending in .motus.")
    var out: String

    @Option(help: "stdin, udp, http or phyphox.")
    var source: String

    @Option(help: "Port to listen on (udp: 5555, http: 8000).")
    var port: Int?

    @Option(help: ArgumentHelp("Address to listen on.", valueName: "ADDRESS"))
    var bind: String = "127.0.0.1"

    @Option(name: .customLong("packet-format"), help: "UDP packet format: hyperimu or sensorstream.")
    var packetFormat: String?

    @Option(help: ArgumentHelp("HyperIMU: the app's sensor order, three values each (acc, uacc, grav, gyro, mag, att for a rotation vector, - to skip). Default: a header line the app sends, else acc,gyro,mag.", valueName: "LIST"))
    var sensors: String?

    @Option(name: .customLong("stdin-format"), help: "stdin: auto, csv or jsonl.")
    var stdinFormat: String = "auto"

    @Option(help: "phyphox: the phone's remote-access address, http://HOST:PORT.")
    var url: String?

    @Option(name: .customLong("poll-interval"), help: "phyphox: seconds between polls.")
    var pollInterval: Double = 0.05

    @Option(help: "http: a shared secret the phone must send.")
    var token: String?

    @Option(help: "A label for the whole recording.")
    var label: String?

    @Option(help: ArgumentHelp("Label keys, KEY=LABEL pairs: pressing a key starts its label, pressing it again ends it (needs a terminal).", valueName: "w=walking,r=running"))
    var keys: String?

    @Option(name: .customLong("event-key"), help: "Key that marks an event.")
    var eventKey: String?

    @Option(name: .customLong("pause-key"), help: "Key that pauses and resumes recording.")
    var pauseKey: String?

    @Option(help: "Subject identifier (metadata).")
    var subject: String?

    @Option(help: "Where the phone is carried, e.g. front-pocket (metadata).")
    var placement: String?

    @Option(help: "Subject height in metres (metadata).")
    var height: Double?

    @Option(help: "Device model (metadata).")
    var device: String?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Option(name: .customLong("max-line-bytes"), help: "stdin: longest line accepted.")
    var maxLineBytes: Int = 64 << 10

    @Option(name: .customLong("max-body-bytes"), help: "http: largest request body accepted.")
    var maxBodyBytes: Int = 8 << 20

    @Option(name: .customLong("max-packet-bytes"), help: "udp: largest datagram accepted.")
    var maxPacketBytes: Int = 4096

    @Option(name: .customLong("max-sources"), help: "udp/http: senders taken (each UDP address and port, each HTTP device); packets from more are counted and refused.")
    var maxSources: Int = 64

    @Option(name: .customLong("max-connections"), help: "http: connections open at once; a new one evicts the oldest still sending its headers.")
    var maxConnections: Int = 32

    @Option(name: .customLong("header-timeout"), help: "http: seconds a connection may take to send its request headers.")
    var headerTimeout: Double = 5

    @OptionGroup var input: InputOptions

    func validate() throws {
        if let h = height, !(h > 0.3 && h < 3) { throw ValidationError("--height is in metres (e.g. 1.75), not \(h)") }
        if input.strict { throw ValidationError("--strict checks a recording as a command reads it; record keeps what arrives (check it afterwards: motus inspect --strict FILE)") }
        if let d = duration, !(d > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if !(pollInterval > 0) { throw ValidationError("--poll-interval must be positive") }
        if maxLineBytes < 64 || maxBodyBytes < 1024 || maxPacketBytes < 64 { throw ValidationError("size limits are too small") }
        if !(1...100_000).contains(maxSources) { throw ValidationError("--max-sources must be 1…100000, not \(maxSources)") }
        if !(1...100_000).contains(maxConnections) { throw ValidationError("--max-connections must be 1…100000, not \(maxConnections)") }
        if !(headerTimeout > 0 && headerTimeout <= 3600) { throw ValidationError("--header-timeout must be 0…3600 seconds, not \(headerTimeout)") }
        _ = try options()
    }

    func options() throws -> RecorderOptions {
        let src: RecorderOptions.Source
        switch source {
        case "stdin":
            guard let f = StdinFormat(rawValue: stdinFormat) else { throw ValidationError("--stdin-format must be auto, csv or jsonl, not '\(stdinFormat)'") }
            src = .stdin(format: f, options: try input.delimitedOptions())
        case "udp":
            guard let pf = packetFormat else { throw ValidationError("--source udp needs --packet-format hyperimu or sensorstream") }
            guard let f = PacketFormat(rawValue: pf) else { throw ValidationError("--packet-format must be hyperimu or sensorstream, not '\(pf)'") }
            var list: [StreamKind?]? = nil
            if let s = sensors {
                list = []
                for name in s.split(separator: ",", omittingEmptySubsequences: false) {
                    if name == "-" { list!.append(nil); continue }
                    guard let k = StreamKind(rawValue: String(name)), k.width == 3 || k == .attitude else {
                        throw ValidationError("--sensors takes acc, uacc, grav, gyro, mag, att or -, not '\(name)'")
                    }
                    list!.append(k)
                }
            }
            src = .udp(port: port ?? 5555, format: f, sensors: list)
        case "http":
            src = .http(port: port ?? 8000, token: token)
        case "phyphox":
            guard let u = url else { throw ValidationError("--source phyphox needs --url http://HOST:PORT") }
            src = .phyphox(url: u, pollInterval: pollInterval)
        default:
            throw ValidationError("--source must be stdin, udp, http or phyphox, not '\(source)'")
        }
        if let p = port, !(0...65535).contains(p) { throw ValidationError("--port must be 0…65535") }
        var o = RecorderOptions(source: src, out: out)
        o.bind = bind
        o.metadata = RecordingMetadata(device: device, placement: placement, subject: subject, heightMeters: height)
        o.fixedLabel = label
        o.coreMotionSign = input.coreMotionSign
        o.maxLineBytes = maxLineBytes; o.maxBodyBytes = maxBodyBytes; o.maxPacketBytes = maxPacketBytes
        o.maxSources = maxSources; o.maxConnections = maxConnections; o.headerTimeout = headerTimeout
        return o
    }

    func bindings() throws -> KeyBindings? {
        guard keys != nil || eventKey != nil || pauseKey != nil else { return nil }
        do {
            var b = KeyBindings()
            if let k = keys { b.labels = try KeyBindings.parseLabels(k) }
            if let e = eventKey { b.eventKey = try KeyBindings.key(e, flag: "--event-key") }
            if let p = pauseKey { b.pauseKey = try KeyBindings.key(p, flag: "--pause-key") }
            return b
        } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        let opts = try options()
        let keyBindings = try bindings()
        let tty = isatty(2) != 0
        // RateLimitedLog escapes what clients sent; only the line-clearing prefix is raw.
        let log = RateLimitedLog { msg in writeStderr((tty ? "\r\u{1B}[K" : "") + "motus: " + msg + "\n") }
        let recorder: Recorder
        do {
            // A file (`.motus`, or one that exists) or a folder, as the recorder takes it.
            if opts.out.hasSuffix(".motus") || (FileManager.default.fileExists(atPath: opts.out) && !OutputPath.isFolder(opts.out)) {
                try OutputPaths.file(opts.out)
            } else {
                try OutputPaths.folder(opts.out)
            }
            recorder = try Recorder(options: opts, log: log)
        } catch {
            printError("motus: \(error)")
            throw ExitCode(1)
        }
        let stop = StopFlag()
        signal(SIGINT, SIG_IGN); signal(SIGTERM, SIG_IGN)
        let sigs = [SIGINT, SIGTERM].map { s -> DispatchSourceSignal in
            let src = DispatchSource.makeSignalSource(signal: s, queue: .global())
            src.setEventHandler { stop.set("signal") }
            src.resume()
            return src
        }
        defer { sigs.forEach { $0.cancel() } }
        do { try recorder.start(onEnd: { stop.set("end of input") }) } catch {
            _ = try? recorder.stop()
            printError("motus: cannot start the \(source) source: \(error)")
            throw ExitCode(1)
        }
        var where_ = ""
        if let p = recorder.port { where_ = " on \(bind):\(p)" }
        printError("motus: recording \(source)\(where_) to \(recorder.path) (Ctrl-C to stop)")
        var keyReader: KeyReader? = nil
        if let b = keyBindings {
            let labeller = KeyLabeller(bindings: b, initialLabel: label)
            if let r = KeyReader.openTerminal(labeller: labeller, session: recorder.session) {
                keyReader = r
                r.start()
                printError("motus: \(labeller.help)")
            } else {
                printError("motus: no terminal: label keys are off")
            }
        }
        let start = monotonicClock()
        var lastStatus = start
        var previous: RecordingSession.Stats? = nil
        let statusEvery = tty ? 0.5 : 10
        var failed = false
        while true {
            usleep(100_000)
            if recorder.session.failure != nil { failed = true; break }
            if stop.isSet { break }
            let now = monotonicClock()
            if let d = duration, now - start >= d { break }
            if now - lastStatus >= statusEvery {
                let s = recorder.session.stats()
                // Stream names come from clients: escaped, so only the prefix drives the terminal.
                let line = StatusLine.format(s, previous: previous, interval: now - lastStatus).escapingControlCharacters
                writeStderr(tty ? "\r\u{1B}[K" + line : "motus: " + line + "\n")
                previous = s; lastStatus = now
            }
        }
        keyReader?.stop()
        if tty { writeStderr("\r\u{1B}[K") }
        do {
            let s = try recorder.stop()
            printError("motus: " + StatusLine.format(s, previous: nil, interval: 0))
            printError("motus: wrote \(recorder.path): \(s.written) samples in \(s.streams.count) streams; dropped \(s.dropped), late \(s.late), bad time \(s.badTime), malformed \(s.malformed), ignored \(s.ignored), refused \(s.refusedPackets) from \(s.refusedSources) senders over --max-sources")
        } catch {
            // The write error, once, on one line; the file keeps its complete lines.
            printError("motus: recording stopped: \(error) (the file keeps its complete lines)")
            failed = true
        }
        if failed { throw ExitCode(1) }
    }
}

/// Set from a signal handler's queue, read by the main loop.
final class StopFlag: @unchecked Sendable {
    let lock = NSLock()
    var reason: String?
    func set(_ r: String) { lock.lock(); if reason == nil { reason = r }; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return reason != nil }
}

/// Writes text to stderr as it is (no newline added).
func writeStderr(_ s: String) {
    var s = s
    s.withUTF8 { _ = fwriteStderr($0) }
}
