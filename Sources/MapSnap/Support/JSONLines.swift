/// The documents of a JSON Lines file (one JSON value per line, jsonlines.org): each
/// non-blank line with its 1-based line number and its byte range in the file.
///
/// Lines end at `\n`; a `\r` before it is white space to the JSON reader. Lines holding only
/// spaces, tabs or `\r` are skipped, so a trailing newline or blank separators are fine.
/// Read a line with `JSONReader(bytes: file, range: line.range, source: …, firstLine:
/// line.number)`, so its errors give the file's own line numbers and byte offsets.
struct JSONLines: Sequence, IteratorProtocol {
    struct Line: Equatable, Sendable {
        var number: Int
        var range: Range<Int>
    }

    private let bytes: [UInt8]
    private var offset: Int
    private var number = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = bytes.startIndex
    }

    mutating func next() -> Line? {
        while offset < bytes.endIndex {
            let start = offset
            var end = start
            var blank = true
            while end < bytes.endIndex, bytes[end] != UInt8(ascii: "\n") {
                let byte = bytes[end]
                if byte != 0x20 && byte != 0x09 && byte != 0x0D { blank = false }
                end += 1
            }
            offset = end + 1
            number += 1
            if !blank { return Line(number: number, range: start..<end) }
        }
        return nil
    }
}
