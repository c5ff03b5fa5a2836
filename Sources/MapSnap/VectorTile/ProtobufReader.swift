/// Why protobuf wire-format bytes could not be read. Offsets are absolute byte offsets into
/// the buffer being read.
public enum ProtobufError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The buffer ended inside a varint that started at `offset`.
    case truncatedVarint(offset: Int)
    /// A varint at `offset` has more than 10 bytes.
    case varintTooLong(offset: Int)
    /// A 10-byte varint at `offset` encodes a value above 2^64 − 1.
    case varintOverflow(offset: Int)
    /// A value at `offset` needs `needed` bytes but only `available` remain.
    case truncatedField(offset: Int, needed: UInt64, available: Int)
    /// A field key at `offset` has wire type 3/4 (groups, deprecated) or 6/7 (undefined).
    case unsupportedWireType(Int, offset: Int)
    /// A field key at `offset` has field number 0, which protobuf forbids.
    case invalidFieldNumber(offset: Int)
    /// A varint at `offset` was expected to fit in 32 bits.
    case valueOutOfRange(UInt64, offset: Int)

    public var description: String {
        switch self {
        case .truncatedVarint(let o): return "protobuf: data ends inside the varint at byte \(o)"
        case .varintTooLong(let o): return "protobuf: varint at byte \(o) is longer than 10 bytes"
        case .varintOverflow(let o): return "protobuf: varint at byte \(o) overflows 64 bits"
        case .truncatedField(let o, let n, let a):
            return "protobuf: field at byte \(o) needs \(n) bytes but only \(a) remain"
        case .unsupportedWireType(let t, let o):
            return "protobuf: unsupported wire type \(t) at byte \(o)" + (t == 3 || t == 4 ? " (groups are not supported)" : "")
        case .invalidFieldNumber(let o): return "protobuf: field number 0 at byte \(o)"
        case .valueOutOfRange(let v, let o): return "protobuf: value \(v) at byte \(o) does not fit in 32 bits"
        }
    }
}

/// The protobuf wire types mapsnap understands. Groups (3, 4) are rejected.
public enum ProtobufWireType: Int, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
}

/// A field key: field number and wire type.
public struct ProtobufFieldKey: Equatable, Sendable {
    public var number: Int
    public var wireType: ProtobufWireType
}

/// A bounds-checked cursor over protobuf wire-format bytes.
///
/// Every read checks the remaining length first and throws instead of trapping, so it is safe
/// on untrusted input even in `-Ounchecked` builds. Reading never allocates except `readString`.
public struct ProtobufReader: Sendable {
    /// The whole buffer; `offset` and `end` are absolute indices into it.
    public let bytes: [UInt8]
    /// Index of the next byte to read.
    public private(set) var offset: Int
    /// One past the last readable byte.
    public let end: Int

    /// A reader over `bytes[range]` (the whole buffer by default). The range is clamped to the buffer.
    public init(bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        let r = range ?? 0..<bytes.count
        self.offset = max(0, min(r.lowerBound, bytes.count))
        self.end = max(self.offset, min(r.upperBound, bytes.count))
    }

    /// True when no bytes remain.
    @inline(__always) public var isAtEnd: Bool { offset >= end }

    /// Bytes left to read.
    @inline(__always) public var remaining: Int { end - offset }

    /// Reads a base-128 varint of at most 10 bytes.
    @inline(__always)
    public mutating func readVarint() throws(ProtobufError) -> UInt64 {
        // Fast path: single-byte varints dominate geometry and tag streams.
        if offset < end {
            let b = bytes[offset]
            if b < 0x80 {
                offset += 1
                return UInt64(b)
            }
        }
        return try readVarintSlow()
    }

    @inline(never)
    private mutating func readVarintSlow() throws(ProtobufError) -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var i = offset
        while true {
            guard i < end else { throw .truncatedVarint(offset: start) }
            guard i - start < 10 else { throw .varintTooLong(offset: start) }
            let b = bytes[i]
            i += 1
            if i - start == 10 && b > 1 {
                // The 10th byte carries only bit 63; anything else is overflow or a longer varint.
                if b & 0x80 != 0 { throw .varintTooLong(offset: start) }
                throw .varintOverflow(offset: start)
            }
            result |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { break }
            shift += 7
        }
        offset = i
        return result
    }

    /// Reads a varint that must fit in 32 bits (MVT tags, geometry commands, counts).
    @inline(__always)
    public mutating func readVarint32() throws(ProtobufError) -> UInt32 {
        let start = offset
        let v = try readVarint()
        guard v <= UInt64(UInt32.max) else { throw .valueOutOfRange(v, offset: start) }
        return UInt32(v)
    }

    /// Reads a zigzag-encoded signed varint (`sint64`).
    public mutating func readSignedVarint() throws(ProtobufError) -> Int64 {
        Self.zigzagDecode(try readVarint())
    }

    /// Reads a little-endian 32-bit value (`fixed32`, `float`).
    public mutating func readFixed32() throws(ProtobufError) -> UInt32 {
        guard remaining >= 4 else { throw .truncatedField(offset: offset, needed: 4, available: remaining) }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[offset + i]) << (8 * UInt32(i)) }
        offset += 4
        return v
    }

    /// Reads a little-endian 64-bit value (`fixed64`, `double`).
    public mutating func readFixed64() throws(ProtobufError) -> UInt64 {
        guard remaining >= 8 else { throw .truncatedField(offset: offset, needed: 8, available: remaining) }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return v
    }

    /// Reads a field key. Throws for field number 0 and for group or undefined wire types.
    public mutating func readFieldKey() throws(ProtobufError) -> ProtobufFieldKey {
        let start = offset
        let key = try readVarint()
        let number = key >> 3
        guard number != 0 else { throw .invalidFieldNumber(offset: start) }
        // Field numbers are at most 2^29 − 1; larger keys are malformed.
        guard number < (1 << 29) else { throw .valueOutOfRange(key, offset: start) }
        guard let type = ProtobufWireType(rawValue: Int(key & 7)) else {
            throw .unsupportedWireType(Int(key & 7), offset: start)
        }
        return ProtobufFieldKey(number: Int(number), wireType: type)
    }

    /// Reads a length prefix and returns the byte range of the payload, checked against the
    /// remaining bytes, and moves past it.
    public mutating func readLengthDelimited() throws(ProtobufError) -> Range<Int> {
        let start = offset
        let length = try readVarint()
        guard length <= UInt64(remaining) else {
            throw .truncatedField(offset: start, needed: length, available: remaining)
        }
        let lower = offset
        offset += Int(length)
        return lower..<offset
    }

    /// Reads a length-delimited UTF-8 string. Invalid UTF-8 is repaired with U+FFFD.
    public mutating func readString() throws(ProtobufError) -> String {
        let range = try readLengthDelimited()
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// Skips a field's value of the given wire type.
    public mutating func skip(_ wireType: ProtobufWireType) throws(ProtobufError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimited()
        }
    }

    /// Reads a packed repeated varint field, appending the values to `values`.
    public mutating func readPackedVarints(into values: inout [UInt64]) throws(ProtobufError) {
        let range = try readLengthDelimited()
        var inner = ProtobufReader(bytes: bytes, range: range)
        while !inner.isAtEnd { values.append(try inner.readVarint()) }
    }

    /// A reader restricted to `range` of the same buffer (for a nested message).
    public func subReader(_ range: Range<Int>) -> ProtobufReader {
        ProtobufReader(bytes: bytes, range: range)
    }

    /// Decodes a zigzag-encoded value: 0 → 0, 1 → −1, 2 → 1, 3 → −2, …
    @inline(__always)
    public static func zigzagDecode(_ v: UInt64) -> Int64 {
        Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    /// Zigzag-encodes a signed value (the inverse of `zigzagDecode`).
    @inline(__always)
    public static func zigzagEncode(_ v: Int64) -> UInt64 {
        UInt64(bitPattern: (v << 1) ^ (v >> 63))
    }
}

/// Appends protobuf wire-format values; used to build test tiles and PMTiles directories.
public struct ProtobufWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// Appends a base-128 varint.
    public mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Appends a field key.
    public mutating func writeKey(_ number: Int, _ wireType: ProtobufWireType) {
        writeVarint(UInt64(number) << 3 | UInt64(wireType.rawValue))
    }

    /// Appends a length-delimited field holding `payload`.
    public mutating func writeBytes(_ number: Int, _ payload: [UInt8]) {
        writeKey(number, .lengthDelimited)
        writeVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// Appends a length-delimited field holding the UTF-8 of `string`.
    public mutating func writeString(_ number: Int, _ string: String) {
        writeBytes(number, Array(string.utf8))
    }

    /// Appends a varint field.
    public mutating func writeVarintField(_ number: Int, _ value: UInt64) {
        writeKey(number, .varint)
        writeVarint(value)
    }

    /// Appends a packed repeated varint field.
    public mutating func writePacked(_ number: Int, _ values: [UInt64]) {
        var inner = ProtobufWriter()
        for v in values { inner.writeVarint(v) }
        writeBytes(number, inner.bytes)
    }

    /// Appends raw bytes.
    public mutating func writeRaw(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }
}

/// Runs protobuf reads for a decoder whose own error type wraps `ProtobufError` (`wrap`), so
/// that its typed `do` blocks hold one error type and need no catch-all.
@inline(__always)
func readingProtobuf<T, E: Error>(_ wrap: (ProtobufError) -> E, _ body: () throws(ProtobufError) -> T) throws(E) -> T {
    do {
        return try body()
    } catch {
        throw wrap(error)
    }
}
