import MotusCore

/// DEFLATE (RFC 1951) decompression in plain Swift, with the zlib wrapper (RFC 1950), so that
/// compressed containers (MATLAB v5 `miCOMPRESSED` elements) read the same on every platform
/// without the system zlib.
///
/// Every problem in the input (a bad header, an invalid or over-subscribed Huffman code, a
/// distance reaching before the start of the output, a stream cut short, a wrong Adler-32
/// checksum) throws an `InputError` whose location is the byte of the input where it was
/// found: `SourceLocation.byteOffset(baseOffset + offset, in: file)`, so a caller that
/// passes the file name and the offset of the compressed bytes in that file gets errors that
/// point into the file. Decoding never reads outside the input, and every loop consumes input
/// or produces bounded output, so it always ends.
public enum Inflate {
    /// Decompresses a whole zlib stream (2-byte header, DEFLATE data, Adler-32 of the output).
    /// Bytes after the stream's checksum are ignored.
    ///
    /// - `maxOutputBytes`: the most output accepted; a stream that would produce more throws
    ///   `.badValue` (use it to bound memory on untrusted input).
    /// - `file`, `baseOffset`: where `input` comes from, for error locations.
    public static func zlib(_ input: [UInt8], maxOutputBytes: Int = Int.max, file: String = "<memory>",
                            baseOffset: Int = 0) throws(InputError) -> [UInt8] {
        try input.withUnsafeBufferPointer { (p) throws(InputError) -> [UInt8] in
            try zlib(UnsafeRawBufferPointer(p), maxOutputBytes: maxOutputBytes, file: file, baseOffset: baseOffset)
        }
    }

    /// `zlib(_:)` on bytes in memory that the caller keeps alive.
    public static func zlib(_ input: UnsafeRawBufferPointer, maxOutputBytes: Int = Int.max, file: String = "<memory>",
                            baseOffset: Int = 0) throws(InputError) -> [UInt8] {
        var d = Inflater(input: input, limit: maxOutputBytes, stopAtLimit: false, file: file, baseOffset: baseOffset)
        defer { d.release() }
        try d.zlibHeader()
        try d.run()
        try d.adler32Trailer()
        return d.output()
    }

    /// The first `count` bytes of a zlib stream's output (fewer when the stream is shorter),
    /// decoded from as much of the stream as `input` holds: it may be only the start of the
    /// stream. The checksum is not checked. For looking into a compressed element cheaply.
    public static func zlibPrefix(_ input: [UInt8], count: Int, file: String = "<memory>",
                                  baseOffset: Int = 0) throws(InputError) -> [UInt8] {
        try input.withUnsafeBufferPointer { (p) throws(InputError) -> [UInt8] in
            var d = Inflater(input: UnsafeRawBufferPointer(p), limit: max(0, count), stopAtLimit: true, file: file, baseOffset: baseOffset)
            defer { d.release() }
            try d.zlibHeader()
            try d.run()
            return d.output()
        }
    }

    /// Decompresses raw DEFLATE data (no zlib header or checksum). Returns the output and the
    /// number of input bytes the stream used (up to the end of its last block, rounded up to
    /// a whole byte).
    public static func deflate(_ input: [UInt8], maxOutputBytes: Int = Int.max, file: String = "<memory>",
                               baseOffset: Int = 0) throws(InputError) -> (output: [UInt8], consumed: Int) {
        try input.withUnsafeBufferPointer { (p) throws(InputError) -> ([UInt8], Int) in
            var d = Inflater(input: UnsafeRawBufferPointer(p), limit: maxOutputBytes, stopAtLimit: false, file: file, baseOffset: baseOffset)
            defer { d.release() }
            try d.run()
            return (d.output(), d.bytePosition)
        }
    }

    /// Adler-32 (RFC 1950) of `bytes`, continuing from `seed` (1 for a fresh checksum).
    public static func adler32(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 1) -> UInt32 {
        var a = seed & 0xFFFF, b = seed >> 16
        guard let p = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return seed }
        var i = 0
        let n = bytes.count
        // 5552 is the most bytes that can be summed before `b` could pass 2^32 (RFC 1950's NMAX).
        while i < n {
            let end = min(i + 5552, n)
            while i < end {
                a &+= UInt32(p[i]); b &+= a
                i += 1
            }
            a %= 65521; b %= 65521
        }
        return b << 16 | a
    }

    /// Adler-32 (RFC 1950) of `bytes`, from a fresh checksum (seed 1).
    public static func adler32(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { adler32($0) } }
}

// MARK: - Huffman tables

/// A canonical Huffman code as a lookup table indexed by the next `primaryBits` input bits
/// (least significant bit first, as DEFLATE packs codes reversed). An entry is one of:
/// - `symbol << 8 | length` (length 1…15): the code is `length` bits long;
/// - `offset << 8 | 0x80 | subBits`: codes longer than `primaryBits` continue in the subtable
///   at `offset`, indexed by the `subBits` bits after the first `primaryBits`;
/// - 0: no code has these bits (possible in incomplete codes): the input is invalid.
struct HuffmanTable {
    var entries: [UInt32]
    let primaryBits: Int

    /// Whether `lengths` (code lengths 0…15, 0 = unused symbol) describe a valid prefix code:
    /// not over-subscribed. Incomplete codes are allowed; their missing codes decode as errors.
    static func isValid(_ lengths: [UInt8]) -> Bool {
        var count = [Int](repeating: 0, count: 16)
        for l in lengths { count[Int(l)] += 1 }
        var left = 1
        for len in 1...15 {
            left = (left << 1) - count[len]
            if left < 0 { return false }
        }
        return true
    }

    /// Builds the table; `lengths` must pass `isValid` and hold values 0…15.
    init(lengths: [UInt8], primaryBits: Int) {
        self.primaryBits = primaryBits
        var count = [Int](repeating: 0, count: 16)
        for l in lengths { count[Int(l)] += 1 }
        count[0] = 0
        // First canonical code of each length (RFC 1951 section 3.2.2).
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for len in 1...15 {
            code = (code + count[len - 1]) << 1
            next[len] = code
        }
        var reversed = [Int](repeating: 0, count: lengths.count)
        for (sym, l) in lengths.enumerated() where l > 0 {
            let len = Int(l)
            var c = next[len], r = 0
            next[len] += 1
            for _ in 0..<len { r = r << 1 | (c & 1); c >>= 1 }
            reversed[sym] = r
        }
        let size = 1 << primaryBits, mask = size - 1
        // Longest code under each primary prefix decides that prefix's subtable size.
        var longest = [Int](repeating: 0, count: size)
        for (sym, l) in lengths.enumerated() where Int(l) > primaryBits {
            let p = reversed[sym] & mask
            longest[p] = max(longest[p], Int(l))
        }
        var table = [UInt32](repeating: 0, count: size)
        for p in 0..<size where longest[p] > 0 {
            let subBits = longest[p] - primaryBits
            table[p] = UInt32(table.count) << 8 | 0x80 | UInt32(subBits)
            table.append(contentsOf: repeatElement(0, count: 1 << subBits))
        }
        for (sym, l) in lengths.enumerated() where l > 0 {
            let len = Int(l), r = reversed[sym]
            let entry = UInt32(sym) << 8 | UInt32(len)
            if len <= primaryBits {
                var i = r
                while i < size { table[i] = entry; i += 1 << len }
            } else {
                let link = table[r & mask]
                let base = Int(link >> 8), subSize = 1 << Int(link & 0xF)
                var i = r >> primaryBits
                while i < subSize { table[base + i] = entry; i += 1 << (len - primaryBits) }
            }
        }
        entries = table
    }

    /// The fixed literal/length code of block type 1.
    static let fixedLiteral = HuffmanTable(lengths: (0..<288).map { s -> UInt8 in
        s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8
    }, primaryBits: 9)
    /// The fixed distance code of block type 1 (30 and 31 are never valid).
    static let fixedDistance = HuffmanTable(lengths: [UInt8](repeating: 5, count: 30), primaryBits: 5)
}

// MARK: - Decoder

/// Length symbols 257…285: base length in the high bits, extra-bit count in the low 8 bits.
private let lengthCodes: [UInt32] = {
    let base = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    let extra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    return (0..<29).map { UInt32(base[$0]) << 8 | UInt32(extra[$0]) }
}()

/// Distance symbols 0…29, packed the same way.
private let distanceCodes: [UInt32] = {
    let base = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                4097, 6145, 8193, 12289, 16385, 24577]
    return (0..<30).map { UInt32(base[$0]) << 8 | UInt32($0 < 4 ? 0 : $0 / 2 - 1) }
}()

/// Order in which a dynamic block lists the code-length code's lengths.
private let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

/// Decoder state: a 64-bit bit buffer over the input and a growable output buffer, freed by
/// `release()`. Input bits are consumed least significant bit first (RFC 1951 section 3.1.1).
private struct Inflater {
    let input: UnsafeRawBufferPointer
    /// `input`'s bytes (nil when it is empty).
    let bytes: UnsafePointer<UInt8>?
    let inputCount: Int
    let limit: Int
    let stopAtLimit: Bool
    let file: String
    let baseOffset: Int

    var pos = 0                 // next input byte to load into the bit buffer
    var bitBuf: UInt64 = 0
    var bitCount = 0
    var out: UnsafeMutablePointer<UInt8>
    var outCount = 0
    var outCapacity: Int
    var reachedLimit = false

    init(input: UnsafeRawBufferPointer, limit: Int, stopAtLimit: Bool, file: String, baseOffset: Int) {
        self.input = input; self.limit = limit; self.stopAtLimit = stopAtLimit
        bytes = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        inputCount = input.count
        self.file = file; self.baseOffset = baseOffset
        // A first guess at the output size (three times the input, within the limit); doubled as needed.
        outCapacity = max(64, min(limit, input.count.multipliedReportingOverflow(by: 3).partialValue))
        out = .allocate(capacity: outCapacity)
    }

    func release() { out.deallocate() }

    func output() -> [UInt8] { Array(UnsafeBufferPointer(start: out, count: outCount)) }

    /// Offset of the first input byte not yet fully consumed.
    var bytePosition: Int { pos - bitCount / 8 }

    func fail(_ reason: InputError.Reason, at offset: Int? = nil, found: String, expected: String) -> InputError {
        InputError(reason, at: .byteOffset(baseOffset + (offset ?? bytePosition), in: file),
                   found: found, expected: expected)
    }

    func truncated(_ what: String) -> InputError {
        fail(.truncated, at: input.count, found: "end of data after \(input.count) bytes", expected: what)
    }

    @inline(__always) mutating func refill() {
        guard let b = bytes else { return }
        while bitCount <= 56 && pos < inputCount {
            bitBuf |= UInt64(b[pos]) << UInt64(bitCount)
            pos += 1
            bitCount += 8
        }
    }

    /// The next `n` bits (n ≤ 32) as a number.
    @inline(__always) mutating func bits(_ n: Int, _ what: @autoclosure () -> String) throws(InputError) -> Int {
        if bitCount < n {
            refill()
            if bitCount < n { throw truncated(what()) }
        }
        let v = Int(truncatingIfNeeded: bitBuf & ((1 << UInt64(n)) - 1))
        bitBuf >>= UInt64(n)
        bitCount -= n
        return v
    }

    mutating func zlibHeader() throws(InputError) {
        guard input.count >= 2 else { throw truncated("a 2-byte zlib header") }
        let cmf = Int(input[0]), flg = Int(input[1])
        let hex = String(cmf * 256 + flg, radix: 16)
        guard cmf & 0x0F == 8 else {
            throw fail(.badHeader, at: 0, found: "0x\(hex)", expected: "a zlib header with method 8 (deflate)")
        }
        guard cmf >> 4 <= 7 else {
            throw fail(.badHeader, at: 0, found: "0x\(hex)", expected: "a zlib window size of at most 32 KiB")
        }
        guard (cmf * 256 + flg) % 31 == 0 else {
            throw fail(.badHeader, at: 0, found: "0x\(hex)", expected: "a zlib header whose check bits make it a multiple of 31")
        }
        guard flg & 0x20 == 0 else {
            throw fail(.badHeader, at: 1, found: "0x\(hex)", expected: "a zlib stream without a preset dictionary")
        }
        pos = 2
    }

    mutating func adler32Trailer() throws(InputError) {
        // Drop the bits up to the byte boundary; the next four bytes are the checksum.
        let at = bytePosition
        bitBuf = 0; bitCount = 0; pos = at
        guard input.count - at >= 4 else { throw truncated("the 4-byte Adler-32 checksum") }
        let stored = UInt32(input[at]) << 24 | UInt32(input[at + 1]) << 16 | UInt32(input[at + 2]) << 8 | UInt32(input[at + 3])
        let computed = Inflate.adler32(UnsafeRawBufferPointer(start: out, count: outCount))
        guard stored == computed else {
            throw fail(.badValue, at: at, found: "Adler-32 0x\(String(stored, radix: 16))",
                       expected: "0x\(String(computed, radix: 16)), the checksum of the \(outCount) bytes decoded")
        }
        pos = at + 4
    }

    /// Decodes blocks until the last one (or until the output limit when `stopAtLimit`).
    mutating func run() throws(InputError) {
        var last = false
        while !last && !reachedLimit {
            let header = try bits(3, "a block header")
            last = header & 1 == 1
            switch header >> 1 {
            case 0: try storedBlock()
            case 1: try huffmanBlock(HuffmanTable.fixedLiteral, HuffmanTable.fixedDistance)
            case 2:
                let (lit, dist) = try dynamicTables()
                try huffmanBlock(lit, dist)
            default:
                throw fail(.badValue, found: "block type 3", expected: "a block type 0, 1 or 2 (stored, fixed or dynamic Huffman)")
            }
        }
    }

    /// Makes room for `n` more output bytes; returns how many may be written (fewer than `n`
    /// only when stopping at the limit).
    mutating func reserve(_ n: Int) throws(InputError) -> Int {
        var n = n
        if n > limit - outCount {
            guard stopAtLimit else {
                throw fail(.badValue, found: "more than \(limit) bytes of output", expected: "at most \(limit) bytes (the limit set)")
            }
            n = limit - outCount
            reachedLimit = true
        }
        if outCount + n > outCapacity {
            var c = outCapacity
            while c < outCount + n { c = c > limit / 2 ? limit : c * 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
            grown.update(from: out, count: outCount)
            out.deallocate()
            out = grown
            outCapacity = c
        }
        return n
    }

    mutating func storedBlock() throws(InputError) {
        _ = try bits(bitCount % 8, "")   // to the byte boundary
        let start = bytePosition
        let len = try bits(16, "a stored block's length"), nlen = try bits(16, "a stored block's length check")
        guard len == nlen ^ 0xFFFF else {
            throw fail(.badValue, at: start, found: "LEN \(len), NLEN \(nlen)", expected: "NLEN to be the ones' complement of LEN")
        }
        var left = try reserve(len)   // fewer than `len` only when stopping at the limit
        // Bytes already in the bit buffer first, then straight from the input.
        while left > 0 && bitCount >= 8 {
            out[outCount] = UInt8(truncatingIfNeeded: bitBuf)
            bitBuf >>= 8; bitCount -= 8; outCount += 1; left -= 1
        }
        if left > 0 {
            guard input.count - pos >= left else { throw truncated("\(len) stored bytes") }
            (out + outCount).update(from: input.baseAddress!.assumingMemoryBound(to: UInt8.self) + pos, count: left)
            outCount += left; pos += left
        }
    }

    mutating func dynamicTables() throws(InputError) -> (HuffmanTable, HuffmanTable) {
        let at = bytePosition
        let nlit = try bits(5, "a dynamic block header") + 257
        let ndist = try bits(5, "a dynamic block header") + 1
        let nclen = try bits(4, "a dynamic block header") + 4
        guard nlit <= 286, ndist <= 30 else {
            throw fail(.badValue, at: at, found: "\(nlit) literal/length and \(ndist) distance codes", expected: "at most 286 and 30")
        }
        var clen = [UInt8](repeating: 0, count: 19)
        for i in 0..<nclen { clen[codeLengthOrder[i]] = UInt8(try bits(3, "the code-length code")) }
        guard HuffmanTable.isValid(clen) else {
            throw fail(.badValue, at: at, found: "over-subscribed code-length code", expected: "a valid prefix code")
        }
        let clTable = HuffmanTable(lengths: clen, primaryBits: 7)
        var lengths = [UInt8]()
        lengths.reserveCapacity(nlit + ndist)
        while lengths.count < nlit + ndist {
            let sym = try decode(clTable, "the code lengths")
            switch sym {
            case 0...15: lengths.append(UInt8(sym))
            case 16:
                guard let prev = lengths.last else {
                    throw fail(.badValue, found: "repeat code 16 first", expected: "a code length before a repeat")
                }
                let n = try 3 + bits(2, "a repeat count")
                guard lengths.count + n <= nlit + ndist else { throw tooManyLengths(nlit + ndist) }
                lengths.append(contentsOf: repeatElement(prev, count: n))
            default:
                let n = try sym == 17 ? 3 + bits(3, "a zero-run count") : 11 + bits(7, "a zero-run count")
                guard lengths.count + n <= nlit + ndist else { throw tooManyLengths(nlit + ndist) }
                lengths.append(contentsOf: repeatElement(0, count: n))
            }
        }
        let litLengths = Array(lengths[0..<nlit]), distLengths = Array(lengths[nlit...])
        guard litLengths[256] != 0 else {
            throw fail(.badValue, at: at, found: "no end-of-block code", expected: "a code for symbol 256 (end of block)")
        }
        guard HuffmanTable.isValid(litLengths) else {
            throw fail(.badValue, at: at, found: "over-subscribed literal/length code", expected: "a valid prefix code")
        }
        guard HuffmanTable.isValid(distLengths) else {
            throw fail(.badValue, at: at, found: "over-subscribed distance code", expected: "a valid prefix code")
        }
        return (HuffmanTable(lengths: litLengths, primaryBits: 10), HuffmanTable(lengths: distLengths, primaryBits: 8))
    }

    func tooManyLengths(_ n: Int) -> InputError {
        fail(.badValue, found: "a run past the last code length", expected: "exactly \(n) code lengths")
    }

    /// One symbol of `table` (used for the code-length code; the block loop inlines this).
    mutating func decode(_ table: HuffmanTable, _ what: String) throws(InputError) -> Int {
        if bitCount < 15 { refill() }
        var e = table.entries[Int(truncatingIfNeeded: bitBuf) & ((1 << table.primaryBits) - 1)]
        if e & 0x80 != 0 {
            e = table.entries[Int(e >> 8) + (Int(truncatingIfNeeded: bitBuf >> UInt64(table.primaryBits)) & ((1 << Int(e & 0xF)) - 1))]
        }
        let len = Int(e & 0xFF)
        if len == 0 { throw fail(.badValue, found: "an unassigned Huffman code", expected: "a code of \(what)") }
        if len > bitCount { throw truncated(what) }
        bitBuf >>= UInt64(len); bitCount -= len
        return Int(e >> 8)
    }

    mutating func huffmanBlock(_ lit: HuffmanTable, _ dist: HuffmanTable) throws(InputError) {
        try lit.entries.withUnsafeBufferPointer { (lt) throws(InputError) in
            try dist.entries.withUnsafeBufferPointer { (dt) throws(InputError) in
                try lengthCodes.withUnsafeBufferPointer { (lc) throws(InputError) in
                    try distanceCodes.withUnsafeBufferPointer { (dc) throws(InputError) in
                        try huffmanBlock(lt, lit.primaryBits, dt, dist.primaryBits, lc, dc)
                    }
                }
            }
        }
    }

    /// The symbol loop of a Huffman-coded block: literals are written, lengths copy earlier
    /// output, 256 ends the block.
    mutating func huffmanBlock(_ lt: UnsafeBufferPointer<UInt32>, _ litBits: Int, _ dt: UnsafeBufferPointer<UInt32>, _ distBits: Int,
                               _ lc: UnsafeBufferPointer<UInt32>, _ dc: UnsafeBufferPointer<UInt32>) throws(InputError) {
        let litMask = (1 << litBits) - 1, distMask = (1 << distBits) - 1
        while true {
            if bitCount < 48 { refill() }
            // Literal/length symbol (at most 15 bits).
            var e = lt[Int(truncatingIfNeeded: bitBuf) & litMask]
            if e & 0x80 != 0 {
                e = lt[Int(e >> 8) + (Int(truncatingIfNeeded: bitBuf >> UInt64(litBits)) & ((1 << Int(e & 0xF)) - 1))]
            }
            var len = Int(e & 0xFF)
            if len == 0 { throw fail(.badValue, found: "an unassigned Huffman code", expected: "a literal/length code") }
            if len > bitCount { throw truncated("a literal/length code") }
            bitBuf >>= UInt64(len); bitCount -= len
            let sym = Int(e >> 8)
            if sym < 256 {
                if outCount == outCapacity || outCount == limit {
                    if try reserve(1) == 0 { return }
                }
                out[outCount] = UInt8(truncatingIfNeeded: sym)
                outCount += 1
                continue
            }
            if sym == 256 { return }
            guard sym <= 285 else {
                throw fail(.badValue, found: "length symbol \(sym)", expected: "a length symbol 257…285")
            }
            // Length: base plus extra bits (at most 5); the buffer holds at least 33 more bits
            // unless the input is ending.
            let lcode = lc[sym - 257]
            var extra = Int(lcode & 0xFF)
            if extra > bitCount { throw truncated("a length's extra bits") }
            let length = Int(lcode >> 8) + Int(truncatingIfNeeded: bitBuf & ((1 << UInt64(extra)) - 1))
            bitBuf >>= UInt64(extra); bitCount -= extra
            // Distance symbol and its extra bits (at most 15 + 13 bits).
            if bitCount < 28 { refill() }
            e = dt[Int(truncatingIfNeeded: bitBuf) & distMask]
            if e & 0x80 != 0 {
                e = dt[Int(e >> 8) + (Int(truncatingIfNeeded: bitBuf >> UInt64(distBits)) & ((1 << Int(e & 0xF)) - 1))]
            }
            len = Int(e & 0xFF)
            if len == 0 { throw fail(.badValue, found: "an unassigned Huffman code", expected: "a distance code") }
            if len > bitCount { throw truncated("a distance code") }
            bitBuf >>= UInt64(len); bitCount -= len
            let dsym = Int(e >> 8)
            guard dsym < 30 else {
                throw fail(.badValue, found: "distance symbol \(dsym)", expected: "a distance symbol 0…29")
            }
            let dcode = dc[dsym]
            extra = Int(dcode & 0xFF)
            if extra > bitCount { throw truncated("a distance's extra bits") }
            let distance = Int(dcode >> 8) + Int(truncatingIfNeeded: bitBuf & ((1 << UInt64(extra)) - 1))
            bitBuf >>= UInt64(extra); bitCount -= extra
            guard distance <= outCount else {
                throw fail(.badValue, found: "distance \(distance)", expected: "at most \(outCount), the bytes decoded so far")
            }
            var n = length
            if outCount + length > outCapacity || outCount + length > limit { n = try reserve(length) }
            let dst = out + outCount, src = dst - distance
            if distance >= n {
                dst.update(from: src, count: n)
            } else {
                // Overlapping copy: repeats the last `distance` bytes, so go byte by byte.
                var i = 0
                while i < n { dst[i] = src[i]; i += 1 }
            }
            outCount += n
            if reachedLimit { return }
        }
    }
}
