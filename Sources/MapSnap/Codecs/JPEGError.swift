/// Why a JPEG could not be decoded. Every case names the input (`origin`, usually a file name
/// or tile address) and carries the evidence: the byte offset where libjpeg stopped, declared
/// sizes, libjpeg's own message.
public enum JPEGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data does not start with the JPEG SOI marker `FF D8 FF`.
    case notJPEG(origin: String, signature: [UInt8])
    /// The data ends before the image is complete; `offset` is how far libjpeg got.
    case truncated(origin: String, offset: Int, size: Int)
    /// libjpeg rejected the stream or reported corrupt data at byte `offset`.
    case corrupt(origin: String, offset: Int, reason: String)
    /// The header declares more pixels than the caller allows; rejected before allocating.
    case imageTooLarge(origin: String, width: Int, height: Int, maxPixelCount: Int)
    /// A colour space mapsnap does not convert (libjpeg's `J_COLOR_SPACE` code).
    case unsupportedColorSpace(origin: String, colorSpace: Int, components: Int)
    /// A progressive file with an absurd number of scans (decoding would take unbounded time).
    case tooManyScans(origin: String, limit: Int)

    public var description: String {
        switch self {
        case let .notJPEG(origin, signature):
            let hex = signature.map { b in b < 16 ? "0" + String(b, radix: 16) : String(b, radix: 16) }.joined(separator: " ")
            return "\(origin): not a JPEG file (first bytes: \(hex.isEmpty ? "none" : hex))"
        case let .truncated(origin, offset, size):
            return "\(origin): JPEG data ends early (libjpeg stopped at byte \(offset) of \(size)); file truncated"
        case let .corrupt(origin, offset, reason):
            return "\(origin): corrupt JPEG near byte \(offset): \(reason)"
        case let .imageTooLarge(origin, width, height, maxPixelCount):
            return "\(origin): JPEG is \(width)×\(height) pixels, above the limit of \(maxPixelCount) pixels"
        case let .unsupportedColorSpace(origin, colorSpace, components):
            return "\(origin): unsupported JPEG colour space \(colorSpace) with \(components) components"
        case let .tooManyScans(origin, limit):
            return "\(origin): progressive JPEG has more than \(limit) scans; refusing to decode"
        }
    }
}
