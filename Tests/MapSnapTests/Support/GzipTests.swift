import MapSnapTesting
import Testing
@testable import MapSnap

@Suite struct GzipTests {
    static let sample: [UInt8] = Array("Helsinki Töölönlahti ".utf8) + [UInt8](repeating: 7, count: 5000)

    @Test(arguments: [Gzip.Container.gzip, .zlib])
    func roundTrip(container: Gzip.Container) throws {
        let packed = try Gzip.compress(Self.sample, container: container)
        #expect(packed.count < Self.sample.count / 4)
        #expect(Gzip.isGzip(packed) == (container == .gzip))
        #expect(Gzip.isZlib(packed) == (container == .zlib))
        #expect(try Gzip.decompress(packed) == Self.sample)
        #expect(try Gzip.decompressIfNeeded(packed) == Self.sample)
    }

    @Test func emptyInputRoundTrips() throws {
        #expect(try Gzip.decompress(try Gzip.compress([])) == [])
    }

    @Test func compressIsDeterministic() throws {
        #expect(try Gzip.compress(Self.sample) == (try Gzip.compress(Self.sample)))
    }

    @Test func uncompressedPassesThrough() throws {
        // An uncompressed MVT starts with 0x1a (field 3, length-delimited).
        let raw: [UInt8] = [0x1a, 0x02, 0x0a, 0x00]
        #expect(try Gzip.decompressIfNeeded(raw) == raw)
        #expect(throws: GzipError.notCompressed(firstBytes: [0x1a, 0x02, 0x0a, 0x00])) { try Gzip.decompress(raw) }
    }

    @Test func rejectsDecompressionBomb() throws {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        let bomb = try Gzip.compress(zeros)
        #expect(bomb.count < 2000)
        #expect(throws: GzipError.outputTooLarge(limit: 100_000)) { try Gzip.decompress(bomb, maxOutputBytes: 100_000) }
        #expect(try Gzip.decompress(bomb, maxOutputBytes: 1 << 20).count == 1 << 20)
    }

    /// gzip files inflate through libdeflate when they are one member of the size their
    /// trailer states, else through zlib: the output must not depend on which. Sizes
    /// around zlib's 64 KiB chunk, a member followed by another (zlib reads the first),
    /// trailing bytes, and a trailer that lies about the size.
    @Test func gzipOutputIsZlibsWhicheverInflaterRuns() throws {
        var rng = SeededGenerator(seed: 0x6219)
        for size in [1, 1000, 65_535, 65_536, 65_537, 300_000] {
            let data = (0..<size).map { i in i % 97 < 60 ? UInt8(i % 7) : UInt8.random(in: 0...255, using: &rng) }
            let packed = try Gzip.compress(data)
            #expect(try Gzip.decompress(packed) == data, "size \(size)")
            let other = try Gzip.compress(Array(data.reversed().prefix(500)))
            #expect(try Gzip.decompress(packed + other) == data, "two members, size \(size)")
            #expect(try Gzip.decompress(packed + [0, 0, 0, 0, 0]) == data, "trailing bytes, size \(size)")
            var lying = packed
            lying[lying.count - 4] ^= 0x01
            #expect(throws: GzipError.self) { try Gzip.decompress(lying) }
            #expect(throws: GzipError.outputTooLarge(limit: size - 1)) { try Gzip.decompress(packed, maxOutputBytes: size - 1) }
        }
    }

    @Test func truncatedStream() throws {
        let packed = try Gzip.compress(Self.sample)
        let cut = Array(packed.prefix(packed.count / 2))
        #expect(throws: GzipError.truncated(inputLength: cut.count)) { try Gzip.decompress(cut) }
    }

    @Test func corruptStream() throws {
        var packed = try Gzip.compress(Self.sample)
        // Break the trailer CRC: the data inflates but the checksum does not match.
        packed[packed.count - 6] ^= 0xff
        #expect {
            try Gzip.decompress(packed)
        } throws: { error in
            guard case .corruptStream(_, let message, _) = error as? GzipError else { return false }
            return message.contains("check")
        }
        // Invalid deflate block type right after a valid gzip header.
        let badBlock: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff]
        #expect {
            try Gzip.decompress(badBlock)
        } throws: { error in
            guard case .corruptStream(_, _, let offset) = error as? GzipError else { return false }
            return offset > 10
        }
    }
}
