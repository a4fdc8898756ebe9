import Foundation
import MotusCore

/// Logs problems (malformed packets, connection errors) without flooding: at most
/// `perSecond` lines a second; the rest are counted and summarised in the next line. Messages
/// quote what clients sent, so control characters are escaped: a packet cannot write escape
/// sequences into the operator's terminal.
public final class RateLimitedLog: @unchecked Sendable {
    let sink: @Sendable (String) -> Void
    let perSecond: Int
    let lock = NSLock()
    var windowStart = 0.0
    var inWindow = 0
    var suppressed = 0

    public init(perSecond: Int = 5, sink: @escaping @Sendable (String) -> Void) {
        self.perSecond = perSecond; self.sink = sink
    }

    public func callAsFunction(_ message: @autoclosure () -> String) {
        lock.lock()
        let now = monotonicClock()
        if now - windowStart >= 1 { windowStart = now; inWindow = 0 }
        guard inWindow < perSecond else { suppressed += 1; lock.unlock(); return }
        inWindow += 1
        let extra = suppressed > 0 ? " (\(suppressed) similar messages not shown)" : ""
        suppressed = 0
        lock.unlock()
        sink((message() + extra).escapingControlCharacters)
    }
}
