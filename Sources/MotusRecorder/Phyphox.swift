import Foundation
import MotusCore
import MotusIO
import NIOCore
import NIOHTTP1
import NIOPosix

/// One phyphox time series that becomes a Motus stream: a time buffer and its value buffers.
public struct PhyphoxChannel: Sendable, Equatable {
    public var kind: StreamKind
    public var time: String
    /// Value buffers in the order of the kind's components (x, y, z; lat, lon, z, v, dir,
    /// accuracy, zAccuracy for location; pressure).
    public var components: [String]
    /// Multiplier into SI (hPa → Pa for pressure).
    public var scale: Double = 1
    public init(kind: StreamKind, time: String, components: [String], scale: Double = 1) {
        self.kind = kind; self.time = time; self.components = components; self.scale = scale
    }
}

/// The phyphox remote-access protocol (FORMATS.md §B.4), without the network: which buffers
/// to ask for, and what a `/get` answer adds. Follows the official web interface: the first
/// request (and any after a session change) asks for `full` buffers; later ones ask for
/// values after the last time held (`t=<last>` and `x=<last>|t`).
///
/// Units: phyphox sends m/s² in Android's sign (its iOS app converts), rad/s, µT, hPa (→ Pa).
/// Time: experiment seconds (since the first start, pauses excluded), kept as they are.
public struct PhyphoxProtocol: Sendable {
    public private(set) var channels: [PhyphoxChannel]
    /// Last time held per channel (nil: ask for everything).
    public private(set) var lastTime: [Double?]
    public private(set) var session: String?

    public init(channels: [PhyphoxChannel]) {
        self.channels = channels
        lastTime = Array(repeating: nil, count: channels.count)
    }

    /// The standard experiments' buffers, used when `/config` cannot be read.
    public static let standardChannels: [PhyphoxChannel] = [
        PhyphoxChannel(kind: .acceleration, time: "acc_time", components: ["accX", "accY", "accZ"]),
        PhyphoxChannel(kind: .rotationRate, time: "gyr_time", components: ["gyrX", "gyrY", "gyrZ"]),
        PhyphoxChannel(kind: .magneticField, time: "mag_time", components: ["magX", "magY", "magZ"]),
        PhyphoxChannel(kind: .pressure, time: "p_time", components: ["pressure"], scale: 100),
    ]

    /// Channels from a `/config` answer: each sensor input's outputs (`{"x": "accX"}` or
    /// `{"component": "x", "buffer": "accX"}`) mapped by the input's `source`.
    public static func channels(config: ReaderJSON) -> [PhyphoxChannel] {
        guard let inputs = config["inputs"]?.array else { return [] }
        var out: [PhyphoxChannel] = []
        for input in inputs {
            guard let source = input["source"]?.string?.lowercased(), let outputs = input["outputs"]?.array else { continue }
            var map: [String: String] = [:]
            for o in outputs {
                if let c = o["component"]?.string, let b = o["buffer"]?.string { map[c.lowercased()] = b; continue }
                for (k, v) in o.members ?? [] { if let b = v.string { map[k.lowercased()] = b } }
            }
            let kind: StreamKind
            var comps: [String]
            var scale = 1.0
            switch source {
            case "accelerometer": kind = .acceleration; comps = ["x", "y", "z"]
            case "linear_acceleration": kind = .userAcceleration; comps = ["x", "y", "z"]
            case "gravity": kind = .gravity; comps = ["x", "y", "z"]
            case "gyroscope": kind = .rotationRate; comps = ["x", "y", "z"]
            case "magnetic_field": kind = .magneticField; comps = ["x", "y", "z"]
            case "pressure": kind = .pressure; comps = ["x"]; scale = 100
            case "location": kind = .location; comps = ["lat", "lon", "z", "v", "dir", "accuracy", "zaccuracy"]
            default: continue
            }
            guard let t = map["t"] else { continue }
            if kind == .pressure, map["x"] == nil, let p = map["pressure"] { map["x"] = p }
            var names: [String] = []
            for (i, c) in comps.enumerated() {
                if let b = map[c] { names.append(b) } else if kind == .location && i >= 2 { names.append("") } else { names = []; break }
            }
            if names.isEmpty { continue }
            out.append(PhyphoxChannel(kind: kind, time: t, components: names, scale: scale))
        }
        return out
    }

    /// The `/get?…` path and query for the next poll.
    public func query() -> String {
        var parts: [String] = []
        var seen = Set<String>()
        func add(_ name: String, _ spec: String) {
            guard !name.isEmpty, seen.insert(name).inserted else { return }
            parts.append(Self.escape(name) + "=" + spec)
        }
        for (i, c) in channels.enumerated() {
            if let t = lastTime[i] {
                let ts = "\(t)"
                add(c.time, ts)
                for b in c.components { add(b, ts + "%7C" + Self.escape(c.time)) }
            } else {
                add(c.time, "full")
                for b in c.components { add(b, "full") }
            }
        }
        return "/get?" + parts.joined(separator: "&")
    }

    static func escape(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_.~"))) ?? s
    }

    /// Applies a `/get` answer: appends new samples (time after the last held) to `batch`.
    /// A session change resets the state (the next query asks for `full`).
    public mutating func apply(_ answer: ReaderJSON, into batch: inout SampleBatch) -> ParseOutcome {
        guard let buffers = answer["buffer"], buffers.isObject else { return .bad("answer has no 'buffer' object") }
        if let s = answer["status"]?["session"]?.string {
            if let old = session, old != s {
                session = s
                lastTime = Array(repeating: nil, count: channels.count)
                return ParseOutcome(warning: "phyphox session changed; starting over")
            }
            session = s
        }
        var out = ParseOutcome()
        for (i, c) in channels.enumerated() {
            guard let tb = buffers[c.time]?["buffer"]?.array else { continue }
            var cols: [[ReaderJSON]?] = []
            for b in c.components { cols.append(b.isEmpty ? nil : buffers[b]?["buffer"]?.array) }
            if cols.enumerated().contains(where: { $0.element == nil && !c.components[$0.offset].isEmpty }) {
                out.merge(.bad("buffer missing for \(c.kind.rawValue)")); continue
            }
            let n = cols.reduce(tb.count) { min($0, $1?.count ?? Int.max) }
            if n < tb.count && out.warning == nil { out.warning = "\(c.time): value buffers shorter than the time buffer" }
            var last = lastTime[i] ?? -.infinity
            var v = [Double](repeating: .nan, count: c.kind.width)
            for j in 0..<n {
                guard let t = tb[j].looseNumber, t.isFinite else { out.ignored += 1; continue }
                if t <= last { continue }
                var ok = true
                for k in 0..<c.kind.width {
                    let x = cols[k]?[j].looseNumber.map { $0 * c.scale } ?? .nan
                    if !x.isFinite && !(x.isNaN && c.kind.allowsMissing(component: k)) { ok = false; break }
                    v[k] = x
                }
                last = t
                if !ok { out.ignored += 1; continue }
                batch.append(c.kind, time: t, values: v)
                out.samples += 1
            }
            if last > -.infinity { lastTime[i] = last }
        }
        return out
    }
}

/// A minimal HTTP/1.1 GET over SwiftNIO: one connection per request (`Connection: close`, as
/// phyphox prefers), a bounded body and a timeout.
enum HTTPGet {
    final class Collector: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        let promise: EventLoopPromise<(Int, [UInt8])>
        let maxBytes: Int
        var status = 0
        var body: [UInt8] = []
        init(promise: EventLoopPromise<(Int, [UInt8])>, maxBytes: Int) { self.promise = promise; self.maxBytes = maxBytes }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let h): status = Int(h.status.code)
            case .body(let b):
                if body.count + b.readableBytes > maxBytes {
                    promise.fail(PhyphoxPoller.Failure(message: "answer over \(maxBytes) bytes"))
                    context.close(promise: nil)
                    return
                }
                b.withUnsafeReadableBytes { body.append(contentsOf: $0) }
            case .end:
                promise.succeed((status, body))
                context.close(promise: nil)
            }
        }
        func errorCaught(context: ChannelHandlerContext, error: Error) { promise.fail(error); context.close(promise: nil) }
        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(PhyphoxPoller.Failure(message: "connection closed before the answer ended"))
        }
    }

    static func get(group: EventLoopGroup, host: String, port: Int, path: String, timeout: Double = 5, maxBytes: Int = 16 << 20) throws -> (Int, [UInt8]) {
        let loop = group.next()
        let promise = loop.makePromise(of: (Int, [UInt8]).self)
        let channel = try ClientBootstrap(group: loop)
            .connectTimeout(.milliseconds(Int64(timeout * 1000)))
            .channelInitializer { ch in
                ch.eventLoop.makeCompletedFuture {
                    try ch.pipeline.syncOperations.addHTTPClientHandlers()
                    try ch.pipeline.syncOperations.addHandler(Collector(promise: promise, maxBytes: maxBytes))
                }
            }
            .connect(host: host, port: port).wait()
        var headers = HTTPHeaders()
        headers.add(name: "host", value: "\(host):\(port)")
        headers.add(name: "connection", value: "close")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        let timer = loop.scheduleTask(in: .milliseconds(Int64(timeout * 1000))) {
            promise.fail(PhyphoxPoller.Failure(message: "no answer within \(timeout) s"))
            channel.close(promise: nil)
        }
        defer { timer.cancel() }
        return try promise.futureResult.wait()
    }
}

/// Polls a phyphox phone (`--source phyphox --url http://HOST:PORT`): reads `/config` to find
/// the buffers (falling back to the standard experiments' names), then GETs `/get?…` every
/// `pollInterval` seconds and feeds new samples to the session. Errors (phone gone, bad
/// answer) are logged and counted; polling goes on, backing off to once a second.
public final class PhyphoxPoller: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible, Sendable { public var message: String; public var description: String { message } }

    public let host: String
    public let port: Int
    public let pollInterval: Double
    let session: RecordingSession
    let group: EventLoopGroup
    let log: RateLimitedLog
    let lock = NSLock()
    var stopped = false
    var thread: Thread?
    var source = 0
    public private(set) var polls = 0

    public init(url: String, pollInterval: Double = 0.05, session: RecordingSession, group: EventLoopGroup, log: RateLimitedLog) throws {
        guard let u = URL(string: url), u.scheme == "http", let h = u.host else {
            throw Failure(message: "--url must look like http://HOST:PORT, not '\(url)'")
        }
        host = h; port = u.port ?? 8080
        self.pollInterval = pollInterval; self.session = session; self.group = group; self.log = log
    }

    public func start() {
        source = session.registerSource(key: "phyphox \(host):\(port)", description: "phyphox http://\(host):\(port); clock: experiment s") ?? 0   // the first source: never refused
        let t = Thread { [self] in self.run() }
        t.name = "motus-phyphox"
        thread = t
        t.start()
    }

    public func stop() {
        lock.lock(); stopped = true; lock.unlock()
        while true {
            lock.lock(); let done = thread == nil; lock.unlock()
            if done { break }
            usleep(5000)
        }
    }

    var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    func sleep(_ s: Double) {
        var left = s
        while left > 0 && !isStopped { usleep(UInt32(min(left, 0.05) * 1e6)); left -= 0.05 }
    }

    func run() {
        defer { lock.lock(); thread = nil; lock.unlock() }
        var proto: PhyphoxProtocol? = nil
        var failures = 0
        while !isStopped {
            if proto == nil {
                var channels = PhyphoxProtocol.standardChannels
                if let (status, body) = try? HTTPGet.get(group: group, host: host, port: port, path: "/config"), status == 200,
                   let cfg = try? ReaderJSON.parse(body, file: "phyphox /config") {
                    let c = PhyphoxProtocol.channels(config: cfg)
                    if !c.isEmpty { channels = c }
                }
                proto = PhyphoxProtocol(channels: channels)
            }
            do {
                let (status, body) = try HTTPGet.get(group: group, host: host, port: port, path: proto!.query())
                guard status == 200 else { throw Failure(message: "HTTP \(status)") }
                let answer: ReaderJSON
                do { answer = try ReaderJSON.parse(body, file: "phyphox /get") } catch {
                    session.count(.bad("json")); throw Failure(message: "answer is not JSON: \(error)")
                }
                var batch = SampleBatch(source: source, receivedAt: wallClock())
                let o = proto!.apply(answer, into: &batch)
                session.count(o)
                if let w = o.warning { log("phyphox: \(w)") }
                session.submit(batch)
                polls += 1
                failures = 0
                let measuring = answer["status"]?["measuring"].map { $0.bool == true } ?? true
                sleep(measuring ? pollInterval : max(pollInterval, 0.25))
            } catch {
                failures += 1
                log("phyphox \(host):\(port): \(error)")
                sleep(min(1, 0.1 * Double(failures)))
            }
        }
    }
}
