import MotusCore
import MotusClassifier
import MotusTracking
import MotusEvaluation

/// The picture of a recording and of what a tracking session found in it: |acceleration|
/// and rotation rate over time, the gravity tilt, the steps (detected, and the reference's),
/// the moving spans, the pause and resume events with their decision latency, the classifier's
/// probability of moving and the recording's label segments.
public enum RecordingPlot {
    /// What a session run over a recording produced, with the classifier's smoothed
    /// probability of moving over time.
    public struct SessionTrace: Sendable {
        /// What the session's run returned (`SessionRun.finish()`).
        public var result: SessionResult
        /// Times (s, recording clock) at which `SessionSnapshot.movingProbability` was read,
        /// one every `probabilityInterval` seconds of input.
        public var probabilityTimes: [Seconds]
        /// The probability of moving (0…1) at each of `probabilityTimes`.
        public var probabilities: [Double]
    }

    /// Runs a session over `recording` the way `motus track` does: every sample in time order
    /// through `SessionRun.push`, then `finish()`. The probability of moving is read from the
    /// session's snapshot between samples, which changes nothing in the run.
    public static func trace(_ recording: Recording, settings: SessionSettings = .default, model: MotionModel? = .shipped,
                             probabilityInterval: Seconds = 0.1) throws(StreamingClassifier.Failure) -> SessionTrace {
        var run = SessionRun(try MotionSession(settings: settings, model: model))
        var pt: [Double] = [], pv: [Double] = []
        var last = -Double.infinity
        recording.forEachSample(kinds: MotionSession.inputKinds) { s in
            run.push(s)
            if s.time - last >= probabilityInterval {
                last = s.time
                let p = run.session.snapshot.movingProbability
                pt.append(s.time); pv.append(p)
            }
        }
        return SessionTrace(result: run.finish(), probabilityTimes: pt, probabilities: pv)
    }

    /// The chart. Times are shown in seconds from the recording's first sample; `from` and
    /// `to` (s, on that scale) zoom in, the session still having run over the whole recording.
    public static func chart(_ recording: Recording, trace: SessionTrace, name: String, from: Seconds? = nil, to: Seconds? = nil) -> Chart {
        let t0 = recording.timeRange?.lowerBound ?? trace.result.startTime
        let end = (recording.timeRange?.upperBound ?? t0) - t0
        let lo = max(from ?? 0, 0), hi = min(to ?? end, end)
        let range: ClosedRange<Double>? = hi > lo ? lo...hi : nil
        let r = trace.result
        // A gap in a sensor stream (lost packets, a pause in recording) is drawn as a gap: a
        // step longer than five times the median interval ends the line.
        func maxGap(_ times: [Double]) -> Double? {
            guard times.count > 2 else { return nil }
            var d: [Double] = []
            let stride = max(1, times.count / 2000)
            var i = stride
            while i < times.count { d.append(times[i] - times[i - 1]); i += stride }
            d.sort()
            let m = d[d.count / 2]
            return m > 0 ? 5 * m : nil
        }

        // Moving spans from the session's state changes (a retracted resume spans no time).
        var moving: [(start: Double, end: Double)] = []
        var since: Double?
        for (state, change) in r.stateChanges {
            if state == .moving { if since == nil { since = change.time - t0 } }
            else if let s = since { if change.time - t0 > s { moving.append((s, change.time - t0)) }; since = nil }
        }
        if let s = since { moving.append((s, max(s, end))) }
        let movingSpan = SpanSeries(name: "moving (session)", color: Palette.bluishGreen, intervals: moving, opacity: 0.13)
        var unnamedMoving = movingSpan
        unnamedMoving.name = ""

        // Label segments as a band along the top, one colour per label.
        var labelSpans: [SpanSeries] = []
        let labelColors = [Palette.orange, Palette.skyBlue, Palette.reddishPurple, Palette.yellow, Palette.blue, Palette.vermillion]
        for (i, l) in recording.labelNames.enumerated() {
            let segs = recording.labels.filter { $0.label == l }
            labelSpans.append(SpanSeries(name: "label \(l)", color: labelColors[i % labelColors.count],
                                         intervals: segs.map { ($0.start - t0, $0.end - t0) }, labels: segs.map(\.label),
                                         opacity: 0.55, band: (0.06, 0.15)))
        }

        // Steps: detected by the session (bottom edge) and the reference's (top edge).
        let detected = MarkSeries(name: "steps (session, \(r.stepTimes.count))", color: Palette.vermillion,
                                  xs: r.stepTimes.map { $0 - t0 }, style: .bottom)
        let refSteps = recording.events.filter { $0.kind == "step" }
        var stepMarks = [detected]
        if !refSteps.isEmpty {
            stepMarks.append(MarkSeries(name: "steps (reference, \(refSteps.count))", color: Palette.black, xs: refSteps.map { $0.time - t0 }, style: .top))
        }
        let otherKinds = Array(Set(recording.events.map(\.kind)).subtracting(["step"])).sorted().prefix(2)
        for (i, k) in otherKinds.enumerated() {
            let ev = recording.events.filter { $0.kind == k }
            stepMarks.append(MarkSeries(name: "\(k) (reference, \(ev.count))", color: i == 0 ? Palette.skyBlue : Palette.reddishPurple,
                                        xs: ev.map { $0.time - t0 }, style: .top))
        }

        var panels: [Panel] = []
        // |acceleration| (gravity included), or |user acceleration| when that is all there is.
        var accLines: [LineSeries] = []
        if let a = recording.stream(.acceleration) ?? recording.stream(.userAcceleration) {
            var ys = [Double](repeating: 0, count: a.count)
            for i in 0..<a.count { ys[i] = a.vector(i).norm }
            let title = a.kind == .acceleration ? "|acceleration|" : "|user acceleration|"
            accLines.append(LineSeries(name: title, color: Palette.blue, xs: a.times.map { $0 - t0 }, ys: ys, maxGap: maxGap(a.times), width: 0.9))
        }
        panels.append(Panel(yLabel: "acceleration (m/s²)", height: 200, lines: accLines, spans: [movingSpan] + labelSpans, marks: stepMarks))

        if let g = recording.stream(.rotationRate) {
            var ys = [Double](repeating: 0, count: g.count)
            for i in 0..<g.count { ys[i] = g.vector(i).norm }
            panels.append(Panel(yLabel: "rotation rate (rad/s)", height: 150, includeZero: true,
                                lines: [LineSeries(name: "|rotation rate|", color: Palette.reddishPurple, xs: g.times.map { $0 - t0 }, ys: ys,
                                                   maxGap: maxGap(g.times), width: 0.9)],
                                spans: [unnamedMoving]))
        }

        if let tilt = Self.tilt(recording) {
            panels.append(Panel(yLabel: "tilt (°)", height: 130, yRange: 0...180,
                                lines: [LineSeries(name: tilt.source, color: Palette.orange, xs: tilt.times.map { $0 - t0 }, ys: tilt.degrees,
                                                   maxGap: maxGap(tilt.times))],
                                spans: [unnamedMoving]))
        }

        // The session: probability of moving, and the pause/resume events with their latency.
        var resumes: [(Double, Double, String)] = [], pauses: [(Double, Double, String)] = []
        for (state, c) in r.stateChanges {
            let text = "\(c.cause.rawValue) +\(num(c.latency, 2, trimmed: false)) s"
            if state == .moving { resumes.append((c.time - t0, c.decidedAt - t0, text)) } else { pauses.append((c.time - t0, c.decidedAt - t0, text)) }
        }
        var sessionLines: [LineSeries] = []
        if trace.probabilities.contains(where: { $0.isFinite }) {
            sessionLines.append(LineSeries(name: "P(moving), classifier", color: Palette.blue, xs: trace.probabilityTimes.map { $0 - t0 },
                                           ys: trace.probabilities))
        }
        panels.append(Panel(yLabel: "P(moving)", height: 150, yRange: 0...1, lines: sessionLines, spans: [movingSpan], marks: [
            MarkSeries(name: "resumed (→ decided)", color: Palette.bluishGreen, xs: resumes.map(\.0), style: .across,
                       ends: resumes.map(\.1), labels: resumes.map(\.2)),
            MarkSeries(name: "paused (→ decided)", color: Palette.vermillion, xs: pauses.map(\.0), style: .across,
                       ends: pauses.map(\.1), labels: pauses.map(\.2)),
        ]))

        var notes: [String] = []
        let streams = recording.streams.map { "\($0.name) \($0.count)" }.joined(separator: ", ")
        notes.append("streams: \(streams); \(num(end, 1)) s")
        func count(_ n: Int, _ what: String) -> String { "\(n) \(what)\(n == 1 ? "" : "s")" }
        var s = "session: \(count(r.stepTimes.count, "step")), \(count(resumes.count, "resume")), \(count(pauses.count, "pause"))"
        if !refSteps.isEmpty { s += "; reference: \(count(refSteps.count, "step"))" }
        notes.append(s)
        return Chart(title: name, notes: notes, xLabel: "time since the first sample (s)", xRange: range, panels: panels)
    }

    /// The tilt: the angle (°) between the device's z axis (out of the screen) and up, from
    /// the recording's gravity stream or, without one, from the attitude filter (acceleration
    /// with the rotation rate at the same times) or the low-pass gravity (acceleration alone).
    public static func tilt(_ recording: Recording) -> (times: [Seconds], degrees: [Degrees], source: String)? {
        let times: [Double], g: [Double], source: String
        if let grav = recording.stream(.gravity), !grav.isEmpty {
            times = grav.times; g = grav.values; source = "tilt (device gravity)"
        } else if let acc = recording.stream(.acceleration), !acc.isEmpty {
            times = acc.times
            if let gyro = recording.stream(.rotationRate), gyro.times == acc.times {
                g = FusionEvaluation.gravityEstimates(times: acc.times, acceleration: acc.values, rotationRate: gyro.values, method: .attitudeFilter(.default))
                source = "tilt (attitude filter)"
            } else {
                g = FusionEvaluation.gravityEstimates(times: acc.times, acceleration: acc.values, rotationRate: [], method: .lowPass(.default))
                source = "tilt (low-pass gravity)"
            }
        } else { return nil }
        var deg = [Double](repeating: .nan, count: times.count)
        for i in times.indices {
            let v = Vector3(g[3 * i], g[3 * i + 1], g[3 * i + 2])
            let n = v.norm
            if n > 0 { deg[i] = v.angle(to: Vector3(0, 0, 1)) * Math.degreesPerRadian }
        }
        return (times, deg, source)
    }
}
