import Foundation
import MotusIO
@testable import MotusRecorder

enum TestData {
    static let packageRoot = DatasetLocator.packageRoot(fromFile: #filePath)
    static let shared: String? = {
        let s = DatasetLocator.sharedDatasets(packageRoot: packageRoot)
        if s == nil { print("skipping tests on real app files: ../shared/datasets not found (set MOTUS_DATASETS)") }
        return s
    }()

    static func tempDir() -> String {
        let dir = NSTemporaryDirectory() + "motus-recorder-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The built `motus` executable (`swift build` / `swift test` build it), or nil.
    static var binary: String? {
        for c in [".build/debug/motus", ".build/release/motus"] where FileManager.default.isExecutableFile(atPath: packageRoot + "/" + c) {
            return packageRoot + "/" + c
        }
        print("skipping: the motus binary is not built (run swift build)")
        return nil
    }
}

/// A UDP socket that sends to 127.0.0.1:port.
final class UDPSender {
    let fd: Int32
    var addr = sockaddr_in()
    init(port: Int) {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    }
    @discardableResult
    func send(_ s: String) -> Bool {
        var bytes = Array(s.utf8)
        return withUnsafePointer(to: &addr) { a in
            a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                sendto(fd, &bytes, bytes.count, 0, sa, socklen_t(MemoryLayout<sockaddr_in>.size)) == bytes.count
            }
        }
    }
    deinit { close(fd) }
}

/// One HTTP/1.1 request over a plain socket to 127.0.0.1; returns the status code and body.
func httpRequest(port: Int, method: String = "POST", path: String = "/data", headers: [String] = [], body: [UInt8] = []) -> (Int, String)? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let ok = withUnsafePointer(to: &addr) { a in
        a.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard ok else { return nil }
    var tv = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
    for h in headers { head += h + "\r\n" }
    head += "\r\n"
    var all = Array(head.utf8) + body
    var off = 0
    while off < all.count {
        let n = all.withUnsafeMutableBytes { send(fd, $0.baseAddress! + off, $0.count - off, Int32(MSG_NOSIGNAL)) }
        if n <= 0 { break }
        off += n
    }
    var reply: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = recv(fd, &buf, buf.count, 0)
        if n <= 0 { break }
        reply += buf[0..<n]
    }
    let text = String(decoding: reply, as: UTF8.self)
    guard text.hasPrefix("HTTP/1.1 "), let code = Int(text.dropFirst(9).prefix(3)) else { return nil }
    let bodyText = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
    return (code, bodyText)
}

/// A fake phyphox phone: answers `/config` and `/get?…` on 127.0.0.1 from a thread, one
/// connection per request. Serves an accelerometer time series that grows by `perPoll`
/// samples each poll, answering `full` or `partial` requests as phyphox does.
final class FakePhyphox: @unchecked Sendable {
    let fd: Int32
    let port: Int
    let lock = NSLock()
    var stopped = false
    var produced = 0
    let perPoll: Int
    let rate = 100.0
    var requests: [String] = []

    init(perPoll: Int = 5) {
        self.perPoll = perPoll
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &addr) { a in a.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        listen(fd, 16)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { a in a.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        port = Int(UInt16(bigEndian: addr.sin_port))
        start()
    }

    func start() {
        let t = Thread { [self] in self.serve() }
        t.start()
    }

    func stop() { lock.lock(); stopped = true; lock.unlock(); shutdown(fd, Int32(SHUT_RDWR)); close(fd) }

    func value(_ i: Int) -> (Double, Double, Double, Double) { (Double(i) / rate, Double(i) * 0.01, 9.81, -Double(i) * 0.001) }

    func serve() {
        while true {
            let c = accept(fd, nil, nil)
            if c < 0 { return }
            var req: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: req, as: UTF8.self).contains("\r\n\r\n") {
                let n = recv(c, &buf, buf.count, 0)
                if n <= 0 { break }
                req += buf[0..<n]
            }
            let line = String(decoding: req, as: UTF8.self).split(separator: "\r\n").first.map(String.init) ?? ""
            let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            lock.lock(); requests.append(path); lock.unlock()
            let body: String
            if path == "/config" {
                body = #"{"title":"Acceleration with g","inputs":[{"source":"accelerometer","outputs":[{"x":"accX"},{"y":"accY"},{"z":"accZ"},{"t":"acc_time"}]}]}"#
            } else if path.hasPrefix("/get?") {
                lock.lock(); produced += perPoll; let n = produced; lock.unlock()
                // `acc_time=<t>` asks for values after t; `full` for everything.
                var after = -Double.infinity
                if let r = path.range(of: "acc_time="), let end = path[r.upperBound...].split(separator: "&").first, end != "full" {
                    after = Double(end) ?? -Double.infinity
                }
                var t: [String] = [], x: [String] = [], y: [String] = [], z: [String] = []
                for i in 0..<n where value(i).0 > after {
                    let v = value(i)
                    t.append("\(v.0)"); x.append("\(v.1)"); y.append("\(v.2)"); z.append("\(v.3)")
                }
                let mode = after == -Double.infinity ? "full" : "partial"
                func buf(_ a: [String]) -> String { "{\"size\":0,\"updateMode\":\"\(mode)\",\"buffer\":[\(a.joined(separator: ","))]}" }
                body = "{\"buffer\":{\"acc_time\":\(buf(t)),\"accX\":\(buf(x)),\"accY\":\(buf(y)),\"accZ\":\(buf(z))},\"status\":{\"session\":\"s1\",\"measuring\":true,\"timedRun\":false,\"countDown\":0}}"
            } else {
                body = "{}"
            }
            let reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
            var bytes = Array(reply.utf8)
            _ = send(c, &bytes, bytes.count, Int32(MSG_NOSIGNAL))
            close(c)
            lock.lock(); let s = stopped; lock.unlock()
            if s { return }
        }
    }
}

/// A TCP connection to 127.0.0.1 driven byte by byte (for slow or hostile HTTP clients).
final class RawConnection {
    let fd: Int32
    let connected: Bool
    init(port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        connected = withUnsafePointer(to: &addr) { a in
            a.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
    @discardableResult
    func send(_ s: String) -> Bool {
        var bytes = Array(s.utf8)
        return Foundation.send(fd, &bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count
    }
    /// What arrives until the peer closes or `seconds` pass; `closed` tells which.
    func receive(for seconds: Double) -> (text: String, closed: Bool) {
        var reply: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        let end = monotonicClock() + seconds
        while true {
            let left = end - monotonicClock()
            if left <= 0 { return (String(decoding: reply, as: UTF8.self), false) }
            var tv = timeval(tv_sec: Int(left), tv_usec: Int((left - Double(Int(left))) * 1e6))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            let n = recv(fd, &buf, buf.count, 0)
            if n > 0 { reply += buf[0..<n]; continue }
            if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return (String(decoding: reply, as: UTF8.self), true) }
        }
    }
    deinit { close(fd) }
}
