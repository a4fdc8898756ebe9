import Testing
import Foundation
@testable import MotusClassifier
import MotusCore
import MotusFeatures
import MotusLearn

/// Synthetic recordings with real physics: a device at rest (gravity plus sensor noise) and a
/// device on someone stepping at 1.8 Hz (vertical impacts and some rotation).
enum Synthetic {
    struct Noise {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return Double((z ^ (z >> 31)) >> 11) * 0x1.0p-53 - 0.5
        }
    }

    static func recording(moving: Bool, seconds: Double = 30, subject: String, seed: UInt64, amplitude: Double = 3) -> Recording {
        var noise = Noise(state: seed)
        let rate = 50.0, n = Int(seconds * rate)
        var acc = SensorStream(kind: .acceleration), grav = SensorStream(kind: .gravity), gyro = SensorStream(kind: .rotationRate)
        let g = Vector3(0.5, 9.5, 2.3).normalized * Units.standardGravity
        for i in 0..<n {
            let t = Double(i) / rate
            var a = g + Vector3(noise.next(), noise.next(), noise.next()) * 0.02
            var w = Vector3(noise.next(), noise.next(), noise.next()) * 0.01
            if moving {
                let phase = 2 * Double.pi * 1.8 * t
                a += g.normalized * (amplitude * Math.sin(phase)) + Vector3(1, 0, 0) * (0.4 * amplitude * Math.cos(phase))
                w += Vector3(0.8 * Math.sin(phase / 2), 0.3, 0.5 * Math.cos(phase))
            }
            acc.append(time: t, a); grav.append(time: t, g); gyro.append(time: t, w)
        }
        return Recording(metadata: RecordingMetadata(subject: subject), streams: [acc, grav, gyro],
                         labels: [LabelSegment(start: 0, end: seconds, label: moving ? "walk" : "sit")])
    }

    static let labels = try! LabelMap(parsing: ["moving=walk", "still=sit"])

    static func windows(subjects: Int = 4) throws -> LabelledWindows {
        var data = LabelledWindows(configuration: .standard)
        for s in 0..<subjects {
            for moving in [true, false] {
                let r = recording(moving: moving, subject: "s\(s)", seed: UInt64(s * 2 + (moving ? 1 : 0)))
                try data.add(r, id: "s\(s)-\(moving)", pipeline: MotionPipeline(), labels: labels)
            }
        }
        return data
    }
}

@Suite struct LabelMapTests {
    @Test func parsesClassesInOrder() throws {
        let m = try LabelMap(parsing: ["moving=wlk,jog, ups", "still=sit,std"])
        #expect(m.classes == ["moving", "still"])
        #expect(m.classIndex(of: "ups") == 0 && m.classIndex(of: "std") == 1 && m.classIndex(of: "dws") == nil)
        #expect(m.description == "moving=jog,ups,wlk still=sit,std")
    }

    @Test(arguments: [
        (["moving"], "--map takes class=label,label…, not 'moving'"),
        (["moving=wlk"], "a model needs at least two classes; give --map at least twice"),
        (["a=x", "b=x"], "label 'x' is mapped to both a and b"),
        (["a=", "b=y"], "--map a= lists no labels"),
    ])
    func badMapsAreOneSentence(entries: [String], message: String) {
        do { _ = try LabelMap(parsing: entries); Issue.record("no error") } catch {
            #expect(error.description == message)
        }
    }
}

@Suite struct MotionModelTests {
    @Test func windowsTakeTheLabelThatCoversThem() throws {
        let data = try Synthetic.windows(subjects: 1)
        // 30 s at 2.56 s windows every 1.28 s: 22 windows per recording, all inside their label.
        #expect(data.count == 44 && data.windowsUnlabelled == 0)
        #expect(data.countPerClass(2) == [22, 22])
        #expect(Set(data.subjects) == ["s0"])
    }

    @Test func trainsWritesAndReadsBackExactly() throws {
        let data = try Synthetic.windows()
        let m = try MotionModel.train(data, labels: Synthetic.labels, features: .standard, estimator: .logistic, sources: ["synthetic"])
        let p = NSTemporaryDirectory() + "motus-model-\(UUID().uuidString).json"
        try m.write(to: p)
        let back = try MotionModel.load(path: p)
        #expect(back == m)
        // It learned the difference, on recordings it has not seen.
        for moving in [true, false] {
            let r = Synthetic.recording(moving: moving, subject: "new", seed: 99, amplitude: 2)
            let preds = try back.classify(r, path: "new")
            #expect(!preds.isEmpty)
            #expect(preds.allSatisfy { $0.label == (moving ? "moving" : "still") && $0.probability > 0.9 })
        }
    }

    @Test func crossValidationKeepsSubjectsApartAndScoresOriginalsOnly() throws {
        var data = try Synthetic.windows()
        let report = try MotionModel.crossValidate(data, labels: Synthetic.labels, estimator: .logistic)
        #expect(report.scheme == "leave-one-subject-out (4 subjects)")
        #expect(report.windows == data.count && report.balancedAccuracy == 1)
        // Augmented copies train but are never scored.
        data = LabelledWindows(configuration: .standard)
        for s in 0..<3 {
            try data.add(Synthetic.recording(moving: true, subject: "s\(s)", seed: UInt64(s)), id: "m\(s)", pipeline: MotionPipeline(),
                         labels: Synthetic.labels, augmentation: Augmentation(dynamicScales: [0.5]))
            try data.add(Synthetic.recording(moving: false, subject: "s\(s)", seed: UInt64(10 + s)), id: "s\(s)", pipeline: MotionPipeline(),
                         labels: Synthetic.labels, augmentation: Augmentation(dynamicScales: [0.5]))
        }
        #expect(data.count == 2 * data.originalCount)
        let r2 = try MotionModel.crossValidate(data, labels: Synthetic.labels, estimator: .logistic)
        #expect(r2.windows == data.originalCount)
    }

    @Test func scalingDynamicsHalvesTheMotionAndKeepsGravity() {
        let r = Synthetic.recording(moving: true, subject: "a", seed: 1)
        let half = Augmentation.scalingDynamics(r, by: 0.5)
        let a = r.stream(.acceleration)!, g = r.stream(.gravity)!, h = half.stream(.acceleration)!
        for i in stride(from: 0, to: a.count, by: 97) {
            let expected = g.vector(i) + (a.vector(i) - g.vector(i)) * 0.5
            #expect((h.vector(i) - expected).norm < 1e-12)
        }
        #expect(half.stream(.gravity) == g)
        #expect(abs(half.stream(.rotationRate)!.value(10, 1) - 0.5 * r.stream(.rotationRate)!.value(10, 1)) < 1e-15)
    }

    @Test func mismatchedShapesAreRefusedWithWhatWasFound() throws {
        let data = try Synthetic.windows(subjects: 2)
        var m = try MotionModel.train(data, labels: Synthetic.labels, features: .standard, estimator: .logistic, sources: [])
        m.scaler = try StandardScaler(mean: [0, 0], scale: [1, 1])
        do { try m.check(path: "m.json"); Issue.record("accepted a 2-feature scaler") } catch {
            #expect(error.description == "m.json: found a scaler for 2 features, expected 102 (the feature configuration's)")
        }
        var n = try MotionModel.train(data, labels: Synthetic.labels, features: .standard, estimator: .logistic, sources: [])
        n.version = 3
        do { try n.check(path: "n.json"); Issue.record("accepted version 3") } catch {
            #expect(error.description == "n.json: found version 3, expected version 1…2 (a newer Motus wrote it?)")
        }
        n.version = 1
        n.classes = ["a", "b", "c"]
        do { try n.check(path: "n.json"); Issue.record("accepted 3 classes for a 2-class estimator") } catch {}
    }

    @Test func truncatedFilesAreRefused() throws {
        let data = try Synthetic.windows(subjects: 2)
        let m = try MotionModel.train(data, labels: Synthetic.labels, features: .standard, estimator: .mlp, sources: [])
        let json = try JSONEncoder().encode(m)
        for cut in [1, json.count / 3, json.count - 2] {
            #expect(throws: ClassifierError.self) { _ = try MotionModel.decode(json.prefix(cut), source: "cut.json") }
        }
        #expect(try MotionModel.decode(json, source: "whole.json") == m)
    }

    @Test func labelRunsMergeAndSplitOverlapsHalfway() {
        let p = [WindowPrediction(start: 0, end: 2.56, classIndex: 1, label: "still", probability: 0.9, probabilities: [0.1, 0.9]),
                 WindowPrediction(start: 1.28, end: 3.84, classIndex: 1, label: "still", probability: 0.7, probabilities: [0.3, 0.7]),
                 WindowPrediction(start: 2.56, end: 5.12, classIndex: 0, label: "moving", probability: 0.8, probabilities: [0.8, 0.2])]
        let runs = LabelRun.merge(p)
        #expect(runs.count == 2)
        #expect(runs[0].label == "still" && runs[0].start == 0 && runs[0].windows == 2 && abs(runs[0].meanProbability - 0.8) < 1e-12)
        #expect(runs[0].end == 3.2 && runs[1].start == 3.2 && runs[1].end == 5.12)
    }
}
