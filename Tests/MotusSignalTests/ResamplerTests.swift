import Testing
import MotusTestSupport
import MotusCore
import MotusIO
@testable import MotusSignal

/// Irregular times with jitter and a few holes of known length.
func irregularTimes(seed: UInt64, count: Int, start: Double = 3.21, meanDt: Double = 0.005, holes: [(at: Int, seconds: Double)] = []) -> [Double] {
    var rng = SplitMix64(seed: seed)
    var t = start
    var out: [Double] = []
    for i in 0..<count {
        out.append(t)
        t += meanDt * rng.uniform(0.3, 1.7)
        for h in holes where h.at == i { t += h.seconds }
    }
    return out
}

func streamingOutputs(times: [Double], values: [Double], width: Int, settings: ResamplerSettings, interpolation: Interpolation) -> [ResampledSegment] {
    var r = StreamingResampler(width: width, settings: settings, interpolation: interpolation)
    var segs: [ResampledSegment] = []
    for i in times.indices {
        let n = r.push(time: times[i], values: values, index: i)
        for j in 0..<n {
            if j == 0 && r.outputStartsSegment {
                segs.append(ResampledSegment(rateHz: settings.rateHz, originSeconds: settings.originSeconds, firstIndex: r.outputIndex(0), width: width, values: []))
            }
            for c in 0..<width { segs[segs.count - 1].values.append(r.output(j, c)) }
        }
    }
    return segs
}

@Suite struct ResamplerTests {
    @Test(arguments: [11, 12, 13] as [UInt64]) func linearSignalIsExactAndGridIsExact(seed: UInt64) {
        let times = irregularTimes(seed: seed, count: 4000, holes: [(500, 0.3), (2500, 0.12), (3000, 0.05)])
        let a = [1.5, -2.0, 9.81], b = [0.25, 3.0, -0.5]
        var values: [Double] = []
        for t in times { for c in 0..<3 { values.append(a[c] + b[c] * t) } }
        let settings = ResamplerSettings(rateHz: 100, originSeconds: 0, maxGapSeconds: 0.1)
        let segs = Resampler.resample(times: times, values: values, width: 3, settings: settings)
        #expect(segs.count == 3, "holes of 0.3 and 0.12 s split; 0.05 s is bridged")
        var total = 0
        for seg in segs {
            for i in 0..<seg.count {
                let g = seg.time(i)
                // Grid: bit-identical to origin + k / rate.
                #expect(g == Double(seg.firstIndex + i) / 100)
                for c in 0..<3 {
                    let exact = a[c] + b[c] * g
                    #expect(abs(seg.value(i, c) - exact) <= 1e-12 * max(1, abs(exact)))
                }
                // Nothing inside a gap.
                #expect(naiveValue(times: times, values: values, width: 3, at: g, maxGap: 0.1, interpolation: .linear) != nil)
            }
            total += seg.count
        }
        // Completeness: every grid point the naive reference can fill is present.
        let kLo = Int((times.first! * 100).rounded(.up)), kHi = Int((times.last! * 100).rounded(.down))
        var expectedCount = 0
        for k in kLo...kHi where naiveValue(times: times, values: values, width: 3, at: Double(k) / 100, maxGap: 0.1, interpolation: .linear) != nil {
            expectedCount += 1
        }
        #expect(total == expectedCount)
        // Segments are ordered and separated by at least one missing grid point.
        for s in 1..<segs.count { #expect(segs[s].firstIndex > segs[s - 1].endIndex) }
    }

    @Test(arguments: [Interpolation.linear, .hold, .slerp]) func matchesNaiveReference(interpolation: Interpolation) {
        var rng = SplitMix64(seed: 99)
        let width = interpolation == .slerp ? 4 : 3
        let times = irregularTimes(seed: 5, count: 3000, start: -1.0, meanDt: 0.01, holes: [(1000, 0.5)])
        var values: [Double] = []
        var q = Quaternion.identity
        for _ in times {
            if width == 4 {
                q = (q * Quaternion(axis: Vector3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)), angle: rng.uniform(0, 0.3))).normalized
                // Random sign: slerp must take the short way regardless.
                let s = rng.uniform(0, 1) < 0.3 ? -1.0 : 1.0
                values += [s * q.w, s * q.x, s * q.y, s * q.z]
            } else {
                values += [rng.uniform(-20, 20), rng.uniform(-20, 20), rng.uniform(-20, 20)]
            }
        }
        let settings = ResamplerSettings(rateHz: 64, originSeconds: 0.003, maxGapSeconds: 0.1)
        let segs = Resampler.resample(times: times, values: values, width: width, settings: settings, interpolation: interpolation)
        var worst = 0.0, n = 0
        for seg in segs {
            for i in 0..<seg.count {
                let ref = naiveValue(times: times, values: values, width: width, at: seg.time(i), maxGap: 0.1, interpolation: interpolation)!
                let got = (0..<width).map { seg.value(i, $0) }
                worst = max(worst, maxAbsDiff(ref, got))
                n += 1
                if width == 4 {
                    let norm = (got.map { $0 * $0 }.reduce(0, +)).squareRoot()
                    #expect(abs(norm - 1) < 1e-12)
                }
            }
        }
        #expect(n > 1500)
        #expect(worst < 1e-12, "max deviation from naive \(worst)")
    }

    @Test(arguments: [Interpolation.linear, .hold, .slerp]) func streamingEqualsBatch(interpolation: Interpolation) {
        var rng = SplitMix64(seed: 3)
        let width = interpolation == .slerp ? 4 : 2
        let times = irregularTimes(seed: 8, count: 5000, meanDt: 0.004, holes: [(100, 0.2), (101, 0.3), (4000, 1.0)])
        var values: [Double] = []
        for _ in times {
            if width == 4 {
                values += [Quaternion(axis: Vector3(1, 2, 3), angle: rng.uniform(-3, 3))].flatMap { [$0.w, $0.x, $0.y, $0.z] }
            } else { values += [rng.uniform(0, 100), rng.uniform(-1, 1)] }
        }
        let settings = ResamplerSettings(rateHz: 50, maxGapSeconds: 0.1)
        let batch = Resampler.resample(times: times, values: values, width: width, settings: settings, interpolation: interpolation)
        let streaming = streamingOutputs(times: times, values: values, width: width, settings: settings, interpolation: interpolation)
        #expect(batch.count == streaming.count && batch.count >= 3)
        for (a, b) in zip(batch, streaming) {
            #expect(a.firstIndex == b.firstIndex && a.count == b.count)
            #expect(maxAbsDiff(a.values, b.values) <= 1e-12)
        }
    }

    @Test func holdNeverRunsAhead() {
        // Cumulative step counts: output at g is the latest reading at or before g.
        let times: [Double] = [0.0, 0.37, 1.02, 1.5, 2.77]
        let steps: [Double] = [0, 1, 3, 4, 7]
        var values: [Double] = []
        for s in steps { values += [s, .nan] }
        let stream = SensorStream(kind: .stepCounter, times: times, values: values)
        let segs = Resampler.resample(stream, settings: ResamplerSettings(rateHz: 10, maxGapSeconds: 2))
        #expect(segs.count == 1)
        let seg = segs[0]
        #expect(seg.firstIndex == 0 && seg.count == 28)
        for i in 0..<seg.count {
            let g = seg.time(i)
            let expected = steps[times.lastIndex { $0 <= g }!]
            #expect(seg.value(i, 0) == expected)
            #expect(seg.value(i, 1).isNaN)
        }
    }

    @Test func separatelyResampledStreamsLineUp() {
        let t1 = irregularTimes(seed: 1, count: 2000, start: 100.0013)
        let t2 = irregularTimes(seed: 2, count: 2000, start: 100.0291, meanDt: 0.0049)
        let s = ResamplerSettings(rateHz: 100)
        let a = Resampler.resample(times: t1, values: t1, width: 1, settings: s)
        let b = Resampler.resample(times: t2, values: t2, width: 1, settings: s)
        // Same grid index ⇒ bit-identical time; values of the identity signal equal the grid time.
        let common = max(a[0].firstIndex, b[0].firstIndex)
        #expect(a[0].time(common - a[0].firstIndex) == b[0].time(common - b[0].firstIndex))
        for i in 0..<a[0].count { #expect(abs(a[0].value(i, 0) - a[0].time(i)) < 1e-12 * 100) }
    }

    @Test func samplesOnTheGridAreCopiedExactly() {
        // Samples exactly at grid times give their own values, bit for bit, even alone.
        let times: [Double] = [0.5, 0.75, 2.0, 2.25, 2.5]
        let values: [Double] = [1.1, 2.2, 3.3, 4.4, 5.5]
        let segs = Resampler.resample(times: times, values: values, width: 1, settings: ResamplerSettings(rateHz: 4, maxGapSeconds: 0.3))
        #expect(segs.map(\.firstIndex) == [2, 8])
        #expect(segs[0].values == [1.1, 2.2])
        #expect(segs[1].values == [3.3, 4.4, 5.5])
        // An isolated sample on the grid is a one-sample segment; off the grid, nothing.
        let lone = Resampler.resample(times: [1.0, 5.1], values: [7, 8], width: 1, settings: ResamplerSettings(rateHz: 2))
        #expect(lone.count == 1 && lone[0].firstIndex == 2 && lone[0].values == [7])
    }

    @Test func streamingRejectsNonIncreasing() {
        var r = StreamingResampler(width: 1, settings: ResamplerSettings(rateHz: 10), interpolation: .linear)
        r.push(time: 0, values: [0], index: 0)
        #expect(r.push(time: 0, values: [1], index: 0) == 0)
        #expect(r.push(time: -1, values: [1], index: 0) == 0)
        #expect(r.push(time: .nan, values: [1], index: 0) == 0)
        #expect(r.rejected == 3)
        #expect(r.push(time: 0.1, values: [1], index: 0) == 1)
        #expect(r.outputTime(0) == 0.1 && r.output(0, 0) == 1)
    }
}

@Suite(.enabled(if: Data.available, "shared datasets absent (../shared/datasets or MOTUS_DATASETS): skipping real-data resampling tests"))
struct RealDataResamplingTests {
    @Test(arguments: Data.oxfordWalks) func oxfordWalk(walk: String) throws {
        let cleaned = try StreamCleaner.clean(Data.oxford(walk)).stream
        let settings = ResamplerSettings(rateHz: 100)
        let segs = Resampler.resample(cleaned, settings: settings)
        // No hole in these walks reaches 0.1 s (Pixel holes are ~20 ms, Samsung max 12.8 ms).
        #expect(segs.count == 1)
        let seg = segs[0]
        #expect(abs(Double(seg.count) - cleaned.duration * 100) <= 1.0)
        // Compare every 37th grid point with the naive reference.
        var worst = 0.0
        for i in stride(from: 0, to: seg.count, by: 37) {
            let ref = naiveValue(times: cleaned.times, values: cleaned.values, width: 3, at: seg.time(i), maxGap: 0.1, interpolation: .linear)!
            worst = max(worst, maxAbsDiff(ref, [seg.value(i, 0), seg.value(i, 1), seg.value(i, 2)]))
        }
        #expect(worst < 1e-9)
        let streaming = streamingOutputs(times: cleaned.times, values: cleaned.values, width: 3, settings: settings, interpolation: .linear)
        #expect(streaming.count == 1 && streaming[0].firstIndex == seg.firstIndex && maxAbsDiff(streaming[0].values, seg.values) <= 1e-12)
    }

    @Test(arguments: Data.ipolTrials) func ipolTrialSplitsAtLongLosses(trial: String) throws {
        let d = try Data.ipol(trial)
        let acc = try StreamCleaner.clean(d.acc).stream
        let settings = ResamplerSettings(rateHz: 100, maxGapSeconds: 0.1)
        let segs = Resampler.resample(acc, settings: settings)
        // Expected segments: one more than the number of intervals > 0.1 s, i.e. ≥ 10 lost
        // packets (counter jumps ≥ 11). The grid coincides with the counter clock, so each
        // segment reproduces the rows exactly and fills short losses by interpolation.
        var splits = 0
        for i in 1..<acc.count where acc.times[i] - acc.times[i - 1] > 0.1 { splits += 1 }
        #expect(segs.count == splits + 1)
        var rowsSeen = 0
        var j = 0
        for seg in segs {
            #expect(seg.count == Int((seg.time(seg.count - 1) - seg.start) * 100 + 0.5) + 1)
            for i in 0..<seg.count {
                let g = seg.time(i)
                while j < acc.count && acc.times[j] < g - 1e-9 { j += 1 }
                if j < acc.count && abs(acc.times[j] - g) < 1e-9 {
                    rowsSeen += 1
                    // Counter/100 and k/100 may differ in the last bit; the value is the row's or within rounding.
                    for c in 0..<3 { #expect(abs(seg.value(i, c) - acc.value(j, c)) < 1e-9) }
                }
            }
        }
        #expect(rowsSeen == acc.count)
    }
}
