/// Why a PNG could not be decoded or encoded. Every case names the input (`origin`, usually
/// a file name) and carries the evidence: byte offsets, chunk types, declared vs. computed
/// values.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first eight bytes are not the PNG signature.
    case notPNG(origin: String, signature: [UInt8])
    /// The data ends before a chunk (or the chunk sequence) is complete; `offset` is where
    /// the missing bytes should start.
    case truncated(origin: String, offset: Int, expected: Int, available: Int)
    /// A chunk declares a length above the PNG maximum of 2³¹−1.
    case invalidChunkLength(origin: String, chunk: String, offset: Int, length: UInt32)
    /// A chunk's stored CRC-32 does not match its type and data.
    case invalidChunkChecksum(origin: String, chunk: String, offset: Int, declared: UInt32, computed: UInt32)
    /// The first chunk is not a 13-byte IHDR.
    case missingHeader(origin: String, found: String)
    /// IHDR declares a zero width or height.
    case invalidDimensions(origin: String, width: UInt32, height: UInt32)
    /// IHDR declares more pixels than the caller allows; rejected before allocating.
    case imageTooLarge(origin: String, width: UInt32, height: UInt32, maxPixelCount: Int)
    /// libpng rejected the stream (bad compression data, invalid IHDR fields, ...).
    case decodingFailed(origin: String, reason: String)
    /// The canvas could not be encoded (too large for PNG, or libdeflate failed).
    case encodingFailed(reason: String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case let .notPNG(origin, signature):
            return "\(origin): not a PNG file (found \(ContentKind.describe(signature)))"
        case let .truncated(origin, offset, expected, available):
            return "\(origin): truncated at byte \(offset): needed \(expected) more bytes, only \(available) remain"
        case let .invalidChunkLength(origin, chunk, offset, length):
            return "\(origin): chunk '\(chunk)' at byte \(offset) declares length \(length), above the PNG maximum 2147483647"
        case let .invalidChunkChecksum(origin, chunk, offset, declared, computed):
            return "\(origin): chunk '\(chunk)' at byte \(offset) has CRC 0x\(String(declared, radix: 16)) but its contents give 0x\(String(computed, radix: 16)) (file corrupt)"
        case let .missingHeader(origin, found):
            return "\(origin): first chunk must be a 13-byte IHDR, found '\(found)'"
        case let .invalidDimensions(origin, width, height):
            return "\(origin): IHDR declares an empty image (\(width)×\(height))"
        case let .imageTooLarge(origin, width, height, maxPixelCount):
            return "\(origin): image is \(width)×\(height) pixels, above the limit of \(maxPixelCount) pixels"
        case let .decodingFailed(origin, reason):
            return "\(origin): libpng could not decode the image: \(reason)"
        case let .encodingFailed(reason):
            return "PNG encoding failed: \(reason)"
        }
    }
}
