import MotusCore

/// How `StreamCleaner` treats each kind of timing defect. Times in seconds.
public struct CleaningPolicy: Sendable, Hashable {
    /// What to do with several samples that carry exactly the same timestamp.
    public enum Duplicates: Sendable, Hashable {
        /// Keep the first in arrival order, drop (and count) the others. The default: it
        /// invents no value, and on the phones we have seen the later copy is a re-emission
        /// of the same reading.
        case keepFirst
        /// Replace the run by the mean of its values (attitude: the sign-aligned mean
        /// quaternion, normalised; step counter: the last reading, since counts only grow).
        case average
    }
    /// What to do with a sample whose timestamp, or a value that must be finite, is not finite.
    public enum NonFinite: Sendable, Hashable {
        /// Drop the sample and count it in the report.
        case drop
        /// Throw `SignalError` with the sample's index.
        case fail
    }

    /// A sample earlier than the latest timestamp seen so far by at most this much is put
    /// back in place (stable sort: equal timestamps keep arrival order). Further back is a
    /// `SignalError.timeBackwards`. Default 0.05 s: Android batches events from FIFO and may
    /// deliver a few milliseconds out of order; anything larger is a clock reset or a
    /// concatenation error, not jitter.
    public var reorderToleranceSeconds: Seconds
    /// What to do with samples whose timestamp equals the previous one's.
    public var duplicates: Duplicates
    /// What to do with a NaN or infinite timestamp.
    public var nonFiniteTimes: NonFinite
    /// For components that must be finite (`StreamKind.allowsMissing` false).
    public var nonFiniteValues: NonFinite
    /// Drop samples whose values equal the previous kept sample's exactly (stale sensor
    /// re-emissions: 10–19 % of rows on Samsung/MPU6500 phones). Off by default: for slow or
    /// quantised streams (step counter, pressure) equal values are real. Counted either way.
    public var dropRepeatedValues: Bool
    /// Gap definition used for the report's timing statistics.
    public var gapPolicy: GapPolicy

    /// A policy; defaults as on each property.
    public init(reorderToleranceSeconds: Seconds = 0.05, duplicates: Duplicates = .keepFirst,
                nonFiniteTimes: NonFinite = .drop, nonFiniteValues: NonFinite = .drop,
                dropRepeatedValues: Bool = false, gapPolicy: GapPolicy = GapPolicy()) {
        self.reorderToleranceSeconds = reorderToleranceSeconds; self.duplicates = duplicates
        self.nonFiniteTimes = nonFiniteTimes; self.nonFiniteValues = nonFiniteValues
        self.dropRepeatedValues = dropRepeatedValues; self.gapPolicy = gapPolicy
    }
}

/// What cleaning found and did. Nothing is removed silently:
/// `inputCount − outputCount == nonFiniteTimesDropped + nonFiniteValuesDropped +
/// duplicatesRemoved + repeatedValuesDropped` always holds (`removedCount`).
public struct CleaningReport: Sendable, Hashable {
    /// The stream's name.
    public var stream: String
    /// Samples given.
    public var inputCount: Int
    /// Samples kept.
    public var outputCount: Int
    /// Samples dropped because their timestamp was NaN or infinite.
    public var nonFiniteTimesDropped: Int
    /// Samples dropped because a value that must be finite was not.
    public var nonFiniteValuesDropped: Int
    /// Samples that arrived after a later timestamp (within tolerance) and were moved back.
    public var reordered: Int
    /// Largest step back in time among reordered samples, seconds (0 when none).
    public var maxBackstepSeconds: Seconds
    /// Samples with the same timestamp as the one before (after sorting).
    public var duplicateTimestamps: Int
    /// Of those, removed from the output (all of them: dropped or merged into the first).
    public var duplicatesRemoved: Int
    /// Samples whose values equal the previous sample's exactly (different timestamps).
    public var repeatedValues: Int
    /// Of those, dropped (only with `dropRepeatedValues`).
    public var repeatedValuesDropped: Int
    /// Rate, jitter and gaps of the cleaned stream.
    public var timing: TimingStatistics

    /// Every sample removed, whatever the reason.
    public var removedCount: Int { inputCount - outputCount }
}

/// The cleaned stream and what was done to it.
public struct CleanedStream: Sendable {
    /// The stream, cleaned.
    public var stream: SensorStream
    /// What was found and done.
    public var report: CleaningReport
}

/// Turns a stream as it arrived into one with finite, strictly increasing timestamps.
///
/// Steps, in order: (1) drop or reject non-finite times and values; (2) check order against
/// the running maximum: a sample up to `reorderToleranceSeconds` behind is out of order and
/// gets re-sorted (stable), further behind throws `SignalError.timeBackwards` carrying the
/// sample's arrival index; (3) resolve equal timestamps by the duplicates policy; (4) count
/// (and optionally drop) exact value repeats; (5) measure timing on the result. Jitter is
/// measured, not changed: resampling handles it.
public enum StreamCleaner {
    /// Cleans `stream`. O(n) when already sorted, O(n log n) when something was re-sorted;
    /// allocates the output (not per sample).
    public static func clean(_ stream: SensorStream, policy: CleaningPolicy = CleaningPolicy()) throws(SignalError) -> CleanedStream {
        let n = stream.count, w = stream.width, kind = stream.kind
        let times = stream.times, values = stream.values
        var keep: [Int] = []            // arrival indices kept, in arrival order
        keep.reserveCapacity(n)
        var nonFiniteTimes = 0, nonFiniteValues = 0, reordered = 0
        var maxBack = 0.0
        var runningMax = -Double.infinity
        var required = [Bool](repeating: true, count: w)
        for c in 0..<w { required[c] = !kind.allowsMissing(component: c) }
        for i in 0..<n {
            let t = times[i]
            if !t.isFinite {
                if policy.nonFiniteTimes == .fail {
                    throw SignalError(.nonFiniteTime, stream: stream.name, sampleIndex: i, time: t, expected: "a finite time")
                }
                nonFiniteTimes += 1; continue
            }
            var bad = false
            for c in 0..<w where required[c] && !values[i * w + c].isFinite { bad = true; break }
            if bad {
                if policy.nonFiniteValues == .fail {
                    throw SignalError(.nonFiniteValue, stream: stream.name, sampleIndex: i, time: t,
                                      expected: "finite \(kind.columns.joined(separator: ", "))")
                }
                nonFiniteValues += 1; continue
            }
            if t < runningMax {
                let back = runningMax - t
                if back > policy.reorderToleranceSeconds {
                    throw SignalError(.timeBackwards, stream: stream.name, sampleIndex: i, time: t,
                                      expected: "a time ≥ \(runningMax - policy.reorderToleranceSeconds) s (latest \(runningMax) s, reorder tolerance \(policy.reorderToleranceSeconds) s)")
                }
                reordered += 1
                maxBack = max(maxBack, back)
            } else {
                runningMax = t
            }
            keep.append(i)
        }
        if reordered > 0 {
            // Stable: ties broken by arrival index explicitly.
            keep.sort { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
        }

        var outT: [Double] = [], outV: [Double] = []
        outT.reserveCapacity(keep.count); outV.reserveCapacity(keep.count * w)
        var dupCount = 0, repeated = 0, repeatedDropped = 0
        var j = 0
        while j < keep.count {
            let i0 = keep[j]
            let t = times[i0]
            var e = j + 1
            while e < keep.count && times[keep[e]] == t { e += 1 }
            dupCount += e - j - 1
            // Candidate sample for time t: first of the run, or the merged run.
            let base = outV.count
            if e - j == 1 || policy.duplicates == .keepFirst {
                for c in 0..<w { outV.append(values[i0 * w + c]) }
            } else {
                appendMerged(kind: kind, width: w, values: values, indices: keep[j..<e], into: &outV)
            }
            // Exact repeat of the previous kept sample's values?
            if !outT.isEmpty {
                var same = true
                for c in 0..<w {
                    let a = outV[base - w + c], b = outV[base + c]
                    if !(a == b || (a.isNaN && b.isNaN)) { same = false; break }
                }
                if same {
                    repeated += 1
                    if policy.dropRepeatedValues {
                        repeatedDropped += 1
                        outV.removeLast(w)
                        j = e; continue
                    }
                }
            }
            outT.append(t)
            j = e
        }
        var out = stream
        out.replace(times: outT, values: outV)
        let report = CleaningReport(
            stream: stream.name, inputCount: n, outputCount: outT.count,
            nonFiniteTimesDropped: nonFiniteTimes, nonFiniteValuesDropped: nonFiniteValues,
            reordered: reordered, maxBackstepSeconds: maxBack,
            duplicateTimestamps: dupCount, duplicatesRemoved: dupCount,
            repeatedValues: repeated, repeatedValuesDropped: repeatedDropped,
            timing: TimingStatistics(times: outT, gapPolicy: policy.gapPolicy))
        return CleanedStream(stream: out, report: report)
    }

    private static func appendMerged(kind: StreamKind, width w: Int, values: [Double], indices: ArraySlice<Int>, into out: inout [Double]) {
        switch kind {
        case .stepCounter:
            let last = indices[indices.endIndex - 1]
            for c in 0..<w { out.append(values[last * w + c]) }
        case .attitude:
            let f = indices[indices.startIndex]
            let q0 = Quaternion(w: values[f * 4], x: values[f * 4 + 1], y: values[f * 4 + 2], z: values[f * 4 + 3])
            var acc = Quaternion(w: 0, x: 0, y: 0, z: 0)
            for i in indices {
                var q = Quaternion(w: values[i * 4], x: values[i * 4 + 1], y: values[i * 4 + 2], z: values[i * 4 + 3])
                if q.dot(q0) < 0 { q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }
                acc = Quaternion(w: acc.w + q.w, x: acc.x + q.x, y: acc.y + q.y, z: acc.z + q.z)
            }
            let q = acc.normalized
            out.append(q.w); out.append(q.x); out.append(q.y); out.append(q.z)
        default:
            let m = Double(indices.count)
            for c in 0..<w {
                var s = 0.0
                for i in indices { s += values[i * w + c] }
                out.append(s / m)
            }
        }
    }
}

extension StreamCleaner {
    /// Cleans every stream of `recording` with one policy; metadata, labels and events are
    /// kept. Returns the reports in stream order (what `motus inspect` prints). Throws the
    /// first stream's `SignalError` (its `stream` names which one).
    public static func clean(_ recording: Recording, policy: CleaningPolicy = CleaningPolicy()) throws(SignalError) -> (recording: Recording, reports: [CleaningReport]) {
        var out = recording
        var reports: [CleaningReport] = []
        reports.reserveCapacity(recording.streams.count)
        for i in recording.streams.indices {
            let c = try clean(recording.streams[i], policy: policy)
            out.streams[i] = c.stream
            reports.append(c.report)
        }
        return (out, reports)
    }
}
