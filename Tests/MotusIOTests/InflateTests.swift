import Testing
import MotusCore
@testable import MotusIO

/// zlib streams made by Python's zlib (CPython 3, zlib 1.2/1.3), pasted as hex, with the
/// plain bytes rebuilt here: the decoder must give exactly those bytes, and every damaged
/// stream must give an `InputError`, never a crash or a hang.
@Suite("Inflate")
struct InflateTests {
    enum Vectors {
        // zlib.compress(b"", 6)
        // zlib.compress(b"hello, hello, hello motus", 9): one fixed-Huffman block
        // zlib.compress(text(120), 9): one dynamic-Huffman block
        // zlib.compress(b"stored block: not compressed at all", 0): one stored block
        // zlib.compressobj(9, DEFLATED, 15, memLevel=1) on text(60): many small dynamic blocks
        // zlib.compress(b"abc" * 700 + b"xyz", 9): overlapping copies (distance 3, length 258)
        // compressobj(6): "first part, first part." + Z_FULL_FLUSH (an empty stored block) +
        //   "second part, second part."
        static let empty = "789c030000000001"
        static let helloFixed = "78dacb48cdc9c9d751c840a21472f34b4a8b01747c092d"
        static let textDynamic = """
            78da75963bce54310c857b56314bb0e3f8c56e2840421a4105eb078aebfc3639ddc899ebe4f3f3bcbffff8faa2cfafdf\
            5fdebffefe78fdfcf6e2459fdeffccfc98b999d763decd2c8f399b7997136b767dec4b9bdd1ebbf4ff7bdddafdc763b7\
            fe9c7cecd15fcf052bdd5eb4ab3be2c3ebfda0887df583621ef66296f1a682b6f14551678f1217b60c8ce2f69ecc55dc\
            dcef5805aeddd52af0eca95805be7ba85681e7289922dfe38e22cfe1aac875701479747b815b0f9514f8eaf993028fee\
            4a0a5c478917f8ea3194028f5e9d52e0d62322a7cec7730b9cc71707bca7430e793fd845be3be02e72e91cbbc8797c51\
            e4e38a93f19ed85de0d1f97681fb181405eee38b02f77147820325e04a195cae0b3c570500eabe47441584500d045d1d\
            a44903245613948211281e63506eb640819a8092b60d9ac014b48d19683473d09a16a0992defddef04c685331830bec0\
            48720143cc37187bae6050ba81d1ea0e86b10718df9e60e0078115110c964a2cb08642ee7b2b365874a160358681651a\
            7edfbe11605d47a2fd4e4010240305910b488e14a05172df354dea5d02a5dd1553fa5d606580ffe7dd3f13dd1fc4c400\
            81095133090814d306b16552900e2683820be49c2990e4a2449aebc8b729ba3e08b87180ea9d8f829bbaeb48b829bc3e\
            88b829200df42e336a773e3a4ea7b7fc7fa8fc01a73237ff
            """
        static let stored = "7801012300dcff73746f72656420626c6f636b3a206e6f7420636f6d7072657373656420617420616c6cedf80d0b"
        static let manyBlocks = """
            78da54923b0e42310c047b4e9123bc385f731b0a909022a8e0fc40e125d345236bb3e364dd1fd7749cd3fbb25edf437a\
            de523f4eeb4773d0bc530b5a775a82fa4eab12fa8e5b606b3bee810ba6872e44f60cdc51c4034fb4ce522cc07234a4e4\
            bfe50097e730709912cbb4b08d543be7e5ead84c966c617dd90ebc9cc93623dfa4db9063d275acdea45bb11e93aef36f\
            c8b7325fbece1cf936f697ef04966ec77acaa76d3ab80118846128ba52217181fd17ebcde8abbea228cd8b537327d22a\
            7337fa94b9e2119b3bb1b63277e304cbdc176ba87bc99cd3dcc1facbc5faeb7af1def6365c6d6f61feb677b0de5eb6bf\
            e922c5367783d5e62efefde62ed69bbbd8ffe4773db98f46feae669e53955deab806296f4d6fdeb2564e453ba7a8f34b\
            fd030ab68eb1
            """
        static let overlap = "78da4b4c4a4e1c45a368148da251348a46d12822842a2aab000ab22581"
        static let fullFlush = "789c4acb2c2a2e5128482c2ad1514883b3f500000000ffff2b4e4dcecf4b5128482c2ad151284670f400b4e61199"
        // zlib.compressobj(9, DEFLATED, -15) (raw DEFLATE, no wrapper) on
        // b"raw deflate without a wrapper, raw deflate"
        static let raw = "2b4a2c5748494dcb492c495528cf2cc9c82f2d514854282f4a2c28482dd2512842480300"
    }

    /// The text the Python vectors compress: "line i: value i*i % 97 of n" lines.
    static func text(_ n: Int) -> [UInt8] {
        Array((0..<n).map { "line \($0): value \($0 * $0 % 97) of \(n)\n" }.joined().utf8)
    }

    static func bytes(_ hex: String) -> [UInt8] {
        let h = Array(hex.utf8)
        func nibble(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : c - 87 }
        return stride(from: 0, to: h.count, by: 2).map { nibble(h[$0]) << 4 | nibble(h[$0 + 1]) }
    }

    static let cases: [(name: String, compressed: [UInt8], plain: [UInt8])] = [
        ("empty", bytes(Vectors.empty), []),
        ("fixed", bytes(Vectors.helloFixed), Array("hello, hello, hello motus".utf8)),
        ("dynamic", bytes(Vectors.textDynamic), text(120)),
        ("stored", bytes(Vectors.stored), Array("stored block: not compressed at all".utf8)),
        ("many blocks", bytes(Vectors.manyBlocks), text(60)),
        ("overlap", bytes(Vectors.overlap), Array((String(repeating: "abc", count: 700) + "xyz").utf8)),
        ("full flush", bytes(Vectors.fullFlush), Array("first part, first part.second part, second part.".utf8)),
    ]

    @Test("Python zlib vectors decode to the original bytes", arguments: 0..<7)
    func vectors(_ k: Int) throws {
        let c = Self.cases[k]
        let out = try Inflate.zlib(c.compressed)
        #expect(out.count == c.plain.count, "\(c.name)")
        #expect(out == c.plain, "\(c.name)")
    }

    @Test("raw DEFLATE reports how many input bytes the stream used")
    func rawDeflate() throws {
        var input = Self.bytes(Vectors.raw)
        let n = input.count
        input += [0xAA, 0xBB]   // what follows the stream is not read
        let (out, used) = try Inflate.deflate(input)
        #expect(out == Array("raw deflate without a wrapper, raw deflate".utf8))
        #expect(used == n)
    }

    @Test("Adler-32 matches known values")
    func adler() {
        #expect(Inflate.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Inflate.adler32([]) == 1)
        // Python: zlib.adler32(text(120)) == 0xa73237ff (also the stream's trailer).
        #expect(Inflate.adler32(Self.text(120)) == 0xA732_37FF)
        // Long input: many 5552-byte rounds, sums reduced in time.
        let big = [UInt8](repeating: 0xFF, count: 100_000)
        var a: UInt64 = 1, b: UInt64 = 0
        for x in big { a = (a + UInt64(x)) % 65521; b = (b + a) % 65521 }
        #expect(Inflate.adler32(big) == UInt32(b << 16 | a))
    }

    @Test("a prefix of the output from the start of the stream")
    func prefix() throws {
        let c = Self.bytes(Vectors.textDynamic)
        let p = try Inflate.zlibPrefix(Array(c.prefix(200)), count: 50)
        #expect(p == Array(Self.text(120).prefix(50)))
        // Asking for more than there is gives all of it.
        #expect(try Inflate.zlibPrefix(Self.bytes(Vectors.helloFixed), count: 1000) == Array("hello, hello, hello motus".utf8))
    }

    @Test("output beyond the limit is refused")
    func limit() throws {
        let c = Self.bytes(Vectors.textDynamic)
        let e = inputError { _ = try Inflate.zlib(c, maxOutputBytes: 1000) }
        #expect(e?.reason == .badValue)
        #expect(e?.found.contains("more than 1000") == true)
        // Exactly the output size is fine.
        #expect(try Inflate.zlib(c, maxOutputBytes: Self.text(120).count).count == Self.text(120).count)
        // Also for stored and overlapping copies.
        #expect(inputError { _ = try Inflate.zlib(Self.bytes(Vectors.stored), maxOutputBytes: 10) }?.reason == .badValue)
        #expect(inputError { _ = try Inflate.zlib(Self.bytes(Vectors.overlap), maxOutputBytes: 2000) }?.reason == .badValue)
    }

    /// Writes bits least significant first, Huffman codes most significant first (RFC 1951 3.1.1).
    struct BitWriter {
        var bytes: [UInt8] = []
        var bit = 0
        mutating func bits(_ value: Int, _ n: Int) {
            for i in 0..<n {
                if bit == 0 { bytes.append(0) }
                bytes[bytes.count - 1] |= UInt8((value >> i) & 1) << UInt8(bit)
                bit = (bit + 1) % 8
            }
        }
        mutating func code(_ value: Int, _ n: Int) {
            for i in stride(from: n - 1, through: 0, by: -1) { bits((value >> i) & 1, 1) }
        }
    }

    @Test("hand-made bad streams: each problem named, at its byte")
    func badStreams() throws {
        func error(_ b: [UInt8]) -> InputError? { inputError { _ = try Inflate.zlib(b, file: "x.bin", baseOffset: 100) } }
        // Header: wrong method, wrong check bits, preset dictionary, too short.
        var e = error([0x79, 0x9C, 0x03, 0x00])
        #expect(e?.reason == .badHeader && e?.expected.contains("method 8") == true)
        #expect(e?.location == SourceLocation(file: "x.bin", line: 0, column: 100))
        e = error([0x78, 0x9D, 0x03, 0x00])
        #expect(e?.reason == .badHeader && e?.expected.contains("multiple of 31") == true)
        e = error([0x78, 0xBB, 0, 0, 0, 0, 0x03, 0x00])
        #expect(e?.reason == .badHeader && e?.expected.contains("preset dictionary") == true)
        #expect(error([0x78])?.reason == .truncated)
        // Block type 3 does not exist.
        e = error([0x78, 0x9C, 0x07])
        #expect(e?.found == "block type 3")
        // Stored block whose NLEN is not the complement of LEN.
        e = error([0x78, 0x01, 0x01, 0x05, 0x00, 0x00, 0x00, 1, 2, 3, 4, 5])
        #expect(e?.found == "LEN 5, NLEN 0")
        #expect(e?.location.column == 103)
        // Fixed block that starts with a copy (length 3, distance 1) before any output.
        var w = BitWriter()
        w.bits(1, 1); w.bits(1, 2)
        w.code(1, 7)          // symbol 257 (length 3): 7-bit code 0000001
        w.code(0, 5)          // distance symbol 0 (distance 1)
        w.code(0, 7)          // end of block
        e = error([0x78, 0x9C] + w.bytes + [0, 0, 0, 1])
        #expect(e?.found == "distance 1")
        #expect(e?.expected.contains("at most 0") == true)
        // Fixed block using distance symbol 30, which has no meaning.
        w = BitWriter()
        w.bits(1, 1); w.bits(1, 2)
        w.code(0x30 + 0x61, 8)   // literal 'a' (8-bit codes start at 00110000 for 0)
        w.code(1, 7)
        w.code(30, 5)
        e = error([0x78, 0x9C] + w.bytes + [0, 0, 0, 0, 0])
        #expect(e?.reason == .badValue && e?.expected.contains("distance code") == true)
        // Wrong checksum, at the checksum's byte.
        var good = Self.bytes(Vectors.helloFixed)
        good[good.count - 1] ^= 0x01
        e = error(good)
        #expect(e?.reason == .badValue && e?.found.hasPrefix("Adler-32") == true)
        #expect(e?.location.column == 100 + good.count - 4)
        #expect(e?.description.hasPrefix("x.bin at byte \(100 + good.count - 4): found 'Adler-32") == true)
    }

    @Test("every truncation of every vector throws .truncated")
    func truncations() {
        for c in Self.cases {
            for n in 0..<c.compressed.count {
                let e = inputError { _ = try Inflate.zlib(Array(c.compressed.prefix(n))) }
                #expect(e?.reason == .truncated, "\(c.name) cut to \(n) bytes: \(String(describing: e))")
            }
        }
    }

    struct LCG {
        var state: UInt64
        mutating func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
    }

    @Test("seeded byte flips give the original bytes or an InputError, never a crash")
    func flips() {
        var rng = LCG(state: 7)
        var errors = 0, same = 0
        var reasons = Set<String>()
        for trial in 0..<3000 {
            let c = Self.cases[trial % Self.cases.count]
            var b = c.compressed
            for _ in 0..<(1 + trial % 3) {
                let i = Int(rng.next() % UInt64(b.count))
                b[i] ^= UInt8(1 << (rng.next() % 8))
            }
            do {
                let out = try Inflate.zlib(b, maxOutputBytes: 1 << 20)
                // The checksum lets almost nothing through; what passes must be the original.
                #expect(out == c.plain)
                same += 1
            } catch {
                errors += 1
                reasons.insert(error.reason.rawValue + ":" + String(error.expected.prefix(20)))
            }
        }
        #expect(errors > 2900)
        #expect(reasons.count > 8)   // many different problems are met, not one early check
    }
}
