import Testing
@testable import MotusTracking

/// The live check's bout after rest or a change of posture (`MovementStart`): starts told as
/// they happen take effect when the examination reaches their time.
struct MovementStartTests {
    /// Frames at rest every 0.02 s make stretches; a peak is judged against the last rest frame
    /// before it, whatever was told after it.
    @Test func restFramesTakeEffectWhenReached() {
        var rest = MovementStart(mergesConsecutive: true)
        for k in 0...50 { rest.tell(Double(k) * 0.02) }          // at rest 0–1 s
        for k in 150...200 { rest.tell(Double(k) * 0.02) }       // and again 3–4 s
        #expect(rest.start == -.infinity, "nothing takes effect before it is reached")
        rest.reach(2)
        #expect(rest.start == 1, "the last rest frame before 2 s, not the one at 4 s")
        rest.peak(at: 1.5, gap: 2)
        #expect(rest.contains(1.2) && rest.contains(1.5) && !rest.contains(0.9))
        // Inside the second stretch the bout starts at the examined time, after it at its end.
        rest.reach(3.5)
        #expect(rest.start == 3.5)
        rest.reach(5)
        #expect(rest.start == 4)
        #expect(rest.pendingStart == rest.pendingEnd, "every stretch taken")
    }

    /// Changes of posture are starts of their own, the same one told again counts once, and a
    /// full ring keeps its oldest starts, the newest extending its last entry.
    @Test func changesOfPostureStayApartAndTheRingIsBounded() {
        var posture = MovementStart(mergesConsecutive: false)
        posture.tell(1); posture.tell(1); posture.tell(1.02); posture.tell(5)
        #expect(posture.pendingEnd - posture.pendingStart == 3)
        posture.reach(3)
        #expect(posture.start == 1.02)
        posture.reach(6)
        #expect(posture.start == 5)
        var many = MovementStart(mergesConsecutive: false)
        for k in 0..<40 { many.tell(Double(k)) }
        #expect(many.pendingEnd - many.pendingStart == MovementStart.capacity)
        many.reach(10.5)
        #expect(many.start == 10)
        many.reach(100)
        #expect(many.start == 39 && many.pendingStart == many.pendingEnd)
    }
}
