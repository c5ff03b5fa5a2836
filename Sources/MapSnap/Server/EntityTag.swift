import Foundation

/// Strong HTTP entity tags (`ETag`) for rendered images, and the `If-None-Match` test.
///
/// A render is a function of its request and the data, so a tag made from the canonical
/// request and the data version identifies the bytes without rendering them: a matching
/// `If-None-Match` is answered `304` at no render cost. 128 bits from two FNV-1a 64 hashes
/// with different offsets: not cryptographic, and it need not be — a cache only sends back
/// the tag it got for the same URL.
enum EntityTag {
    /// `"…"`: 32 hex digits over `parts` (each length-prefixed, so boundaries count).
    static func make(_ parts: [String]) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x6c62_272e_07bb_0142
        func mix(_ byte: UInt8) {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = b ^ (b >> 29)
        }
        for part in parts {
            var n = UInt64(part.utf8.count)
            for _ in 0..<8 { mix(UInt8(truncatingIfNeeded: n)); n >>= 8 }
            for byte in part.utf8 { mix(byte) }
        }
        return "\"" + hex(a) + hex(b) + "\""
    }

    /// True when an `If-None-Match` value (`*`, or a list of tags, weak or strong) matches
    /// `tag` (weak comparison, as RFC 9110 §13.1.2 asks for `If-None-Match`).
    static func matches(ifNoneMatch: String, tag: String) -> Bool {
        for item in ifNoneMatch.split(separator: ",") {
            var candidate = item.trimmingSpaces()
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            if candidate == tag { return true }
        }
        return false
    }

    private static func hex(_ x: UInt64) -> String {
        let digits = String(x, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
