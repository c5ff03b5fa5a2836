/// Why raster tile bytes could not be turned into pixels, whatever their format.
enum RasterImageError: Error, Equatable, Sendable, CustomStringConvertible {
    case png(PNGError)
    case jpeg(JPEGError)
    /// A known image format mapsnap does not decode (e.g. "WebP").
    case unsupportedFormat(origin: String, format: String)
    /// Neither PNG, JPEG nor a recognised format; `signature` (the first bytes) is evidence for
    /// code, never printed.
    case unrecognized(origin: String, signature: [UInt8])

    var description: String {
        switch self {
        case .png(let e): return e.description
        case .jpeg(let e): return e.description
        case let .unsupportedFormat(origin, format):
            return "\(origin): \(format) images are not supported (use PNG or JPEG tiles)"
        case let .unrecognized(origin, signature):
            return "\(origin): not a PNG or JPEG image (found \(ContentKind.describe(signature)))"
        }
    }
}

/// Decodes raster tile bytes by sniffing their magic bytes rather than trusting a file
/// extension or a `Content-Type`, which tile servers often get wrong.
enum RasterImageDecoder {
    /// The format the magic bytes announce, or nil.
    static func sniff(_ bytes: [UInt8]) -> TileFormat? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if JPEGCodec.isJPEG(bytes) { return .jpg }
        // RIFF....WEBP
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// Decodes PNG or JPEG bytes into a premultiplied canvas.
    /// - Parameter origin: names the input in error messages.
    static func decode(_ bytes: [UInt8], origin: String,
                              maxPixelCount: Int = PNGCodec.defaultMaxPixelCount) throws(RasterImageError) -> Canvas {
        switch sniff(bytes) {
        case .png:
            do { return try PNGCodec.decode(bytes, origin: origin, maxPixelCount: maxPixelCount) } catch { throw .png(error) }
        case .jpg:
            do { return try JPEGCodec.decode(bytes, origin: origin, maxPixelCount: maxPixelCount) } catch { throw .jpeg(error) }
        case .webp:
            throw .unsupportedFormat(origin: origin, format: "WebP")
        default:
            throw .unrecognized(origin: origin, signature: Array(bytes.prefix(8)))
        }
    }
}
