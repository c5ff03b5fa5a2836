import MapSnapTesting
import Foundation
import Testing
@testable import MapSnap

/// Damaged bytes never trap: random byte changes to a real (uncompressed) two-blob file and
/// to a place index whose checksum is recomputed, so the damage reaches the decoders.
@Suite struct OSMPBFFuzzTests {
    /// The fixture's header blob and first data blob (the extract is stored uncompressed).
    static func twoBlobs() throws -> [UInt8] {
        let all = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("osm/helsinki.osm.pbf"))))
        var offset = 0
        for _ in 0..<2 {
            let headerLength = all[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            var r = ProtobufReader(bytes: all, range: (offset + 4)..<(offset + 4 + headerLength))
            var size = 0
            while !r.isAtEnd {
                let k = try r.readFieldKey()
                if k.number == 3 { size = Int(try r.readVarint()) } else { try r.skip(k.wireType) }
            }
            offset += 4 + headerLength + size
        }
        return Array(all.prefix(offset))
    }

    @Test func mutatedPBFIsReadOrRefusedWithATypedError() throws {
        let seed: UInt64 = 0x05A_F00D
        print("OSMPBFFuzzTests seed \(seed)")
        var rng = SeededGenerator(seed: seed)
        let original = try Self.twoBlobs()
        let path = TestPaths.temporaryDirectory() + "/fuzz.osm.pbf"
        var refused = 0, read = 0
        for _ in 0..<150 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[at] = UInt8.random(in: 0...255, using: &rng)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                let r = try OSMPBFReader(path: path)
                var count = 0
                try r.scan(nodes: { _ in count += 1 }, ways: { _ in count += 1 }, relations: { _ in count += 1 })
                read += 1
            } catch {
                refused += 1  // typed: OSMPBFError is the only error scan throws
            }
        }
        #expect(read + refused == 150 && refused > 0)
    }

    @Test func placeIndexWithGarbageUnderAValidChecksumNeverTraps() throws {
        let seed: UInt64 = 0x9_1ACE
        print("PlaceIndex fuzz seed \(seed)")
        var rng = SeededGenerator(seed: seed)
        var w = PlaceIndexWriter()
        w.entries = PlaceIndexTests.entries
        w.cityAliases = ["Helsingfors": "Helsinki"]
        let original = w.encode()
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let at = Int.random(in: 12..<(bytes.count - 4), using: &rng)
                bytes[at] = UInt8.random(in: 0...255, using: &rng)
            }
            let crc = bytes.withUnsafeBytes { Gzip.crc32(UnsafeRawBufferPointer(rebasing: $0[0..<(bytes.count - 4)])) }
            for i in 0..<4 { bytes[bytes.count - 4 + i] = UInt8(crc >> (8 * UInt32(i)) & 0xFF) }
            guard let index = try? PlaceIndex(bytes: bytes, path: "fuzz.places") else { continue }
            for q in ["Mannerheimintie 5, Helsinki", "Tuomiokirkko", "Eteläespl", "Helsingfors", "x"] {
                _ = index.search(q)
                _ = index.suggestions(for: q)
            }
        }
    }
}
