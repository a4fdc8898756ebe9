/// Standardises each column to zero mean and unit variance: `(x - mean) / scale`.
///
/// `scale` is the population standard deviation (divide by n, as scikit-learn). A column whose
/// standard deviation is zero (or lost in rounding: below `10 ε · max(|mean|, 1)`) gets scale 1,
/// so it transforms to (nearly) zero instead of dividing by zero. The state is plain data and Codable.
public struct StandardScaler: Codable, Equatable, Hashable, Sendable {
    /// Per-column mean.
    public private(set) var mean: [Double]
    /// Per-column divisor (standard deviation, or 1 for constant columns).
    public private(set) var scale: [Double]

    /// Number of columns it scales.
    public var featureCount: Int { mean.count }

    /// Restores a scaler from its file form through the same checks as `init(mean:scale:)`
    /// (equal lengths, finite means, finite positive scales), so a damaged model file is an
    /// error instead of a scaler that shifts every feature.
    public init(from decoder: any Decoder) throws {
        enum Key: String, CodingKey { case mean, scale }
        let c = try decoder.container(keyedBy: Key.self)
        let mean = try c.decode([Double].self, forKey: .mean), scale = try c.decode([Double].self, forKey: .scale)
        do { try self.init(mean: mean, scale: scale) } catch {
            throw DecodingError.dataCorruptedError(forKey: .scale, in: c, debugDescription: "\(error)")
        }
    }

    /// A scaler with known parameters (e.g. restored from a model file).
    public init(mean: [Double], scale: [Double]) throws {
        guard mean.count == scale.count else {
            throw LearnError.shapeMismatch(what: "StandardScaler", expected: "mean and scale of equal length",
                                           found: "\(mean.count) means, \(scale.count) scales")
        }
        for (j, s) in scale.enumerated() where !(s.isFinite && s > 0) {
            throw LearnError.invalidParameter(name: "StandardScaler.scale[\(j)]", expected: "a finite positive number", found: "\(s)")
        }
        for (j, m) in mean.enumerated() where !m.isFinite {
            throw LearnError.invalidParameter(name: "StandardScaler.mean[\(j)]", expected: "a finite number", found: "\(m)")
        }
        self.mean = mean
        self.scale = scale
    }

    /// Learns mean and scale of each column of `x` (two passes, for accuracy).
    public init(fitting x: Matrix) throws {
        guard x.rows > 0 else {
            throw LearnError.notEnoughData(what: "StandardScaler.fit", expected: "at least 1 row", found: "0 rows")
        }
        if let bad = x.firstNonFinite() { throw LearnError.nonFinite(what: "X", row: bad.row, column: bad.col) }
        let n = x.rows, d = x.cols
        var mean = [Double](repeating: 0, count: d)
        var sq = [Double](repeating: 0, count: d)
        x.values.withUnsafeBufferPointer { v in
            for i in 0..<n {
                let r = i * d
                for j in 0..<d { mean[j] += v[r + j] }
            }
            for j in 0..<d { mean[j] /= Double(n) }
            for i in 0..<n {
                let r = i * d
                for j in 0..<d {
                    let e = v[r + j] - mean[j]
                    sq[j] += e * e
                }
            }
        }
        var scale = [Double](repeating: 1, count: d)
        for j in 0..<d {
            let s = (sq[j] / Double(n)).squareRoot()
            scale[j] = s <= 10 * Double.ulpOfOne * max(abs(mean[j]), 1) ? 1 : s
        }
        self.mean = mean
        self.scale = scale
    }

    /// `(x - mean) / scale`, column by column.
    public func transform(_ x: Matrix) throws -> Matrix {
        var out = x
        try transform(inPlace: &out)
        return out
    }

    /// Standardises `x` in place.
    public func transform(inPlace x: inout Matrix) throws {
        guard x.cols == mean.count else {
            throw LearnError.shapeMismatch(what: "StandardScaler.transform X", expected: "\(mean.count) columns", found: "\(x.cols) columns")
        }
        let d = x.cols, n = x.rows
        // Division (not multiplication by 1/scale) so batch and `transform(row:)` agree bit for bit.
        x.withUnsafeMutableBufferPointer { v in
            for i in 0..<n {
                let r = i * d
                for j in 0..<d { v[r + j] = (v[r + j] - mean[j]) / scale[j] }
            }
        }
    }

    /// Standardises one feature vector in place (for streaming use; allocates nothing).
    @inlinable
    public func transform(row: inout [Double]) {
        precondition(row.count == mean.count, "StandardScaler: feature vector has the wrong length")
        for j in 0..<row.count { row[j] = (row[j] - mean[j]) / scale[j] }
    }

    /// `x * scale + mean`.
    public func inverseTransform(_ x: Matrix) throws -> Matrix {
        guard x.cols == mean.count else {
            throw LearnError.shapeMismatch(what: "StandardScaler.inverseTransform X", expected: "\(mean.count) columns", found: "\(x.cols) columns")
        }
        var out = x
        let d = x.cols
        out.withUnsafeMutableBufferPointer { v in
            for i in 0..<x.rows {
                for j in 0..<d { v[i * d + j] = v[i * d + j] * scale[j] + mean[j] }
            }
        }
        return out
    }
}
