import Foundation
import MotusCore
import MotusIO
import NIOCore
import NIOPosix

/// Everything `motus record` needs, as data.
public struct RecorderOptions: Sendable {
    public enum Source: Sendable {
        case stdin(format: StdinFormat, options: DelimitedOptions)
        case udp(port: Int, format: PacketFormat, sensors: [StreamKind?]?)
        case http(port: Int, token: String?)
        case phyphox(url: String, pollInterval: Double)
    }
    public var source: Source
    /// Address the network sources listen on; loopback unless said otherwise.
    public var bind: String = "127.0.0.1"
    /// A folder (a `recording-<UTC time>.motus` file is created in it) or a `.motus` path.
    public var out: String
    public var metadata = RecordingMetadata()
    public var fixedLabel: String?
    /// Negate acceleration and gravity (iOS Sensor Logger without standardisation).
    public var coreMotionSign = false
    public var maxLineBytes = 64 << 10
    public var maxBodyBytes = 8 << 20
    public var maxPacketBytes = 4096
    public var queueCapacity = 1 << 18
    /// Senders (UDP address and port, HTTP device) taken; packets from more are refused.
    public var maxSources = 64
    /// HTTP connections open at once.
    public var maxConnections = 32
    /// Seconds an HTTP connection may take to send its request headers.
    public var headerTimeout = 5.0
    public init(source: Source, out: String) { self.source = source; self.out = out }
}

/// A recorder problem that is not a write error: a folder that cannot be made, a bad URL.
public struct RecorderError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// Starts a session and its source; stops them. The CLI adds signals, the status line and keys.
public final class Recorder: @unchecked Sendable {
    public let options: RecorderOptions
    public let session: RecordingSession
    public let path: String
    let log: RateLimitedLog
    var group: MultiThreadedEventLoopGroup?
    var udp: UDPReceiver?
    var http: HTTPReceiver?
    var lines: LineSource?
    var poller: PhyphoxPoller?
    let lock = NSLock()
    var ended = false

    /// Creates the output file (the folder too, when missing). Throws `NativeWriter.WriteError`
    /// or `RecorderError` when it cannot be written, or when `--out` names a file that exists.
    public init(options: RecorderOptions, log: RateLimitedLog) throws {
        self.options = options
        self.log = log
        var isDir: ObjCBool = false
        let path: String
        if options.out.hasSuffix(".motus") || (FileManager.default.fileExists(atPath: options.out, isDirectory: &isDir) && !isDir.boolValue) {
            // A recorder never loses what was recorded before: an existing file is not opened
            // for writing (a folder gives each recording a new name instead).
            if FileManager.default.fileExists(atPath: options.out) {
                throw RecorderError("\(options.out): found an existing file, expected a new file name or a folder (a recording is never overwritten)")
            }
            path = options.out
        } else {
            if !FileManager.default.fileExists(atPath: options.out) {
                do { try FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true) } catch {
                    throw RecorderError("\(options.out): cannot create the folder: \(Recorder.reason(error))")
                }
            }
            path = RecordingSession.outputPath(folder: options.out, start: wallClock())
        }
        self.path = path
        var cfg = RecordingSession.Configuration(path: path, metadata: options.metadata, fixedLabel: options.fixedLabel)
        cfg.queueCapacity = options.queueCapacity
        cfg.maxSources = options.maxSources
        if cfg.metadata.source == nil {
            switch options.source {
            case .stdin: cfg.metadata.source = "motus record: standard input"
            case .udp(_, let f, _): cfg.metadata.source = "motus record: udp \(f.rawValue)"
            case .http: cfg.metadata.source = "motus record: http sensorlogger"
            case .phyphox(let u, _): cfg.metadata.source = "motus record: phyphox \(u)"
            }
        }
        session = try RecordingSession(configuration: cfg)
    }

    static func reason(_ e: Error) -> String {
        if let e = e as? CocoaError, let u = e.userInfo[NSUnderlyingErrorKey] as? NSError {
            return String(cString: strerror(Int32(u.code)))
        }
        return "\(e.localizedDescription)"
    }

    /// The port a network source listens on (after `start`).
    public var port: Int? { udp?.port ?? http?.port }

    /// Starts receiving. Throws when a port cannot be bound or a URL is wrong.
    public func start(onEnd: @escaping @Sendable () -> Void = {}) throws {
        switch options.source {
        case .stdin(let format, let o):
            let l = LineSource(fd: 0, format: format, options: o, coreMotionSign: options.coreMotionSign,
                               maxLineBytes: options.maxLineBytes, session: session, log: log)
            l.onEnd = onEnd
            lines = l
            l.start()
        case .udp(let port, let format, let sensors):
            let g = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            group = g
            var c = UDPReceiver.Configuration(host: options.bind, port: port, format: format, hyperIMUSensors: sensors)
            c.maxPacketBytes = options.maxPacketBytes
            udp = try UDPReceiver(configuration: c, session: session, group: g, log: log)
        case .http(let port, let token):
            let g = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            group = g
            var c = HTTPReceiver.Configuration(host: options.bind, port: port, token: token)
            c.maxBodyBytes = options.maxBodyBytes
            c.maxConnections = options.maxConnections
            c.headerTimeout = options.headerTimeout
            c.coreMotionSign = options.coreMotionSign
            http = try HTTPReceiver(configuration: c, session: session, group: g, log: log)
        case .phyphox(let url, let interval):
            let g = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            group = g
            let p = try PhyphoxPoller(url: url, pollInterval: interval, session: session, group: g, log: log)
            poller = p
            p.start()
        }
    }

    /// Stops the source, writes what is queued and closes the file.
    @discardableResult
    public func stop() throws(NativeWriter.WriteError) -> RecordingSession.Stats {
        lock.lock()
        let first = !ended
        ended = true
        lock.unlock()
        if first {
            poller?.stop()
            udp?.close()
            http?.close()
            try? group?.syncShutdownGracefully()
        }
        return try session.finish()
    }
}
