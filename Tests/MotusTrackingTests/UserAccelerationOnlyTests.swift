import Testing
import MotusCore
import MotusIO
import MotusTracking

/// User acceleration without gravity (Android's linear acceleration alone, a CoreMotion export
/// keeping only `userAcceleration`): steps on its principal axis turned up, no model.
@Suite struct UserAccelerationOnlyTests {
    static let root = DatasetLocator.packageRoot(fromFile: #filePath)

    static func keep(_ r: Recording, _ kinds: [StreamKind]) -> Recording {
        Recording(streams: kinds.compactMap { r.stream($0) })
    }

    @Test func neededOnlyWithoutGravityAndAcceleration() {
        #expect(UserAccelerationOnlyInput.isNeeded(for: [.userAcceleration]))
        #expect(UserAccelerationOnlyInput.isNeeded(for: [.userAcceleration, .rotationRate, .magneticField]))
        #expect(!UserAccelerationOnlyInput.isNeeded(for: [.userAcceleration, .gravity]))
        #expect(!UserAccelerationOnlyInput.isNeeded(for: [.userAcceleration, .acceleration]))
        #expect(!UserAccelerationOnlyInput.isNeeded(for: [.acceleration, .rotationRate]))
    }

    /// The bundled iPhone belt walk (waist, U-turns): the session counts the walk's steps on
    /// the user acceleration alone as it does with gravity, model for model (both without one).
    /// The axis is not the vertical here (at the waist, in turns, the fore-aft and sideways
    /// oscillations are as strong), but the step rhythm is along it. Compared with the live
    /// check's rules that count a walk's start from the vertical peaks off in both
    /// (`countsBeforeHeardWalk`, `countsAfterRest`, `countsAfterPostureChange`): with gravity
    /// the pedometer starts this walk about 4 s after its first step, and either of the first
    /// two rules adds the same six steps before it (the walk follows rest, and the pedometer's
    /// walk follows them); on the principal axis the pedometer starts about 2 s in, with no run
    /// of five unheard peaks before it. The third counts five peaks of the phone handled at
    /// 5 s, right after the posture tracker dates a change, where the user acceleration alone
    /// has no posture to track. The pedometers' steps are what this test compares.
    @Test func iPhoneBeltWalkWithoutGravity() throws {
        let r = try RecordingLoader.load(path: Self.root + "/datasets/iphone-belt-stand-then-walk.motus")
        var s = SessionSettings()
        s.tuning.stepCheck.silentWalk.countsBeforeHeardWalk = false
        s.tuning.stepCheck.silentWalk.countsAfterRest = false
        s.tuning.stepCheck.silentWalk.countsAfterPostureChange = false
        let withGravity = try MotionSession.run(Self.keep(r, [.userAcceleration, .gravity, .rotationRate]), settings: s, model: nil)
        let without = try MotionSession.run(Self.keep(r, [.userAcceleration, .rotationRate]), settings: s, model: .shipped)
        #expect(withGravity.summary.steps > 30)
        let ratio = Double(without.summary.steps) / Double(withGravity.summary.steps)
        #expect(ratio > 0.9 && ratio < 1.1, "steps without gravity \(without.summary.steps), with \(withGravity.summary.steps)")
        // The model is not used: the same session as one built without it.
        let noModel = try MotionSession.run(Self.keep(r, [.userAcceleration, .rotationRate]), settings: s, model: nil)
        #expect(noModel.summary.steps == without.summary.steps && noModel.stepTimes == without.stepTimes)
    }

    /// Upside down, the count drops (the reason the sign is chosen): the same user acceleration
    /// with the adapter's axis negated gives the pedometer fewer steps on the belt walk. The
    /// live check's silent walks are off: upside down, the seconds of clipping the phone on
    /// at the start keep a rhythm and a posture after a change of posture, and count as a
    /// short walk (seven steps).
    @Test func theSignMatters() throws {
        let r = try RecordingLoader.load(path: Self.root + "/datasets/iphone-belt-stand-then-walk.motus")
        let uacc = try #require(r.stream(.userAcceleration))
        var up = UserAccelerationOnlyInput()
        var upright = SensorStream(kind: .acceleration), flipped = SensorStream(kind: .acceleration)
        for i in 0..<uacc.count {
            let u = uacc.vector(i), t = uacc.times[i]
            let a = up.acceleration(userAcceleration: u, time: t)
            upright.append(time: t, a)
            flipped.append(time: t, u - up.axis * Units.standardGravity)
        }
        var settings = SessionSettings()
        settings.tuning.stepCheck.countsSilentWalks = false
        let a = try MotionSession.run(Recording(streams: [upright]), settings: settings, model: nil).summary.steps
        let b = try MotionSession.run(Recording(streams: [flipped]), settings: settings, model: nil).summary.steps
        #expect(a > b, "up \(a), upside down \(b)")
    }

    /// MotionSense walks (CoreMotion device motion, 24 subjects, phone in the front pocket):
    /// the user acceleration alone gives the steps `track` finds with gravity and the model,
    /// in total within a few per cent and each walk within a fifth.
    @Test func motionSenseWalksWithoutGravity() throws {
        guard let shared = DatasetLocator.sharedDatasets(packageRoot: Self.root) else {
            print("skipping: ../shared/datasets not found (set MOTUS_DATASETS to run tests on the real data)"); return
        }
        let ds = try MotionSenseDataset(root: shared + "/motionsense")
        let walks = ds.entries.filter { $0.id.hasPrefix("wlk_") && $0.setAside == nil }
        try #require(walks.count >= 20)
        var full = 0, alone = 0
        for e in walks {
            let r = try ds.load(e.id)
            let a = try MotionSession.run(Self.keep(r, [.userAcceleration, .gravity, .rotationRate])).summary.steps
            let b = try MotionSession.run(Self.keep(r, [.userAcceleration])).summary.steps
            #expect(Double(b) >= 0.8 * Double(a) && Double(b) <= 1.1 * Double(a), "\(e.id): \(b) steps without gravity, \(a) with")
            full += a; alone += b
        }
        let ratio = Double(alone) / Double(full)
        #expect(ratio > 0.93 && ratio < 1.03, "\(alone) steps without gravity, \(full) with")
    }
}

