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
///   this is); 413 for a body over `maxBodyBytes`; 503 when the writer's queue is full (the
///   app may retry; the readings are counted as dropped).
/// - Messages repeated with a `messageId` already seen in that session are ignored.
/// - Each `deviceId` (else `sessionId`, else client address) is a source.
/// - Connections idle for `idleTimeout` seconds are closed, so slow clients cannot pile up.
public final class HTTPReceiver: Sendable {
    public struct Configuration: Sendable {
        public var host: String = "127.0.0.1"
        public var port: Int
        public var token: String?
        public var maxBodyBytes: Int = 8 << 20
        public var coreMotionSign = false
        public var idleTimeout: Int64 = 30
        public init(host: String = "127.0.0.1", port: Int, token: String? = nil) {
            self.host = host; self.port = port; self.token = token
        }
    }

    public let configuration: Configuration
    let channel: Channel

    public init(configuration: Configuration, session: RecordingSession, group: EventLoopGroup, log: RateLimitedLog) throws {
        self.configuration = configuration
        let c = configuration
        let shared = SensorLoggerState()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let ops = channel.pipeline.syncOperations
                    try ops.addHandler(IdleStateHandler(readTimeout: .seconds(c.idleTimeout)))
                    try ops.configureHTTPServerPipeline(withErrorHandling: true)
                    try ops.addHandler(SensorLoggerHTTPHandler(configuration: c, session: session, shared: shared, log: log))
                }
            }
            .childChannelOption(.maxMessagesPerRead, value: 16)
        channel = try bootstrap.bind(host: c.host, port: c.port).wait()
    }

    public var port: Int { channel.localAddress?.port ?? configuration.port }

    public func close() { try? channel.close().wait() }
}

/// Sources and recently seen message ids, shared by all connections.
final class SensorLoggerState: @unchecked Sendable {
    let lock = NSLock()
    var seen: [String: (ring: [Int64], set: Set<Int64>, next: Int)] = [:]
    static let remembered = 1024

    /// True when `id` was not seen before in `session` (and remembers it).
    func firstTime(session: String, id: Int64) -> Bool {
        lock.lock(); defer { lock.unlock() }
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
    let log: RateLimitedLog
    var head: HTTPRequestHead?
    var body: [UInt8] = []
    var tooLarge = false

    init(configuration: HTTPReceiver.Configuration, session: RecordingSession, shared: SensorLoggerState, log: RateLimitedLog) {
        self.configuration = configuration; self.session = session; self.shared = shared; self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h; body.removeAll(keepingCapacity: true); tooLarge = false
            if let len = h.headers.first(name: "content-length").flatMap(Int.init), len > configuration.maxBodyBytes {
                tooLarge = true
                session.count(.bad("too large"))
                log("http: body over \(configuration.maxBodyBytes) bytes refused")
                respond(context, .payloadTooLarge, "body over \(configuration.maxBodyBytes) bytes", close: true)
            }
        case .body(let b):
            if tooLarge { return }
            if body.count + b.readableBytes > configuration.maxBodyBytes {
                tooLarge = true
                body = []
                session.count(.bad("too large"))
                log("http: body over \(configuration.maxBodyBytes) bytes refused")
                respond(context, .payloadTooLarge, "body over \(configuration.maxBodyBytes) bytes", close: true)
                return
            }
            b.withUnsafeReadableBytes { body.append(contentsOf: $0) }
        case .end:
            if tooLarge { return }
            guard let h = head else { return }
            handle(context, h)
        }
    }

    func handle(_ context: ChannelHandlerContext, _ h: HTTPRequestHead) {
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
                respond(context, .unauthorized, "token required")
                return
            }
        }
        guard h.method == .POST else {
            if h.method == .GET { respond(context, .ok, "motus record: POST Sensor Logger JSON here") } else {
                respond(context, .methodNotAllowed, "POST only")
            }
            return
        }
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
        batch.source = session.registerSource(key: key, description: "http sensorlogger device \(env.deviceId ?? "?") session \(env.sessionId ?? "?"); clock: UTC epoch s")
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
        log("http: \(error)")
        context.close(promise: nil)
    }
}
