#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CMotusKernels
import MotusCore
import MotusSignal

/// Whether the four-lane (AVX2) kernels of `CMotusKernels` run: on an x86-64 processor and OS
/// with AVX2, unless the environment sets `MOTUS_KERNELS=portable`. Both paths give the same
/// values bit for bit (the C kernels repeat the Swift operations lane by lane); the wide one is
/// faster.
enum WideKernels {
    static let available: Bool = {
        if let v = getenv("MOTUS_KERNELS"), String(cString: v) == "portable" { return false }
        return motus_kernels_wide_available() != 0
    }()
}

/// Scratch memory and tables of one `WindowKernel`, allocated once (raw pointers, so the
/// per-window code has no array bounds checks or uniqueness checks). A kernel that finds its
/// buffers shared (the kernel was copied) makes its own before writing.
final class KernelBuffers: @unchecked Sendable {
    let doubles: UnsafeMutablePointer<Double>
    let floats: UnsafeMutablePointer<Float>
    let ints: UnsafeMutablePointer<Int>
    let vectors: UnsafeMutablePointer<SIMD2<Double>>
    let doubleCount: Int, floatCount: Int, intCount: Int, vectorCount: Int

    init(doubles: Int, floats: Int, ints: Int, vectors: Int = 0) {
        doubleCount = doubles; floatCount = floats; intCount = ints; vectorCount = vectors
        self.vectors = .allocate(capacity: max(1, vectors)); self.vectors.initialize(repeating: .zero, count: max(1, vectors))
        self.doubles = .allocate(capacity: max(1, doubles)); self.doubles.initialize(repeating: 0, count: max(1, doubles))
        self.floats = .allocate(capacity: max(1, floats)); self.floats.initialize(repeating: 0, count: max(1, floats))
        self.ints = .allocate(capacity: max(1, ints)); self.ints.initialize(repeating: 0, count: max(1, ints))
    }

    func copy() -> KernelBuffers {
        let b = KernelBuffers(doubles: doubleCount, floats: floatCount, ints: intCount, vectors: vectorCount)
        b.doubles.update(from: doubles, count: doubleCount)
        b.floats.update(from: floats, count: floatCount)
        b.ints.update(from: ints, count: intCount)
        return b
    }

    deinit { doubles.deallocate(); floats.deallocate(); ints.deallocate(); vectors.deallocate() }
}

/// The per-window feature kernel that both extractors run (one code path for batch and live).
///
/// All buffers are allocated at init; `compute` allocates nothing. It reads channel c of the
/// window at `base + c × stride`, N contiguous values, and writes `featureCount` values.
///
/// Per channel: one vectorised pass for sum, Σx², Σ|x|, min, max; one for the centred moments
/// (keeping x − mean for the later steps) and one for the mean crossings; quartiles: when
/// N = 2H the extractors sort each hop block once (`sortBlocks`: a bitonic network, two
/// channels per run, one per lane) and the window's quartiles are picked from its two sorted
/// halves by counting compares (`Selection.quartilesOfSorted`), otherwise by value buckets
/// (`Selection.quartilesBucketed`), the same exact order statistics either way; the
/// autocorrelation peak by a single-precision screen over the lag range whose every undecided
/// comparison, and the peak's value, is settled in double precision (`autocorrelationPeak`).
/// After all channels, the spectra, two channels per transform (`PowerSpectrum`, one channel
/// per lane), band sums over precomputed bin ranges and a table-driven log for the entropy.
/// With `wide` (AVX2 at run time, `WideKernels`) the same steps run four lanes at a time in
/// `CMotusKernels` (`computeWide`), a lane being one channel of one window: the batch
/// extractor passes four windows at once (`compute(_:count:stride:)`, `windowGroup`) and
/// sorts four blocks at once, so 11 channels fill every lane. The same operations lane by
/// lane, so the same values bit for bit. Definitions of every value are in `Feature`.
struct WindowKernel: Sendable {
    let configuration: FeatureConfiguration
    let n: Int
    let fftLength: Int
    let rate: Double
    let channelCount: Int
    let valuesPerChannel: Int
    let needSort: Bool, needSpectrum: Bool, needACF: Bool
    let lagLo: Int, lagHi: Int          // lagHi < lagLo: no lag range
    let bandCount: Int
    /// Positions in a channel's values of the dominant frequency, the first band energy and the
    /// spectral entropy (−1: not extracted). The spectra run after the per-channel pass, two
    /// channels per transform (`PowerSpectrum.compute(_:_:into:_:)`).
    let domPosition: Int, bandPosition: Int, entropyPosition: Int
    /// log(M/2), the entropy's normaliser.
    let logHalf: Double
    /// H when windows are two hop blocks (N = 2H) and quartiles are needed: then the
    /// extractors sort each block once (`sortBlocks`) and pass the two sorted blocks of a window
    /// to `compute`, whose quartiles are picked from them by `Selection.quartilesOfSorted`.
    /// 0 otherwise.
    let blockLength: Int
    let correlationIndices: [(Int, Int)]
    let features: [Feature]
    /// Runs the four-lane kernels (`WideKernels`): four lanes, each one channel of one window
    /// (or of one block), per channel pass, transform, spectrum summary and sorting network.
    let wide: Bool

    var fft: PowerSpectrum
    private var buffers: KernelBuffers
    // Offsets into buffers.doubles.
    private let oCentered: Int          // G × C × (N + zeroPad): x − mean per lane (w × C + c), then zeros
    private let oEnergy: Int            // G × C: Σ (x − mean)² per lane
    private let oConstant: Int          // G × C: 1 when the lane's channel is constant in its window
    private let oSorted: Int            // 2N: values to select in, then partition scratch
    private let oPower: Int             // 2 (M/2 + 1): their powers
    private let oExact: Int             // N: exact r(k), NaN = not computed yet
    private let oBands: Int             // max(1, bandCount)
    private let oHann: Int              // N
    private let oLogTable: Int          // LogTable.storageCount
    private let oQuadWork: Int          // fft.quadWorkCount (wide only)
    private let oQuadPower: Int         // 4 (M/2 + 1): interleaved powers of four channels (wide only)
    private let oQuadStats: Int         // 8: their totals, Σ P log P (wide only)
    private let oSortWork: Int          // 4 × networkSize(blockLength) (wide only)
    private let oQuadShift: Int         // 4: the shift of each lane's centring (wide only)
    private let oQuadMoments: Int       // 12: Σd², Σd³, Σd⁴ of four lanes (wide only)
    private let oQuadSums: Int          // 20: Σx, Σx², Σ|x|, min, max of four lanes (wide only)
    private let oQuadQuartiles: Int     // 3: q25, median, q75 (wide only)
    private let oSlots: Int             // Self.slotCount: one channel's values by slot (`finishChannel`)
    // Offsets into buffers.ints.
    private let oBucketWork: Int        // Selection.bucketIntCount(N)
    private let oBandRange: Int         // 2 × bandCount: first bin, end bin of each band
    private let oRise: Int              // N + 1: screened rise flags per lag
    private let oPeaks: Int             // N: lags of the peaks
    private let oSortInts: Int          // Selection.sortIntCount(blockLength)
    private let oChannelList: Int       // C: the non-constant channels of a window
    private let oQuadFirst: Int         // 4: first largest bins (wide only)
    private let oQuadCrossings: Int     // 4: mean crossings (wide only)
    private let oSlotMap: Int           // valuesPerChannel: the slot of each of a channel's values
    // Offsets into buffers.floats.
    private let oScaled: Int            // N + 16: (x − mean) / std in single precision, then zeros
    private let oApprox: Int            // N: approximate r(k)

    /// Zeros after each centred channel, so the autocorrelation's vector loop can run past
    /// the end of the shorter lags (products with zeros add exactly nothing).
    static let zeroPad = 16

    /// Precondition: `configuration.validate()` passed.
    init(_ configuration: FeatureConfiguration, wide: Bool = WideKernels.available) {
        self.configuration = configuration
        self.wide = wide
        n = configuration.windowLength
        fftLength = configuration.fftLength
        rate = configuration.rateHz
        channelCount = configuration.channels.count
        valuesPerChannel = configuration.valuesPerChannel
        features = configuration.features
        let f = Set(configuration.features)
        needSort = f.contains(.median) || f.contains(.interquartileRange)
        needSpectrum = f.contains(.dominantFrequency) || f.contains(.bandEnergy) || f.contains(.spectralEntropy)
        needACF = f.contains(.autocorrelationPeak) || f.contains(.autocorrelationLag)
        if let r = configuration.lagRange { lagLo = r.lowerBound; lagHi = r.upperBound } else { lagLo = 1; lagHi = 0 }
        bandCount = f.contains(.bandEnergy) ? configuration.bandCount : 0
        var dp = -1, bp = -1, ep = -1, pos = 0
        for feature in configuration.features {
            switch feature {
            case .dominantFrequency: dp = pos
            case .bandEnergy: bp = pos
            case .spectralEntropy: ep = pos
            default: break
            }
            pos += feature == .bandEnergy ? configuration.bandCount : 1
        }
        domPosition = dp; bandPosition = bp; entropyPosition = ep
        logHalf = Math.log(Double(configuration.fftLength / 2))
        blockLength = needSort && configuration.hopLength * 2 == n && n >= 4 ? configuration.hopLength : 0
        correlationIndices = configuration.correlations.map {
            (configuration.channels.firstIndex(of: $0.first)!, configuration.channels.firstIndex(of: $0.second)!)
        }
        fft = PowerSpectrum(size: fftLength)
        let half = fftLength / 2
        // Each band is a contiguous run of bins (edges increase, bins increase).
        var ranges = [Int](repeating: 0, count: 2 * max(1, bandCount))
        if bandCount > 0 {
            let edges = configuration.bandEdgesHz
            var first = [Int](repeating: -1, count: bandCount), end = [Int](repeating: -1, count: bandCount)
            for k in 1...half {
                let fk = Double(k) * rate / Double(fftLength)
                for b in 0..<bandCount {
                    let last = b == bandCount - 1
                    if fk >= edges[b] && (fk < edges[b + 1] || (last && fk == edges[b + 1])) {
                        if first[b] < 0 { first[b] = k }
                        end[b] = k + 1
                        break
                    }
                }
            }
            for b in 0..<bandCount where first[b] >= 0 { ranges[2 * b] = first[b]; ranges[2 * b + 1] = end[b] }
        }
        let c = channelCount
        var o = 0
        func take(_ count: Int) -> Int { defer { o += count }; return o }
        let g = wide ? Self.windowGroup : 1
        oCentered = take(g * c * (n + Self.zeroPad)); oEnergy = take(g * c); oConstant = take(g * c); oSorted = take(2 * n)
        oPower = take(2 * (half + 1)); oExact = take(n); oBands = take(max(1, bandCount))
        oHann = take(n); oLogTable = take(LogTable.storageCount)
        oQuadWork = take(wide ? fft.quadWorkCount : 0); oQuadPower = take(wide ? 4 * (half + 1) : 0)
        oQuadStats = take(wide ? 8 : 0)
        oSortWork = take(wide && blockLength > 0 ? 4 * Selection.networkSize(blockLength) : 0)
        oQuadShift = take(wide ? 4 : 0); oQuadMoments = take(wide ? 12 : 0); oQuadSums = take(wide ? 20 : 0)
        oQuadQuartiles = take(wide ? 3 : 0); oSlots = take(Self.slotCount)
        let doubleCount = o
        o = 0
        oBucketWork = take(Selection.bucketIntCount(n)); oBandRange = take(ranges.count); oRise = take(n + 1); oPeaks = take(n)
        oSortInts = take(blockLength > 0 ? Selection.sortIntCount(blockLength) : 0)
        oChannelList = take(c); oQuadFirst = take(wide ? 4 : 0); oQuadCrossings = take(wide ? 4 : 0)
        oSlotMap = take(valuesPerChannel)
        let intCount = o
        o = 0
        oScaled = take(n + 16); oApprox = take(n)
        buffers = KernelBuffers(doubles: doubleCount, floats: o, ints: intCount,
                                vectors: blockLength > 0 ? Selection.networkSize(blockLength) : 0)
        let hann = Window.hann(n)
        buffers.doubles.advanced(by: oHann).update(from: hann, count: n)
        LogTable.fill(buffers.doubles + oLogTable)
        buffers.ints.advanced(by: oBandRange).update(from: ranges, count: ranges.count)
        var slots: [Int] = []
        for feature in features {
            if feature == .bandEnergy { slots += Array(repeating: Self.zeroSlot, count: bandCount) } else { slots.append(Self.slot(feature)) }
        }
        buffers.ints.advanced(by: oSlotMap).update(from: slots, count: slots.count)
    }

    /// Slots of `finishChannel`'s values; the spectral ones read `zeroSlot`.
    static let slotCount = 15, zeroSlot = 14
    static func slot(_ feature: Feature) -> Int {
        switch feature {
        case .mean: 0
        case .standardDeviation: 1
        case .minimum: 2
        case .maximum: 3
        case .range: 4
        case .median: 5
        case .interquartileRange: 6
        case .rms: 7
        case .skewness: 8
        case .kurtosis: 9
        case .meanCrossingRate: 10
        case .signalMagnitudeArea: 11
        case .autocorrelationPeak: 12
        case .autocorrelationLag: 13
        case .dominantFrequency, .bandEnergy, .spectralEntropy: zeroSlot
        }
    }

    var featureCount: Int { channelCount * valuesPerChannel + correlationIndices.count }

    /// Values `sortBlocks` writes per block (when `blockLength` > 0): each channel's sorted
    /// values (C × H), then each channel's block sums (Σx, Σx², Σ|x|, min, max: C × 5), which
    /// `compute` adds up for the window, so the two windows that share a block share its sums.
    var blockSlotLength: Int { channelCount * (blockLength + 5) }
    /// Where channel c's block sums start in a slot `sortBlocks` wrote.
    @inline(__always) func blockSumsOffset(_ c: Int) -> Int { Self.blockSumsOffset(c, channels: channelCount, blockLength: blockLength) }
    @inline(__always) static func blockSumsOffset(_ c: Int, channels: Int, blockLength: Int) -> Int { channels * blockLength + 5 * c }

    /// Sorts the block of `blockLength` values of each channel (channel c at
    /// `base + c × stride`) into `sorted + c × blockLength`, and writes its block sums
    /// (`Kernels.basicSums`) at `sorted + C × blockLength + 5c` (`blockSlotLength` values in
    /// all). Precondition: `blockLength > 0`.
    mutating func sortBlocks(base: UnsafePointer<Double>, stride: Int, into sorted: UnsafeMutablePointer<Double>) {
        var block = (base, sorted)
        sortBlocks(&block, count: 1, stride: stride)
    }

    /// `sortBlocks(base:stride:into:)` of `count` blocks (block j: `blocks[j]`, its base and
    /// its slot). The four-lane sort takes the (block, channel) pairs four at a time, so only
    /// the last group of all may have spare lanes.
    mutating func sortBlocks(_ blocks: UnsafePointer<(UnsafePointer<Double>, UnsafeMutablePointer<Double>)>, count: Int, stride: Int) {
        if !isKnownUniquelyReferenced(&buffers) { buffers = buffers.copy() }
        let h = blockLength, ints = buffers.ints + oSortInts, channels = channelCount
        if wide && h <= Selection.maximumNetworkLength {
            // Four (block, channel) pairs per sorting network (one per lane), which also takes
            // their block sums; the last group repeats its last pair in the lanes it has no
            // pair for (written twice, the same values).
            let size = Selection.networkSize(h), work = buffers.doubles + oSortWork, sums = buffers.doubles + oQuadSums
            let total = count * channels
            @inline(__always) func x(_ p: Int) -> UnsafePointer<Double> { blocks[p / channels].0 + (p % channels) * stride }
            @inline(__always) func o(_ p: Int) -> UnsafeMutablePointer<Double> { blocks[p / channels].1 + (p % channels) * h }
            var p0 = 0
            while p0 < total {
                let p1 = min(p0 + 1, total - 1), p2 = min(p0 + 2, total - 1), p3 = min(p0 + 3, total - 1)
                motus_sort4(x(p0), x(p1), x(p2), x(p3), h, size, o(p0), o(p1), o(p2), o(p3), work, sums)
                for lane in 0..<min(4, total - p0) {
                    let p = p0 + lane
                    (blocks[p / channels].1 + blockSumsOffset(p % channels)).update(from: sums + 5 * lane, count: 5)
                }
                p0 += 4
            }
            return
        }
        for j in 0..<count {
            let (base, sorted) = blocks[j]
            for c in 0..<channels {
                let (sum, sumSq, sumAbs, lo, hi) = Kernels.basicSums(base + c * stride, h)
                let o = sorted + blockSumsOffset(c)
                o[0] = sum; o[1] = sumSq; o[2] = sumAbs; o[3] = lo; o[4] = hi
            }
            var c = 0
            if h <= Selection.maximumNetworkLength {
                // Two channels per sorting network (one per lane).
                while c + 1 < channels {
                    Selection.sortPair(base + c * stride, base + (c + 1) * stride, h, into: sorted + c * h, sorted + (c + 1) * h,
                                       work: buffers.vectors)
                    c += 2
                }
                if c < channels {
                    // The odd one out in both lanes (both lanes write the same values).
                    let x = base + c * stride, o = sorted + c * h
                    Selection.sortPair(x, x, h, into: o, o, work: buffers.vectors)
                    c += 1
                }
            }
            while c < channels {
                Selection.sortBucketed(base + c * stride, h, into: sorted + c * h, ints: ints)
                c += 1
            }
        }
    }

    /// Windows `computeWide` takes at once (`compute(_:count:stride:)`): 11 channels of four
    /// windows fill eleven four-lane groups, where one window alone leaves a lane spare.
    static let windowGroup = 4

    /// One window for `compute(_:count:stride:)`: its channel c at `base + c × stride`, its
    /// sorted halves (or nil, see `compute(base:…)`), where its values go.
    struct WindowInput {
        var base: UnsafePointer<Double>
        var sortedFirst: UnsafePointer<Double>?
        var sortedSecond: UnsafePointer<Double>?
        var out: UnsafeMutablePointer<Double>
    }

    /// Features of one window: channel c is `base[c × stride ..< c × stride + N]`. With
    /// `sortedFirst` and `sortedSecond` (when `blockLength > 0`): the window's first and second
    /// half as `sortBlocks` wrote them (sorted values and block sums); the window's Σx, Σx²,
    /// Σ|x|, min and max are then those of the two blocks added up (the same values up to
    /// rounding as one pass over the window; streaming and batch both take this path).
    mutating func compute(base: UnsafePointer<Double>, stride: Int,
                          sortedFirst: UnsafePointer<Double>? = nil, sortedSecond: UnsafePointer<Double>? = nil,
                          into out: UnsafeMutablePointer<Double>) {
        var window = WindowInput(base: base, sortedFirst: sortedFirst, sortedSecond: sortedSecond, out: out)
        compute(&window, count: 1, stride: stride)
    }

    /// `compute(base:…)` of `count` windows (at most `windowGroup`): the same values, window by
    /// window, as one at a time (every lane of the four-lane kernels does its own channel's
    /// operations, whatever the others hold).
    mutating func compute(_ windows: UnsafePointer<WindowInput>, count: Int, stride: Int) {
        precondition(count >= 1 && count <= (wide ? Self.windowGroup : 1), "compute: \(count) windows at once")
        if !isKnownUniquelyReferenced(&buffers) { buffers = buffers.copy() }
        // Copies, so the helpers below do not hold on to self (computeWide mutates it).
        let n = self.n, h = blockLength, channels = channelCount
        @inline(__always) func sums(_ w: Int, _ c: Int) -> (Double, Double, Double, Double, Double) {
            let win = windows[w]
            guard h > 0, let a = win.sortedFirst, let b = win.sortedSecond else { return Kernels.basicSums(win.base + c * stride, n) }
            let o = Self.blockSumsOffset(c, channels: channels, blockLength: h)
            let sa = a + o, sb = b + o
            return (sa[0] + sb[0], sa[1] + sb[1], sa[2] + sb[2], sb[3] < sa[3] ? sb[3] : sa[3], sb[4] > sa[4] ? sb[4] : sa[4])
        }
        @inline(__always) func sortedHalves(_ w: Int, _ c: Int) -> (UnsafePointer<Double>?, UnsafePointer<Double>?) {
            let win = windows[w]
            guard h > 0, let a = win.sortedFirst, let b = win.sortedSecond else { return (nil, nil) }
            return (a + c * h, b + c * h)
        }
        if wide {
            computeWide(windows, count: count, stride: stride, sums: sums, sortedHalves: sortedHalves)
        } else {
            let dbl = buffers.doubles, base = windows[0].base, out = windows[0].out
            for c in 0..<channelCount {
                let x = base + c * stride
                let basic = sums(0, c)
                let (sum, _, _, lo, hi) = basic
                // Centred moments (x − mean kept for the later steps), then mean crossings.
                let d = dbl + oCentered + c * (n + Self.zeroPad)
                let (m2, m3, m4) = Kernels.centeredMoments(x, n, shift: lo == hi ? x[0] : sum / Double(n), into: d)
                let crossings = Kernels.signChanges(d, n)
                let (a, b) = sortedHalves(0, c)
                finishChannel(c, x, a, b, basic, (m2, m3, m4), crossings, out + c * valuesPerChannel)
            }
            if needSpectrum { spectra(out) }
        }
        let dbl = buffers.doubles
        for w in 0..<count {
            // Lane w × C + c holds window w's channel c.
            var o = windows[w].out + channelCount * valuesPerChannel
            let energy = dbl + oEnergy + w * channels, constant = dbl + oConstant + w * channels
            let centred = dbl + oCentered + w * channels * (n + Self.zeroPad)
            for (a, b) in correlationIndices {
                if constant[a] != 0 || constant[b] != 0 { o.pointee = 0 }
                else {
                    let pa = centred + a * (n + Self.zeroPad), pb = centred + b * (n + Self.zeroPad)
                    let r = Kernels.dot(pa, pb, n) / (energy[a] * energy[b]).squareRoot()
                    o.pointee = min(1, max(-1, r))
                }
                o += 1
            }
        }
    }

    /// `compute` with the four-lane kernels: the (window, channel) pairs four at a time (lane
    /// w × C + c; a short last group repeats its last pair in the spare lanes), each group's
    /// centred moments, mean crossings and transform input in one pass (`motus_channels4`),
    /// then its transform and spectrum summaries. The centred values are kept only when the
    /// autocorrelation or correlations need them.
    private mutating func computeWide(_ windows: UnsafePointer<WindowInput>, count: Int, stride: Int,
                                      sums: (Int, Int) -> (Double, Double, Double, Double, Double),
                                      sortedHalves: (Int, Int) -> (UnsafePointer<Double>?, UnsafePointer<Double>?)) {
        let dbl = buffers.doubles, ints = buffers.ints
        let half = fftLength / 2, channels = channelCount, total = count * channels
        let keepCentred = needACF || !correlationIndices.isEmpty
        let shift = dbl + oQuadShift, laneSums = dbl + oQuadSums, moments = dbl + oQuadMoments, crossings = ints + oQuadCrossings
        let pw = dbl + oQuadPower, stats = dbl + oQuadStats, first = ints + oQuadFirst, work = dbl + oQuadWork
        var l0 = 0
        while l0 < total {
            let lanes = min(4, total - l0)
            @inline(__always) func pair(_ lane: Int) -> Int { l0 + min(lane, lanes - 1) }
            @inline(__always) func x(_ lane: Int) -> UnsafePointer<Double> {
                let p = pair(lane)
                return windows[p / channels].base + (p % channels) * stride
            }
            @inline(__always) func out(_ lane: Int) -> UnsafeMutablePointer<Double> {
                let p = pair(lane)
                return windows[p / channels].out + (p % channels) * valuesPerChannel
            }
            @inline(__always) func d(_ lane: Int) -> UnsafeMutablePointer<Double>? {
                keepCentred ? dbl + oCentered + pair(lane) * (n + Self.zeroPad) : nil
            }
            // Each lane's sums once (without shared blocks they are a pass over the window).
            for lane in 0..<lanes {
                let p = pair(lane)
                let (sum, sumSq, sumAbs, lo, hi) = sums(p / channels, p % channels)
                laneSums[5 * lane] = sum; laneSums[5 * lane + 1] = sumSq; laneSums[5 * lane + 2] = sumAbs
                laneSums[5 * lane + 3] = lo; laneSums[5 * lane + 4] = hi
                shift[lane] = lo == hi ? x(lane)[0] : sum / Double(n)
            }
            for lane in lanes..<4 { shift[lane] = shift[lanes - 1] }
            fft.withBitReverse { br in
                motus_channels4(x(0), x(1), x(2), x(3), n, shift, d(0), d(1), d(2), d(3), moments, crossings,
                                needSpectrum ? dbl + oHann : nil, needSpectrum ? half : 0, br, work)
            }
            for lane in 0..<lanes {
                let p = pair(lane)
                let (a, b) = sortedHalves(p / channels, p % channels)
                let l = laneSums + 5 * lane
                finishChannel(p, x(lane), a, b, (l[0], l[1], l[2], l[3], l[4]), (moments[lane], moments[4 + lane], moments[8 + lane]),
                              crossings[lane], out(lane))
            }
            if needSpectrum {
                fft.transformQuad(work: work, into: pw)
                motus_spectrum4(pw, half, dbl + oLogTable, stats, stats + 4, first)
                for lane in 0..<lanes where dbl[oConstant + pair(lane)] == 0 {
                    summarizeLane(lane, out(lane))
                }
            }
            l0 += 4
        }
    }

    /// The values of lane c (channel c of the window, or with `computeWide` (window, channel)
    /// pair c) from its basic sums (Σx, Σx², Σ|x|, min, max), centred moments (Σd², Σd³, Σd⁴)
    /// and mean crossings: the spectral ones are written as 0 (`spectra` or `computeWide`
    /// writes them after). The centred values, when kept, are at lane c of `oCentered`.
    private mutating func finishChannel(_ c: Int, _ x: UnsafePointer<Double>, _ sortedA: UnsafePointer<Double>?,
                                        _ sortedB: UnsafePointer<Double>?, _ basic: (Double, Double, Double, Double, Double),
                                        _ centred: (Double, Double, Double), _ crossings: Int,
                                        _ out: UnsafeMutablePointer<Double>) {
        let n = self.n
        let fn = Double(n)
        let dbl = buffers.doubles
        let (sum, sumSq, sumAbs, lo, hi) = basic
        let (m2, m3, m4) = centred
        let mean = sum / fn
        let constant = lo == hi
        let d = dbl + oCentered + c * (n + Self.zeroPad)
        dbl[oEnergy + c] = m2
        dbl[oConstant + c] = constant ? 1 : 0
        let variance = m2 / fn
        let std = variance.squareRoot()
        let skew = constant ? 0 : (m3 / fn) / (variance * std)
        let kurt = constant ? 0 : (m4 / fn) / (variance * variance) - 3

        var median = 0.0, iqr = 0.0
        if let a = sortedA, let b = sortedB {
            if wide {
                let q = dbl + oQuadQuartiles
                motus_quartiles_sorted(a, blockLength, b, blockLength, q)
                median = q[1]
                iqr = q[2] - q[0]
            } else {
                let q = Selection.quartilesOfSorted(a, blockLength, b, blockLength)
                median = q.median
                iqr = q.q75 - q.q25
            }
        } else if needSort {
            let s = dbl + oSorted
            let q = Selection.quartilesBucketed(x, n, lo: lo, hi: hi, t: s, work: s + n, ints: buffers.ints + oBucketWork)
            median = q.median
            iqr = q.q75 - q.q25
        }

        var acfPeak = 0.0, acfLag = 0.0
        if needACF && !constant && lagHi >= lagLo {
            (acfPeak, acfLag) = autocorrelationPeak(d, m2)
        }

        // Every value into its slot, then each output position copies its slot (`oSlotMap`,
        // built at init from `slot(_:)`): no branch per feature. The spectral values read the zero slot; `spectra` or
        // `computeWide` writes them after.
        let v = dbl + oSlots
        v[0] = mean; v[1] = std; v[2] = lo; v[3] = hi; v[4] = hi - lo; v[5] = median; v[6] = iqr
        v[7] = (sumSq / fn).squareRoot(); v[8] = skew; v[9] = kurt; v[10] = Double(crossings) / Double(n - 1)
        v[11] = sumAbs / fn; v[12] = acfPeak; v[13] = acfLag; v[14] = 0
        let slots = buffers.ints + oSlotMap
        for j in 0..<valuesPerChannel { out[j] = v[slots[j]] }
    }

    /// Highest local maximum of the normalised autocorrelation r(k) = Σ dᵢ dᵢ₊ₖ / m2 in
    /// [lagLo, lagHi]; (0, 0) if none. `d` is the centred window followed by `zeroPad` zeros.
    ///
    /// The exact answer is the one the double-precision sums `Kernels.dot(d, d + k, N − k) / m2`
    /// give. All lags are first screened in single precision on d / std (so Σ values² = N and
    /// nothing overflows), with a proven bound ε on |r̃(k) − r(k)|: a comparison between lags
    /// whose screened values differ by more than 2ε is decided by the screen; any other is
    /// decided by the double-precision values of both lags. Among the peaks, those within 2ε
    /// of the screened maximum get their double-precision values, and the first largest wins;
    /// its value is the double-precision one. So the result is exactly that of evaluating every
    /// lag in double precision, at about half the cost. Windows whose scale does not fit single
    /// precision take the double-precision path for every lag.
    private mutating func autocorrelationPeak(_ d: UnsafePointer<Double>, _ m2: Double) -> (Double, Double) {
        let n = self.n
        let kFrom = lagLo - 1, kTo = min(n - 1, lagHi + 1)   // neighbours for the local-max test
        let lagLo = self.lagLo, lagHi = self.lagHi
        let exact = buffers.doubles + oExact
        let inv = 1 / m2
        let scale = (Double(n) / m2).squareRoot()
        guard m2.isFinite && scale.isFinite && scale > 0 && scale < 1e30 && 1 / scale < 1e30 else {
            // Every lag in double precision.
            for k in kFrom...kTo { exact[k] = Kernels.dot(d, d + k, n - k) * inv }
            var best = 0.0, bestLag = 0
            for k in lagLo...lagHi {
                let v = exact[k]
                if v > exact[k - 1] && (k == kTo || v >= exact[k + 1]) && (bestLag == 0 || v > best) { best = v; bestLag = k }
            }
            return bestLag == 0 ? (0, 0) : (best, Double(bestLag) / rate)
        }
        let f = buffers.floats + oScaled, a = buffers.floats + oApprox
        for i in 0..<n { f[i] = Float(d[i] * scale) }
        for i in n..<(n + 16) { f[i] = 0 }
        Kernels.autocorrelationSingle(f, n, kFrom, kTo, into: a)
        // Bound on |a[k] / N − r(k)|: rounding d / std to single precision (2u per product),
        // the product (u) and at most N/4 + 6 additions per lane and across lanes, each
        // relative to Σ|dᵢ dᵢ₊ₖ| / m2 ≤ 1 (Cauchy–Schwarz); u = 2⁻²⁴. Doubled for margin, plus
        // the double-precision sums' own error.
        // The screened differences a[k] − a[k − 1] are rounded once more (≤ 2u relative to N).
        let eps = 2 * (Double(n / 4) + 12) * 0x1p-24 + Double(n) * 0x1p-51
        for k in kFrom...kTo { exact[k] = .nan }
        @inline(__always) func exactAt(_ k: Int) -> Double {
            var v = exact[k]
            if v.isNaN { v = Kernels.dot(d, d + k, n - k) * inv; exact[k] = v }
            return v
        }
        // rise[k] = r(k) > r(k − 1) for k in lagLo ... lagHi + 1: 1 or 0 when the screen
        // decides it, 2 when undecided (then settled in double precision).
        let threshold = Float(2 * eps * Double(n))
        // Usual case first: every comparison decided by the screen. One vectorised pass gives
        // each lag's screened value if it is a peak (else −∞) into `f` (free after the screen)
        // and their maximum; any undecided comparison sends the window to the general path.
        do {
            typealias F4 = SIMD4<Float>
            let thr = F4(repeating: threshold), ninf = F4(repeating: -.infinity)
            let absMask = SIMD4<UInt32>(repeating: 0x7fff_ffff)
            let ra = UnsafeRawPointer(a), rf = UnsafeMutableRawPointer(f)
            @inline(__always) func load(_ i: Int) -> F4 { ra.loadUnaligned(fromByteOffset: i &* 4, as: F4.self) }
            var unsure = SIMDMask<SIMD4<Int32>>(repeating: false)
            var topV = ninf
            var k = lagLo
            while k &+ 3 <= lagHi {
                let prev = load(k &- 1), cur = load(k), next = load(k &+ 1)
                let dPrev = cur - prev, dNext = next - cur
                let absPrev = unsafeBitCast(unsafeBitCast(dPrev, to: SIMD4<UInt32>.self) & absMask, to: F4.self)
                unsure = unsure .| .!(absPrev .> thr)
                let isPeak = (dPrev .> thr) .& .!(dNext .> thr)
                let cand = ninf.replacing(with: cur, where: isPeak)
                rf.storeBytes(of: cand, toByteOffset: k &* 4, as: F4.self)
                topV = topV.replacing(with: cand, where: cand .> topV)
                k &+= 4
            }
            var top = topV.max()
            var undecided = any(unsure)
            while k <= lagHi {
                let dPrev = a[k] - a[k &- 1], dNext = a[k &+ 1] - a[k]
                undecided = undecided || !(abs(dPrev) > threshold)
                let cand = dPrev > threshold && !(dNext > threshold) ? a[k] : -Float.infinity
                f[k] = cand
                top = cand > top ? cand : top
                k &+= 1
            }
            undecided = undecided || !(abs(a[lagHi &+ 1] - a[lagHi]) > threshold)
            if !undecided {
                if top == -.infinity { return (0, 0) }
                let floor = Double(top) / Double(n) - 2 * eps
                var best = 0.0, bestLag = 0
                for k in lagLo...lagHi where f[k] != -.infinity && Double(f[k]) / Double(n) >= floor {
                    let v = exactAt(k)
                    if bestLag == 0 || v > best { best = v; bestLag = k }
                }
                return bestLag == 0 ? (0, 0) : (best, Double(bestLag) / rate)
            }
        }
        let rise = buffers.ints + oRise
        var undecided = 0
        for k in lagLo...(lagHi + 1) {
            let diff = a[k] - a[k &- 1]
            let up = Int(unsafeBitCast(diff > threshold, to: UInt8.self))
            let unsure = Int(unsafeBitCast(abs(diff) > threshold, to: UInt8.self)) ^ 1
            rise[k] = up | (unsure << 1)
            undecided |= unsure
        }
        if undecided != 0 {
            for k in lagLo...(lagHi + 1) where rise[k] > 1 { rise[k] = exactAt(k) > exactAt(k - 1) ? 1 : 0 }
        }
        // Peaks: r(k) > r(k − 1) and r(k) ≥ r(k + 1) (kTo = lagHi + 1 always). Branch-free
        // collection, with the screened maximum over them.
        let peaks = buffers.ints + oPeaks
        var peakCount = 0
        var top = -Float.infinity
        var riseHere = rise[lagLo]
        for k in lagLo...lagHi {
            let riseNext = rise[k &+ 1]
            let isPeak = riseHere & (riseNext ^ 1)
            riseHere = riseNext
            peaks[peakCount] = k
            peakCount &+= isPeak
            // a[k] when a peak, else −∞, by bit masks (a branch here mispredicts).
            let mask = UInt32(truncatingIfNeeded: 0 &- isPeak)
            let v = Float(bitPattern: (a[k].bitPattern & mask) | ((-Float.infinity).bitPattern & ~mask))
            top = v > top ? v : top
        }
        // Candidates within 2ε of the screened maximum: their double-precision values decide.
        let floor = Double(top) / Double(n) - 2 * eps
        var best = 0.0, bestLag = 0
        for j in 0..<peakCount {
            let k = peaks[j]
            guard Double(a[k]) / Double(n) >= floor else { continue }
            let v = exactAt(k)
            if bestLag == 0 || v > best { best = v; bestLag = k }
        }
        return bestLag == 0 ? (0, 0) : (best, Double(bestLag) / rate)
    }

    /// The spectral values of every non-constant channel (constant ones keep their zeros), two
    /// channels per transform (one per lane; a last one without a partner fills both lanes).
    /// Every lane does the same operations as the four-lane transform of `computeWide`, so a
    /// channel's values do not depend on its group or on the path. Channel c's values at
    /// `out + c × valuesPerChannel`.
    private mutating func spectra(_ out: UnsafeMutablePointer<Double>) {
        let dbl = buffers.doubles
        let n = self.n, half = fftLength / 2
        let w = dbl + oHann
        @inline(__always) func centred(_ c: Int) -> UnsafePointer<Double> { UnsafePointer(dbl + oCentered + c * (n + Self.zeroPad)) }
        let list = buffers.ints + oChannelList
        var count = 0
        for c in 0..<channelCount where dbl[oConstant + c] == 0 { list[count] = c; count += 1 }
        let power0 = dbl + oPower, power1 = power0 + (half + 1)
        var i = 0
        while i < count {
            let a = list[i], b = list[min(i + 1, count - 1)]
            fft.compute(centred(a), centred(b), window: w, count: n, into: power0, power1)
            summarize(power0, out + a * valuesPerChannel)
            if b != a { summarize(power1, out + b * valuesPerChannel) }
            i += 2
        }
    }

    /// The spectral values of lane `lane` of the four-lane powers at `oQuadPower`, whose
    /// summary (`motus_spectrum4`) is at `oQuadStats` and `oQuadFirst`, into `out`.
    private mutating func summarizeLane(_ lane: Int, _ out: UnsafeMutablePointer<Double>) {
        let dbl = buffers.doubles, half = fftLength / 2
        let pw = dbl + oQuadPower, stats = dbl + oQuadStats, e = dbl + oBands
        let total = stats[lane]
        if bandCount > 0 {
            let power = dbl + oPower
            for k in 0...half { power[k] = pw[4 * k + lane] }
            bands(power, total: total, into: e)
        }
        let first = buffers.ints[oQuadFirst + lane]
        let spectral = total > 0 ? finish(total: total, pLogP: stats[4 + lane], bestK: first, pw + lane, stride: 4) : (0, 0)
        write(spectral, bands: e, out)
    }

    /// From the power spectrum `p` of a Hann-windowed, mean-removed window: writes the band
    /// energies, dominant frequency and normalised entropy at their positions in `out`.
    private mutating func summarize(_ p: UnsafePointer<Double>, _ out: UnsafeMutablePointer<Double>) {
        let e = buffers.doubles + oBands
        write(spectrum(p, bands: e), bands: e, out)
    }

    @inline(__always)
    private func write(_ spectral: (Double, Double), bands e: UnsafePointer<Double>, _ out: UnsafeMutablePointer<Double>) {
        if domPosition >= 0 { out[domPosition] = spectral.0 }
        if entropyPosition >= 0 { out[entropyPosition] = spectral.1 }
        if bandPosition >= 0 { for b in 0..<bandCount { out[bandPosition + b] = e[b] } }
    }

    /// Bands, (dominant frequency, normalised entropy) of the power spectrum `p` (M/2 + 1 bins).
    private func spectrum(_ p: UnsafePointer<Double>, bands e: UnsafeMutablePointer<Double>) -> (Double, Double) {
        let half = fftLength / 2
        let total = Kernels.sum(p + 1, half)
        bands(p, total: total, into: e)
        guard total > 0 else { return (0, 0) }
        let s = LogTable.sumPLogP(p + 1, half, table: buffers.doubles + oLogTable)
        let bestK = Kernels.firstMaxIndex(p, from: 1, through: half)
        return finish(total: total, pLogP: s, bestK: bestK, p, stride: 1)
    }

    /// Each band's share of the total power (all 0 when the total is not positive).
    private func bands(_ p: UnsafePointer<Double>, total: Double, into e: UnsafeMutablePointer<Double>) {
        guard total > 0 else {
            for b in 0..<bandCount { e[b] = 0 }
            return
        }
        let inv = 1 / total
        let ranges = buffers.ints + oBandRange
        for b in 0..<bandCount {
            let s = ranges[2 * b], z = ranges[2 * b + 1]
            e[b] = s < z ? Kernels.sum(p + s, z - s) * inv : 0
        }
    }

    /// (Dominant frequency, normalised entropy) from a spectrum's positive total, Σ P log P
    /// and first largest bin; bin k's power at `p[k × stride]` (for the parabolic refinement).
    @inline(__always)
    private func finish(total: Double, pLogP s: Double, bestK: Int, _ p: UnsafePointer<Double>, stride: Int) -> (Double, Double) {
        let m = fftLength, half = m / 2
        // Entropy: −Σ p log p with p = P/T, = log T − Σ P log P / T.
        let h = Math.log(total) - s * (1 / total)
        let entropy = half > 1 ? max(0, h / logHalf) : 0
        // Parabolic refinement around the largest bin.
        var delta = 0.0
        if bestK > 1 && bestK < half {
            let a = p[(bestK - 1) * stride], b = p[bestK * stride], cc = p[(bestK + 1) * stride]
            let den = a - 2 * b + cc
            if den < 0 { delta = 0.5 * (a - cc) / den }
        }
        return ((Double(bestK) + delta) * rate / Double(m), entropy)
    }
}

/// Natural logarithm by a 512-entry table and a short series, for Σ P log P over a spectrum:
/// x = 2^e m, m in [1, 2); c = the centre of m's 1/512 interval (m's top 9 fraction bits, then
/// a 1); log x = e log 2 + log c + log(1 + r), r = (m − c)/c (|r| ≤ 2⁻¹⁰), the series to r⁴
/// (truncation ≤ 2⁻⁵⁰/5 < 2e-16). m − c is exact: (1 + m's low 43 fraction bits) − (1 + 2⁻¹⁰).
enum LogTable {
    static let size = 512
    /// Doubles a table takes: 1/c and log c of each interval.
    static let storageCount = 2 * size
    /// Writes 1/c, log c for each interval (`storageCount` values).
    static func fill(_ t: UnsafeMutablePointer<Double>) {
        for i in 0..<size {
            let c = 1 + (Double(i) + 0.5) / Double(size)
            t[2 * i] = 1 / c; t[2 * i + 1] = Math.log(c)
        }
    }

    /// log x for a positive, finite, normal x (anything else gives garbage, never a trap).
    @inline(__always)
    static func log(_ x: Double, table t: UnsafePointer<Double>) -> Double {
        let bits = x.bitPattern
        let e = Double(Int((bits >> 52) & 0x7ff) - 1023)
        let idx = Int((bits >> 42) & 0x3fe)
        let y = Double(bitPattern: (bits & 0x0000_07ff_ffff_ffff) | 0x3ff0_0000_0000_0000)
        let r = (y - 1.0009765625) * t[idx]
        let poly = r + r * r * (-0.5 + r * (1.0 / 3 - 0.25 * r))
        return e * 0.6931471805598903 + (t[idx + 1] + (e * 5.497923018708371e-14 + poly))
    }

    /// Σ p[k] log p[k], k < count; values below the smallest normal (zeros) add 0.
    @inline(__always)
    static func sumPLogP(_ p: UnsafePointer<Double>, _ count: Int, table t: UnsafePointer<Double>) -> Double {
        var s0 = 0.0, s1 = 0.0
        var k = 0
        while k + 1 < count {
            let a = p[k], b = p[k + 1]
            let la = log(a >= 2.2250738585072014e-308 ? a : 1, table: t)
            let lb = log(b >= 2.2250738585072014e-308 ? b : 1, table: t)
            s0 += a * la; s1 += b * lb
            k += 2
        }
        if k < count { let a = p[k]; s0 += a * log(a >= 2.2250738585072014e-308 ? a : 1, table: t) }
        return s0 + s1
    }
}

/// Small numeric helpers on raw pointers.
enum Kernels {
    /// Natural logarithm without a library call, for x > 0 finite (subnormals and other
    /// inputs go to `Math.log`): x = 2^e m with m in [√½, √2), log m = 2 atanh(s),
    /// s = (m − 1)/(m + 1), |s| ≤ 0.172, by its series to s²¹ (truncation < 3e-17 relative).
    /// Agrees with the C library to a few units in the last place.
    @inline(__always)
    static func log(_ x: Double) -> Double {
        guard x >= 2.2250738585072014e-308 && x < .infinity else { return Math.log(x) }
        let bits = x.bitPattern
        var e = Int((bits >> 52) & 0x7ff) - 1023
        var m = Double(bitPattern: (bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000)
        if m > 1.4142135623730951 { m *= 0.5; e += 1 }
        let s = (m - 1) / (m + 1), z = s * s
        var p = 1.0 / 21
        p = p * z + 1.0 / 19; p = p * z + 1.0 / 17; p = p * z + 1.0 / 15; p = p * z + 1.0 / 13
        p = p * z + 1.0 / 11; p = p * z + 1.0 / 9; p = p * z + 1.0 / 7; p = p * z + 1.0 / 5; p = p * z + 1.0 / 3
        let logM = 2 * s + 2 * s * (z * p)
        // ln 2 split in a high part with trailing zeros (exact product with e) and a low part.
        return Double(e) * 0.6931471805598903 + (Double(e) * 5.497923018708371e-14 + logM)
    }

    /// `log` of two positive, finite, normal values at once (the same series, evaluated by
    /// Estrin's scheme so the lanes and terms run in parallel).
    @inline(__always)
    static func log(_ x: SIMD2<Double>) -> SIMD2<Double> {
        let bits = unsafeBitCast(x, to: SIMD2<UInt64>.self)
        let expo = SIMD2<Int64>(truncatingIfNeeded: (bits &>> 52) & 0x7ff) &- 1023
        var m = unsafeBitCast((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000, to: SIMD2<Double>.self)
        var e = SIMD2<Double>(Double(expo[0]), Double(expo[1]))
        let big = m .> 1.4142135623730951
        m.replace(with: m * 0.5, where: big)
        e.replace(with: e + 1, where: big)
        let s = (m - 1) / (m + 1), z = s * s
        let z2 = z * z, z4 = z2 * z2, z8 = z4 * z4
        let a0 = 1.0 / 3 + z * (1.0 / 5), a1 = 1.0 / 7 + z * (1.0 / 9), a2 = 1.0 / 11 + z * (1.0 / 13)
        let a3 = 1.0 / 15 + z * (1.0 / 17), a4 = 1.0 / 19 + z * (1.0 / 21)
        let p = (a0 + z2 * a1) + z4 * (a2 + z2 * a3) + z8 * a4
        let logM = 2 * s + 2 * s * (z * p)
        return e * 0.6931471805598903 + (e * 5.497923018708371e-14 + logM)
    }

    /// Σ a[i] b[i], i < count: two-lane vectors, four independent accumulators.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ count: Int) -> Double {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var s0 = SIMD2<Double>(), s1 = SIMD2<Double>(), s2 = SIMD2<Double>(), s3 = SIMD2<Double>()
        var i = 0
        while i + 8 <= count {
            let o = i &* 8
            s0 += ra.loadUnaligned(fromByteOffset: o, as: SIMD2<Double>.self) * rb.loadUnaligned(fromByteOffset: o, as: SIMD2<Double>.self)
            s1 += ra.loadUnaligned(fromByteOffset: o + 16, as: SIMD2<Double>.self) * rb.loadUnaligned(fromByteOffset: o + 16, as: SIMD2<Double>.self)
            s2 += ra.loadUnaligned(fromByteOffset: o + 32, as: SIMD2<Double>.self) * rb.loadUnaligned(fromByteOffset: o + 32, as: SIMD2<Double>.self)
            s3 += ra.loadUnaligned(fromByteOffset: o + 48, as: SIMD2<Double>.self) * rb.loadUnaligned(fromByteOffset: o + 48, as: SIMD2<Double>.self)
            i += 8
        }
        var s = (s0 + s1) + (s2 + s3)
        while i + 2 <= count {
            s += ra.loadUnaligned(fromByteOffset: i &* 8, as: SIMD2<Double>.self) * rb.loadUnaligned(fromByteOffset: i &* 8, as: SIMD2<Double>.self)
            i += 2
        }
        var t = s[0] + s[1]
        while i < count { t += a[i] * b[i]; i += 1 }
        return t
    }
}

/// Order statistics by quickselect with a branch-free partition (no allocation, O(n) expected;
/// sorting 128 random values is dominated by branch mispredictions).
enum Selection {
    /// Rearranges `p[lo..<hi]` so that `p[k]` holds the value a sort would put there, smaller
    /// or equal values before it and greater or equal ones after. `t` is scratch of the same
    /// size as `p`. Precondition: lo ≤ k < hi.
    static func select(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ lo: Int, _ hi: Int, _ k: Int) {
        var lo = lo, hi = hi - 1          // inclusive bounds
        while hi - lo >= 16 {
            let a = p[lo], b = p[lo + (hi - lo) >> 1], c = p[hi]
            let pivot = max(min(a, b), min(max(a, b), c))     // median of three
            let l = partition(p, t, lo, hi, pivot, inclusive: false)   // [lo, l) < pivot
            if k < l { hi = l - 1; continue }
            if l > lo { lo = l; continue }
            // The pivot is the range's minimum: split off the values equal to it (ties are
            // common in quantised sensor data), which guarantees progress.
            let e = partition(p, t, l, hi, pivot, inclusive: true)     // [l, e) == pivot (e > l)
            if k < e { return }
            lo = e
        }
        if hi > lo { rankSort(p, t, lo, hi) }
    }

    /// Sorts the few values `p[lo...hi]` without branches on the data: each value's rank is
    /// the count of values before it (ties broken by position), O(m²) compares for m values.
    @inline(__always)
    static func rankSort(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ lo: Int, _ hi: Int) {
        for a in lo...hi {
            let v = p[a]
            var rank = 0
            for b in lo..<a { rank &+= Int(unsafeBitCast(p[b] <= v, to: UInt8.self)) }
            for b in (a + 1)..<(hi + 1) { rank &+= Int(unsafeBitCast(p[b] < v, to: UInt8.self)) }
            t[lo + rank] = v
        }
        (p + lo).update(from: t + lo, count: hi - lo + 1)
    }

    /// Branch-free partition of `p[lo...hi]` through `t`: values `< pivot` (or `≤` when
    /// `inclusive`) first, the others after (in reverse order). Returns the end of the first
    /// group. Every value is written at both ends; the later writes leave each slot right.
    @inline(__always)
    static func partition(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ lo: Int, _ hi: Int,
                          _ pivot: Double, inclusive: Bool) -> Int {
        var l = lo, top = hi
        for j in lo...hi {
            let v = p[j]
            t[l] = v; t[top] = v
            let isLeft = inclusive ? v <= pivot : v < pivot
            let step = Int(unsafeBitCast(isLeft, to: UInt8.self))
            l &+= step; top &-= 1 &- step
        }
        (p + lo).update(from: t + lo, count: hi - lo + 1)
        return l
    }

    /// Smallest of `p[lo..<hi]` (hi > lo).
    @inline(__always)
    static func minimum(_ p: UnsafePointer<Double>, _ lo: Int, _ hi: Int) -> Double {
        var m = p[lo]
        for i in (lo + 1)..<max(lo + 1, hi) { let v = p[i]; m = v < m ? v : m }
        return m
    }

    /// numpy-style linear 25th, 50th and 75th percentiles of `p[0..<n]` (reordered). n ≥ 4.
    static func quartiles(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ n: Int) -> (q25: Double, median: Double, q75: Double) {
        let a = Double(n - 1)
        let h50 = a * 0.5, h25 = a * 0.25, h75 = a * 0.75
        let k50 = Int(h50), k25 = Int(h25), k75 = Int(h75)
        select(p, t, 0, n, k50)
        let v50 = p[k50]
        let median = k50 + 1 < n ? interpolate(v50, minimum(p, k50 + 1, n), h50 - Double(k50)) : v50
        select(p, t, 0, k50, k25)
        let v25 = p[k25]
        let next25 = k25 + 1 == k50 ? v50 : minimum(p, k25 + 1, k50)
        let q25 = interpolate(v25, next25, h25 - Double(k25))
        select(p, t, k50 + 1, n, k75)
        let v75 = p[k75]
        let q75 = k75 + 1 < n ? interpolate(v75, minimum(p, k75 + 1, n), h75 - Double(k75)) : v75
        return (q25, median, q75)
    }

    /// First pass of the bucketed sorts: the bucket of every value into `ids[0..<n]` and four
    /// interleaved histograms (value i counts in set i mod 4) into `counts[0..<4·buckets]`.
    /// In smooth signals neighbours share a bucket, and one counter per bucket would make
    /// every increment wait for the previous one through memory. The bucket of a value is
    /// (x − lo) × scale in [0, buckets], rounded to nearest by the 1.5 × 2⁵² trick (no trapping
    /// conversion, no branch) and clamped to the last bucket: a monotone map, which is all the
    /// sorts need. NaN input lands in some bucket.
    @inline(__always)
    static func histogram(_ x: UnsafePointer<Double>, _ n: Int, lo: Double, scale: Double, buckets: Int,
                          ids: UnsafeMutablePointer<Int>, counts cnt: UnsafeMutablePointer<Int>) {
        for j in 0..<(4 * buckets) { cnt[j] = 0 }
        let top = buckets - 1
        @inline(__always) func bucket(_ v: Double) -> Int {
            let t = ((v - lo) * scale + 6755399441055744.0).bitPattern
            return min(Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: t)), top)
        }
        let c0 = cnt, c1 = cnt + buckets, c2 = cnt + 2 * buckets, c3 = cnt + 3 * buckets
        var i = 0
        while i + 4 <= n {
            let b0 = bucket(x[i]), b1 = bucket(x[i &+ 1]), b2 = bucket(x[i &+ 2]), b3 = bucket(x[i &+ 3])
            ids[i] = b0; ids[i &+ 1] = b1; ids[i &+ 2] = b2; ids[i &+ 3] = b3
            c0[b0] &+= 1; c1[b1] &+= 1; c2[b2] &+= 1; c3[b3] &+= 1
            i += 4
        }
        while i < n {
            let b = bucket(x[i])
            ids[i] = b
            cnt[(i & 3) &* buckets &+ b] &+= 1
            i += 1
        }
    }

    /// Last pass of the bucketed sorts: every value to its set's write cursor in `out`
    /// (`cursors`, laid out as `histogram`'s counts, advanced as values are placed).
    @inline(__always)
    static func scatter(_ x: UnsafePointer<Double>, _ n: Int, buckets: Int, ids: UnsafeMutablePointer<Int>,
                        cursors cnt: UnsafeMutablePointer<Int>, into out: UnsafeMutablePointer<Double>) {
        let c0 = cnt, c1 = cnt + buckets, c2 = cnt + 2 * buckets, c3 = cnt + 3 * buckets
        var i = 0
        while i + 4 <= n {
            let j0 = ids[i], j1 = ids[i &+ 1], j2 = ids[i &+ 2], j3 = ids[i &+ 3]
            out[c0[j0]] = x[i]; c0[j0] &+= 1
            out[c1[j1]] = x[i &+ 1]; c1[j1] &+= 1
            out[c2[j2]] = x[i &+ 2]; c2[j2] &+= 1
            out[c3[j3]] = x[i &+ 3]; c3[j3] &+= 1
            i += 4
        }
        while i < n {
            let j = (i & 3) &* buckets &+ ids[i]
            out[cnt[j]] = x[i]
            cnt[j] &+= 1
            i += 1
        }
    }

    /// Buckets used by `quartilesBucketed` for n values.
    static func bucketCount(_ n: Int) -> Int { max(8, n / 2) }
    /// Int scratch needed by `quartilesBucketed` for n values.
    static func bucketIntCount(_ n: Int) -> Int { n + 6 * bucketCount(n) + 1 }

    /// The same quartiles as `quartiles`, from `x[0..<n]` (not modified) whose minimum and
    /// maximum are `lo` and `hi`: the values are spread into n/2 equal-width buckets by value
    /// (a counting sort by bucket, branch-free), and only the buckets holding the six order
    /// statistics needed are sorted (branch-free rank sort). When one of those buckets holds
    /// more than 32 values (a concentrated window, e.g. flat with one spike) it falls back to
    /// `quartiles`. Scratch: `t` and `work` n values each, `ints` `bucketIntCount(n)`.
    static func quartilesBucketed(_ x: UnsafePointer<Double>, _ n: Int, lo: Double, hi: Double,
                                  t: UnsafeMutablePointer<Double>, work: UnsafeMutablePointer<Double>,
                                  ints: UnsafeMutablePointer<Int>) -> (q25: Double, median: Double, q75: Double) {
        if !(hi > lo) { return (lo, lo, lo) }
        let buckets = bucketCount(n)
        let scale = Double(buckets) / (hi - lo)
        func fallback() -> (q25: Double, median: Double, q75: Double) {
            work.update(from: x, count: n)
            return quartiles(work, t, n)
        }
        guard scale.isFinite else { return fallback() }
        // Four interleaved histograms and cursor sets (value i uses set i mod 4): in smooth
        // signals neighbours share a bucket, and one counter per bucket would make every
        // increment wait for the previous one through memory.
        let ids = ints, cnt = ints + n, start = cnt + 4 * buckets, flag = start + (buckets + 1)
        histogram(x, n, lo: lo, scale: scale, buckets: buckets, ids: ids, counts: cnt)
        start[0] = 0
        for b in 0..<buckets {
            var offset = start[b]
            for lane in 0..<4 {
                let j = lane &* buckets &+ b
                let c = cnt[j]
                cnt[j] = offset                          // now the lane's write cursor
                offset &+= c
            }
            start[b + 1] = offset
            flag[b] = 0
        }
        scatter(x, n, buckets: buckets, ids: ids, cursors: cnt, into: t)
        // Sort the bucket holding rank r (once); false when it is too big.
        @inline(__always) func ensure(_ r: Int) -> Bool {
            var a = 0, z = buckets            // largest b with start[b] ≤ r
            while z - a > 1 { let m = (a + z) >> 1; if start[m] <= r { a = m } else { z = m } }
            if flag[a] < 0 { return true }
            let s = start[a], e = start[a + 1]
            if e - s > 32 { return false }
            if e - s > 1 { rankSort(t, work, s, e - 1) }
            flag[a] = -1
            return true
        }
        let h = Double(n - 1)
        let h25 = h * 0.25, h50 = h * 0.5, h75 = h * 0.75
        let k25 = Int(h25), k50 = Int(h50), k75 = Int(h75)
        @inline(__always) func ensurePair(_ k: Int) -> Bool { ensure(k) && (k + 1 >= n || ensure(k + 1)) }
        if !(ensurePair(k25) && ensurePair(k50) && ensurePair(k75)) { return fallback() }
        @inline(__always) func at(_ k: Int, _ f: Double) -> Double { k + 1 < n ? interpolate(t[k], t[k + 1], f) : t[k] }
        return (at(k25, h25 - Double(k25)), at(k50, h50 - Double(k50)), at(k75, h75 - Double(k75)))
    }

    @inline(__always)
    static func interpolate(_ a: Double, _ b: Double, _ f: Double) -> Double { f == 0 ? a : a + f * (b - a) }

    /// Longest blocks `sortPair` is used for.
    static let maximumNetworkLength = 256
    /// Two-lane scratch needed by `sortPair` for n values: n rounded up to a power of two.
    static func networkSize(_ n: Int) -> Int { var m = 1; while m < n { m <<= 1 }; return m }

    /// Sorts `x0[0..<n]` into `out0` and `x1[0..<n]` into `out1` (ascending) with one bitonic
    /// sorting network whose two lanes are the two inputs: a fixed sequence of compare-exchanges
    /// (no branch on the data), padded with +∞ to a power of two. Scratch: `work`,
    /// `networkSize(n)` values. Compare-exchanges leave NaN where they are (no trap; the
    /// order is then unspecified).
    static func sortPair(_ x0: UnsafePointer<Double>, _ x1: UnsafePointer<Double>, _ n: Int,
                         into out0: UnsafeMutablePointer<Double>, _ out1: UnsafeMutablePointer<Double>,
                         work w: UnsafeMutablePointer<SIMD2<Double>>) {
        typealias V = SIMD2<Double>
        let size = networkSize(n)
        for i in 0..<n { w[i] = V(x0[i], x1[i]) }
        for i in n..<size { w[i] = V(repeating: .infinity) }
        @inline(__always) func exchange(_ p: Int, _ q: Int) {
            let a = w[p], b = w[q]
            let swap = b .< a
            w[p] = a.replacing(with: b, where: swap); w[q] = b.replacing(with: a, where: swap)
        }
        @inline(__always) func cx(_ a: inout V, _ b: inout V) {
            let swap = b .< a
            let lo = a.replacing(with: b, where: swap), hi = b.replacing(with: a, where: swap)
            a = lo; b = hi
        }
        // The steps whose distances are below 8 run on eight values held in registers (the
        // same compare-exchanges; those of one step are disjoint, so their order is free).
        let grouped = size >= 8
        if grouped {
            var g = 0
            while g < size {
                var v0 = w[g], v1 = w[g &+ 1], v2 = w[g &+ 2], v3 = w[g &+ 3]
                var v4 = w[g &+ 4], v5 = w[g &+ 5], v6 = w[g &+ 6], v7 = w[g &+ 7]
                cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7)                    // k = 2
                cx(&v0, &v3); cx(&v1, &v2); cx(&v4, &v7); cx(&v5, &v6)                    // k = 4
                cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7)
                cx(&v0, &v7); cx(&v1, &v6); cx(&v2, &v5); cx(&v3, &v4)                    // k = 8
                cx(&v0, &v2); cx(&v1, &v3); cx(&v4, &v6); cx(&v5, &v7)
                cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7)
                w[g] = v0; w[g &+ 1] = v1; w[g &+ 2] = v2; w[g &+ 3] = v3
                w[g &+ 4] = v4; w[g &+ 5] = v5; w[g &+ 6] = v6; w[g &+ 7] = v7
                g &+= 8
            }
        }
        var k = grouped ? 16 : 2
        while k <= size {
            // Merge sorted runs of k/2 into runs of k: the first step compares mirrored
            // positions (so both runs count as ascending), the others halve the distance.
            var block = 0
            while block < size {
                for t in 0..<(k / 2) { exchange(block &+ t, block &+ k &- 1 &- t) }
                block &+= k
            }
            var j = k / 4
            while j >= (grouped ? 8 : 1) {
                block = 0
                while block < size {
                    for t in 0..<j { exchange(block &+ t, block &+ t &+ j) }
                    block &+= 2 &* j
                }
                j >>= 1
            }
            if grouped {
                var g = 0
                while g < size {
                    var v0 = w[g], v1 = w[g &+ 1], v2 = w[g &+ 2], v3 = w[g &+ 3]
                    var v4 = w[g &+ 4], v5 = w[g &+ 5], v6 = w[g &+ 6], v7 = w[g &+ 7]
                    cx(&v0, &v4); cx(&v1, &v5); cx(&v2, &v6); cx(&v3, &v7)               // j = 4
                    cx(&v0, &v2); cx(&v1, &v3); cx(&v4, &v6); cx(&v5, &v7)               // j = 2
                    cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7)               // j = 1
                    w[g] = v0; w[g &+ 1] = v1; w[g &+ 2] = v2; w[g &+ 3] = v3
                    w[g &+ 4] = v4; w[g &+ 5] = v5; w[g &+ 6] = v6; w[g &+ 7] = v7
                    g &+= 8
                }
            }
            k <<= 1
        }
        for i in 0..<n { let v = w[i]; out0[i] = v[0]; out1[i] = v[1] }
    }

    /// Int scratch needed by `sortBucketed` for n values.
    static func sortIntCount(_ n: Int) -> Int { n + 5 * max(1, n) + 1 }

    /// Sorts `x[0..<n]` (not modified) into `out[0..<n]`, ascending: a branch-free counting sort
    /// into n equal-width value buckets (four interleaved histograms, as in `quartilesBucketed`),
    /// then an insertion sort, which only moves values within their bucket (O(n) for spread
    /// values; O(n²) at worst, for values crowded into one bucket). Every value is kept; NaN
    /// values stay where the buckets put them (the order around them is then unspecified, no
    /// trap). Scratch: `ints`, `sortIntCount(n)` values.
    static func sortBucketed(_ x: UnsafePointer<Double>, _ n: Int, into out: UnsafeMutablePointer<Double>,
                             ints: UnsafeMutablePointer<Int>) {
        guard n > 0 else { return }
        var lo = x[0], hi = x[0]
        for i in 1..<max(1, n) { let v = x[i]; lo = v < lo ? v : lo; hi = v > hi ? v : hi }
        let buckets = n
        let scale = Double(buckets) / (hi - lo)
        if hi > lo && scale.isFinite {
            let ids = ints, cnt = ints + n
            histogram(x, n, lo: lo, scale: scale, buckets: buckets, ids: ids, counts: cnt)
            var offset = 0
            for b in 0..<buckets {
                for lane in 0..<4 {
                    let j = lane &* buckets &+ b
                    let c = cnt[j]
                    cnt[j] = offset
                    offset &+= c
                }
            }
            scatter(x, n, buckets: buckets, ids: ids, cursors: cnt, into: out)
        } else {
            out.update(from: x, count: n)
        }
        // Insertion sort (values are already in bucket order).
        var i = 1
        while i < n {
            let v = out[i]
            var j = i
            while j > 0 && out[j &- 1] > v { out[j] = out[j &- 1]; j &-= 1 }
            out[j] = v
            i += 1
        }
    }

    /// The value of rank k (0-based) among the sorted `a[0..<p]` and `b[0..<q]` together, and
    /// the one of rank k + 1 (the same value when k + 1 = p + q), given i: how many of the
    /// k + 1 smallest come from a (`split`). Precondition: k < p + q.
    @inline(__always)
    static func mergedRank(_ a: UnsafePointer<Double>, _ p: Int, _ b: UnsafePointer<Double>, _ q: Int, _ k: Int,
                           split i: Int) -> (Double, Double) {
        let j = k + 1 - i
        let fromA = i > 0 ? a[i - 1] : -Double.infinity, fromB = j > 0 ? b[j - 1] : -Double.infinity
        let v = i == 0 ? fromB : (j == 0 ? fromA : max(fromA, fromB))
        if k + 1 >= p + q { return (v, v) }
        let nextA = i < p ? a[i] : Double.infinity, nextB = j < q ? b[j] : Double.infinity
        let w = i >= p ? nextB : (j >= q ? nextA : min(nextA, nextB))
        return (v, w)
    }

    /// numpy-style linear quartiles of the union of the sorted `a[0..<p]` and `b[0..<q]`
    /// (p + q ≥ 1): the same values as `quartiles` of the concatenation. O(p + q) compares,
    /// all independent (no chain of dependent loads, no data-dependent branch).
    static func quartilesOfSorted(_ a: UnsafePointer<Double>, _ p: Int, _ b: UnsafePointer<Double>, _ q: Int)
        -> (q25: Double, median: Double, q75: Double) {
        let n = p + q
        let h = Double(n - 1)
        let h25 = h * 0.25, h50 = h * 0.5, h75 = h * 0.75
        let k25 = Int(h25), k50 = Int(h50), k75 = Int(h75)
        let (v25, w25) = mergedRank(a, p, b, q, k25, split: split(a, p, b, q, k25))
        let (v50, w50) = mergedRank(a, p, b, q, k50, split: split(a, p, b, q, k50))
        let (v75, w75) = mergedRank(a, p, b, q, k75, split: split(a, p, b, q, k75))
        return (interpolate(v25, w25, h25 - Double(k25)), interpolate(v50, w50, h50 - Double(k50)),
                interpolate(v75, w75, h75 - Double(k75)))
    }

    /// For rank k (k < p + q) of the sorted `a[0..<p]` and `b[0..<q]` together: i, how many of
    /// the k + 1 smallest come from a. For i in [max(0, k + 1 − q), min(k + 1, p)), b[k − i] >
    /// a[i] holds below the split and fails from it on (a rises with i, b[k − i] falls), so
    /// the split is the range's start plus the count of the i where it holds: independent
    /// compares, two lanes, two accumulators (`motus_quartiles_sorted` counts the same
    /// compares four lanes at a time, so both paths give the same split for any input).
    @inline(__always)
    static func split(_ a: UnsafePointer<Double>, _ p: Int, _ b: UnsafePointer<Double>, _ q: Int, _ k: Int) -> Int {
        let lo = max(0, k + 1 - q), hi = min(k + 1, p)
        var acc0 = SIMD2<Int64>(), acc1 = SIMD2<Int64>()
        var i = lo
        while i &+ 4 <= hi {                      // b[k − i − 3 ... k − i] are in bounds (i + 4 ≤ k + 1)
            let a0 = Kernels.load2(a, i), a1 = Kernels.load2(a, i &+ 2)
            let b0 = Kernels.load2(b, k &- i &- 1), b1 = Kernels.load2(b, k &- i &- 3)
            // A true lane of a mask is −1: subtracting the masks counts them.
            acc0 &-= unsafeBitCast(SIMD2(b0[1], b0[0]) .> a0, to: SIMD2<Int64>.self)
            acc1 &-= unsafeBitCast(SIMD2(b1[1], b1[0]) .> a1, to: SIMD2<Int64>.self)
            i &+= 4
        }
        let acc = acc0 &+ acc1
        var count = Int(acc[0] &+ acc[1])
        while i < hi { count &+= b[k &- i] > a[i] ? 1 : 0; i &+= 1 }
        return lo + count
    }
}

extension UnsafeMutablePointer where Pointee == Double {
    @inline(__always) func swapAt(_ i: Int, _ j: Int) { let t = self[i]; self[i] = self[j]; self[j] = t }
}

extension Kernels {
    @inline(__always) static func load2(_ p: UnsafePointer<Double>, _ i: Int) -> SIMD2<Double> {
        UnsafeRawPointer(p).loadUnaligned(fromByteOffset: i &* 8, as: SIMD2<Double>.self)
    }
    @inline(__always) static func store2(_ v: SIMD2<Double>, _ p: UnsafeMutablePointer<Double>, _ i: Int) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, toByteOffset: i &* 8, as: SIMD2<Double>.self)
    }

    /// (Σx, Σx², Σ|x|, min, max) of x[0..<n], n ≥ 1: two-lane vectors, two accumulator sets.
    /// min and max skip NaN unless x[0] is NaN.
    @inline(__always)
    static func basicSums(_ x: UnsafePointer<Double>, _ n: Int) -> (Double, Double, Double, Double, Double) {
        var s0 = SIMD2<Double>(), s1 = SIMD2<Double>(), q0 = SIMD2<Double>(), q1 = SIMD2<Double>()
        var a0 = SIMD2<Double>(), a1 = SIMD2<Double>()
        var lo0 = SIMD2<Double>(repeating: x[0]), hi0 = lo0, lo1 = lo0, hi1 = lo0
        let signMask = SIMD2<UInt64>(repeating: 0x7fff_ffff_ffff_ffff)
        var i = 0
        while i + 4 <= n {
            let u = load2(x, i), v = load2(x, i &+ 2)
            s0 += u; s1 += v; q0 += u * u; q1 += v * v
            a0 += unsafeBitCast(unsafeBitCast(u, to: SIMD2<UInt64>.self) & signMask, to: SIMD2<Double>.self)
            a1 += unsafeBitCast(unsafeBitCast(v, to: SIMD2<UInt64>.self) & signMask, to: SIMD2<Double>.self)
            lo0.replace(with: u, where: u .< lo0); hi0.replace(with: u, where: u .> hi0)
            lo1.replace(with: v, where: v .< lo1); hi1.replace(with: v, where: v .> hi1)
            i += 4
        }
        let s = s0 + s1, q = q0 + q1, a = a0 + a1
        lo0.replace(with: lo1, where: lo1 .< lo0); hi0.replace(with: hi1, where: hi1 .> hi0)
        var sum = s[0] + s[1], sumSq = q[0] + q[1], sumAbs = a[0] + a[1]
        var lo = lo0[1] < lo0[0] ? lo0[1] : lo0[0], hi = hi0[1] > hi0[0] ? hi0[1] : hi0[0]
        while i < n {
            let v = x[i]
            sum += v; sumSq += v * v; sumAbs += abs(v)
            lo = v < lo ? v : lo; hi = v > hi ? v : hi
            i += 1
        }
        return (sum, sumSq, sumAbs, lo, hi)
    }

    /// Writes d[i] = x[i] − shift and returns (Σd², Σd³, Σd⁴), i < n.
    @inline(__always)
    static func centeredMoments(_ x: UnsafePointer<Double>, _ n: Int, shift: Double,
                                into d: UnsafeMutablePointer<Double>) -> (Double, Double, Double) {
        let sh = SIMD2<Double>(repeating: shift)
        var m20 = SIMD2<Double>(), m21 = SIMD2<Double>(), m30 = SIMD2<Double>(), m31 = SIMD2<Double>()
        var m40 = SIMD2<Double>(), m41 = SIMD2<Double>()
        var i = 0
        while i + 4 <= n {
            let u = load2(x, i) - sh, v = load2(x, i &+ 2) - sh
            store2(u, d, i); store2(v, d, i &+ 2)
            let u2 = u * u, v2 = v * v
            m20 += u2; m21 += v2; m30 += u2 * u; m31 += v2 * v; m40 += u2 * u2; m41 += v2 * v2
            i += 4
        }
        let a = m20 + m21, b = m30 + m31, c = m40 + m41
        var m2 = a[0] + a[1], m3 = b[0] + b[1], m4 = c[0] + c[1]
        while i < n {
            let e = x[i] - shift
            d[i] = e
            let e2 = e * e
            m2 += e2; m3 += e2 * e; m4 += e2 * e2
            i += 1
        }
        return (m2, m3, m4)
    }

    /// Number of i < n − 1 with (d[i] < 0) ≠ (d[i + 1] < 0).
    @inline(__always)
    static func signChanges(_ d: UnsafePointer<Double>, _ n: Int) -> Int {
        var acc0 = SIMD2<Int64>(), acc1 = SIMD2<Int64>()
        let zero = SIMD2<Double>()
        var i = 0
        while i + 5 <= n {                       // pairs i … i + 3 read d[i … i + 4]
            let a = load2(d, i), b = load2(d, i &+ 1), c = load2(d, i &+ 2), e = load2(d, i &+ 3)
            // A true lane of a mask is −1: subtracting the masks counts them.
            acc0 &-= unsafeBitCast((a .< zero) .^ (b .< zero), to: SIMD2<Int64>.self)
            acc1 &-= unsafeBitCast((c .< zero) .^ (e .< zero), to: SIMD2<Int64>.self)
            i += 4
        }
        let acc = acc0 &+ acc1
        var count = Int(acc[0] &+ acc[1])
        while i + 1 < n {
            count &+= (d[i] < 0) != (d[i + 1] < 0) ? 1 : 0
            i += 1
        }
        return count
    }

    /// Σ p[i], i < count (two lanes, two accumulators).
    @inline(__always)
    static func sum(_ p: UnsafePointer<Double>, _ count: Int) -> Double {
        var s0 = SIMD2<Double>(), s1 = SIMD2<Double>()
        var i = 0
        while i + 4 <= count { s0 += load2(p, i); s1 += load2(p, i &+ 2); i += 4 }
        let s = s0 + s1
        var t = s[0] + s[1]
        while i < count { t += p[i]; i += 1 }
        return t
    }

    /// The first k in from...through with p[k] the largest (values ≤ 0 and NaN never win over
    /// a positive one); `from` when none is positive.
    @inline(__always)
    static func firstMaxIndex(_ p: UnsafePointer<Double>, from: Int, through: Int) -> Int {
        var m0 = SIMD2<Double>(), m1 = SIMD2<Double>()
        var k = from
        while k + 4 <= through + 1 {
            let u = load2(p, k), v = load2(p, k &+ 2)
            m0.replace(with: u, where: u .> m0); m1.replace(with: v, where: v .> m1)
            k += 4
        }
        m0.replace(with: m1, where: m1 .> m0)
        var best = m0[1] > m0[0] ? m0[1] : m0[0]
        while k <= through { let v = p[k]; best = v > best ? v : best; k += 1 }
        guard best > 0 else { return from }
        var j = from
        while j < through && p[j] != best { j += 1 }
        return j
    }

    /// r[k] = Σ_{i < n − k} f[i] f[i + k] for k in kFrom...kTo, in single precision: eight lags
    /// at a time share each four-lane load of f[i]; `f[n ..< n + 12]` must be zero (products
    /// with zeros add nothing, so every lag of a block runs over the block's longest range).
    static func autocorrelationSingle(_ f: UnsafePointer<Float>, _ n: Int, _ kFrom: Int, _ kTo: Int,
                                      into r: UnsafeMutablePointer<Float>) {
        let rf = UnsafeRawPointer(f)
        @inline(__always) func load(_ i: Int) -> SIMD4<Float> { rf.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self) }
        var k = kFrom
        while k <= kTo {
            let count = n - k
            var s0 = SIMD4<Float>(), s1 = SIMD4<Float>(), s2 = SIMD4<Float>(), s3 = SIMD4<Float>()
            var s4 = SIMD4<Float>(), s5 = SIMD4<Float>(), s6 = SIMD4<Float>(), s7 = SIMD4<Float>()
            var i = 0
            while i < count {                    // i + k + 7 + 3 < n + 12 reads only the zeros past n
                let x = load(i)
                let b = i &+ k
                s0 += x * load(b); s1 += x * load(b &+ 1); s2 += x * load(b &+ 2); s3 += x * load(b &+ 3)
                s4 += x * load(b &+ 4); s5 += x * load(b &+ 5); s6 += x * load(b &+ 6); s7 += x * load(b &+ 7)
                i += 4
            }
            r[k] = s0.sum()
            if k + 1 <= kTo { r[k + 1] = s1.sum() }
            if k + 2 <= kTo { r[k + 2] = s2.sum() }
            if k + 3 <= kTo { r[k + 3] = s3.sum() }
            if k + 4 <= kTo { r[k + 4] = s4.sum() }
            if k + 5 <= kTo { r[k + 5] = s5.sum() }
            if k + 6 <= kTo { r[k + 6] = s6.sum() }
            if k + 7 <= kTo { r[k + 7] = s7.sum() }
            k += 8
        }
    }
}
