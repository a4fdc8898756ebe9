import MotusCore

/// Live feature extraction, one frame at a time, giving the same vectors as
/// `FeatureExtractor` on the same frames (same kernel, same channel values: bit for bit).
///
/// Windows start at frames 0, H, 2H, … counted from the first frame pushed (or the last
/// `reset`). Each channel keeps the last N values in a mirrored ring of 2N slots (every value
/// is written at i and i + N), so the newest window is always contiguous and the kernel reads
/// it in place. Storage, FFT tables and scratch are allocated at init: `push` and
/// `features(into:)` allocate nothing. Cost: O(channels) per frame, one kernel run per window.
public struct StreamingFeatureExtractor: Sendable {
    /// What is computed.
    public let configuration: FeatureConfiguration
    private var kernel: WindowKernel
    private let channels: [FeatureChannel]
    private let n: Int, hop: Int
    private var ring: [Double]            // channels × 2N
    /// When N = 2H (`kernel.blockLength` > 0): each channel's hop blocks sorted, block b in
    /// slot b mod 2 (`kernel.blockSlotLength` per slot: sorted values, then block sums), done
    /// once, when a window first needs it.
    private var sorted: [Double]
    private var sortedBlock: (Int, Int) = (-1, -1)   // block index held by slot 0 and slot 1
    /// Frames pushed since init or `reset`.
    public private(set) var framesSeen = 0
    private var ready = false

    /// Throws when the configuration is invalid.
    public init(configuration: FeatureConfiguration) throws(FeatureError) {
        try configuration.validate()
        self.configuration = configuration
        kernel = WindowKernel(configuration)
        channels = configuration.channels
        n = configuration.windowLength
        hop = configuration.hopLength
        ring = [Double](repeating: 0, count: channels.count * 2 * n)
        sorted = [Double](repeating: 0, count: 2 * kernel.blockSlotLength)
    }

    /// Features per window.
    public var featureCount: Int { configuration.featureCount }
    /// `channel.feature` names, in column order.
    public var featureNames: [String] { configuration.featureNames }

    /// True between a `push` that completed a window and the next `push`.
    public var windowReady: Bool { ready }
    /// Index (in frames pushed) of the first frame of the latest completed window.
    public var windowStartFrame: Int { framesSeen - n }

    /// Starts over: the next window begins with the next frame (as after a gap).
    public mutating func reset() { framesSeen = 0; ready = false; sortedBlock = (-1, -1) }

    /// Adds one frame; returns true when it completes a window (then call `features(into:)`
    /// before the next push).
    @discardableResult
    public mutating func push(_ frame: MotionFrame) -> Bool {
        let pos = framesSeen % n
        let twoN = 2 * n
        let count = channels.count
        channels.withUnsafeBufferPointer { chs in
            ring.withUnsafeMutableBufferPointer { rb in
                let r = rb.baseAddress!
                for c in 0..<count {
                    let v = frame.value(chs[c])
                    r[c * twoN + pos] = v
                    r[c * twoN + pos + n] = v
                }
            }
        }
        framesSeen += 1
        ready = framesSeen >= n && (framesSeen - n) % hop == 0
        return ready
    }

    /// Writes the latest window's `featureCount` values. Precondition: `windowReady` and
    /// `out.count ≥ featureCount`.
    public mutating func features(into out: UnsafeMutableBufferPointer<Double>) {
        precondition(ready, "no completed window since the last push")
        precondition(out.count >= kernel.featureCount, "output buffer too small")
        let start = framesSeen % n     // oldest frame of the window, in the first copy
        let stride = 2 * n
        let h = kernel.blockLength
        guard h > 0 else {
            ring.withUnsafeBufferPointer { rb in
                kernel.compute(base: rb.baseAddress! + start, stride: stride, into: out.baseAddress!)
            }
            return
        }
        // The window is blocks b − 1 and b (frames counted from the first push).
        let b = framesSeen / h - 1
        let slot = kernel.blockSlotLength
        ring.withUnsafeBufferPointer { rb in
            sorted.withUnsafeMutableBufferPointer { sb in
                let first = sb.baseAddress! + ((b - 1) & 1) * slot, second = sb.baseAddress! + (b & 1) * slot
                let held = ((b - 1) & 1) == 0 ? sortedBlock.0 : sortedBlock.1
                if held != b - 1 { kernel.sortBlocks(base: rb.baseAddress! + start, stride: stride, into: first) }
                kernel.sortBlocks(base: rb.baseAddress! + start + h, stride: stride, into: second)
                kernel.compute(base: rb.baseAddress! + start, stride: stride, sortedFirst: first, sortedSecond: second,
                               into: out.baseAddress!)
            }
        }
        if b & 1 == 0 { sortedBlock.0 = b; sortedBlock.1 = b - 1 } else { sortedBlock.1 = b; sortedBlock.0 = b - 1 }
    }

    /// The latest window's features as an array (allocates; for tests and tools).
    public mutating func features() -> [Double] {
        var v = [Double](repeating: 0, count: featureCount)
        v.withUnsafeMutableBufferPointer { features(into: $0) }
        return v
    }
}
