import Foundation
import MotusCore
import MotusIO
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP server (SwiftNIO) accepting Sensor Logger's push: `POST` of a JSON message with a
/// `payload` of readings (see `SensorLoggerParser`), on any path.
///
/// - Answers 200 `{"ok":true}` when the message was queued; 400 for a body that is not a
///   Sensor Logger message; 401 when a token is required and missing or wrong (`?token=…` in
///   the URL, or `Authorization: Bearer …`); 405 for methods other than POST (GET `/` says what
///   this is); 408 when a request's body does not arrive within `requestTimeout`; 413 for a
///   body over `maxBodyBytes` (a `Content-Length` over it at once, a chunked body as soon as
///   its chunks pass it); 503 when the writer's queue is full or `maxSources` are taken (the
///   app may retry; the readings are counted).
/// - Everything is decided from the request line and headers before any body byte is kept:
///   a request that will be refused (token, method, size) is answered and its connection
///   closed without reading its body, so unauthenticated traffic costs no memory.
/// - A connection must send complete headers within `headerTimeout` seconds of opening (or of
///   its previous answer, on a kept-alive connection); else it is closed.
/// - At most `maxConnections` connections are open at once. A new one beyond that evicts the
///   oldest connection still waiting for its headers; when every connection is inside a
///   request, the new one is closed at once. Slow clients thus cannot lock others out.
/// - Messages repeated with a `messageId` already seen in that session are ignored.
/// - Each `deviceId` (else `sessionId`, else client address) is a source.
public final class HTTPReceiver: Sendable {
    public struct Configuration: Sendable {
        public var host: String = "127.0.0.1"
        public var port: Int
        public var token: String?
        public var maxBodyBytes: Int = 8 << 20
        public var coreMotionSign = false
        /// Seconds a connection may take to send complete request headers.
        public var headerTimeout: Double = 5
        /// Seconds a request's body may take, from its headers to its end.
        public var requestTimeout: Double = 30
        /// Seconds without a byte in the middle of a body before the connection is closed.
        public var idleTimeout: Int64 = 15
        /// Connections open at once.
        public var maxConnections = 32
        public init(host: String = "127.0.0.1", port: Int, token: String? = nil) {
            self.host = host; self.port = port; self.token = token
        }
    }

    public let configuration: Configuration
    let channel: Channel
    let gate: ConnectionGate

    public init(configuration: Configuration, session: RecordingSession, group: EventLoopGroup, log: RateLimitedLog) throws {
        self.configuration = configuration
        let c = configuration
        let shared = SensorLoggerState()
        let gate = ConnectionGate(limit: c.maxConnections)
        self.gate = gate
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 128)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let id = ObjectIdentifier(channel)
                switch gate.admit(channel, id: id) {
                case .refuse:
                    log("http: connection from \(channel.remoteAddress?.description ?? "?") refused: \(c.maxConnections) connections are inside requests")
                    // A failed initialiser makes the bootstrap close the new connection.
                    return channel.eventLoop.makeFailedFuture(ConnectionGate.Refused())
                case .admit(let evicted):
                    if let e = evicted {
                        log("http: connection from \(e.remoteAddress?.description ?? "?") closed: still no headers when a new client came (\(c.maxConnections) connections open)")
                        e.close(promise: nil)
                    }
                }
                channel.closeFuture.whenComplete { _ in gate.remove(id) }
                return channel.eventLoop.makeCompletedFuture {
                    let ops = channel.pipeline.syncOperations
                    try ops.addHandler(IdleStateHandler(readTimeout: .seconds(c.idleTimeout)))
                    try ops.configureHTTPServerPipeline(withErrorHandling: true)
                    try ops.addHandler(SensorLoggerHTTPHandler(configuration: c, session: session, shared: shared, gate: gate, id: id, log: log))
                }
            }
            .childChannelOption(.maxMessagesPerRead, value: 16)
        channel = try bootstrap.bind(host: c.host, port: c.port).wait()
    }

    public var port: Int { channel.localAddress?.port ?? configuration.port }

    /// Connections refused, evicted for want of headers, and closed at their header or request
    /// deadline so far.
    public var connectionCounts: ConnectionGate.Counts { gate.counts }

    public func close() { try? channel.close().wait() }
}

/// Open connections, and which of them still wait for their request headers (shared by the
/// server's connections; any thread).
public final class ConnectionGate: @unchecked Sendable {
    struct Refused: Error {}
    public struct Counts: Sendable, Equatable {
        public var open = 0
        public var refused = 0
        public var evicted = 0
        public var headerTimeouts = 0
        public var requestTimeouts = 0
    }
    enum Decision { case refuse, admit(evicted: Channel?) }

    let limit: Int
    let lock = NSLock()
    var entries: [ObjectIdentifier: (order: Int, channel: Channel, waiting: Bool)] = [:]
    var nextOrder = 0
    var tally = Counts()

    init(limit: Int) { self.limit = max(1, limit) }

    var counts: Counts { lock.lock(); defer { lock.unlock() }; var c = tally; c.open = entries.count; return c }

    func admit(_ channel: Channel, id: ObjectIdentifier) -> Decision {
        lock.lock(); defer { lock.unlock() }
        var evicted: Channel? = nil
        if entries.count >= limit {
            // The oldest connection that has not sent its headers yet makes room.
            guard let oldest = entries.filter({ $0.value.waiting }).min(by: { $0.value.order < $1.value.order }) else {
                tally.refused += 1
                return .refuse
            }
            entries[oldest.key] = nil
            tally.evicted += 1
            evicted = oldest.value.channel
        }
        entries[id] = (nextOrder, channel, true)
        nextOrder += 1
        return .admit(evicted: evicted)
    }

    func remove(_ id: ObjectIdentifier) { lock.lock(); entries[id] = nil; lock.unlock() }

    /// Marks the connection as waiting for (true) or past (false) its request headers.
    func setWaiting(_ id: ObjectIdentifier, _ waiting: Bool) {
        lock.lock(); entries[id]?.waiting = waiting; lock.unlock()
    }

    func countTimeout(header: Bool) {
        lock.lock(); if header { tally.headerTimeouts += 1 } else { tally.requestTimeouts += 1 }; lock.unlock()
    }
}

/// Sources and recently seen message ids, shared by all connections. Session ids come from
/// clients, so at most `sessions` are remembered (a new one beyond that forgets the one seen
/// least recently): memory stays bounded whatever ids clients invent.
final class SensorLoggerState: @unchecked Sendable {
    let lock = NSLock()
    var seen: [String: (ring: [Int64], set: Set<Int64>, next: Int)] = [:]
    var lastUse: [String: Int] = [:]
    var uses = 0
    static let remembered = 1024
    static let sessions = 64

    /// True when `id` was not seen before in `session` (and remembers it).
    func firstTime(session: String, id: Int64) -> Bool {
        lock.lock(); defer { lock.unlock() }
        uses += 1
        if seen[session] == nil, seen.count >= Self.sessions, let stale = lastUse.min(by: { $0.value < $1.value })?.key {
            seen[stale] = nil; lastUse[stale] = nil
        }
        lastUse[session] = uses
        var s = seen[session] ?? ([], [], 0)
        if s.set.contains(id) { return false }
        if s.ring.count < Self.remembered { s.ring.append(id) } else {
            s.set.remove(s.ring[s.next]); s.ring[s.next] = id; s.next = (s.next + 1) % Self.remembered
        }
        s.set.insert(id)
        seen[session] = s
        return true
    }
}

final class SensorLoggerHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let configuration: HTTPReceiver.Configuration
    let session: RecordingSession
    let shared: SensorLoggerState
    let gate: ConnectionGate
    let id: ObjectIdentifier
    let log: RateLimitedLog
    var head: HTTPRequestHead?
    var body: [UInt8] = []
    /// The request was answered already (refused): its remaining parts are not read.
    var answered = false
    var deadline: Scheduled<Void>?

    init(configuration: HTTPReceiver.Configuration, session: RecordingSession, shared: SensorLoggerState, gate: ConnectionGate,
         id: ObjectIdentifier, log: RateLimitedLog) {
        self.configuration = configuration; self.session = session; self.shared = shared; self.gate = gate; self.id = id; self.log = log
    }

    func handlerAdded(context: ChannelHandlerContext) {
        armDeadline(context, seconds: configuration.headerTimeout, header: true)
    }

    func handlerRemoved(context: ChannelHandlerContext) { deadline?.cancel(); deadline = nil }

    /// Closes the connection unless its headers (`header`) or its whole request arrive in time.
    func armDeadline(_ context: ChannelHandlerContext, seconds: Double, header: Bool) {
        deadline?.cancel()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) {
            let (handler, ctx) = bound.value
            handler.deadline = nil
            handler.gate.countTimeout(header: header)
            if header {
                handler.log("http: connection from \(ctx.remoteAddress?.description ?? "?") closed: no complete request headers within \(handler.configuration.headerTimeout) s")
                ctx.close(promise: nil)
            } else if !handler.answered {
                handler.log("http: request from \(ctx.remoteAddress?.description ?? "?") closed: body not complete within \(handler.configuration.requestTimeout) s")
                handler.refuse(ctx, .requestTimeout, "body not complete within \(handler.configuration.requestTimeout) s")
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            if answered { return }
            head = h
            body = []
            gate.setWaiting(id, false)
            armDeadline(context, seconds: configuration.requestTimeout, header: false)
            // Decided from the request line and headers alone, before any body byte is kept.
            if let refusal = check(h, context) {
                refuse(context, refusal.0, refusal.1)
            }
        case .body(let b):
            if answered { return }
            if body.count + b.readableBytes > configuration.maxBodyBytes {
                session.count(.bad("too large"))
                log("http: body over \(configuration.maxBodyBytes) bytes refused")
                refuse(context, .payloadTooLarge, "body over \(configuration.maxBodyBytes) bytes")
                return
            }
            b.withUnsafeReadableBytes { body.append(contentsOf: $0) }
        case .end:
            if answered { return }
            guard let h = head else { return }
            deadline?.cancel(); deadline = nil
            handle(context, h)
            // Ready for the next request on this connection: its headers have a deadline too.
            head = nil
            body = []
            if context.channel.isActive && !answered {
                gate.setWaiting(id, true)
                armDeadline(context, seconds: configuration.headerTimeout, header: true)
            }
        }
    }

    /// Why a request is refused from its head alone (status and message), or nil.
    func check(_ h: HTTPRequestHead, _ context: ChannelHandlerContext) -> (HTTPResponseStatus, String)? {
        if let token = configuration.token {
            var given: String? = nil
            if let auth = h.headers.first(name: "authorization"), auth.hasPrefix("Bearer ") { given = String(auth.dropFirst(7)) }
            if given == nil, let q = h.uri.firstIndex(of: "?") {
                for part in h.uri[h.uri.index(after: q)...].split(separator: "&") where part.hasPrefix("token=") {
                    given = String(part.dropFirst(6)).removingPercentEncoding
                }
            }
            guard given == token else {
                log("http: request without the right token from \(context.remoteAddress?.description ?? "?")")
                return (.unauthorized, "token required")
            }
        }
        switch h.method {
        case .POST: break
        case .GET: return (.ok, "motus record: POST Sensor Logger JSON here")
        default: return (.methodNotAllowed, "POST only")
        }
        let lengths = h.headers["content-length"]
        if let text = lengths.first {
            guard lengths.count == 1, let len = Int(text), len >= 0 else { return (.badRequest, "Content-Length is not one number") }
            if len > configuration.maxBodyBytes {
                session.count(.bad("too large"))
                log("http: body over \(configuration.maxBodyBytes) bytes refused")
                return (.payloadTooLarge, "body over \(configuration.maxBodyBytes) bytes")
            }
        }
        return nil
    }

    /// Answers and closes the connection; what the client still sends is not read.
    func refuse(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ message: String) {
        answered = true
        body = []
        deadline?.cancel(); deadline = nil
        respond(context, status, message, close: true)
    }

    func handle(_ context: ChannelHandlerContext, _ h: HTTPRequestHead) {
        let now = wallClock()
        var batch = SampleBatch(receivedAt: now)
        let (outcome, env) = SensorLoggerParser.parse(body, coreMotionSign: configuration.coreMotionSign, into: &batch)
        session.count(outcome)
        if outcome.samples == 0 && outcome.malformed > 0 {
            log("http: malformed message: \(outcome.warning ?? "")")
            respond(context, .badRequest, outcome.warning ?? "malformed")
            return
        }
        if outcome.malformed > 0 { log("http: \(outcome.malformed) malformed readings: \(outcome.warning ?? "")") }
        let sessionKey = env.sessionId ?? env.deviceId ?? "\(context.remoteAddress?.ipAddress ?? "?")"
        if let id = env.messageId, !shared.firstTime(session: sessionKey, id: id) {
            session.count(ParseOutcome(ignored: batch.count))
            respond(context, .ok, "duplicate message \(id) ignored")
            return
        }
        let key = env.deviceId ?? env.sessionId ?? "http \(context.remoteAddress?.ipAddress ?? "?")"
        guard let source = session.registerSource(key: key, description: "http sensorlogger device \(env.deviceId ?? "?") session \(env.sessionId ?? "?"); clock: UTC epoch s") else {
            session.countRefusedPacket()
            log("http: message from device \(env.deviceId ?? "?") refused: the recorder takes at most \(session.configuration.maxSources) sources (--max-sources)")
            respond(context, .serviceUnavailable, "too many sources")
            return
        }
        batch.source = source
        if session.submit(batch) {
            respond(context, .ok, "")
        } else {
            respond(context, .serviceUnavailable, "recorder busy or stopped")
        }
    }

    func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ message: String, close: Bool = false) {
        let text = status == .ok && message.isEmpty ? "{\"ok\":true}" : "{\"ok\":\(status == .ok),\"message\":\"\(message.replacingOccurrences(of: "\"", with: "'"))\"}"
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "content-length", value: "\(text.utf8.count)")
        if close { headers.add(name: "connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        var buf = context.channel.allocator.buffer(capacity: text.utf8.count)
        buf.writeString(text)
        context.write(wrapOutboundOut(.body(.byteBuffer(buf))), promise: nil)
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if close || !(head?.isKeepAlive ?? false) {
            let ctx = NIOLoopBound(context, eventLoop: context.eventLoop)
            done.whenComplete { _ in ctx.value.close(promise: nil) }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent { context.close(promise: nil) } else { context.fireUserInboundEventTriggered(event) }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A connection closed half-way through a request (by its client, or here at a deadline
        // or an eviction, already logged) is not worth a line of its own.
        if let e = error as? HTTPParserError, e == .invalidEOFState {} else { log("http: \(error)") }
        context.close(promise: nil)
    }
}
