#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes to file descriptor 2 directly (unbuffered, no shared C `stderr` global).
func fwriteStderr(_ p: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = p.baseAddress else { return 0 }
    #if canImport(Darwin)
    return Darwin.write(2, base, p.count)
    #elseif canImport(Glibc)
    return Glibc.write(2, base, p.count)
    #else
    return Musl.write(2, base, p.count)
    #endif
}
