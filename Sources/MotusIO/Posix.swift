#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few POSIX calls Motus's file code makes, under names that no method shadows.
public enum Posix {
    /// `read(2)`: reads up to `n` bytes from `fd` into `p`; the count read, 0 at the end, or −1
    /// with `errno` set.
    @inlinable @inline(__always) public static func read(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(fd, p, n)
        #elseif canImport(Glibc)
        Glibc.read(fd, p, n)
        #else
        Musl.read(fd, p, n)
        #endif
    }
    /// `write(2)`: writes up to `n` bytes from `p` to `fd`; the count written, or −1 with `errno` set.
    @inlinable @inline(__always) public static func write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(fd, p, n)
        #elseif canImport(Glibc)
        Glibc.write(fd, p, n)
        #else
        Musl.write(fd, p, n)
        #endif
    }
    /// `close(2)`: closes `fd`; 0, or −1 with `errno` set.
    @inlinable @inline(__always) public static func close(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(fd)
        #elseif canImport(Glibc)
        Glibc.close(fd)
        #else
        Musl.close(fd)
        #endif
    }
}
