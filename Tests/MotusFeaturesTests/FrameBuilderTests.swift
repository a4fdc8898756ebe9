import Testing
import Foundation
import MotusTestSupport
import MotusCore
import MotusFeatures
import MotusFusion

/// Streams of `frames` at times `times` (acceleration, gravity, rotation rate).
private func recording(_ frames: [MotionFrame], times: [Double], gravity: Bool = true, gyro: Bool = true) -> Recording {
    func stream(_ kind: StreamKind, _ v: (MotionFrame) -> Vector3) -> SensorStream {
        SensorStream(kind: kind, times: times, values: frames.flatMap { let x = v($0); return [x.x, x.y, x.z] })
    }
    var streams = [stream(.acceleration) { $0.acceleration }]
    if gravity { streams.append(stream(.gravity) { $0.gravity }) }
    if gyro { streams.append(stream(.rotationRate) { $0.rotationRate }) }
    return Recording(streams: streams)
}

@Suite struct FrameBuilderTests {
    let settings = FrameBuilder.Settings(rateHz: 50)

    @Test func samplesOnTheGridAreTheFramesExactly() {
        let frames = syntheticFrames(count: 400, seed: 3)
        let times = (0..<400).map { Double($0) / 50 }
        let segs = FrameBuilder.frames(of: recording(frames, times: times), settings: settings)
        #expect(segs.count == 1)
        #expect(segs[0].firstIndex == 0 && segs[0].startTime == 0)
        #expect(segs[0].frames == frames)
        // And the features of those frames are the extractor's on the same frames.
        let ex = try! FeatureExtractor(configuration: .standard)
        #expect(ex.extract(frames: segs[0].frames, startTime: segs[0].startTime) == ex.extract(frames: frames))
    }

    @Test func interpolatesBetweenSamplesOnTheSharedGrid() {
        // 100 Hz samples starting off the 50 Hz grid: frames at k / 50, linearly interpolated.
        let n = 300
        let times = (0..<n).map { 0.013 + Double($0) / 100 }
        let frames = (0..<n).map { i in
            MotionFrame(acceleration: Vector3(Double(i), 0, 9.8), gravity: Vector3(0, 0, 9.8), rotationRate: Vector3(0, 0, Double(i) / 100))
        }
        let segs = FrameBuilder.frames(of: recording(frames, times: times), settings: settings)
        #expect(segs.count == 1)
        let s = segs[0]
        #expect(s.firstIndex == 1)   // 0.02 s, the first grid point after 0.013 s
        for (j, f) in s.frames.enumerated() {
            let t = Double(s.firstIndex + j) / 50
            let x = (t - 0.013) * 100          // acceleration.x is the sample index, linear in time
            #expect(abs(f.acceleration.x - x) < 1e-9)
            #expect(abs(f.rotationRate.z - x / 100) < 1e-9)
        }
        #expect(Double(s.firstIndex + s.frames.count - 1) / 50 <= times[n - 1])
    }

    @Test func gapsLongerThanThePolicySplitSegments() {
        let frames = syntheticFrames(count: 500, seed: 5)
        var times = (0..<500).map { Double($0) / 50 }
        var kept: [Int] = []
        for i in 0..<500 where !(i > 150 && i < 200) { kept.append(i) }   // a 1 s hole
        times = kept.map { times[$0] }
        let r = recording(kept.map { frames[$0] }, times: times)
        let segs = FrameBuilder.frames(of: r, settings: settings)
        #expect(segs.count == 2)
        #expect(segs[0].frames.count == 151 && segs[1].firstIndex == 200 && segs[1].frames.count == 300)
        // A hole shorter than the policy is bridged.
        var short: [Int] = []
        for i in 0..<500 where !(i > 150 && i < 160) { short.append(i) }   // 0.2 s
        let bridged = FrameBuilder.frames(of: recording(short.map { frames[$0] }, times: short.map { Double($0) / 50 }), settings: settings)
        #expect(bridged.count == 1 && bridged[0].frames.count == 500)
        var strict = settings
        strict.maximumGapSeconds = 0.1
        #expect(FrameBuilder.frames(of: recording(short.map { frames[$0] }, times: short.map { Double($0) / 50 }), settings: strict).count == 2)
    }

    @Test func gravityIsGivenOrFusedAndTheSourceSaysWhich() {
        var b = FrameBuilder(settings: settings)
        b.pushAcceleration(Vector3(0, 0, 9.81), time: 0)
        #expect(b.gravitySource == .lowPass)
        b.pushRotationRate(Vector3(0, 0, 0), time: 0.02)
        b.pushAcceleration(Vector3(0, 0, 9.81), time: 0.02)
        #expect(b.gravitySource == .fused)
        b.pushGravity(Vector3(0, 9.81, 0), time: 0.04)
        b.pushAcceleration(Vector3(0, 9.81, 0), time: 0.04)
        #expect(b.gravitySource == .given && b.lastGravity == Vector3(0, 9.81, 0))
        // A gravity sample older than the hold is not used.
        b.pushAcceleration(Vector3(0, 9.81, 0), time: 0.04 + settings.gravityHoldSeconds + 0.01)
        #expect(b.gravitySource == .fused)
    }

    /// A walking-like signal without gravity: acceleration and rotation rate at time `t` (s).
    static func imu(_ t: Double) -> (Vector3, Vector3) {
        (Vector3(1.5 * sin(2 * .pi * 0.3 * t), 0.8 * cos(2 * .pi * 1.8 * t), 9.81 + 2 * sin(2 * .pi * 1.8 * t)),
         Vector3(0.3 * cos(2 * .pi * 0.3 * t), 0.1, 0.4 * sin(2 * .pi * 0.9 * t)))
    }

    /// Without gravity the frames carry the settings' filter's: `OrientationFilter` by default,
    /// `AttitudeFilter` when a model of version 1 asks for it; each as if run on its own.
    @Test(arguments: [GravityFusion.default, .orientation(.biasCorrectedGyroscope), .attitude(.default)])
    func fusesWithTheSettingsFilter(_ fusion: GravityFusion) {
        var b = FrameBuilder(settings: FrameBuilder.Settings(rateHz: 50, fusion: fusion))
        var orientation: OrientationFilter? = nil, attitude: AttitudeFilter? = nil
        switch fusion {
        case .orientation(let s): orientation = OrientationFilter(settings: s)
        case .attitude(let s): attitude = AttitudeFilter(settings: s)
        }
        for i in 0..<600 {
            let t = Double(i) / 50, (a, w) = Self.imu(t)
            b.pushRotationRate(w, time: t)
            b.pushAcceleration(a, time: t)
            let dt = i == 0 ? 0 : t - Double(i - 1) / 50   // the builder's step: the difference of the times
            let g: Vector3
            if orientation != nil {
                orientation!.update(acceleration: a, rotationRate: w, dt: dt); g = orientation!.gravity
            } else {
                attitude!.update(acceleration: a, rotationRate: w, dt: dt); g = attitude!.gravity
            }
            #expect(b.gravitySource == .fused && b.lastGravity == g)
        }
    }

    /// The choice is not silently ignored: the two filters give other frames.
    @Test func theTwoFiltersGiveOtherFrames() {
        func last(_ fusion: GravityFusion) -> Vector3 {
            var b = FrameBuilder(settings: FrameBuilder.Settings(rateHz: 50, fusion: fusion))
            for i in 0..<600 {
                let t = Double(i) / 50, (a, w) = Self.imu(t)
                b.pushRotationRate(w, time: t)
                b.pushAcceleration(a, time: t)
            }
            return b.lastGravity
        }
        #expect(FrameBuilder.Settings(rateHz: 50).fusion == .default)
        #expect((last(.default) - last(.attitude(.default))).norm > 1e-3)
    }

    @Test func badDriverSamplesAreRejectedAndCounted() {
        var b = FrameBuilder(settings: settings)
        let accepted = [
            b.pushAcceleration(Vector3(0, 0, 9.81), time: 0),
            b.pushAcceleration(Vector3(0, 0, 9.81), time: 0),           // not after the previous
            b.pushAcceleration(Vector3(.nan, 0, 9.81), time: 0.02),     // not finite
            b.pushAcceleration(Vector3(0, 0, 9.81), time: .infinity),
        ]
        #expect(accepted == [true, false, false, false])
        #expect(b.rejected == 3 && b.driverSamples == 1 && b.frameCount == 0)
        let next = b.pushAcceleration(Vector3(0, 0, 9.81), time: 0.02)
        #expect(next && b.frameCount == 1 && !b.startsSegment)
    }

    @Test func userAccelerationDrivesUntilRawAccelerationArrives() {
        var b = FrameBuilder(settings: settings)
        let beforeGravity = b.pushUserAcceleration(Vector3(1, 0, 0), time: 0)     // no gravity yet
        b.pushGravity(Vector3(0, 0, 9.8), time: 0)
        let withGravity = b.pushUserAcceleration(Vector3(1, 0, 0), time: 0)
        #expect(!beforeGravity && withGravity)
        #expect(b.frameCount == 1 && b.frame(0).acceleration == Vector3(1, 0, 9.8) && b.frame(0).gravity == Vector3(0, 0, 9.8))
        let raw = b.pushAcceleration(Vector3(0, 0, 9.8), time: 0.02)
        let ignored = b.pushUserAcceleration(Vector3(1, 0, 0), time: 0.04)
        #expect(raw && !ignored && b.rejected == 0)
    }

    @Test func livePushesGiveTheBatchFrames() {
        // Irregular, jittered clocks: the batch is the same pushes, so the frames are equal.
        var rng = SplitMix64(seed: 11)
        var accT: [Double] = [], gyroT: [Double] = []
        var t = 0.0
        for _ in 0..<600 { t += 0.009 + 0.003 * rng.uniform(); accT.append(t) }
        t = 0.004
        for _ in 0..<550 { t += 0.009 + 0.004 * rng.uniform(); gyroT.append(t) }
        let acc = SensorStream(kind: .acceleration, times: accT, values: accT.flatMap { [sin($0 * 7), cos($0 * 3), 9.8 + sin($0 * 11)] })
        let gyro = SensorStream(kind: .rotationRate, times: gyroT, values: gyroT.flatMap { [sin($0), 0.1, cos($0 * 2)] })
        let batch = FrameBuilder.frames(of: Recording(streams: [acc, gyro]), settings: settings)
        var live = FrameBuilder(settings: settings)
        var frames: [MotionFrame] = []
        var i = 0, j = 0
        while i < acc.count || j < gyro.count {
            if j < gyro.count && (i == acc.count || gyro.times[j] <= acc.times[i]) {
                live.push(.rotationRate(VectorSample(time: gyro.times[j], value: gyro.vector(j)))); j += 1
            } else {
                if live.push(.acceleration(VectorSample(time: acc.times[i], value: acc.vector(i)))) {
                    for k in 0..<live.frameCount { frames.append(live.frame(k)) }
                }
                i += 1
            }
        }
        #expect(batch.count == 1 && batch[0].frames == frames && frames.count > 250)
    }
}
