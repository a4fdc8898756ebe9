import Testing
@testable import MotusCore

@Suite struct VectorQuaternionTests {
    @Test func rotationAboutZ() {
        let q = Quaternion(axis: Vector3(0, 0, 1), angle: Double.pi / 2)
        let v = q.rotate(Vector3(1, 0, 0))
        #expect(abs(v.x) < 1e-12 && abs(v.y - 1) < 1e-12 && abs(v.z) < 1e-12)
        let back = q.inverseRotate(v)
        #expect(abs(back.x - 1) < 1e-12)
    }

    @Test func rotateMatchesHamiltonProduct() {
        let q = Quaternion(w: 0.3, x: -0.5, y: 0.7, z: 0.1).normalized
        let v = Vector3(0.2, -1.3, 2.5)
        let p = q * Quaternion(w: 0, x: v.x, y: v.y, z: v.z) * q.conjugate
        let r = q.rotate(v)
        #expect(abs(p.x - r.x) < 1e-12 && abs(p.y - r.y) < 1e-12 && abs(p.z - r.z) < 1e-12 && abs(p.w) < 1e-12)
    }

    @Test func slerpEndpointsAndMidpoint() {
        let a = Quaternion.identity, b = Quaternion(axis: Vector3(1, 0, 0), angle: 1.0)
        #expect(Quaternion.slerp(a, b, 0).angle(to: a) < 1e-9)
        #expect(Quaternion.slerp(a, b, 1).angle(to: b) < 1e-7)
        #expect(abs(Quaternion.slerp(a, b, 0.5).angle(to: a) - 0.5) < 1e-9)
    }

    @Test func angleBetweenVectors() {
        #expect(abs(Vector3(1, 0, 0).angle(to: Vector3(0, 1, 0)) - Double.pi / 2) < 1e-15)
        #expect(Vector3(1, 1, 1).angle(to: Vector3(2, 2, 2)) < 1e-15)
    }
}

@Suite struct ControlCharacterTests {
    @Test func controlCharactersBecomeVisibleEscapes() {
        #expect("plain text, ünïcode ✓".escapingControlCharacters == "plain text, ünïcode ✓")
        #expect("\u{1B}]0;pwned\u{07}".escapingControlCharacters == "\\u{1B}]0;pwned\\u{7}")
        #expect("a\nb\rc\td".escapingControlCharacters == "a\\u{A}b\\u{D}c\\u{9}d")
        #expect("\u{7F}\u{9B}\u{202E}".escapingControlCharacters == "\\u{7F}\\u{9B}\\u{202E}")
    }

    @Test func inputErrorsStayOneVisibleLine() {
        let e = InputError(.badNumber, at: SourceLocation(file: "evil\u{1B}[2J.csv", line: 3, column: 4),
                           found: "1\n\u{1B}]0;title\u{07}", expected: "a number")
        #expect(e.description == "evil\\u{1B}[2J.csv:3:4: found '1\\u{A}\\u{1B}]0;title\\u{7}', expected a number")
        #expect(!e.description.unicodeScalars.contains { $0.value < 0x20 })
    }
}
