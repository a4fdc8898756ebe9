import MotusCore
@testable import MotusFeatures

/// Naive, obviously-right implementations of every feature, straight from the definitions
/// in `Feature` (O(N²) DFT, full sorts, arrays everywhere).
enum Reference {
    static func percentile(_ xs: [Double], _ q: Double) -> Double {
        let s = xs.sorted()
        let h = Double(s.count - 1) * q
        let i = Int(h.rounded(.down))
        if i + 1 >= s.count { return s[s.count - 1] }
        return s[i] + (h - Double(i)) * (s[i + 1] - s[i])
    }

    /// Features of one channel window, in `Feature.allCases` order with bands expanded.
    static func channelFeatures(_ x: [Double], configuration: FeatureConfiguration) -> [Double] {
        let n = x.count, fn = Double(n), rate = configuration.rateHz
        let mean = x.reduce(0, +) / fn
        let lo = x.min()!, hi = x.max()!
        let constant = lo == hi
        let d = x.map { constant ? 0 : $0 - mean }
        let m2 = d.map { $0 * $0 }.reduce(0, +) / fn
        let m3 = d.map { $0 * $0 * $0 }.reduce(0, +) / fn
        let m4 = d.map { $0 * $0 * $0 * $0 }.reduce(0, +) / fn
        let std = m2.squareRoot()
        let skew = constant ? 0 : m3 / Math.pow(m2, 1.5)
        let kurt = constant ? 0 : m4 / (m2 * m2) - 3
        var crossings = 0
        for i in 0..<(n - 1) where (d[i] < 0) != (d[i + 1] < 0) { crossings += 1 }
        // Autocorrelation.
        var acfPeak = 0.0, acfLag = 0.0
        if !constant, let lags = configuration.lagRange {
            let e = d.map { $0 * $0 }.reduce(0, +)
            func r(_ k: Int) -> Double { (0..<(n - k)).map { d[$0] * d[$0 + k] }.reduce(0, +) / e }
            var best: Double? = nil
            for k in lags where r(k) > r(k - 1) && r(k) >= r(k + 1) {
                if best == nil || r(k) > best! { best = r(k); acfPeak = r(k); acfLag = Double(k) / rate }
            }
        }
        // Spectrum by a naive DFT of the mean-removed, Hann-windowed, zero-padded window.
        let m = configuration.fftLength, half = m / 2
        var y = [Double](repeating: 0, count: m)
        for i in 0..<n { y[i] = d[i] * (0.5 - 0.5 * Math.cos(2 * Double.pi * Double(i) / fn)) }
        var p = [Double](repeating: 0, count: half + 1)
        for k in 1...half {
            var re = 0.0, im = 0.0
            for i in 0..<m {
                let a = -2 * Double.pi * Double(k * i % m) / Double(m)
                re += y[i] * Math.cos(a); im += y[i] * Math.sin(a)
            }
            p[k] = re * re + im * im
        }
        let total = p[1...].reduce(0, +)
        var dom = 0.0, entropy = 0.0
        var bands = [Double](repeating: 0, count: configuration.bandCount)
        if total > 0 && !constant {
            let k = (1...half).max { p[$0] < p[$1] }!
            var delta = 0.0
            if k > 1 && k < half {
                let den = p[k - 1] - 2 * p[k] + p[k + 1]
                if den < 0 { delta = 0.5 * (p[k - 1] - p[k + 1]) / den }
            }
            dom = (Double(k) + delta) * rate / Double(m)
            var h = 0.0
            for k in 1...half where p[k] > 0 { let q = p[k] / total; h -= q * Math.log(q) }
            entropy = h / Math.log(Double(half))
            let edges = configuration.bandEdgesHz
            for k in 1...half {
                let f = Double(k) * rate / Double(m)
                for b in bands.indices where f >= edges[b] && (f < edges[b + 1] || (b == bands.count - 1 && f == edges[b + 1])) {
                    bands[b] += p[k] / total
                }
            }
        }
        var out: [Double] = []
        for f in configuration.features {
            switch f {
            case .mean: out.append(mean)
            case .standardDeviation: out.append(std)
            case .minimum: out.append(lo)
            case .maximum: out.append(hi)
            case .range: out.append(hi - lo)
            case .median: out.append(percentile(x, 0.5))
            case .interquartileRange: out.append(percentile(x, 0.75) - percentile(x, 0.25))
            case .rms: out.append((x.map { $0 * $0 }.reduce(0, +) / fn).squareRoot())
            case .skewness: out.append(skew)
            case .kurtosis: out.append(kurt)
            case .meanCrossingRate: out.append(Double(crossings) / Double(n - 1))
            case .signalMagnitudeArea: out.append(x.map { abs($0) }.reduce(0, +) / fn)
            case .autocorrelationPeak: out.append(acfPeak)
            case .autocorrelationLag: out.append(acfLag)
            case .dominantFrequency: out.append(dom)
            case .bandEnergy: out += bands
            case .spectralEntropy: out.append(entropy)
            }
        }
        return out
    }

    static func pearson(_ a: [Double], _ b: [Double]) -> Double {
        if a.min()! == a.max()! || b.min()! == b.max()! { return 0 }
        let n = Double(a.count)
        let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for i in a.indices { sab += (a[i] - ma) * (b[i] - mb); saa += (a[i] - ma) * (a[i] - ma); sbb += (b[i] - mb) * (b[i] - mb) }
        return sab / (saa * sbb).squareRoot()
    }

    /// The whole feature vector of one window given each channel's values.
    static func window(_ channels: [[Double]], configuration: FeatureConfiguration) -> [Double] {
        var out: [Double] = []
        for x in channels { out += channelFeatures(x, configuration: configuration) }
        for p in configuration.correlations {
            let a = configuration.channels.firstIndex(of: p.first)!, b = configuration.channels.firstIndex(of: p.second)!
            out.append(pearson(channels[a], channels[b]))
        }
        return out
    }
}


/// |a − b| ≤ rel × max(|a|, |b|) + abs.
func close(_ a: Double, _ b: Double, rel: Double = 1e-9, abs absTol: Double = 1e-12) -> Bool {
    abs(a - b) <= rel * max(abs(a), abs(b)) + absTol
}
