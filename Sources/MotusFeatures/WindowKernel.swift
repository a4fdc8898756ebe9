import CMotusKernels
import MotusCore
import MotusSignal

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
///
/// This file holds the kernel's state and scratch layout, the block sorting and the per-window
/// driver (`compute`, `finishChannel`, the correlations); its other parts are in
/// WideKernels.swift (`computeWide`), Autocorrelation.swift (`autocorrelationPeak`) and
/// SpectrumSummary.swift (`spectra`, `summarizeLane`). The helpers they call are in
/// Kernels.swift (sums and moments), Selection.swift (quartiles and sorting), LogTable.swift,
/// and the scratch memory in KernelBuffers.swift.
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
    private(set) var buffers: KernelBuffers
    // The scratch layout (set at init). Offsets the kernel's parts in other files read are
    // internal, the others private.
    // Offsets into buffers.doubles.
    let oCentered: Int                  // G × C × (N + zeroPad): x − mean per lane (w × C + c), then zeros
    private let oEnergy: Int            // G × C: Σ (x − mean)² per lane
    let oConstant: Int                  // G × C: 1 when the lane's channel is constant in its window
    private let oSorted: Int            // 2N: values to select in, then partition scratch
    let oPower: Int                     // 2 (M/2 + 1): their powers
    let oExact: Int                     // N: exact r(k), NaN = not computed yet
    let oBands: Int                     // max(1, bandCount)
    let oHann: Int                      // N
    let oLogTable: Int                  // LogTable.storageCount
    let oQuadWork: Int                  // fft.quadWorkCount (wide only)
    let oQuadPower: Int                 // 4 (M/2 + 1): interleaved powers of four channels (wide only)
    let oQuadStats: Int                 // 8: their totals, Σ P log P (wide only)
    private let oSortWork: Int          // 4 × networkSize(blockLength) (wide only)
    let oQuadShift: Int                 // 4: the shift of each lane's centring (wide only)
    let oQuadMoments: Int               // 12: Σd², Σd³, Σd⁴ of four lanes (wide only)
    let oQuadSums: Int                  // 20: Σx, Σx², Σ|x|, min, max of four lanes (wide only)
    private let oQuadQuartiles: Int     // 3: q25, median, q75 (wide only)
    private let oSlots: Int             // Self.slotCount: one channel's values by slot (`finishChannel`)
    // Offsets into buffers.ints.
    private let oBucketWork: Int        // Selection.bucketIntCount(N)
    let oBandRange: Int                 // 2 × bandCount: first bin, end bin of each band
    let oRise: Int                      // N + 1: screened rise flags per lag
    let oPeaks: Int                     // N: lags of the peaks
    private let oSortInts: Int          // Selection.sortIntCount(blockLength)
    let oChannelList: Int               // C: the non-constant channels of a window
    let oQuadFirst: Int                 // 4: first largest bins (wide only)
    let oQuadCrossings: Int             // 4: mean crossings (wide only)
    private let oSlotMap: Int           // valuesPerChannel: the slot of each of a channel's values
    // Offsets into buffers.floats.
    let oScaled: Int                    // N + 16: (x − mean) / std in single precision, then zeros
    let oApprox: Int                    // N: approximate r(k)

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

    /// The values of lane c (channel c of the window, or with `computeWide` (window, channel)
    /// pair c) from its basic sums (Σx, Σx², Σ|x|, min, max), centred moments (Σd², Σd³, Σd⁴)
    /// and mean crossings: the spectral ones are written as 0 (`spectra` or `computeWide`
    /// writes them after). The centred values, when kept, are at lane c of `oCentered`.
    mutating func finishChannel(_ c: Int, _ x: UnsafePointer<Double>, _ sortedA: UnsafePointer<Double>?,
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
}
