import Testing
import MotusCore
import MotusIO
import MotusTracking
import MotusClassifier
import MotusFeatures

/// `motus track` streams its file through `SampleReader` into a `SessionRun`; the result must
/// be the one `MotionSession.run` gives on the whole recording, event for event.
@Suite struct StreamedSessionTests {
    static let root = DatasetLocator.packageRoot(fromFile: #filePath)

    static func paths() -> [String] {
        var out = (try? RecordingLoader.recordings(under: DatasetLocator.bundledDatasets(packageRoot: root))) ?? []
        out = out.filter { $0.hasSuffix(".motus") }
        if let shared = DatasetLocator.sharedDatasets(packageRoot: root) {
            out += [shared + "/apps/motiondatacollector/running/r1.csv", shared + "/apps/motiondatacollector/standing/23E915F4-1705-40F3-BC0F-F3B64635B3F2.csv"]
        }
        return out
    }

    @Test(arguments: paths())
    func streamedEqualsBatch(_ path: String) throws {
        var settings = SessionSettings()
        var reader = try SampleReader(path: path, kinds: MotionSession.inputKinds)
        settings.heightMeters = reader.metadata.heightMeters
        var run = SessionRun(try MotionSession(settings: settings, model: .shipped), keepStepEvents: true)
        try reader.forEach { run.push($0) }
        let streamed = run.finish()
        let r = try RecordingLoader.load(path: path, kinds: Set(MotionSession.inputKinds))
        let batch = try MotionSession.run(r, settings: settings, model: .shipped, keepStepEvents: true)
        #expect(streamed.samples == batch.samples && streamed.samples > 0)
        #expect(streamed.stepTimes == batch.stepTimes)
        #expect(streamed.events == batch.events)
        // Compared as text: a snapshot holds NaN for what is not known (NaN != NaN).
        #expect("\(streamed.summary)" == "\(batch.summary)")
    }
}

/// `motus classify` streams its file through `WindowClassifier`; its windows must be
/// `MotionModel.classify`'s on the whole recording, bit for bit.
@Suite struct StreamedClassifyTests {
    @Test(arguments: StreamedSessionTests.paths())
    func streamedWindowsEqualBatch(_ path: String) throws {
        for model in [MotionModel.shipped, MotionModel.shippedActivities] {
            var reader = try SampleReader(path: path, kinds: FrameBuilder.inputKinds)
            var classifier: WindowClassifier
            do { classifier = try WindowClassifier(model: model, kinds: reader.declaredKinds, path: path) } catch {
                // A model that needs a stream the file lacks: the batch road refuses it too.
                let r = try RecordingLoader.load(path: path, kinds: Set(FrameBuilder.inputKinds))
                #expect(throws: ClassifierError.self) { try model.classify(r, path: path) }
                continue
            }
            var streamed: [WindowPrediction] = []
            try reader.forEach { s in classifier.push(s) { streamed.append($0) } }
            let r = try RecordingLoader.load(path: path, kinds: Set(FrameBuilder.inputKinds))
            let batch = try model.classify(r, path: path)
            #expect(streamed.count == batch.count && !batch.isEmpty)
            #expect(streamed == batch)
            #expect(LabelRun.merge(streamed).count >= 1)
        }
    }
}
