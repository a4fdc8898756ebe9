/// Peaks of a sampled signal with the rules of scipy's `find_peaks`: local maxima (the middle
/// of a flat top), thinned by a minimum distance (the higher peak wins), then kept when their
/// prominence reaches a minimum.
public enum Peaks {
    /// Indices of the local maxima of `x`, in order: samples higher than the one before and at
    /// least as high as the next ones up to the first lower one (a flat top gives its middle
    /// sample, rounded down). The first and last samples are never peaks.
    public static func localMaxima(_ x: [Double]) -> [Int] {
        var out: [Int] = []
        var i = 1
        let last = x.count - 1
        while i < last {
            if x[i - 1] < x[i] {
                var ahead = i + 1
                while ahead < last && x[ahead] == x[i] { ahead += 1 }
                if x[ahead] < x[i] {
                    out.append((i + ahead - 1) / 2)
                    i = ahead
                    continue
                }
            }
            i += 1
        }
        return out
    }

    /// The prominence of the peak at index `p` of `x`: how far it stands above the higher of
    /// the two lowest points between it and the nearest higher sample on each side (or the
    /// signal's end).
    public static func prominence(of p: Int, in x: [Double]) -> Double {
        let h = x[p]
        var leftMin = h, i = p
        while i >= 0 && x[i] <= h { leftMin = Swift.min(leftMin, x[i]); i -= 1 }
        var rightMin = h
        i = p
        while i < x.count && x[i] <= h { rightMin = Swift.min(rightMin, x[i]); i += 1 }
        return h - Swift.max(leftMin, rightMin)
    }

    /// The peaks of `x` at least `minimumDistance` samples apart (of two closer ones the higher
    /// stays) with a prominence of at least `minimumProminence`, as indices in order.
    public static func find(_ x: [Double], minimumDistance: Int, minimumProminence: Double) -> [Int] {
        find(x, minimumDistance: minimumDistance, minimumProminence: { _ in minimumProminence })
    }

    /// The same with a minimum prominence of its own for each peak (`minimumProminence` of the
    /// peak's index), applied after the thinning by distance, as a single minimum is.
    public static func find(_ x: [Double], minimumDistance: Int, minimumProminence: (Int) -> Double) -> [Int] {
        let peaks = localMaxima(x)
        var keep = [Bool](repeating: true, count: peaks.count)
        if minimumDistance > 1 {
            // Highest first; equal heights keep the earlier one.
            let order = peaks.indices.sorted { x[peaks[$0]] != x[peaks[$1]] ? x[peaks[$0]] > x[peaks[$1]] : $0 < $1 }
            for j in order where keep[j] {
                var k = j - 1
                while k >= 0 && peaks[j] - peaks[k] < minimumDistance { keep[k] = false; k -= 1 }
                k = j + 1
                while k < peaks.count && peaks[k] - peaks[j] < minimumDistance { keep[k] = false; k += 1 }
            }
        }
        return peaks.indices.filter { keep[$0] && prominence(of: peaks[$0], in: x) >= minimumProminence(peaks[$0]) }.map { peaks[$0] }
    }
}
