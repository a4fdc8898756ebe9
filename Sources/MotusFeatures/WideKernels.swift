#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CMotusKernels

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

// The four-lane path of `WindowKernel.compute`.
extension WindowKernel {
    /// `compute` with the four-lane kernels: the (window, channel) pairs four at a time (lane
    /// w × C + c; a short last group repeats its last pair in the spare lanes), each group's
    /// centred moments, mean crossings and transform input in one pass (`motus_channels4`),
    /// then its transform and spectrum summaries. The centred values are kept only when the
    /// autocorrelation or correlations need them.
    mutating func computeWide(_ windows: UnsafePointer<WindowInput>, count: Int, stride: Int,
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
}
