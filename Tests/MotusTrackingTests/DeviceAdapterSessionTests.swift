import Testing
import MotusCore
import MotusIO
import MotusTracking

/// A real iPhone recording (the bundled belt walk, CoreMotion at 50 Hz, stored in Motus' m/s²)
/// turned back into what CoreMotion and Android hand an app, then through the adapters into a
/// live `MotionSession`: the session must count what it counts on the recording itself.
@Suite struct DeviceAdapterSessionTests {
    static let root = DatasetLocator.packageRoot(fromFile: #filePath)
    static func recording() throws -> Recording {
        try RecordingLoader.load(path: root + "/datasets/iphone-belt-stand-then-walk.motus")
    }
    static func streams(_ r: Recording, _ kinds: [StreamKind]) -> Recording {
        Recording(streams: kinds.compactMap { r.stream($0) })
    }

    /// Drains a live session's events into the result's shape.
    static func live(_ feed: (inout MotionSession) throws -> Void) rethrows -> (steps: Int, changes: [StateChange]) {
        var s = MotionSession()
        var changes: [StateChange] = []
        try feed(&s)
        s.finish()
        while let e = s.nextEvent() {
            switch e {
            case .resumed(let c), .paused(let c): changes.append(c)
            default: break
            }
        }
        return (s.snapshot.steps, changes)
    }

    static func expectSame(_ live: (steps: Int, changes: [StateChange]), _ batch: SessionResult) {
        #expect(batch.summary.steps > 30, "the U-turn walk has steps: \(batch.summary.steps)")
        #expect(live.steps == batch.summary.steps, "live \(live.steps), batch \(batch.summary.steps)")
        #expect(live.changes.count == batch.stateChanges.count, "live \(live.changes), batch \(batch.stateChanges)")
        for (a, b) in zip(live.changes, batch.stateChanges.map(\.change)) {
            #expect(a.cause == b.cause && abs(a.time - b.time) < 0.05 && abs(a.decidedAt - b.decidedAt) < 0.05, "\(a) vs \(b)")
        }
    }

    /// CMAccelerometerData, CMGyroData and CMMagnetometerData: every raw sample in g and
    /// CoreMotion's sign, back through the adapter.
    @Test func coreMotionRawStreams() throws {
        let r = Self.streams(try Self.recording(), [.acceleration, .rotationRate, .magneticField])
        let batch = try MotionSession.run(r)
        let live = Self.live { s in
            r.forEachSample(kinds: MotionSession.inputKinds) { sample in
                switch sample {
                case .acceleration(let v):
                    let g = CoreMotionAdapter.accelerationInG(v.value)
                    s.push(CoreMotionAdapter.accelerometerSample(timestamp: v.time, xG: g.x, yG: g.y, zG: g.z))
                case .rotationRate(let v):
                    s.push(CoreMotionAdapter.gyroSample(timestamp: v.time, xRadiansPerSecond: v.value.x, yRadiansPerSecond: v.value.y,
                                                        zRadiansPerSecond: v.value.z))
                case .magneticField(let v):
                    s.push(CoreMotionAdapter.magnetometerSample(timestamp: v.time, xMicroteslas: v.value.x, yMicroteslas: v.value.y,
                                                                zMicroteslas: v.value.z))
                default: Issue.record("unexpected \(sample.kind)")
                }
            }
        }
        Self.expectSame(live, batch)
    }

    /// CMDeviceMotion: one update per user-acceleration sample carrying the latest gravity,
    /// rotation rate and field, as CoreMotion delivers them together. The batch run gets the
    /// same updates in Motus' units as streams on the update times.
    @Test func coreMotionDeviceMotion() throws {
        let r = try Self.recording()
        var updates: [(t: Double, u: Vector3, g: Vector3, w: Vector3, m: Vector3)] = []
        var g: Vector3? = nil, w: Vector3? = nil, m: Vector3? = nil
        r.forEachSample(kinds: [.gravity, .rotationRate, .magneticField, .userAcceleration]) { sample in
            switch sample {
            case .gravity(let v): g = v.value
            case .rotationRate(let v): w = v.value
            case .magneticField(let v): m = v.value
            case .userAcceleration(let v):
                if let g, let w, let m { updates.append((v.time, v.value, g, w, m)) }
            default: break
            }
        }
        #expect(updates.count > 5000)
        var streams = [StreamKind.gravity, .rotationRate, .magneticField, .userAcceleration].map { SensorStream(kind: $0) }
        for u in updates {
            streams[0].append(time: u.t, u.g); streams[1].append(time: u.t, u.w)
            streams[2].append(time: u.t, u.m); streams[3].append(time: u.t, u.u)
        }
        let batch = try MotionSession.run(Recording(streams: streams))
        let live = Self.live { s in
            for u in updates {
                let motion = CoreMotionAdapter.deviceMotion(
                    timestamp: u.t, userAccelerationG: CoreMotionAdapter.accelerationInG(u.u), gravityG: CoreMotionAdapter.accelerationInG(u.g),
                    rotationRateRadiansPerSecond: u.w, attitude: .identity, magneticFieldMicroteslas: u.m)
                #expect((motion.gravity.value - u.g).norm < 1e-12)
                motion.forEach { s.push($0) }
            }
        }
        Self.expectSame(live, batch)
    }

    /// Android: accelerometer, gyroscope and magnetometer events with `Float` values and
    /// nanosecond timestamps, counted from the first event.
    @Test func androidSensorEvents() throws {
        let r = Self.streams(try Self.recording(), [.acceleration, .rotationRate, .magneticField])
        let t0 = r.streams[0].times[0]
        let origin = Int64((t0 * 1e9).rounded())
        // The batch run on the events' clock (seconds from the first one): the session's pause
        // times depend on the clock's origin (seconds since 1970 and seconds from 0 differ by a
        // frame or so), not on the rounding of the values to `Float`.
        let batch = try MotionSession.run(Recording(streams: r.streams.map {
            SensorStream(kind: $0.kind, times: $0.times.map { $0 - t0 }, values: $0.values)
        }))
        var failure: InputError? = nil
        let live = Self.live { s in
            r.forEachSample(kinds: MotionSession.inputKinds) { sample in
                let type: Int32
                let v: VectorSample
                switch sample {
                case .acceleration(let a): type = 1; v = a
                case .rotationRate(let w): type = 4; v = w
                case .magneticField(let m): type = 2; v = m
                default: return
                }
                do throws(InputError) {
                    s.push(try AndroidSensorAdapter.sample(sensorType: type, timestampNanoseconds: Int64((v.time * 1e9).rounded()),
                                                           values: [Float(v.value.x), Float(v.value.y), Float(v.value.z)],
                                                           originNanoseconds: origin))
                } catch { failure = error }
            }
        }
        #expect(failure == nil)
        Self.expectSame(live, batch)
    }
}
