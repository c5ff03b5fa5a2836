/// Decides whether a response body (or a cache file) is a tile of the expected format: the
/// gate in front of the cache, so that an HTML quota page, a JSON error or a cut-off image
/// is never stored, and a cache file that fails it is discarded.
///
/// The checks are structural and cheap, because the renderer decodes once anyway: PNG chunk
/// framing and CRCs, JPEG header and end marker, the WebP RIFF length, and for vector tiles
/// the protobuf framing and layer headers (`VectorTile(bytes:)` reads no features).
enum TileBodyValidator {
    /// Why a body is not a usable tile.
    struct Rejection: Error, Equatable {
        var reason: String
    }

    /// The tile ready to use and cache — un-gzipped for vector tiles (and for gzip bodies of
    /// an unknown format) within `maxBytes` — or why it is not one.
    ///
    /// `.unknown` (a template without a file extension) accepts a valid image or a valid
    /// vector tile; text (an error page) is never a tile of any format.
    static func validate(_ body: [UInt8], format: TileFormat, maxBytes: Int) throws(Rejection) -> [UInt8] {
        var bytes = body
        if format == .mvt || (format == .unknown && Gzip.isGzip(body)) {
            do { bytes = try Gzip.decompressIfNeeded(body, maxOutputBytes: maxBytes) } catch {
                throw Rejection(reason: error.description)
            }
        }
        let sniffed = RasterImageDecoder.sniff(bytes)
        switch format {
        case .png, .jpg, .webp:
            guard sniffed != nil else {
                throw Rejection(reason: "expected a \(format.rawValue.uppercased()) image, got \(describe(bytes))")
            }
        case .mvt:
            if let sniffed { throw Rejection(reason: "expected a vector tile, got a \(sniffed.rawValue.uppercased()) image") }
            try checkVectorTile(bytes)
        case .unknown:
            if sniffed == nil {
                if looksLikeText(bytes) { throw Rejection(reason: "expected a tile, got \(describe(bytes))") }
                try checkVectorTile(bytes)
            }
        }
        if let sniffed { try checkImage(bytes, format: sniffed) }
        return bytes
    }

    private static func checkVectorTile(_ bytes: [UInt8]) throws(Rejection) {
        if looksLikeText(bytes) { throw Rejection(reason: "expected a vector tile, got \(describe(bytes))") }
        do { _ = try VectorTile(bytes: bytes) } catch {
            throw Rejection(reason: "not a vector tile: \(error.description)")
        }
    }

    private static func checkImage(_ bytes: [UInt8], format: TileFormat) throws(Rejection) {
        switch format {
        case .png:
            do {
                _ = try bytes.withUnsafeBufferPointer { buf throws(PNGError) in try PNGChunkScanner.scan(buf, origin: "tile") }
            } catch {
                throw Rejection(reason: error.description)
            }
        case .jpg:
            guard bytes.count >= 4, bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9 else {
                throw Rejection(reason: "JPEG without its end-of-image marker (truncated)")
            }
            do { _ = try JPEGCodec.dimensions(of: bytes, origin: "tile") } catch { throw Rejection(reason: error.description) }
        case .webp:
            // RIFF size (little-endian, bytes 4..<8) counts everything after the first 8 bytes.
            let declared = bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
            guard declared + 8 <= bytes.count else {
                throw Rejection(reason: "WebP cut short: RIFF declares \(declared + 8) bytes, got \(bytes.count)")
            }
        case .mvt, .unknown:
            break
        }
    }

    /// True when the first non-blank byte opens markup or JSON: an error page, never a tile
    /// (an MVT starts with a field tag such as 0x1a; `<` and `{` would be group wire types).
    static func looksLikeText(_ bytes: [UInt8]) -> Bool {
        let blanks: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]
        guard let first = bytes.prefix(256).first(where: { !blanks.contains($0) }) else { return false }
        return first == UInt8(ascii: "<") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// "N bytes starting 'text…'" with control characters shown as dots.
    static func describe(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "an empty body" }
        let head = String(decoding: bytes.prefix(24), as: UTF8.self).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0.isPunctuation || $0.isSymbol || $0 == " ") ? $0 : "." }
        return "\(bytes.count) bytes starting '\(String(head))'"
    }
}
