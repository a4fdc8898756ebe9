import MotusCore
import MotusIO
import NIOCore
import NIOPosix

/// The UDP packet formats `motus record --source udp` understands.
public enum PacketFormat: String, Sendable, CaseIterable {
    case hyperimu, sensorstream
}

/// Receives HyperIMU or SensorStream datagrams on a UDP port (SwiftNIO) and feeds the
/// session. Each sender (address and port) is a source with its own parser state and its own
/// streams. Datagrams larger than `maxPacketBytes` are counted as malformed and not read.
/// A datagram that does not parse is counted and logged; nothing here stops the recording.
/// Senders beyond the session's `maxSources` are not taken: their packets are counted as
/// refused (`Stats.refusedPackets`) and logged at a bounded rate, and nothing is kept per
/// refused sender, so packets from thousands of ports cannot make thousands of streams.
public final class UDPReceiver: Sendable {
    public struct Configuration: Sendable {
        public var host: String = "127.0.0.1"
        public var port: Int
        public var format: PacketFormat
        /// HyperIMU sensor order (`--sensors`); nil: header line or the default.
        public var hyperIMUSensors: [StreamKind?]?
        public var maxPacketBytes: Int = 4096
        /// Asked of the kernel for the socket's receive buffer (absorbs writer hiccups).
        public var receiveBufferBytes: Int = 8 << 20
        public init(host: String = "127.0.0.1", port: Int, format: PacketFormat, hyperIMUSensors: [StreamKind?]? = nil) {
            self.host = host; self.port = port; self.format = format; self.hyperIMUSensors = hyperIMUSensors
        }
    }

    public let configuration: Configuration
    let session: RecordingSession
    let log: RateLimitedLog
    let channel: Channel

    /// Binds the port and starts receiving. Throws when the address cannot be bound.
    public init(configuration: Configuration, session: RecordingSession, group: EventLoopGroup, log: RateLimitedLog) throws {
        self.configuration = configuration; self.session = session; self.log = log
        let slots = 16
        let c = configuration
        let bootstrap = DatagramBootstrap(group: group)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(.datagramVectorReadMessageCount, value: slots)
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: slots * (c.maxPacketBytes + 1)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(UDPHandler(configuration: c, session: session, log: log))
                }
            }
        channel = try bootstrap.bind(host: c.host, port: c.port).wait()
        // Ask for a large receive buffer; SO_RCVBUFFORCE passes the system cap when allowed.
        #if os(Linux)
        let force = ChannelOptions.Types.SocketOption(level: NIOBSDSocket.OptionLevel(rawValue: CInt(SOL_SOCKET)), name: NIOBSDSocket.Option(rawValue: CInt(SO_RCVBUFFORCE)))
        if (try? channel.setOption(force, value: SocketOptionValue(c.receiveBufferBytes)).wait()) == nil {
            _ = try? channel.setOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(c.receiveBufferBytes)).wait()
        }
        #else
        _ = try? channel.setOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(c.receiveBufferBytes)).wait()
        #endif
    }

    /// The port actually bound (useful with port 0).
    public var port: Int { channel.localAddress?.port ?? configuration.port }

    public func close() { try? channel.close().wait() }
}

final class UDPHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    let configuration: UDPReceiver.Configuration
    let session: RecordingSession
    let log: RateLimitedLog
    final class Peer {
        let source: Int
        var hyperIMU: HyperIMUParser
        var sensorStream = SensorStreamParser()
        var batch: SampleBatch
        init(source: Int, sensors: [StreamKind?]?) {
            self.source = source; hyperIMU = HyperIMUParser(sensors: sensors); batch = SampleBatch(source: source)
        }
    }
    var peers: [SocketAddress: Int] = [:]
    var state: [Peer] = []
    var pending: [Int] = []   // peers with samples waiting for channelReadComplete

    init(configuration: UDPReceiver.Configuration, session: RecordingSession, log: RateLimitedLog) {
        self.configuration = configuration; self.session = session; self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let now = wallClock()
        let k: Int
        if let i = peers[envelope.remoteAddress] { k = i } else {
            let desc = "udp \(configuration.format.rawValue) from \(envelope.remoteAddress.ipAddress ?? "?"):\(envelope.remoteAddress.port ?? 0)"
            let clock = configuration.format == .hyperimu ? "phone epoch s (receive time when no timestamp)" : "phone s since boot"
            guard let src = session.registerSource(key: "\(envelope.remoteAddress)", description: desc + "; clock: " + clock) else {
                session.countRefusedPacket()
                log("udp: packet from \(envelope.remoteAddress) refused: the recorder takes at most \(session.configuration.maxSources) senders (--max-sources)")
                return
            }
            k = state.count
            peers[envelope.remoteAddress] = k
            state.append(Peer(source: src, sensors: configuration.hyperIMUSensors))
        }
        let buffer = envelope.data
        if buffer.readableBytes > configuration.maxPacketBytes {
            session.count(ParseOutcome.bad("too large"))
            log("udp: packet over \(configuration.maxPacketBytes) bytes from \(envelope.remoteAddress) not read")
            return
        }
        let peer = state[k]
        if peer.batch.isEmpty { pending.append(k) }
        peer.batch.receivedAt = now
        let format = configuration.format
        let outcome: ParseOutcome = buffer.withUnsafeReadableBytes { raw in
            let p = raw.bindMemory(to: UInt8.self)
            switch format {
            case .hyperimu: return peer.hyperIMU.parse(p, receivedAt: now, into: &peer.batch)
            case .sensorstream: return peer.sensorStream.parse(p, into: &peer.batch)
            }
        }
        if outcome.malformed > 0 || outcome.warning != nil {
            session.count(outcome)
            let what = outcome.malformed > 0 ? "malformed packet" : "packet partly read"
            log("udp \(envelope.remoteAddress): \(what): \(outcome.warning ?? "")")
        }
        // Hand over in good-sized batches even inside one long read burst.
        if state[k].batch.count >= 512 { submit(k) }
    }

    func submit(_ k: Int) {
        let peer = state[k]
        if peer.batch.isEmpty { return }
        session.submit(peer.batch)
        peer.batch = SampleBatch(source: peer.source)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        for k in pending { submit(k) }
        pending.removeAll(keepingCapacity: true)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A UDP socket error (e.g. ICMP unreachable) is not fatal for a listener.
        log("udp: \(error)")
    }
}
