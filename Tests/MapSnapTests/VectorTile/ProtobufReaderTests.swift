import MapSnapTesting
import Testing
@testable import MapSnap

@Suite struct ProtobufReaderTests {
    @Test(arguments: [
        ([0x00], UInt64(0)),
        ([0x01], 1),
        ([0x7f], 127),
        ([0x80, 0x01], 128),
        ([0xac, 0x02], 300),
        ([0xff, 0xff, 0xff, 0xff, 0x0f], 0xffff_ffff),
        // 10 bytes, the longest legal varint: 2^64 − 1.
        ([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], UInt64.max),
        // Non-minimal encodings are legal: 0 padded to 10 bytes.
        ([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], 0),
    ] as [([UInt8], UInt64)])
    func varint(bytes: [UInt8], expected: UInt64) throws {
        var r = ProtobufReader(bytes: bytes)
        #expect(try r.readVarint() == expected)
        #expect(r.isAtEnd)
    }

    @Test(arguments: [
        // 11 bytes: the 10th still has its continuation bit.
        ([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x01], ProtobufError.varintTooLong(offset: 0)),
        // 10th byte carries more than bit 63.
        ([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02], .varintOverflow(offset: 0)),
        ([0x80], .truncatedVarint(offset: 0)),
        ([0xff, 0xff], .truncatedVarint(offset: 0)),
        ([], .truncatedVarint(offset: 0)),
    ] as [([UInt8], ProtobufError)])
    func badVarint(bytes: [UInt8], expected: ProtobufError) {
        var r = ProtobufReader(bytes: bytes)
        #expect(throws: expected) { try r.readVarint() }
    }

    @Test(arguments: [
        (UInt64(0), Int64(0)), (1, -1), (2, 1), (3, -2), (4, 2),
        (4_294_967_294, 2_147_483_647), (4_294_967_295, -2_147_483_648),
        (UInt64.max - 1, Int64.max), (UInt64.max, Int64.min),
    ] as [(UInt64, Int64)])
    func zigzag(encoded: UInt64, decoded: Int64) {
        #expect(ProtobufReader.zigzagDecode(encoded) == decoded)
        #expect(ProtobufReader.zigzagEncode(decoded) == encoded)
    }

    @Test func varintRoundTripSeeded() throws {
        var rng = SeededGenerator(seed: 0x5eed_0001)
        var writer = ProtobufWriter()
        var values: [UInt64] = []
        for _ in 0..<2000 {
            // Spread over all bit lengths, not just the top ones.
            let v = rng.next() >> (rng.next() % 64)
            values.append(v)
            writer.writeVarint(v)
        }
        var reader = ProtobufReader(bytes: writer.bytes)
        for v in values { #expect(try reader.readVarint() == v, "seed 0x5eed0001") }
        #expect(reader.isAtEnd)
    }

    @Test func lengthDelimitedTruncated() {
        // Field 1, length 5, but only 2 bytes follow.
        var r = ProtobufReader(bytes: [0x0a, 0x05, 0x61, 0x62])
        #expect(throws: Never.self) { _ = try r.readFieldKey() }
        #expect(throws: ProtobufError.truncatedField(offset: 1, needed: 5, available: 2)) { try r.readLengthDelimited() }
    }

    @Test func lengthDelimitedHugeLengthDoesNotAllocate() {
        // A length of 2^63 must be rejected against the remaining bytes, not allocated.
        var r = ProtobufReader(bytes: [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01])
        #expect(throws: ProtobufError.truncatedField(offset: 0, needed: 1 << 63, available: 0)) { try r.readLengthDelimited() }
    }

    @Test func fixedWidth() throws {
        var r = ProtobufReader(bytes: [0x78, 0x56, 0x34, 0x12, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(try r.readFixed32() == 0x1234_5678)
        #expect(try r.readFixed64() == 0x0807_0605_0403_0201)
        #expect(throws: ProtobufError.truncatedField(offset: 12, needed: 4, available: 1)) { try r.readFixed32() }
    }

    @Test func skipsEveryWireTypeAndRejectsGroups() throws {
        var w = ProtobufWriter()
        w.writeVarintField(1, 300)
        w.writeKey(2, .fixed64); w.writeRaw([1, 2, 3, 4, 5, 6, 7, 8])
        w.writeBytes(3, [9, 9, 9])
        w.writeKey(4, .fixed32); w.writeRaw([1, 2, 3, 4])
        w.writeVarintField(5, 7)
        var r = ProtobufReader(bytes: w.bytes)
        for _ in 0..<4 { try r.skip(try r.readFieldKey().wireType) }
        #expect(try r.readFieldKey() == ProtobufFieldKey(number: 5, wireType: .varint))
        #expect(try r.readVarint() == 7)

        var groupStart = ProtobufReader(bytes: [0x0b])  // field 1, wire type 3
        #expect(throws: ProtobufError.unsupportedWireType(3, offset: 0)) { try groupStart.readFieldKey() }
        var groupEnd = ProtobufReader(bytes: [0x0c])
        #expect(throws: ProtobufError.unsupportedWireType(4, offset: 0)) { try groupEnd.readFieldKey() }
        var undefined = ProtobufReader(bytes: [0x0e])
        #expect(throws: ProtobufError.unsupportedWireType(6, offset: 0)) { try undefined.readFieldKey() }
        var fieldZero = ProtobufReader(bytes: [0x00])
        #expect(throws: ProtobufError.invalidFieldNumber(offset: 0)) { try fieldZero.readFieldKey() }
    }

    @Test func packedVarints() throws {
        var w = ProtobufWriter()
        w.writePacked(4, [9, 50, 34, 18, 300])
        var r = ProtobufReader(bytes: w.bytes)
        _ = try r.readFieldKey()
        var values: [UInt64] = []
        try r.readPackedVarints(into: &values)
        #expect(values == [9, 50, 34, 18, 300])

        // Packed payload ends inside a varint.
        var bad = ProtobufReader(bytes: [0x22, 0x02, 0x05, 0x80])
        _ = try bad.readFieldKey()
        var sink: [UInt64] = []
        #expect(throws: ProtobufError.truncatedVarint(offset: 3)) { try bad.readPackedVarints(into: &sink) }
    }

    @Test func varint32RejectsWideValues() {
        var r = ProtobufReader(bytes: [0x80, 0x80, 0x80, 0x80, 0x10])
        #expect(throws: ProtobufError.valueOutOfRange(1 << 32, offset: 0)) { try r.readVarint32() }
    }
}
