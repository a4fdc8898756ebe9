import MotusTestSupport
import Testing
import Foundation
@testable import MotusIO
import MotusCore

/// The parallel whole-file native reader must give exactly what one sequential pass gives, and
/// must hand every unusual file (and every error) back to that pass.
@Suite struct NativeParallelTests {
    func sequential(_ path: String, _ o: NativeReadOptions = .init()) -> Result<Recording, InputError> {
        var b = RecordingBuilder()
        do { try NativeFormat.scan(path: path, into: &b, options: o); return .success(b.recording) } catch { return .failure(error) }
    }

    /// The parallel result, or nil when the reader declined (the one-thread pass decides).
    func parallel(_ path: String, _ o: NativeReadOptions = .init(), workers: Int) throws -> Recording? {
        try NativeFormat.readParallel(path: path, options: o, workers: workers, minimumBytes: 1024)
    }

    /// A recording with three streams at different rates, labels and events in the middle,
    /// comments and blank lines; `extra` lines are inserted before sample `at`.
    static func native(samples: Int, seed: UInt64, insert: [(at: Int, line: String)] = []) -> String {
        var rng = SplitMix64(seed: seed)
        var s = "#motus,1\n@meta,device,\"test, phone\"\n@meta,height_m,1.8\n# a comment\n"
        s += "@stream,acc,acc,t_s,x,y,z\n@stream,gyro,gyro,t_s,x,y,z\n@label,0,1.5,\"still\"\n@stream,steps,steps,t_s,count,distance_m\n"
        var t = 10.0
        func num() -> String { String((rng.uniform() - 0.5) * 20) }
        for i in 0..<samples {
            for (at, line) in insert where at == i { s += line + "\n" }
            t += 0.01 + (rng.uniform() - 0.5) * 0.004
            s += "acc,\(t),\(num()),\(num()),\(num())\n"
            if i % 2 == 0 { s += "gyro,\(t + 0.001),\(num()),\(num()),\(num())\n" }
            if i % 50 == 0 { s += "steps,\(t),\(i / 50),\(i % 100 == 0 ? "" : String(Double(i) / 70))\n" }
            if i % 777 == 5 { s += "@label,\(t),\(t + 1),\"walk\"\n@event,\(t),\"step\",\"left\"\n" }
            if i % 1013 == 9 { s += "\n# mid-file comment\n" }
        }
        return s
    }

    @Test(arguments: [2, 3, 8])
    func equalsSequentialRead(workers: Int) throws {
        let p = TestFiles.temp(Self.native(samples: 6000, seed: UInt64(workers)), name: "r.motus")
        let q = try #require(try parallel(p, workers: workers), "the parallel reader should take a plain file")
        guard case .success(let s) = sequential(p) else { Issue.record("sequential read failed"); return }
        #expect(q == s)
        #expect(q.stream(.acceleration)?.count == 6000)
        #expect(q.labels.count > 5 && q.events.count > 5 && q.metadata.device == "test, phone")
        // And through the public entry point, with a kinds filter.
        let o = NativeReadOptions(kinds: [.rotationRate, .stepCounter])
        let filtered = try #require(try parallel(p, o, workers: workers))
        guard case .success(let sf) = sequential(p, o) else { Issue.record("sequential filtered read failed"); return }
        #expect(filtered == sf && filtered.stream(.acceleration) == nil)
    }

    @Test func smallFilesAndTruncatedTailReadsStayOnOneThread() throws {
        let p = TestFiles.temp(Self.native(samples: 6000, seed: 1), name: "r.motus")
        #expect(try NativeFormat.readParallel(path: p, options: .init(), workers: 2) == nil)   // under 4 MiB
        #expect(try parallel(p, NativeReadOptions(allowTruncatedTail: true), workers: 2) == nil)
        #expect(try parallel(p, workers: 1) == nil)
    }

    /// A stream declared or metadata changed after the first sample, or a directive the
    /// data ranges do not handle: the reader declines and the sequential pass reads it.
    @Test(arguments: ["@stream,grav,grav,t_s,x,y,z\ngrav,11,0,0,9.8", "@meta,subject,\"s2\"", "@bogus,1"])
    func unusualDirectivesGoSequential(line: String) throws {
        let p = TestFiles.temp(Self.native(samples: 6000, seed: 4, insert: [(4500, line)]), name: "r.motus")
        #expect(try parallel(p, workers: 2) == nil)
        let s = sequential(p)
        // Through the public reader: the same result or the same error as the sequential pass.
        switch (Result { () throws(InputError) -> Recording in try NativeFormat.read(path: p) }, s) {
        case (.success(let a), .success(let b)): #expect(a == b)
        case (.failure(let a), .failure(let b)): #expect(a == b)
        default: Issue.record("public read and sequential pass disagree")
        }
    }

    /// Errors anywhere (bad number, missing field, time going back across a chunk border)
    /// come out exactly as the sequential pass reports them.
    @Test(arguments: [100, 3100, 5900])
    func errorsAreTheSequentialPassErrors(row: Int) throws {
        for bad in ["acc,\(10.0 + Double(row) * 0.01),1,2,x", "acc,\(10.0 + Double(row) * 0.01),1,2", "acc,0.5,1,2,3"] {
            let p = TestFiles.temp(Self.native(samples: 6000, seed: 9, insert: [(row, bad)]), name: "r.motus")
            #expect(try parallel(p, workers: 2) == nil, "\(bad)")
            guard case .failure(let expected) = sequential(p) else { Issue.record("no sequential error for \(bad)"); continue }
            do {
                _ = try NativeFormat.read(path: p)
                Issue.record("no error for \(bad)")
            } catch {
                #expect(error == expected)
                #expect(error.location.line > 0)
            }
        }
    }

    /// A time that steps back by less than the tolerance across the border is accepted, as
    /// the sequential pass accepts it.
    @Test func backwardsWithinToleranceAcrossBorders() throws {
        var text = Self.native(samples: 6000, seed: 3)
        // Make every acc time step back 0.5 s once per 1000 lines, wherever the borders fall.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for i in stride(from: 1000, to: lines.count, by: 1000) where lines[i].hasPrefix("acc,") {
            var f = lines[i].split(separator: ",").map(String.init)
            f[1] = String(Double(f[1])! - 0.5)
            lines[i] = f.joined(separator: ",")
        }
        text = lines.joined(separator: "\n")
        let p = TestFiles.temp(text, name: "r.motus")
        guard case .success(let s) = sequential(p) else { Issue.record("sequential read failed"); return }
        for w in [2, 3, 5] {
            let q = try #require(try parallel(p, workers: w))
            #expect(q == s)
        }
    }
}
