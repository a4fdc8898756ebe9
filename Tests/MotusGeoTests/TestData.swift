func rel(_ a: Double, _ b: Double) -> Double { abs(a - b) / abs(b) }
