import MotusCore
import MotusClassifier

/// Everything a whole session produced.
public struct SessionResult: Sendable {
    /// The snapshot after the last sample.
    public var summary: SessionSnapshot
    /// Every event in the order the session reported them (steps only when asked for).
    public var events: [SessionEvent]
    /// The completed splits (also among `events`).
    public var splits: [Split]
    /// The moving/still changes (also among `events`).
    public var stateChanges: [(state: MotionState, change: StateChange)]
    /// Step times (s) of every counted step, in order.
    public var stepTimes: [Seconds]
    /// Time of the first sample (s).
    public var startTime: Seconds
    /// Samples pushed.
    public var samples: Int
    /// Events dropped by a full queue (0 in a batch run, which reads after every sample).
    public var droppedEvents: Int
}

extension MotionSession {
    /// The streams a session reads, in the order pushed when timestamps are equal (the
    /// acceleration drives, so it comes after the streams it pairs with).
    public static let inputKinds: [StreamKind] = [.gravity, .rotationRate, .magneticField, .stepCounter, .location, .acceleration, .userAcceleration]

    /// Pushes every sample of `recording` in time order (ties in `inputKinds` order) through
    /// the same calls a live app makes, draining events after each sample, then `finish()`.
    /// `keepStepEvents`: also return step events (one per step).
    public mutating func run(_ recording: Recording, keepStepEvents: Bool = false) -> SessionResult {
        var run = SessionRun(self, keepStepEvents: keepStepEvents)
        recording.forEachSample(kinds: Self.inputKinds) { run.push($0) }
        let result = run.finish()
        self = run.session
        return result
    }

    /// A fresh session over a whole recording, with the shipped model unless told otherwise
    /// (nil: pedometer and stillness only). A recording with user acceleration and neither
    /// gravity nor raw acceleration goes through `UserAccelerationOnlyInput`, without the model
    /// (its features need gravity).
    ///
    /// With `settings.stepMode` `.offline` the whole recording is known, so the steps counted
    /// are `OfflineStepDetector.steps(of:session:)`'s, pushed in time order among the samples:
    /// moving/still, distance, splits and events come from the same session as live, with the
    /// offline count. A recording with a platform step counter, or without acceleration to
    /// count on, runs `.live`.
    public static func run(_ recording: Recording, settings: SessionSettings = .default, model: MotionModel? = .shipped,
                           keepStepEvents: Bool = false) throws(StreamingClassifier.Failure) -> SessionResult {
        var settings = settings
        var steps: [StepEvent] = []
        if settings.stepMode == .offline {
            let counter = recording.stream(.stepCounter).map { !$0.isEmpty } ?? false
            if !counter && settings.mode == .foot, let s = OfflineStepDetector.steps(of: recording, session: settings) {
                steps = s
            } else {
                settings.stepMode = .live
            }
        }
        let kinds = Set(recording.streams.map(\.kind))
        let adapted = UserAccelerationOnlyInput.isNeeded(for: kinds)
        var run = SessionRun(try MotionSession(settings: settings, model: adapted ? nil : model), keepStepEvents: keepStepEvents,
                             steps: steps)
        var input = UserAccelerationOnlyInput()
        recording.forEachSample(kinds: Self.inputKinds) { run.push(adapted ? input.adapt($0) : $0) }
        return run.finish()
    }
}

/// A session being fed, collecting what `run` returns: push samples in time order (from a
/// `Recording`, or from MotusIO's `SampleReader` without holding the file), then `finish()`.
public struct SessionRun {
    /// The session being fed.
    public private(set) var session: MotionSession
    let keepStepEvents: Bool
    var events: [SessionEvent] = []
    var splits: [Split] = []
    var changes: [(state: MotionState, change: StateChange)] = []
    var stepTimes: [Double] = []
    var samples = 0
    let steps: [StepEvent]
    var nextStep = 0

    /// `keepStepEvents`: also keep step events (one per step). `steps`: steps an outside
    /// detector found (the offline steps of a whole file, in time order), each pushed with
    /// `MotionSession.pushStep(_:)` before the first sample after its time; the session counts
    /// them when its settings' `stepMode` is `.offline`.
    public init(_ session: MotionSession, keepStepEvents: Bool = false, steps: [StepEvent] = []) {
        self.session = session
        self.keepStepEvents = keepStepEvents
        self.steps = steps
    }

    /// Pushes one sample (after the given steps due by its time) and sorts the events it caused
    /// into the result.
    public mutating func push(_ s: SensorSample) {
        while nextStep < steps.count && steps[nextStep].time <= s.time {
            session.pushStep(steps[nextStep])
            nextStep += 1
        }
        samples += 1
        session.push(s)
        drain()
    }

    /// Ends the session, as an app's workout ends, and returns everything it produced.
    public mutating func finish() -> SessionResult {
        while nextStep < steps.count {
            session.pushStep(steps[nextStep])
            nextStep += 1
        }
        session.finish()
        drain()
        return SessionResult(summary: session.snapshot, events: events, splits: splits, stateChanges: changes, stepTimes: stepTimes,
                             startTime: session.startTime.isNaN ? 0 : session.startTime, samples: samples,
                             droppedEvents: session.droppedEvents)
    }

    mutating func drain() {
        while let e = session.nextEvent() {
            switch e {
            case .step(let st):
                stepTimes.append(st.time)
                if keepStepEvents { events.append(e) }
            case .split(let sp): splits.append(sp); events.append(e)
            case .resumed(let c): changes.append((.moving, c)); events.append(e)
            case .paused(let c): changes.append((.still, c)); events.append(e)
            case .goalReached: events.append(e)
            }
        }
    }
}

/// What the asynchronous adapter yields: the events a sample caused, then the snapshot.
public struct SessionUpdate: Sendable {
    /// The events the sample caused, oldest first (may be empty).
    public var events: [SessionEvent]
    /// The live figures after that sample.
    public var snapshot: SessionSnapshot
}

/// The session over an asynchronous sequence of samples (a sensor callback bridged with an
/// `AsyncStream`, say). It yields one `SessionUpdate` per sample that caused events, and one
/// every `snapshotInterval` seconds of input time; when the input ends it calls `finish()`
/// (one last update if that causes events: a retracted provisional resume, the last checked
/// steps). The core stays the synchronous `MotionSession`, so the results are those of a batch
/// run over the same samples.
public struct SessionUpdates<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == SensorSample {
    public typealias Element = SessionUpdate
    let base: Base
    let session: MotionSession
    let snapshotInterval: Double

    /// The session over `samples`; an update at least every `snapshotInterval` seconds of input time.
    public init(_ samples: Base, session: MotionSession, snapshotInterval: Seconds = 1) {
        base = samples; self.session = session; self.snapshotInterval = snapshotInterval
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var it: Base.AsyncIterator
        var session: MotionSession
        let interval: Double
        var lastSnapshot = -Double.infinity
        var finished = false

        public mutating func next() async throws -> SessionUpdate? {
            while !finished {
                guard let s = try await it.next() else {
                    // The input ended: `finish()`, and one last update if that caused events.
                    finished = true
                    session.finish()
                    let events = takeEvents()
                    return events.isEmpty ? nil : SessionUpdate(events: events, snapshot: session.snapshot)
                }
                session.push(s)
                let events = takeEvents()
                let t = session.now
                if !events.isEmpty || t - lastSnapshot >= interval {
                    lastSnapshot = t
                    return SessionUpdate(events: events, snapshot: session.snapshot)
                }
            }
            return nil
        }

        mutating func takeEvents() -> [SessionEvent] {
            var events: [SessionEvent] = []
            while let e = session.nextEvent() { events.append(e) }
            return events
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(it: base.makeAsyncIterator(), session: session, interval: snapshotInterval)
    }
}
