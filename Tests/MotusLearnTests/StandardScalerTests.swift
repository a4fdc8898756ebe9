import Testing
@testable import MotusLearn

struct StandardScalerTests {
    @Test func fitsMeanAndPopulationStd() throws {
        // Column 0: 1,2,3,4 → mean 2.5, var 1.25. Column 1 constant 7. Column 2: 0,0,0,8 → mean 2, var 12.
        let x = try Matrix([[1, 7, 0], [2, 7, 0], [3, 7, 0], [4, 7, 8]])
        let s = try StandardScaler(fitting: x)
        #expect(s.mean == [2.5, 7, 2])
        #expect(abs(s.scale[0] - 1.25.squareRoot()) < 1e-15)
        #expect(s.scale[1] == 1)   // zero variance → 1
        #expect(abs(s.scale[2] - 12.0.squareRoot()) < 1e-15)
        let t = try s.transform(x)
        #expect(abs(t[0, 0] - (-1.5 / 1.25.squareRoot())) < 1e-15)
        #expect((0..<4).allSatisfy { t[$0, 1] == 0 })
        // Columns of the output have mean 0 and (non-constant) population variance 1.
        for j in [0, 2] {
            let col = t.column(j)
            let m = col.reduce(0, +) / 4
            let v = col.reduce(0) { $0 + ($1 - m) * ($1 - m) } / 4
            #expect(abs(m) < 1e-15 && abs(v - 1) < 1e-12)
        }
        let back = try s.inverseTransform(t)
        #expect(maxAbsDiff(back.values, x.values) < 1e-12)
    }

    @Test func nearlyConstantColumnIsNotBlownUp() throws {
        // 0.1 summed ten times is not exactly 1: the rounding noise must not become unit variance.
        let x = Matrix(rows: 10, cols: 1, repeating: 0.1)
        let s = try StandardScaler(fitting: x)
        #expect(s.scale == [1])
        let t = try s.transform(x)
        #expect(t.values.allSatisfy { abs($0) < 1e-15 })
    }

    @Test func rowTransformEqualsBatchBitForBit() throws {
        let x = randomMatrix(30, 5, seed: 3)
        let s = try StandardScaler(fitting: x)
        let t = try s.transform(x)
        for i in 0..<30 {
            var r = x.row(i)
            s.transform(row: &r)
            #expect(r == t.row(i))
        }
    }

    @Test func codableAndErrors() throws {
        let s = try StandardScaler(fitting: randomMatrix(10, 3, seed: 4))
        let back = try JSONEncoderLite.decode(StandardScaler.self, from: JSONEncoderLite.encode(s))
        #expect(back == s)
        #expect(throws: LearnError.shapeMismatch(what: "StandardScaler.transform X", expected: "3 columns", found: "2 columns")) {
            _ = try s.transform(randomMatrix(4, 2, seed: 1))
        }
        #expect(throws: LearnError.notEnoughData(what: "StandardScaler.fit", expected: "at least 1 row", found: "0 rows")) {
            _ = try StandardScaler(fitting: Matrix(rows: 0, cols: 3))
        }
        var bad = randomMatrix(3, 3, seed: 2)
        bad[1, 2] = .nan
        #expect(throws: LearnError.nonFinite(what: "X", row: 1, column: 2)) { _ = try StandardScaler(fitting: bad) }
        #expect(throws: LearnError.self) { _ = try StandardScaler(mean: [0, 0], scale: [1, 0]) }
    }
}
