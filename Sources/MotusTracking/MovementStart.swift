import MotusCore

/// A movement that began at `start` (s; −∞ before one), and the latest vertical peak of the
/// bout it began (the start, then peaks of at least `SilentWalk.minimumPeakToPeak` with no
/// pause of the bout gap between them; −∞ once a pause ended it): the live check's bout after
/// standing up, or after rest.
///
/// The session tells a start as it happens (`tell`), but the live check examines the vertical
/// detector's peaks seconds later (each is reported about 4 s after it). A start told is kept
/// until the examination reaches its time (`reach`), so each peak is judged against the last
/// start before it: a short walk from rest, with rest again after it before its first peak is
/// examined, still follows the rest before it. Fixed storage: allocates nothing after `init`.
struct MovementStart: Sendable {
    var start = -Double.infinity
    var boutEnd = -Double.infinity
    /// Starts told and not reached yet, oldest first: stretches of consecutive tells (the first
    /// and last time of each; ring of `capacity`).
    var pendingFirst: [Double], pendingLast: [Double]
    var pendingStart = 0, pendingEnd = 0
    static let capacity = 32
    /// Whether tells that follow each other at the tells' own spacing form one stretch (frames
    /// at rest, told one by one), or each is a start of its own (changes of posture).
    let mergesConsecutive: Bool
    /// The latest time told, and the smallest spacing between two tells seen (the session's
    /// frame period, for `mergesConsecutive`).
    var lastTold = -Double.infinity, spacing = Double.infinity

    init(mergesConsecutive: Bool) {
        self.mergesConsecutive = mergesConsecutive
        pendingFirst = [Double](repeating: 0, count: Self.capacity)
        pendingLast = pendingFirst
    }

    /// A start at `time` (s), in time order; the same time told again, or an earlier one,
    /// changes nothing. It takes effect once `reach` passes it.
    mutating func tell(_ time: Seconds) {
        guard time > lastTold else { return }
        if lastTold.isFinite { spacing = Swift.min(spacing, time - lastTold) }
        defer { lastTold = time }
        let n = Self.capacity
        // A tell one spacing after the newest stretch continues it; so does any tell when
        // the ring is full (the newest stretch then ends later: bounded storage).
        if pendingEnd > pendingStart {
            let newest = (pendingEnd - 1) % n
            if (mergesConsecutive && time - pendingLast[newest] <= 1.5 * spacing) || pendingEnd - pendingStart == n {
                pendingLast[newest] = time
                return
            }
        }
        pendingFirst[pendingEnd % n] = time; pendingLast[pendingEnd % n] = time
        pendingEnd += 1
    }

    /// The examination has reached `time` (s): the starts told up to it take effect, the last
    /// of them (for a stretch that goes on past `time`, `time` itself) beginning the bout.
    mutating func reach(_ time: Seconds) {
        let n = Self.capacity
        while pendingStart < pendingEnd {
            let i = pendingStart % n
            guard pendingFirst[i] <= time else { return }
            began(at: Swift.min(pendingLast[i], time))
            guard pendingLast[i] <= time else { return }
            pendingStart += 1
        }
    }

    /// A new start at `time`; the same start again changes nothing.
    private mutating func began(at time: Seconds) {
        guard time != start else { return }
        start = time; boutEnd = time
    }

    /// A peak at `time` of at least the minimum swing carries the bout on, unless a pause of
    /// more than `gap` (s) ended it.
    mutating func peak(at time: Seconds, gap: Seconds) {
        guard time >= start else { return }
        boutEnd = time - Swift.max(boutEnd, start) <= gap ? time : -.infinity
    }

    /// Whether `time` lies in the bout.
    func contains(_ time: Seconds) -> Bool { time >= start && time <= boutEnd }
}
