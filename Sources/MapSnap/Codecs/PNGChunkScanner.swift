/// Walks the chunk structure of a PNG stream before libpng sees it, so that corrupt input is
/// reported as a precise `PNGError` (offset, chunk, declared vs. computed CRC) and so that the
/// declared size is checked before any pixel buffer is allocated.
///
/// Layout checked here (PNG spec §5):
/// ```
/// 89 50 4E 47 0D 0A 1A 0A | len(4) type(4) data(len) crc(4) | ... | 0 "IEND" crc
/// ```
/// Every chunk's CRC is verified, ancillary ones included: a golden PNG with any flipped bit
/// is a corrupt golden, so being stricter than libpng's defaults is deliberate.
struct PNGChunkScanner {
    /// The image header fields the decoder needs before allocating.
    struct Header: Equatable {
        var width, height: UInt32
        var bitDepth, colorType: UInt8
        var interlaced: Bool
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Validates signature, chunk lengths, CRCs, a leading IHDR and a terminating IEND, and
    /// returns the parsed header. Never traps on any input.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, origin: String) throws(PNGError) -> Header {
        let count = bytes.count
        guard count >= 8, (0..<8).allSatisfy({ bytes[$0] == signature[$0] }) else {
            throw .notPNG(origin: origin, signature: Array(bytes.prefix(8)))
        }
        var offset = 8
        var header: Header?
        while true {
            guard count - offset >= 8 else {
                throw .truncated(origin: origin, offset: offset, expected: 8, available: count - offset)
            }
            let length = readUInt32(bytes, offset)
            let type = chunkName(bytes, offset + 4)
            guard length <= 0x7FFF_FFFF else {
                throw .invalidChunkLength(origin: origin, chunk: type, offset: offset, length: length)
            }
            let body = Int(length) + 4  // data + CRC
            guard count - (offset + 8) >= body else {
                throw .truncated(origin: origin, offset: offset + 8, expected: body, available: count - offset - 8)
            }
            let declared = readUInt32(bytes, offset + 8 + Int(length))
            let computed = Gzip.crc32(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8 + Int(length))])))
            guard declared == computed else {
                throw .invalidChunkChecksum(origin: origin, chunk: type, offset: offset, declared: declared, computed: computed)
            }
            if header == nil {
                guard type == "IHDR", length == 13 else { throw .missingHeader(origin: origin, found: type) }
                let d = offset + 8
                let h = Header(width: readUInt32(bytes, d), height: readUInt32(bytes, d + 4),
                               bitDepth: bytes[d + 8], colorType: bytes[d + 9], interlaced: bytes[d + 12] != 0)
                guard h.width > 0, h.height > 0 else {
                    throw .invalidDimensions(origin: origin, width: h.width, height: h.height)
                }
                header = h
            }
            offset += 8 + body
            if type == "IEND", let header { return header }
        }
    }

    /// Big-endian UInt32 at `offset`; callers have checked `offset + 4 <= count`.
    static func readUInt32(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
        UInt32(b[offset]) << 24 | UInt32(b[offset + 1]) << 16 | UInt32(b[offset + 2]) << 8 | UInt32(b[offset + 3])
    }

    /// The four type bytes as text, non-printable bytes escaped so messages stay one line.
    static func chunkName(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int) -> String {
        var s = ""
        for i in offset..<(offset + 4) {
            let c = b[i]
            if c >= 0x20 && c < 0x7F { s.unicodeScalars.append(Unicode.Scalar(c)) } else { s += "\\x" + String(c, radix: 16) }
        }
        return s
    }
}
