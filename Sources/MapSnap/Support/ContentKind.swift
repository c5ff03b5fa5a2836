/// What a file that failed to parse seems to hold, in words ("text that looks like HTML",
/// "a gzip stream"), for error messages that must not echo the file's bytes: the first
/// bytes of a key or a token given by mistake do not belong in a terminal or a CI log.
package enum ContentKind {
    /// A phrase for what `head` (a file's first bytes) looks like: "empty", a known format,
    /// "text", or "binary data of no format mapsnap reads".
    package static func describe(_ head: some Collection<UInt8>) -> String {
        let b = Array(head.prefix(16))
        guard let first = b.first else { return "empty" }
        func starts(_ magic: [UInt8]) -> Bool { b.count >= magic.count && Array(b.prefix(magic.count)) == magic }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "a PNG image" }
        if starts([0xFF, 0xD8, 0xFF]) { return "a JPEG image" }
        if starts([0x1F, 0x8B]) { return "a gzip stream" }
        if starts(Array("SQLite format 3".utf8)) { return "an SQLite database" }
        if starts(Array("PMTiles".utf8)) { return "a PMTiles archive" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive" }
        if starts(Array("RIFF".utf8)) { return "a RIFF container (WebP?)" }
        if starts(Array("GIF8".utf8)) { return "a GIF image" }
        let printable = b.allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) || $0 >= 0x80 }
        guard printable else { return "binary data of no format mapsnap reads" }
        let text = b.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        switch text.first ?? first {
        case UInt8(ascii: "<"): return "text that looks like HTML or XML"
        case UInt8(ascii: "{"), UInt8(ascii: "["): return "text that looks like JSON"
        default: return "text"
        }
    }
}
