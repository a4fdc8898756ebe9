import Testing
import MotusCore
import MotusIO
import MotusFeatures
import MotusClassifier
@testable import MotusTracking

/// Training and live use build frames and features by one road: every recording, pushed sample
/// by sample through a live session, gives the frames and feature rows that training computes
/// from the same recording, bit for bit.
private let root = DatasetLocator.packageRoot(fromFile: #filePath)
private let shared = DatasetLocator.sharedDatasets(packageRoot: root)

/// Every recording the check runs on: the bundled ones, and each shared dataset's.
private func recordingPaths() -> [String] {
    var out = (try? RecordingLoader.recordings(under: DatasetLocator.bundledDatasets(packageRoot: root)))?
        .filter { $0.hasSuffix(".motus") } ?? []
    if let shared {
        for name in DatasetFormat.allCases.map(\.rawValue).sorted() {
            let dir = shared + "/" + name
            guard let ds = try? DatasetFormat.openDataset(root: dir) else { continue }
            out += ds.entries.map { "\(dir)\t\($0.id)" }
        }
    }
    return out
}

private func load(_ key: String) throws -> Recording {
    let parts = key.split(separator: "\t", maxSplits: 1).map(String.init)
    if parts.count == 1 { return try RecordingLoader.load(path: key) }
    return try DatasetFormat.openDataset(root: parts[0]).load(parts[1])
}

/// Same bits, NaN included.
private func sameBits(_ a: [Double], _ b: [Double]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern }
}

private func sameBits(_ a: [MotionFrame], _ b: [MotionFrame]) -> Bool {
    func flat(_ f: [MotionFrame]) -> [Double] {
        f.flatMap { [$0.acceleration.x, $0.acceleration.y, $0.acceleration.z, $0.gravity.x, $0.gravity.y, $0.gravity.z,
                     $0.rotationRate.x, $0.rotationRate.y, $0.rotationRate.z] }
    }
    return sameBits(flat(a), flat(b))
}

@Suite struct OneRoadTests {
    @Test func sharedDatasetsAreThere() {
        if shared == nil { print("OneRoadTests: ../shared/datasets not found (set MOTUS_DATASETS); checked the bundled recordings only") }
        #expect(recordingPaths().count >= 3)
    }

    @Test(arguments: recordingPaths())
    func liveFramesAndFeaturesAreTrainingsBitForBit(_ key: String) throws {
        let r = try load(key)
        let model = MotionModel.shipped
        let pipeline = model.pipeline
        var session = try MotionSession(settings: .default, model: model)
        session.recordFrames()
        _ = session.run(r)
        let tap = try #require(session.recorded)

        // Frames: the session's segments are the batch road's, bit for bit.
        let batch = FrameBuilder.frames(of: r, settings: pipeline.frameSettings)
        #expect(tap.segments.count == batch.count, "\(key): \(tap.segments.count) live segments, \(batch.count) batch")
        for (l, b) in zip(tap.segments, batch) {
            #expect(l.firstIndex == b.firstIndex && l.startTime.bitPattern == b.startTime.bitPattern, "\(key)")
            #expect(sameBits(l.frames, b.frames), "\(key): frames differ in the segment at \(b.startTime) s")
        }

        // Feature rows: the session's classifier windows are the batch extractor's on those frames,
        // and, where the recording has every stream the model reads, what training computes.
        let extractor = try FeatureExtractor(configuration: model.features)
        var expected = FeatureMatrix(columns: model.features.featureCount, names: model.features.featureNames)
        for s in batch { expected.append(contentsOf: extractor.extract(frames: s.frames, startTime: s.startTime)) }
        #expect(tap.featureRows.rows == expected.rows, "\(key)")
        #expect(sameBits(tap.featureRows.values, expected.values), "\(key): feature values differ")
        #expect(sameBits(tap.featureRows.startTimes, expected.startTimes) && sameBits(tap.featureRows.endTimes, expected.endTimes), "\(key)")
        if r.stream(.rotationRate) != nil {
            let training = try pipeline.windows(of: r, path: key)
            #expect(sameBits(training.values, expected.values) && sameBits(training.startTimes, expected.startTimes), "\(key)")
        }
    }
}
