import Foundation
import Testing
import Motus

/// The snippet of README.md's "Embed Motus in an app" and of MotusTracking's DocC article of
/// that name, kept compiling and true: the test below holds the same lines, fed with the
/// bundled iPhone walk in CoreMotion's units.
@Suite struct EmbedExampleTests {
    @Test func embedSnippetRunsOnARealWalk() throws {
        let recording = try RecordingLoader.load(path: CLI.root + "/datasets/iphone-belt-stand-then-walk.motus")
        var shown: [String] = []
        func show(_ line: String) { shown.append(line) }

        // --- the snippet ---
        var session = MotionSession()                    // on foot, the shipped moving/still model
        // Each CMDeviceMotion update: seconds since boot; g, CoreMotion's sign; rad/s.
        func deviceMotion(_ t: Double, userAccelerationG: Vector3, gravityG: Vector3,
                          rotationRate: Vector3, attitude: Quaternion) {
            CoreMotionAdapter.deviceMotion(timestamp: t, userAccelerationG: userAccelerationG, gravityG: gravityG,
                                           rotationRateRadiansPerSecond: rotationRate, attitude: attitude)
                .forEach { session.push($0) }
            while let event = session.nextEvent() {                         // events, oldest first
                switch event {
                case .resumed(let change): show("moving since \(change.time) s (\(change.cause))")
                case .paused(let change): show("still since \(change.time) s")
                case .split(let split): show("split \(split.index): \(formatPace(split.paceSecondsPerKm))")
                default: break
                }
            }
            let now = session.snapshot                                      // the live figures
            show("\(now.steps) steps, \(Int(now.distanceMeters)) m, \(formatPace(now.currentPaceSecondsPerKm))")
        }
        // --- the recording, as CoreMotion would deliver it: one update per user-acceleration
        // sample with the latest gravity and rotation rate, in g and CoreMotion's sign ---
        var gravity: Vector3? = nil, rotation: Vector3? = nil
        recording.forEachSample(kinds: [.gravity, .rotationRate, .userAcceleration]) { sample in
            switch sample {
            case .gravity(let g): gravity = g.value
            case .rotationRate(let w): rotation = w.value
            case .userAcceleration(let u):
                guard let g = gravity, let w = rotation else { return }
                deviceMotion(u.time, userAccelerationG: CoreMotionAdapter.accelerationInG(u.value),
                             gravityG: CoreMotionAdapter.accelerationInG(g), rotationRate: w, attitude: .identity)
            default: break
            }
        }
        // When the workout ends: an unconfirmed provisional resume is taken back, the last steps counted.
        session.finish()
        show("\(session.snapshot.steps) steps in all")
        // --- end of the snippet ---

        #expect(session.snapshot.steps > 30, "the U-turn walk: \(session.snapshot.steps) steps")
        #expect(shown.contains { $0.hasPrefix("moving since") })
        #expect(shown.last?.contains("\(session.snapshot.steps) steps") == true)

        // The same lines, in the same order, in the README and in the article.
        let mine = try String(contentsOfFile: #filePath, encoding: .utf8)
        for path in ["README.md", "Sources/MotusTracking/MotusTracking.docc/EmbedInAnApp.md"] {
            let text = try String(contentsOfFile: CLI.root + "/" + path, encoding: .utf8)
            guard let block = Self.firstSwiftBlock(in: text, after: "Embed Motus in an app") else {
                Issue.record("\(path): no ```swift block after the heading 'Embed Motus in an app'"); continue
            }
            var rest = Substring(mine)
            for line in block where line != "import Motus" {
                guard let r = rest.range(of: line) else { Issue.record("\(path): not in the test (or out of order): \(line)"); break }
                rest = rest[r.upperBound...]
            }
            #expect(block.count >= 15 && block.count <= 25, "\(path): about twenty lines, has \(block.count)")
        }
    }

    /// The trimmed, non-empty lines of the first ```swift block after `heading`.
    static func firstSwiftBlock(in text: String, after heading: String) -> [String]? {
        guard let h = text.range(of: heading), let open = text.range(of: "```swift\n", range: h.upperBound..<text.endIndex),
              let close = text.range(of: "\n```", range: open.upperBound..<text.endIndex) else { return nil }
        return text[open.upperBound..<close.lowerBound].split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
