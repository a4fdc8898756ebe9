import Testing
import MotusTestSupport
import MotusCore
import MotusIO
@testable import MotusSignal

@Suite struct AlignmentTests {
    @Test func intersectionAndGapsOfAllStreams() {
        let ta = irregularTimes(seed: 21, count: 3000, start: 10.0, meanDt: 0.005, holes: [(1000, 0.4)])
        let tb = irregularTimes(seed: 22, count: 1500, start: 10.7, meanDt: 0.01, holes: [(900, 0.25)])
        let tc = irregularTimes(seed: 23, count: 1600, start: 10.2, meanDt: 0.009)
        let a = SensorStream(kind: .acceleration, times: ta, values: ta.flatMap { [$0, 2 * $0, 1] })
        let b = SensorStream(kind: .rotationRate, times: tb, values: tb.flatMap { [-$0, 0, $0 * $0] })
        let c = SensorStream(kind: .pressure, times: tc, values: tc.map { 1000 + $0 })
        let settings = ResamplerSettings(rateHz: 50)
        let segs = StreamAligner.align([a, b, c], settings: settings)
        #expect(segs.count >= 2)
        let sep = [a, b, c].map { Resampler.resample($0, settings: settings) }
        for seg in segs {
            #expect(seg.channels.map(\.name) == ["acc", "gyro", "baro"])
            for (s, ch) in seg.channels.enumerated() {
                #expect(ch.values.count == seg.count * ch.width)
                // Every aligned value equals that stream's own resampled value at the same index.
                let own = sep[s].first { $0.firstIndex <= seg.firstIndex && $0.endIndex >= seg.endIndex }
                #expect(own != nil)
                if let own {
                    let off = (seg.firstIndex - own.firstIndex) * own.width
                    #expect(Array(own.values[off..<(off + ch.values.count)]) == ch.values)
                }
            }
        }
        // Completeness: a grid index is aligned iff every stream covers it.
        func covered(_ k: Int) -> Bool { sep.allSatisfy { $0.contains { $0.firstIndex <= k && k < $0.endIndex } } }
        let lo = segs.first!.firstIndex - 100, hi = segs.last!.endIndex + 100
        for k in lo..<hi {
            let inAligned = segs.contains { $0.firstIndex <= k && k < $0.endIndex }
            #expect(inAligned == covered(k))
        }
    }

    @Test func explicitOffsetIsApplied() {
        let t = irregularTimes(seed: 30, count: 2000, start: 0, meanDt: 0.01)
        let signal = t.map { Math.sin(2 * Double.pi * 1.3 * $0) }
        let ref = SensorStream(kind: .pressure, name: "ref", times: t, values: signal)
        // The other clock reads 0.25 s later for the same event.
        let shifted = SensorStream(kind: .pressure, name: "late", times: t.map { $0 + 0.25 }, values: signal)
        let segs = StreamAligner.align([ref, shifted], offsetsSeconds: [0, -0.25], settings: ResamplerSettings(rateHz: 100))
        #expect(segs.count == 1)
        let d = maxAbsDiff(segs[0].channels[0].values, segs[0].channels[1].values)
        #expect(d < 1e-9)
        let wrong = StreamAligner.align([ref, shifted], settings: ResamplerSettings(rateHz: 100))
        #expect(maxAbsDiff(wrong[0].channels[0].values, wrong[0].channels[1].values) > 0.5)
    }

    @Test func noOverlapGivesNothing() {
        let a = SensorStream(kind: .pressure, times: [0, 0.01, 0.02], values: [1, 2, 3])
        let b = SensorStream(kind: .pressure, times: [5, 5.01, 5.02], values: [1, 2, 3])
        #expect(StreamAligner.align([a, b], settings: ResamplerSettings(rateHz: 100)).isEmpty)
    }

    @Test(arguments: [0.09, -0.0437, 0.3126]) func offsetRecoveredOnSyntheticNoise(shift: Double) {
        // Band-limited random motion, sampled on two independent irregular clocks.
        var rng = SplitMix64(seed: 77)
        let freqs = (0..<12).map { _ in rng.uniform(0.3, 8) }, phases = (0..<12).map { _ in rng.uniform(0, 6.28) }
        func f(_ t: Double) -> Double { var s = 9.81; for i in 0..<12 { s += Math.sin(2 * Double.pi * freqs[i] * t + phases[i]) }; return s }
        let t1 = irregularTimes(seed: 40, count: 6000, start: 0, meanDt: 0.005)
        let t2 = irregularTimes(seed: 41, count: 3000, start: 0.2, meanDt: 0.01)
        let ref = SensorStream(kind: .pressure, times: t1, values: t1.map(f))
        let other = SensorStream(kind: .pressure, times: t2.map { $0 + shift }, values: t2.map(f))
        let est = ClockOffsetEstimator.estimate(reference: ref, other: other, rateHz: 100, maxLagSeconds: 0.5)!
        #expect(abs(est.offsetSeconds + shift) < 0.001, "estimated \(est.offsetSeconds), true \(-shift)")
        #expect(est.correlation > 0.99 && !est.atSearchLimit)
    }
}

@Suite(.enabled(if: Data.available, "shared datasets absent (../shared/datasets or MOTUS_DATASETS): skipping real-data alignment tests"))
struct RealDataAlignmentTests {
    /// Shift a real walk by a known offset, thin it to every other sample (so the two
    /// streams share no sample), and recover the offset from acceleration magnitude.
    @Test(arguments: ["Samsung_Carmelo_Hard_Armband_2", "Pixel_Jamie_Hard_FrontPocket_2", "Nexus_Jamie_Hard_InHand_1"])
    func oxfordShiftRecovered(walk: String) throws {
        let s = try StreamCleaner.clean(Data.oxford(walk)).stream
        for shift in [0.09, -0.2317] {
            var t: [Double] = [], v: [Double] = []
            for i in stride(from: 1, to: s.count, by: 2) {
                t.append(s.times[i] + shift); v += [s.value(i, 0), s.value(i, 1), s.value(i, 2)]
            }
            let other = SensorStream(kind: .acceleration, name: "other", times: t, values: v)
            let est = ClockOffsetEstimator.estimate(reference: s, other: other, rateHz: 100, maxLagSeconds: 1)!
            print("oxford \(walk) shift \(shift): estimated offset \(est.offsetSeconds) s, r = \(est.correlation)")
            #expect(abs(est.offsetSeconds + shift) < 0.002, "\(walk): estimated \(est.offsetSeconds), true \(-shift)")
            // Aligning with the estimate puts the two back together.
            let segs = StreamAligner.align([s, other], offsetsSeconds: [0, est.offsetSeconds], settings: ResamplerSettings(rateHz: 100))
            #expect(!segs.isEmpty)
        }
    }

    @Test func ipolShiftRecoveredAcrossGaps() throws {
        // 8-5 has 594 lost packets: the estimator must cope with NaN holes.
        let d = try Data.ipol("8-5")
        let s = try StreamCleaner.clean(d.acc).stream
        let other = SensorStream(kind: .acceleration, name: "late", times: s.times.map { $0 + 0.09 }, values: s.values)
        let est = ClockOffsetEstimator.estimate(reference: s, other: other, rateHz: 100, maxLagSeconds: 0.5)!
        print("ipol 8-5 shift 0.09: estimated offset \(est.offsetSeconds) s, r = \(est.correlation)")
        #expect(abs(est.offsetSeconds + 0.09) < 0.001)
        // Acc and gyro of one unit share a clock: aligned segments split at every loss > 0.1 s.
        let gyro = try StreamCleaner.clean(d.gyro).stream
        let segs = StreamAligner.align([s, gyro], settings: ResamplerSettings(rateHz: 100))
        var splits = 0
        for i in 1..<s.count where s.times[i] - s.times[i - 1] > 0.1 { splits += 1 }
        #expect(segs.count == splits + 1)
    }
}
