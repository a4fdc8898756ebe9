import Foundation
import Testing
import MotusCore
@testable import MotusIO

/// Inputs coverage-guided fuzzing found (fuzz/findings): each is now a clean error.
@Suite struct FuzzFindingsTests {
    /// A FIT file whose timestamp field has a signed base type and decodes negative: it trapped
    /// converting to UInt32 (fuzz-fit, 50 bytes, sizes and CRCs valid).
    @Test func fitTimestampOutsideUInt32IsAnError() throws {
        let bytes = [UInt8](Data(base64Encoded: "Djjg/yIAAAAuRklUIEZAAAEAFQT9DwFvAP+yAAAAAAAAy/8ASW50AU9wdGlvAABva20=")!)
        #expect(bytes.count == 50)
        #expect { try FITReader.decode(bytes, file: "t.fit") } throws: { e in
            guard let e = e as? InputError else { return false }
            return e.reason == .badValue && e.expected == "a timestamp 0…4294967295 s since 1989-12-31" && !e.description.contains("\n")
        }
    }
}

extension FuzzFindingsTests {
    /// `Subtri@` decodes to a longitude of 223.4° (fuzz-polyline): a point off the globe is an
    /// error naming it, not a route.
    @Test func polylinePointOffTheGlobeIsAnError() throws {
        #expect { try Polyline.track(text: "Subtri@") } throws: { e in
            guard let e = e as? InputError else { return false }
            return e.reason == .badValue && e.found.hasPrefix("point 1 at latitude") && e.expected.hasPrefix("a position on the globe")
        }
        // A real route still reads.
        #expect(try Polyline.track(text: "_p~iF~ps|U_ulLnnqC_mqNvxq`@").count == 3)
    }
}

extension FuzzFindingsTests {
    /// A last field that opens a quote and never closes it (fuzz-motiondatacollector,
    /// fuzz-delimited): the error text was built from one byte past the line (a trap in debug
    /// builds). Now it is the error at that field.
    @Test func unterminatedQuoteInTheLastFieldIsAnError() throws {
        let p = TestFiles.temp(",gravity.x,gravity.y,gravity.z\n,\"\n", name: "quote.csv")
        var o = DelimitedOptions()
        o.rateHz = 10
        #expect { try DelimitedReader(path: p, options: o).read() } throws: { e in
            guard let e = e as? InputError else { return false }
            return e.location.line == 2 && !e.description.contains("\n")
        }
    }
}

extension FuzzFindingsTests {
    /// A FIT file whose file_id message declares the manufacturer with a base type that decodes
    /// beyond Int's range (fuzz-fit, 227 bytes once its harness made the container well-formed:
    /// sizes and CRCs valid): naming the creator trapped converting it to Int. Now the file
    /// reads, the value written as read.
    @Test func fitManufacturerBeyondIntIsWrittenAsRead() throws {
        let bytes = [UInt8](Data(base64Encoded: "DiBUCNMAAAAuRklU9JhAAAAAAAMCAoQDAQIBwCiZP1xImgECaoQBAAICAIQAKJk/XEiaAQKEAQACAgCEAAQBLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tAAEAQbIAAOv/+gL7//8gVAiqAAAALkZJVDPWQAAAAAADAgKEAwECAQMBAgHAKJk/XEiaZyAqT/oEAQABAEGyAADr/3V5Av9v+kT7+///////////////LkZJVAAAJQp/2nk=")!)
        #expect(bytes.count == 227)
        let track = try FITReader.decode(bytes, file: "m.fit")
        let creator = track.creator ?? ""
        #expect(creator.hasPrefix("manufacturer ") && creator.contains("e+"), "\(creator)")
        #expect(FITReader.idText(1) == "1" && FITReader.idText(1e300) == "1e+300" && FITReader.idText(2.5) == "2.5")
    }
}

extension FuzzFindingsTests {
    /// The same trap one message further: a session's sport declared as a float64 of 1e300
    /// (built by hand, found reading the FIT reader after the finding above). The file reads,
    /// the sport written as read.
    @Test func fitSportBeyondIntIsWrittenAsRead() throws {
        var body: [UInt8] = [0x40, 0, 0, 18, 0, 1, 5, 8, 0x89]   // definition: local 0 = session, field 5 (sport) float64
        var sport = (1e300 as Double).bitPattern.littleEndian
        body += [0x00] + withUnsafeBytes(of: &sport) { Array($0) }
        var b: [UInt8] = [12, 0x10, 0x08, 0x08]
        let n = UInt32(body.count)
        b += [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
        b += Array(".FIT".utf8) + body
        let c = FITReader.crc16(b)
        let track = try FITReader.decode(b + [UInt8(c & 0xFF), UInt8(c >> 8)], file: "s.fit")
        #expect(track.sport == "sport 1e+300", "\(String(describing: track.sport))")
    }
}
