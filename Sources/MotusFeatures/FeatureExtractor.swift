#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import MotusCore
import MotusSignal

/// A raw pointer handed to `concurrentPerform` workers that write disjoint ranges.
struct UnsafeSendablePointer: @unchecked Sendable {
    let pointer: UnsafePointer<Double>
    init(_ p: UnsafePointer<Double>) { pointer = p }
    init(_ p: UnsafeMutablePointer<Double>) { pointer = UnsafePointer(p) }
    var mutable: UnsafeMutablePointer<Double> { UnsafeMutablePointer(mutating: pointer) }
}

/// Feature vectors of consecutive windows, row-major.
public struct FeatureMatrix: Sendable, Equatable {
    /// Number of windows.
    public var rows: Int
    /// Values per window (`names.count`).
    public var columns: Int
    /// `values[row × columns + column]`.
    public var values: [Double]
    /// Time of each window's first frame (s).
    public var startTimes: [Seconds]
    /// Each window's end: time of its last frame + 1 / rate (s), so end − start = N / rate.
    public var endTimes: [Seconds]
    /// `channel.feature` names, in column order.
    public var names: [String]

    /// An empty matrix of `columns` named columns.
    public init(columns: Int, names: [String]) {
        rows = 0; self.columns = columns; values = []; startTimes = []; endTimes = []; self.names = names
    }

    /// Row `r` as an array (allocates).
    public func row(_ r: Int) -> [Double] { Array(values[(r * columns)..<((r + 1) * columns)]) }
    /// The value at `row`, `column`.
    @inlinable public subscript(row: Int, column: Int) -> Double { values[row * columns + column] }

    /// Appends the rows of `other` (same columns).
    public mutating func append(contentsOf other: FeatureMatrix) {
        precondition(other.columns == columns, "column counts differ")
        rows += other.rows; values += other.values; startTimes += other.startTimes; endTimes += other.endTimes
    }
}

/// Batch feature extraction over frames at the configured rate. Runs the same per-window
/// kernel as `StreamingFeatureExtractor`, so both give the same vectors bit for bit.
public struct FeatureExtractor: Sendable {
    /// What is computed.
    public let configuration: FeatureConfiguration
    /// Threads the batch extraction may use (1: the calling thread only). The values do not
    /// depend on it. `FeatureExtractor.onlineProcessors` is the number of processors online.
    public var threadCount: Int
    /// Fewer windows than this per thread are not worth a thread.
    static let minimumRowsPerThread = 64
    /// Runs the four-lane kernels where the processor has them (`WideKernels`); tests turn
    /// them off to compare both paths. The values do not depend on it.
    var wideKernels = WideKernels.available

    /// Throws when the configuration is invalid. `threadCount`: see the property.
    public init(configuration: FeatureConfiguration, threadCount: Int = 1) throws(FeatureError) {
        try configuration.validate()
        self.configuration = configuration
        self.threadCount = max(1, threadCount)
    }

    /// Number of processors online (at least 1).
    public static var onlineProcessors: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// `channel.feature` names, in column order.
    public var featureNames: [String] { configuration.featureNames }
    /// Features per window.
    public var featureCount: Int { configuration.featureCount }

    /// Features of every complete window of `frames` (frame i at `startTime + i / rate`):
    /// windows start at frames 0, H, 2H, … and are kept while they fit. O(frames × channels +
    /// windows × channels × N log N). A recording shorter than one window gives no rows.
    public func extract(frames: [MotionFrame], startTime: Seconds = 0) -> FeatureMatrix {
        let count = frames.count
        let channels = configuration.channels
        var columnsData = [Double](repeating: 0, count: channels.count * count)
        frames.withUnsafeBufferPointer { fp in
            columnsData.withUnsafeMutableBufferPointer { cp in
                for (c, ch) in channels.enumerated() {
                    let dst = cp.baseAddress! + c * count
                    for i in 0..<count { dst[i] = fp[i].value(ch) }
                }
            }
        }
        return extract(channelMajor: columnsData, frameCount: count, startTime: startTime)
    }

    /// Features from channel values already computed: `values[c × frameCount + i]` is channel
    /// `configuration.channels[c]` at frame i.
    ///
    /// With `threadCount` > 1 and enough windows, the windows are cut into that many
    /// contiguous runs, each computed on its own thread with its own kernel; every window's
    /// values are the same bit for bit as on one thread (no value depends on the windows computed
    /// beside it).
    public func extract(channelMajor values: [Double], frameCount: Int, startTime: Seconds = 0) -> FeatureMatrix {
        precondition(values.count == configuration.channels.count * frameCount, "need channels × frameCount values")
        let n = configuration.windowLength, h = configuration.hopLength
        let rate = configuration.rateHz
        var m = FeatureMatrix(columns: configuration.featureCount, names: configuration.featureNames)
        guard frameCount >= n else { return m }
        let rows = (frameCount - n) / h + 1
        let columns = m.columns
        m.rows = rows
        m.values = [Double](repeating: 0, count: rows * columns)
        m.startTimes.reserveCapacity(rows); m.endTimes.reserveCapacity(rows)
        let workers = max(1, min(threadCount, rows / Self.minimumRowsPerThread))
        let config = configuration, wide = wideKernels
        values.withUnsafeBufferPointer { vp in
            m.values.withUnsafeMutableBufferPointer { op in
                let input = UnsafeSendablePointer(vp.baseAddress!), output = UnsafeSendablePointer(op.baseAddress!)
                @Sendable func run(_ from: Int, _ to: Int) {
                    var kernel = WindowKernel(config, wide: wide)
                    let bh = kernel.blockLength
                    // Windows go to the kernel `group` at a time (the four-lane kernels fill their
                    // lanes with the channels of several windows).
                    let group = wide ? WindowKernel.windowGroup : 1
                    let windows = UnsafeMutablePointer<WindowKernel.WindowInput>.allocate(capacity: group)
                    defer { windows.deallocate() }
                    // When N = 2H, window r is blocks r and r + 1: each block is sorted (and summed)
                    // once, into slot (block index mod 8), ahead of the windows that read it.
                    let slot = kernel.blockSlotLength, ring = 8
                    let sorted = UnsafeMutablePointer<Double>.allocate(capacity: bh > 0 ? ring * slot : 1)
                    defer { sorted.deallocate() }
                    @inline(__always) func slotOf(_ b: Int) -> UnsafeMutablePointer<Double> { sorted + (b % ring) * slot }
                    let blocks = UnsafeMutablePointer<(UnsafePointer<Double>, UnsafeMutablePointer<Double>)>.allocate(capacity: group)
                    defer { blocks.deallocate() }
                    if bh > 0 {
                        blocks[0] = (input.pointer + from * h, slotOf(from))
                        kernel.sortBlocks(blocks, count: 1, stride: frameCount)
                    }
                    var r = from
                    while r < to {
                        let g = min(group, to - r)
                        if bh > 0 {
                            for j in 0..<g { blocks[j] = (input.pointer + (r + 1 + j) * h, slotOf(r + 1 + j)) }
                            kernel.sortBlocks(blocks, count: g, stride: frameCount)
                        }
                        for w in 0..<g {
                            windows[w] = .init(base: input.pointer + (r + w) * h,
                                               sortedFirst: bh > 0 ? UnsafePointer(slotOf(r + w)) : nil,
                                               sortedSecond: bh > 0 ? UnsafePointer(slotOf(r + w + 1)) : nil,
                                               out: output.mutable + (r + w) * columns)
                        }
                        kernel.compute(windows, count: g, stride: frameCount)
                        r += g
                    }
                }
                if workers == 1 {
                    run(0, rows)
                } else {
                    DispatchQueue.concurrentPerform(iterations: workers) { w in
                        run(rows * w / workers, rows * (w + 1) / workers)
                    }
                }
            }
        }
        for r in 0..<rows {
            let start = r * h
            m.startTimes.append(startTime + Double(start) / rate)
            m.endTimes.append(startTime + Double(start + n) / rate)
        }
        return m
    }
}
