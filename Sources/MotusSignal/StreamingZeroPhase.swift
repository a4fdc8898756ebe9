import MotusCore

/// Zero-phase filtering of a stream with a bounded delay: the forwards-backwards filtering of
/// `BiquadCascade.filteredZeroPhase`, for samples that keep coming.
///
/// The forward pass is causal and runs once per sample. Every `hopSamples` samples the backward
/// pass runs over the newest samples, starting past the newest at the end a whole signal would
/// have: the signal's odd reflection (as `filteredZeroPhase` pads), forward-filtered, then each
/// section started in its steady state. The backward pass forgets that made-up end within a few
/// time constants of the filter, so samples `delaySamples` or more behind the newest are taken as
/// final: `push` says how many became final, `output(_:)` reads them. `finish()` makes the rest
/// final, filtered as a whole
/// signal's end is. Away from the stream's start (where the forward pass starts in the steady
/// state of the first sample, without padding) and given a delay of a few of the filter's time
/// constants, the output is that of `filteredZeroPhase` over the whole stream to within the
/// transient left at the delay. Fixed storage: allocates nothing after `init`.
public struct StreamingZeroPhaseFilter: Sendable {
    let sections: [Biquad]
    let delay: Int, hop: Int, pad: Int
    /// The forward pass's state; scratch states for the padded end and the backward pass.
    var forwardState: [Biquad], endState: [Biquad], backState: [Biquad]
    /// The newest samples and their forward-filtered values (rings of `capacity`).
    var raw: [Double], forward: [Double]
    let capacity: Int
    /// Scratch: the padded end, the backward pass's output.
    var tail: [Double], backward: [Double]
    /// Samples pushed.
    public private(set) var count = 0
    /// Samples whose output is final (indices from 0, in push order).
    public private(set) var finalCount = 0
    /// The first sample made final by the last `push` or `finish`.
    public private(set) var newlyFinal = 0

    /// A filter of `cascade` whose output is final `delaySamples` behind the newest sample,
    /// computed every `hopSamples` (both at least 1).
    public init(_ cascade: BiquadCascade, delaySamples: Int, hopSamples: Int) {
        sections = cascade.sections
        delay = Swift.max(1, delaySamples)
        hop = Swift.max(1, hopSamples)
        pad = 3 * (2 * cascade.sections.count + 1)
        forwardState = cascade.sections
        endState = cascade.sections
        backState = cascade.sections
        capacity = Swift.max(pad + 1, delay + hop + 1)
        raw = [Double](repeating: 0, count: capacity)
        forward = [Double](repeating: 0, count: capacity)
        tail = [Double](repeating: 0, count: pad)
        backward = [Double](repeating: 0, count: capacity + pad)
    }

    /// Adds the next sample; returns how many samples became final by it: `newlyFinal ..<
    /// finalCount` (read them with `output(_:)`).
    @discardableResult
    public mutating func push(_ x: Double) -> Int {
        if count == 0 {
            var level = x
            for k in sections.indices {
                forwardState[k].reset(); forwardState[k].prime(with: level)
                level *= sections[k].dcGain
            }
        }
        var y = x
        for k in forwardState.indices { y = forwardState[k].process(y) }
        raw[count % capacity] = x
        forward[count % capacity] = y
        count += 1
        guard count % hop == 0 && count - delay > finalCount else { return 0 }
        settle(upTo: count - delay)
        return finalCount - newlyFinal
    }

    /// The end of the stream: every sample becomes final; returns how many became so now.
    @discardableResult
    public mutating func finish() -> Int {
        guard count > finalCount else { return 0 }
        settle(upTo: count)
        return finalCount - newlyFinal
    }

    /// The output of sample `i`, one of those the last `push` or `finish` made final
    /// (`newlyFinal ..< finalCount`).
    public func output(_ i: Int) -> Double {
        precondition(i >= newlyFinal && i < finalCount, "only the samples made final by the last push are kept")
        return backward[i - newlyFinal]
    }

    /// Runs the backward pass from the padded end down to the first sample not final yet, and
    /// makes those before `upTo` final.
    mutating func settle(upTo: Int) {
        let n = count, p = Swift.min(pad, n - 1)
        // The odd reflection of the newest samples, through a copy of the forward pass.
        // (Element-wise copies into the scratch states: no array is copied, nothing allocated.)
        for k in sections.indices { endState[k] = forwardState[k] }
        for i in 0..<p {
            var y = 2 * raw[(n - 1) % capacity] - raw[(n - 2 - i) % capacity]
            for k in endState.indices { y = endState[k].process(y) }
            tail[i] = y
        }
        // Backwards from the end of the padding, each section from its steady state.
        var level = p > 0 ? tail[p - 1] : forward[(n - 1) % capacity]
        for k in sections.indices {
            backState[k] = sections[k]
            backState[k].reset(); backState[k].prime(with: level)
            level *= sections[k].dcGain
        }
        for i in Swift.stride(from: p - 1, through: 0, by: -1) {
            var y = tail[i]
            for k in backState.indices { y = backState[k].process(y) }
        }
        let first = finalCount
        for j in Swift.stride(from: n - 1, through: first, by: -1) {
            var y = forward[j % capacity]
            for k in backState.indices { y = backState[k].process(y) }
            backward[j - first] = y
        }
        newlyFinal = first
        finalCount = upTo
    }
}
