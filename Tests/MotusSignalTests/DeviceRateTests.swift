import Foundation
import Testing
import MotusCore
@testable import MotusSignal

/// `resampledAsDevice`: what a device sampling at another rate would have recorded.
@Suite struct DeviceRateTests {
    /// A 100 Hz acceleration stream: a 2 Hz and an 8 Hz sine on x, a constant on y, a ramp on
    /// z, starting at `start` s, with a hole of `hole` s after sample `holeAt`.
    static func stream(seconds: Double = 20, start: Double = 12.345, holeAt: Int = 900, hole: Double = 0) -> SensorStream {
        var s = SensorStream(kind: .acceleration)
        for i in 0..<Int(seconds * 100) {
            let t = start + Double(i) * 0.01 + (i > holeAt ? hole : 0)
            s.append(time: t, Vector3(sin(2 * .pi * 2 * t) + 0.5 * sin(2 * .pi * 8 * t), 9.81, 0.1 * t))
        }
        return s
    }

    /// Amplitude of the component of `x` (sampled at `times`) at `hz`, by projection.
    static func amplitude(_ x: [Double], _ times: [Double], hz: Double) -> Double {
        var c = 0.0, s = 0.0
        for (v, t) in zip(x, times) { c += v * cos(2 * .pi * hz * t); s += v * sin(2 * .pi * hz * t) }
        return 2 * (c * c + s * s).squareRoot() / Double(x.count)
    }

    /// A 100 Hz stream of one sine of `hz` on x, 9.81 on y and a ramp on z, for 20 s.
    static func sine(_ hz: Double, amplitude: Double = 1) -> SensorStream {
        var s = SensorStream(kind: .acceleration)
        for i in 0..<2000 {
            let t = 12.345 + Double(i) * 0.01
            s.append(time: t, Vector3(amplitude * sin(2 * .pi * hz * t), 9.81, 0.1 * t))
        }
        return s
    }

    @Test func lowerRateKeepsTheBandAndRemovesWhatWouldAlias() {
        let r = Self.sine(2).resampledAsDevice(rateHz: 10)
        // The grid: the first sample's time plus k / 10 s, every 0.1 s to the end.
        #expect(r.kind == .acceleration && r.times.first == 12.345 && r.count == 200)
        for i in 1..<r.count { #expect(Swift.abs(r.times[i] - r.times[i - 1] - 0.1) < 1e-9) }
        // Away from the start (the filter settles within a second): 2 Hz keeps the magnitude
        // of two second-order Butterworth sections at 4 Hz (0.91), and lags as a sensor's
        // causal filter makes it lag (about 1.5 rad at a fifth of the new rate).
        let mid = Array(50..<200)
        let x = mid.map { r.value($0, 0) }, times = mid.map { r.times[$0] }
        let kept = BiquadCascade(sections: [Biquad](repeating: .butterworthLowPass(cutoffHz: 4, sampleRateHz: 100), count: 2))
            .magnitude(atHz: 2, sampleRateHz: 100)
        #expect(kept > 0.9 && kept < 0.95)
        #expect(Swift.abs(Self.amplitude(x, times, hz: 2) - kept) < 0.005)
        var c = 0.0, sn = 0.0
        for (v, t) in zip(x, times) { c += v * cos(2 * .pi * 2 * t); sn += v * sin(2 * .pi * 2 * t) }
        let lag = atan2(-c, sn)   // x ≈ A sin(2π·2·t − lag)
        #expect(lag > 1.3 && lag < 1.7, "phase lag \(lag) rad")
        // The constant passes unchanged (unit gain at 0 Hz, the filter started in its steady
        // state); the ramp lags by the filter's group delay at 0 Hz (two sections at 4 Hz: 0.11 s).
        for i in mid {
            #expect(Swift.abs(r.value(i, 1) - 9.81) < 1e-6)
            #expect(Swift.abs(r.value(i, 2) - 0.1 * (r.times[i] - 0.1125)) < 2e-3)
        }
        // 8 Hz would read as 2 Hz at 10 Hz: the filter leaves less than 7 % of it.
        let alias = Self.sine(8).resampledAsDevice(rateHz: 10)
        #expect(Self.amplitude(mid.map { alias.value($0, 0) }, mid.map { alias.times[$0] }, hz: 2) < 0.07)
        // Without the filter it would all be there.
        let raw = Self.sine(8).resampledAsDevice(rateHz: 10, antiAlias: false)
        #expect(Self.amplitude(mid.map { raw.value($0, 0) }, mid.map { raw.times[$0] }, hz: 2) > 0.9)
    }

    @Test func higherRateInterpolatesWithoutFiltering() {
        let s = Self.stream(seconds: 2)
        let r = s.resampledAsDevice(rateHz: 400)
        // The last grid point falls on the last sample, up to rounding.
        #expect(r.count >= (s.count - 1) * 4 && r.count <= (s.count - 1) * 4 + 1)
        // Every fourth sample is an input sample, exactly; the ones between lie on the line.
        for i in 0..<(r.count + 3) / 4 {
            for c in 0..<3 { #expect(Swift.abs(r.value(4 * i, c) - s.value(i, c)) < 1e-9) }
        }
        for c in 0..<3 { #expect(Swift.abs(r.value(2, c) - 0.5 * (s.value(0, c) + s.value(1, c))) < 1e-9) }
    }

    @Test func aGapStaysAGap() {
        // A 2 s hole after 9 s: no sample inside it at 25 Hz, samples on the same grid after it.
        let s = Self.stream(seconds: 20, holeAt: 900, hole: 2)
        let r = s.resampledAsDevice(rateHz: 25)
        let holeStart = s.times[900], holeEnd = s.times[901]
        #expect(!r.times.contains { $0 > holeStart && $0 < holeEnd })
        let t0 = s.times[0]
        for t in r.times { #expect(Swift.abs(((t - t0) * 25).rounded() - (t - t0) * 25) < 1e-6) }
        #expect(r.times.contains { $0 > holeEnd })
        // A hole shorter than the limit is bridged.
        let short = Self.stream(seconds: 20, holeAt: 900, hole: 0.2).resampledAsDevice(rateHz: 25)
        #expect(short.times.contains { $0 > s.times[900] && $0 < s.times[900] + 0.21 })
    }

    @Test func otherKindsAndTheRecordingsOtherPartsAreLeftAlone() {
        var steps = SensorStream(kind: .stepCounter)
        steps.append(time: 0, [3, 2.1])
        steps.append(time: 1, [5, 3.4])
        let acc = Self.stream(seconds: 5)
        var rec = Recording(streams: [acc, steps], labels: [LabelSegment(start: 1, end: 2, label: "walk")])
        rec.metadata.nominalRateHz = 100
        let r = rec.resampledAsDevice(rateHz: 20)
        #expect(r.stream(.stepCounter) == steps)
        #expect(r.labels == rec.labels)
        #expect(r.metadata.nominalRateHz == 20)
        #expect(r.stream(.acceleration)?.count == 100)
        // Too short to resample: returned as it is.
        var one = SensorStream(kind: .rotationRate)
        one.append(time: 3, Vector3(1, 2, 3))
        #expect(one.resampledAsDevice(rateHz: 10) == one)
    }

    /// `gridPhase` starts the grid that fraction of a period after the first sample, for every
    /// stream alike, and the samples lie on the signal there.
    @Test func aGridPhaseShiftsEveryStreamsGridAlike() {
        var acc = SensorStream(kind: .acceleration), gyro = SensorStream(kind: .rotationRate)
        for i in 0..<500 {
            let t = 2 + Double(i) * 0.01
            acc.append(time: t, Vector3(t, 0, 9.81))
            gyro.append(time: t, Vector3(0, 2 * t, 0))
        }
        let rec = Recording(streams: [acc, gyro])
        // Above the recording's rate (nothing filtered), on a grid a quarter period later.
        #expect(Swift.abs(rec.resampledAsDeviceOrigin(rateHz: 125, gridPhase: 0.25) - 2.002) < 1e-12)
        let shifted = rec.resampledAsDevice(rateHz: 125, gridPhase: 0.25)
        let a = try! #require(shifted.stream(.acceleration)), g = try! #require(shifted.stream(.rotationRate))
        #expect(a.times == g.times && a.count == 624)
        for i in 0..<a.count {
            #expect(Swift.abs(a.times[i] - (2.002 + Double(i) * 0.008)) < 1e-9)
            // A straight line is taken again exactly wherever the grid falls.
            #expect(Swift.abs(a.value(i, 0) - a.times[i]) < 1e-9 && Swift.abs(g.value(i, 1) - 2 * g.times[i]) < 1e-9)
        }
        #expect(rec.resampledAsDevice(rateHz: 125, gridPhase: 0) == rec.resampledAsDevice(rateHz: 125))
    }

    @Test func attitudesAreInterpolatedOnTheSphere() {
        var q = SensorStream(kind: .attitude)
        for i in 0..<100 {
            let a = 0.02 * Double(i)   // about z
            q.append(time: Double(i) * 0.01, Quaternion(w: cos(a / 2), x: 0, y: 0, z: sin(a / 2)))
        }
        let r = q.resampledAsDevice(rateHz: 10)
        #expect(r.count == 10)
        for i in 0..<r.count {
            let v = r.quaternion(i)
            #expect(Swift.abs(v.w * v.w + v.x * v.x + v.y * v.y + v.z * v.z - 1) < 1e-9)
            #expect(Swift.abs(2 * atan2(v.z, v.w) - 0.02 * Double(i * 10)) < 1e-9)
        }
    }
}
