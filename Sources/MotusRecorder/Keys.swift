import Foundation
import MotusCore

/// Labelling keys: one key per label, one to mark an event, one to pause.
public struct KeyBindings: Sendable, Equatable {
    public var labels: [(key: UInt8, label: String)]
    public var eventKey: UInt8?
    public var pauseKey: UInt8?

    public init(labels: [(key: UInt8, label: String)] = [], eventKey: UInt8? = nil, pauseKey: UInt8? = nil) {
        self.labels = labels; self.eventKey = eventKey; self.pauseKey = pauseKey
    }

    public static func == (a: KeyBindings, b: KeyBindings) -> Bool {
        a.eventKey == b.eventKey && a.pauseKey == b.pauseKey && a.labels.count == b.labels.count
            && zip(a.labels, b.labels).allSatisfy { $0.key == $1.key && $0.label == $1.label }
    }

    /// Parses `w=walking,r=running` (each key one ASCII character). Throws a message on bad text.
    public static func parseLabels(_ text: String) throws(KeyError) -> [(key: UInt8, label: String)] {
        var out: [(key: UInt8, label: String)] = []
        for part in text.split(separator: ",") {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, kv[0].utf8.count == 1, let k = kv[0].utf8.first, k > 0x20, k < 0x7F, !kv[1].isEmpty else {
                throw KeyError(message: "--keys takes KEY=LABEL pairs like w=walking,r=running, not '\(part)'")
            }
            guard !out.contains(where: { $0.key == k }) else { throw KeyError(message: "--keys: key '\(kv[0])' is given twice") }
            out.append((k, String(kv[1])))
        }
        return out
    }

    public static func key(_ text: String, flag: String) throws(KeyError) -> UInt8 {
        guard text.utf8.count == 1, let k = text.utf8.first, k > 0x20, k < 0x7F else {
            throw KeyError(message: "\(flag) takes one printable character, not '\(text)'")
        }
        return k
    }
}

public struct KeyError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// What a key press asks for.
public enum KeyAction: Sendable, Equatable {
    /// Start this label (nil: end the current one).
    case label(String?)
    case event
    case pause(Bool)
    case none
}

/// Turns key presses into actions. Pressing a label's key starts that label (ending the one
/// in force); pressing it again ends it. The event key marks an event; the pause key toggles
/// pause. Other bytes do nothing. Pure: feed it bytes from any source.
public struct KeyLabeller: Sendable {
    public let bindings: KeyBindings
    public private(set) var current: String?
    public private(set) var paused = false

    public init(bindings: KeyBindings, initialLabel: String? = nil) { self.bindings = bindings; current = initialLabel }

    public mutating func press(_ key: UInt8) -> KeyAction {
        if let e = bindings.eventKey, key == e { return .event }
        if let p = bindings.pauseKey, key == p { paused.toggle(); return .pause(paused) }
        if let b = bindings.labels.first(where: { $0.key == key }) {
            current = current == b.label ? nil : b.label
            return .label(current)
        }
        return .none
    }

    /// One line of help for the status display.
    public var help: String {
        var parts = bindings.labels.map { "\(Character(Unicode.Scalar($0.key)))=\($0.label)" }
        if let e = bindings.eventKey { parts.append("\(Character(Unicode.Scalar(e)))=event") }
        if let p = bindings.pauseKey { parts.append("\(Character(Unicode.Scalar(p)))=pause") }
        return "keys: " + parts.joined(separator: " ")
    }
}

/// Reads key presses from a file descriptor on its own thread and applies them to a session.
/// With a terminal it switches it to raw mode (no line buffering, no echo; Ctrl-C still
/// interrupts) and restores it on `stop`. Tests pass a pipe.
public final class KeyReader: @unchecked Sendable {
    let fd: Int32
    let ownsFD: Bool
    var labeller: KeyLabeller
    let session: RecordingSession
    var saved: termios?
    let lock = NSLock()
    var stopped = false
    var thread: Thread?
    /// Called after each action (e.g. to redraw the status line).
    public var onAction: (@Sendable (KeyAction) -> Void)?

    public init(fd: Int32, ownsFD: Bool = false, labeller: KeyLabeller, session: RecordingSession) {
        self.fd = fd; self.ownsFD = ownsFD; self.labeller = labeller; self.session = session
    }

    /// Opens the controlling terminal, or nil when there is none.
    public static func openTerminal(labeller: KeyLabeller, session: RecordingSession) -> KeyReader? {
        let fd = open("/dev/tty", O_RDONLY | O_NOCTTY)
        if fd < 0 { return nil }
        guard isatty(fd) != 0 else { close(fd); return nil }
        return KeyReader(fd: fd, ownsFD: true, labeller: labeller, session: session)
    }

    public func start() {
        if isatty(fd) != 0 {
            var t = termios()
            if tcgetattr(fd, &t) == 0 {
                saved = t
                t.c_lflag &= ~tcflag_t(ICANON | ECHO)
                withUnsafeMutableBytes(of: &t.c_cc) { cc in
                    cc[Int(VMIN)] = 1; cc[Int(VTIME)] = 0
                }
                _ = tcsetattr(fd, TCSANOW, &t)
            }
        }
        let th = Thread { [self] in self.run() }
        th.name = "motus-keys"
        thread = th
        th.start()
    }

    func run() {
        var byte: UInt8 = 0
        while true {
            lock.lock(); let s = stopped; lock.unlock()
            if s { break }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, 200)
            if r < 0 { if errno == EINTR { continue }; break }
            if r == 0 { continue }
            let n = read(fd, &byte, 1)
            if n <= 0 { break }
            let action = labeller.press(byte)
            apply(action)
        }
    }

    func apply(_ action: KeyAction) {
        switch action {
        case .label(let l): session.setLabel(l)
        case .event: session.mark("mark")
        case .pause(let p): session.setPaused(p)
        case .none: return
        }
        onAction?(action)
    }

    /// Stops reading and restores the terminal.
    public func stop() {
        lock.lock(); stopped = true; lock.unlock()
        if var t = saved { _ = tcsetattr(fd, TCSANOW, &t); saved = nil }
        if ownsFD { close(fd) }
    }
}

/// The live status line: per-stream rate and samples, dropped / late / malformed counts,
/// the current label and the duration.
public enum StatusLine {
    /// `previous` is the snapshot `interval` seconds ago (for rates; nil at first).
    public static func format(_ s: RecordingSession.Stats, previous: RecordingSession.Stats?, interval: Double) -> String {
        var parts: [String] = []
        let d = Int(s.duration)
        parts.append("\(d / 3600 > 0 ? "\(d / 3600):" : "")\(two((d / 60) % 60)):\(two(d % 60))")
        var streams: [String] = []
        for st in s.streams.prefix(6) {
            let before = previous?.streams.first { $0.name == st.name }?.samples ?? 0
            let rate = interval > 0 && previous != nil ? Double(st.samples - before) / interval : 0
            streams.append("\(st.name) \(Int(rate.rounded())) Hz \(st.samples)")
        }
        if s.streams.count > 6 { streams.append("+\(s.streams.count - 6) streams") }
        parts.append(streams.isEmpty ? "waiting for data" : streams.joined(separator: ", "))
        var counts = "dropped \(s.dropped) late \(s.late) bad-time \(s.badTime) malformed \(s.malformed)"
        if s.refusedPackets > 0 { counts += " refused \(s.refusedPackets)" }
        parts.append(counts)
        parts.append(s.paused ? "PAUSED" : "label \(s.label ?? "-")")
        if let f = s.failure { parts.append("FAILED: \(f)") }
        return parts.joined(separator: " | ")
    }

    static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
