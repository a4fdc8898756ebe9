import Testing
import MotusTestSupport
import MotusCore
import MotusIO
import MotusSignal
@testable import MotusFeatures

private let datasets = DatasetLocator.sharedDatasets(packageRoot: DatasetLocator.packageRoot(fromFile: #filePath))

/// MotionSense device-motion file as frames (raw acceleration = gravity + user acceleration).
func motionSenseFrames(_ trial: String, subject: Int) throws -> [MotionFrame]? {
    guard let root = datasets else { return nil }
    let path = "\(root)/motionsense/A_DeviceMotion_data/\(trial)/sub_\(subject).csv"
    guard DatasetLocator.exists(path) else { return nil }
    var options = DelimitedOptions()
    options.rateHz = 50
    let rec = try DelimitedReader(path: path, options: options).read()
    guard let g = rec.stream(.gravity), let u = rec.stream(.userAcceleration), let w = rec.stream(.rotationRate) else { return nil }
    #expect(g.count == u.count && u.count == w.count)
    return (0..<g.count).map { MotionFrame(acceleration: g.vector($0) + u.vector($0), gravity: g.vector($0), rotationRate: w.vector($0)) }
}

/// Random frames: a phone in some orientation, walking-like bounce, noise.
func syntheticFrames(count: Int, seed: UInt64) -> [MotionFrame] {
    var rng = SplitMix64(seed: seed)
    let up = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()).normalized
    return (0..<count).map { i in
        let t = Double(i) / 50
        let g = up * 9.80665
        let user = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * 0.3 + up * (2 * Math.sin(2 * Double.pi * 1.8 * t))
        let w = Vector3(Math.sin(t), 0.5 * Math.cos(3 * t), rng.gaussian() * 0.1)
        return MotionFrame(acceleration: g + user, gravity: g, rotationRate: w)
    }
}

/// Runs the streaming extractor over `frames`, collecting each completed window's vector.
func streamAll(_ config: FeatureConfiguration, _ frames: [MotionFrame]) throws -> (rows: [[Double]], starts: [Int]) {
    var s = try StreamingFeatureExtractor(configuration: config)
    var rows: [[Double]] = [], starts: [Int] = []
    var buffer = [Double](repeating: .nan, count: s.featureCount)
    for f in frames where s.push(f) {
        buffer.withUnsafeMutableBufferPointer { s.features(into: $0) }
        rows.append(buffer); starts.append(s.windowStartFrame)
    }
    return (rows, starts)
}

func expectSame(_ batch: FeatureMatrix, _ stream: (rows: [[Double]], starts: [Int]), hop: Int, rel: Double = 1e-9) {
    #expect(batch.rows == stream.rows.count)
    for r in 0..<min(batch.rows, stream.rows.count) {
        #expect(stream.starts[r] == r * hop)
        let b = batch.row(r), s = stream.rows[r]
        for j in b.indices where !close(b[j], s[j], rel: rel, abs: 0) {
            Issue.record("window \(r) \(batch.names[j]): batch \(b[j]) stream \(s[j])")
        }
    }
}

@Suite struct ExtractorTests {
    @Test(arguments: [(128, 64), (128, 50), (100, 100), (50, 130)])
    func streamingEqualsBatchOnSynthetic(n: Int, hop: Int) throws {
        var config = FeatureConfiguration.allChannels
        config.windowSeconds = Double(n) / 50; config.hopSeconds = Double(hop) / 50
        let frames = syntheticFrames(count: 1000, seed: UInt64(n * 1000 + hop))
        let batch = try FeatureExtractor(configuration: config).extract(frames: frames)
        #expect(batch.rows > 3)
        expectSame(batch, try streamAll(config, frames), hop: hop, rel: 0)   // bit for bit
    }

    /// Windows whose features are not asked for leave no stale sorted block behind (the
    /// streaming extractor sorts the hop blocks it is missing when a window is asked for).
    @Test func streamingSkippingWindowsEqualsBatch() throws {
        let config = FeatureConfiguration.allChannels
        let frames = syntheticFrames(count: 1500, seed: 77)
        let batch = try FeatureExtractor(configuration: config).extract(frames: frames)
        var s = try StreamingFeatureExtractor(configuration: config)
        var window = 0, compared = 0
        for f in frames where s.push(f) {
            defer { window += 1 }
            guard window % 3 == 2 || window == 5 || window == 6 else { continue }
            #expect(s.features() == batch.row(window), "window \(window)")
            compared += 1
        }
        #expect(compared >= 8 && window == batch.rows)
    }

    @Test func streamingResetStartsOver() throws {
        let frames = syntheticFrames(count: 300, seed: 5)
        var s = try StreamingFeatureExtractor(configuration: .standard)
        for f in frames { s.push(f) }
        s.reset()
        #expect(!s.windowReady && s.framesSeen == 0)
        var first: [Double]? = nil
        for f in frames where s.push(f) { first = s.features(); break }
        let batch = try FeatureExtractor(configuration: .standard).extract(frames: frames)
        #expect(first == batch.row(0))
    }

    /// Frame channel definitions against direct vector arithmetic, and invariance of the
    /// orientation-independent channels under a rotation of the device.
    @Test func channelDefinitionsAndOrientationInvariance() {
        var rng = SplitMix64(seed: 77)
        for _ in 0..<200 {
            let g = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()).normalized * 9.8
            let a = g + Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian())
            let w = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian())
            let f = MotionFrame(acceleration: a, gravity: g, rotationRate: w)
            let user = a - g, up = g / g.norm
            #expect(close(f.value(.accelerationMagnitude), a.norm))
            #expect(close(f.value(.userAccelerationMagnitude), user.norm))
            #expect(close(f.value(.verticalAcceleration), user.dot(up), abs: 1e-12))
            let horiz = user - user.dot(up) * up
            #expect(close(f.value(.horizontalAccelerationMagnitude), horiz.norm, rel: 1e-9, abs: 1e-12))
            // Pythagoras: |user|² = vertical² + horizontal².
            let v = f.value(.verticalAcceleration), h = f.value(.horizontalAccelerationMagnitude)
            #expect(close(v * v + h * h, user.squaredNorm, rel: 1e-9, abs: 1e-12))
            #expect(close(f.value(.rotationRateMagnitude), w.norm))
            #expect(f.value(.accelerationY) == a.y && f.value(.rotationRateZ) == w.z)
            let q = Quaternion(w: rng.gaussian(), x: rng.gaussian(), y: rng.gaussian(), z: rng.gaussian()).normalized
            let r = MotionFrame(acceleration: q.rotate(a), gravity: q.rotate(g), rotationRate: q.rotate(w))
            for c in FeatureChannel.orientationIndependent {
                #expect(close(r.value(c), f.value(c), rel: 1e-9, abs: 1e-12), "\(c)")
            }
        }
        let noGravity = MotionFrame(acceleration: Vector3(1, 2, 2), gravity: .zero)
        #expect(noGravity.value(.verticalAcceleration) == 0 && noGravity.value(.horizontalAccelerationMagnitude) == 3)
    }

    @Test func realDataStreamingEqualsBatchAndSeparatesWalkingFromSitting() throws {
        guard let walk = try motionSenseFrames("wlk_15", subject: 1), let sit = try motionSenseFrames("sit_13", subject: 1),
              let walk2 = try motionSenseFrames("wlk_15", subject: 7), let jog = try motionSenseFrames("jog_16", subject: 3) else {
            print("skipped: MotionSense data not found (set MOTUS_DATASETS or place ../shared/datasets)")
            return
        }
        let config = FeatureConfiguration.allChannels
        let ex = try FeatureExtractor(configuration: config)
        var stds: [String: [Double]] = [:], doms: [Double] = [], lags: [Double] = []
        for (name, frames) in [("walk", walk), ("sit", sit), ("walk2", walk2), ("jog", jog)] {
            let batch = ex.extract(frames: frames)
            #expect(batch.rows > 10, "\(name)")
            expectSame(batch, try streamAll(config, frames), hop: config.hopLength)
            for r in 0..<batch.rows { for j in 0..<batch.columns { #expect(batch[r, j].isFinite) } }
            let sj = batch.names.firstIndex(of: "accMag.std")!
            stds[name] = (0..<batch.rows).map { batch[$0, sj] }
            if name.hasPrefix("walk") {
                let dj = batch.names.firstIndex(of: "accMag.domFreq")!, lj = batch.names.firstIndex(of: "accMag.acfLag")!
                doms += (0..<batch.rows).map { batch[$0, dj] }
                lags += (0..<batch.rows).map { batch[$0, lj] }
            }
        }
        func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
        let walkStd = median(stds["walk"]! + stds["walk2"]!), sitStd = median(stds["sit"]!)
        print("median |acc| std: walking \(walkStd) m/s², sitting \(sitStd) m/s², jogging \(median(stds["jog"]!))")
        #expect(walkStd > 10 * sitStd)
        #expect(median(stds["jog"]!) > walkStd)
        // Walking: the dominant frequency of |acc| is the step (1.5–2.5 Hz) or stride
        // (0.8–1.2 Hz) frequency in most windows, and the autocorrelation peaks at a stride
        // (0.8–1.3 s) or step (0.4–0.65 s) period.
        let inBand = doms.filter { (1.5...2.5).contains($0) || (0.8...1.2).contains($0) }.count
        print("walking windows with dominant frequency in the step or stride band: \(inBand) of \(doms.count); median \(median(doms)) Hz")
        #expect(Double(inBand) >= 0.8 * Double(doms.count))
        let periodic = lags.filter { (0.8...1.3).contains($0) || (0.4...0.65).contains($0) }.count
        print("walking windows with autocorrelation lag at a stride or step period: \(periodic) of \(lags.count); median \(median(lags)) s")
        #expect(Double(periodic) >= 0.8 * Double(lags.count))
    }

    @Test func noGyroscopeConfiguration() throws {
        let frames = syntheticFrames(count: 400, seed: 3)
        let m = try FeatureExtractor(configuration: .standard).extract(frames: frames)
        #expect(!FeatureConfiguration.standardNoGyroscope.requiresRotationRate)
        let m2 = try FeatureExtractor(configuration: .standardNoGyroscope).extract(frames: frames)
        #expect(m2.columns == 4 * 20 + 1 && m2.rows == m.rows)
        #expect(!m2.names.contains { $0.contains("gyro") })
    }
}

@Suite struct ConfigurationTests {
    @Test func namesAndCounts() {
        let c = FeatureConfiguration.standard
        #expect(c.windowLength == 128 && c.hopLength == 64 && c.fftLength == 128)
        #expect(c.valuesPerChannel == 20 && c.featureCount == 102 && c.featureNames.count == 102)
        #expect(Array(c.featureNames.prefix(3)) == ["accMag.mean", "accMag.std", "accMag.min"])
        #expect(c.featureNames.contains("accVert.band_0.5-3Hz") && c.featureNames.contains("gyroMag.band_8-25Hz"))
        #expect(c.featureNames.last == "corr.uaccMag.gyroMag")
        #expect(Set(c.featureNames).count == c.featureNames.count)
        #expect(c.lagRange == 13...125)
        #expect(FeatureConfiguration.allChannels.featureCount == 228)
        var d = c
        d.windowSeconds = 2; d.rateHz = 50
        #expect(d.windowLength == 100 && d.fftLength == 128 && d.lagRange == 13...98)
    }

    @Test func codableRoundTripAndDecoding() throws {
        // Foundation only at this edge (JSON), as the model file will do.
        let c = FeatureConfiguration.allChannels
        let json = try encodeJSON(c)
        #expect(json.contains("\"accHoriz\"") && json.contains("\"iqr\""))
        let back = try decodeJSON(json)
        #expect(back == c)
        #expect(throws: (any Error).self) { try decodeJSON(json.replacingOccurrences(of: "\"accHoriz\"", with: "\"accSideways\"")) }
    }

    @Test func validationNamesTheField() {
        func field(_ f: (inout FeatureConfiguration) -> Void) -> String? {
            var c = FeatureConfiguration.standard
            f(&c)
            do { try c.validate(); return nil } catch {
                if case let .invalidConfiguration(field, _, _) = error { return field }
                return "other"
            }
        }
        #expect(field { _ in } == nil)
        #expect(field { $0.rateHz = 0 } == "rateHz")
        #expect(field { $0.rateHz = .nan } == "rateHz")
        #expect(field { $0.windowSeconds = 0.01 } == "windowSeconds")
        #expect(field { $0.hopSeconds = 0 } == "hopSeconds")
        // Huge values are errors, not traps (a model file once trapped on 1e308).
        #expect(field { $0.windowSeconds = 1e308 } == "windowSeconds")
        #expect(field { $0.hopSeconds = 1e308 } == "hopSeconds")
        #expect(field { $0.rateHz = 1e308 } == "windowSeconds")
        #expect(field { $0.windowSeconds = 1e7 } == "windowSeconds")
        #expect(field { $0.channels = [] } == "channels")
        #expect(field { $0.channels = [.accelerationX, .accelerationX]; $0.correlations = [] } == "channels")
        #expect(field { $0.bandEdgesHz = [0, 3, 3] } == "bandEdgesHz[2]")
        #expect(field { $0.bandEdgesHz = [1] } == "bandEdgesHz")
        #expect(field { $0.version = 99 } == "version")
        #expect(field { $0.maxLagSeconds = 0.1 } == "minLagSeconds/maxLagSeconds")
        #expect(field { $0.correlations = [ChannelPair(.accelerationX, .accelerationMagnitude)] } == "correlations[0]")
        #expect(throws: FeatureError.self) { try FeatureExtractor(configuration: FeatureConfiguration(rateHz: -1)) }
        #expect(throws: FeatureError.self) { try StreamingFeatureExtractor(configuration: FeatureConfiguration(hopSeconds: 0)) }
    }
}
