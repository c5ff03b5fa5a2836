/// Why a JPEG could not be decoded. Every case names the input (`origin`, usually a file name
/// or tile address) and carries the evidence: declared sizes, libjpeg's own message.
public enum JPEGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data does not start with the JPEG SOI marker `FF D8 FF`.
    case notJPEG(origin: String, signature: [UInt8])
    /// The data (`size` bytes) ends before the image is complete.
    case truncated(origin: String, size: Int)
    /// libjpeg rejected the stream or reported corrupt data; `reason` is its message.
    case corrupt(origin: String, reason: String)
    /// The header declares more pixels than the caller allows; rejected before allocating.
    case imageTooLarge(origin: String, width: Int, height: Int, maxPixelCount: Int)
    /// A valid JPEG layout that TurboJPEG does not decode (an unusual chroma subsampling or
    /// component count); `reason` is its message.
    case unsupported(origin: String, reason: String)
    /// A progressive file with more scans than `limit` (decoding would take unbounded time).
    case tooManyScans(origin: String, limit: Int)
    /// TurboJPEG could not set up a decompressor (out of memory).
    case decoderUnavailable(origin: String, reason: String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case let .notJPEG(origin, signature):
            return "\(origin): not a JPEG file (found \(ContentKind.describe(signature)))"
        case let .truncated(origin, size):
            return "\(origin): JPEG data ends early (after \(size) bytes, before the end-of-image marker); file truncated"
        case let .corrupt(origin, reason):
            return "\(origin): corrupt JPEG: \(reason)"
        case let .imageTooLarge(origin, width, height, maxPixelCount):
            return "\(origin): JPEG is \(width)×\(height) pixels, above the limit of \(maxPixelCount) pixels"
        case let .unsupported(origin, reason):
            return "\(origin): unsupported JPEG layout: \(reason)"
        case let .tooManyScans(origin, limit):
            return "\(origin): progressive JPEG has more than \(limit) scans; refusing to decode"
        case let .decoderUnavailable(origin, reason):
            return "\(origin): TurboJPEG could not start a decoder: \(reason)"
        }
    }
}
