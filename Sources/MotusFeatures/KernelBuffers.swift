/// Scratch memory and tables of one `WindowKernel`, allocated once (raw pointers, so the
/// per-window code has no array bounds checks or uniqueness checks). A kernel that finds its
/// buffers shared (the kernel was copied) makes its own before writing.
final class KernelBuffers: @unchecked Sendable {
    let doubles: UnsafeMutablePointer<Double>
    let floats: UnsafeMutablePointer<Float>
    let ints: UnsafeMutablePointer<Int>
    let vectors: UnsafeMutablePointer<SIMD2<Double>>
    let doubleCount: Int, floatCount: Int, intCount: Int, vectorCount: Int

    init(doubles: Int, floats: Int, ints: Int, vectors: Int = 0) {
        doubleCount = doubles; floatCount = floats; intCount = ints; vectorCount = vectors
        self.vectors = .allocate(capacity: max(1, vectors)); self.vectors.initialize(repeating: .zero, count: max(1, vectors))
        self.doubles = .allocate(capacity: max(1, doubles)); self.doubles.initialize(repeating: 0, count: max(1, doubles))
        self.floats = .allocate(capacity: max(1, floats)); self.floats.initialize(repeating: 0, count: max(1, floats))
        self.ints = .allocate(capacity: max(1, ints)); self.ints.initialize(repeating: 0, count: max(1, ints))
    }

    func copy() -> KernelBuffers {
        let b = KernelBuffers(doubles: doubleCount, floats: floatCount, ints: intCount, vectors: vectorCount)
        b.doubles.update(from: doubles, count: doubleCount)
        b.floats.update(from: floats, count: floatCount)
        b.ints.update(from: ints, count: intCount)
        return b
    }

    deinit { doubles.deallocate(); floats.deallocate(); ints.deallocate(); vectors.deallocate() }
}
