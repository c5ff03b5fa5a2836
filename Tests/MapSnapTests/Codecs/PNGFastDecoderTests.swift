import MapSnapTesting
import Foundation
import Testing
@testable import MapSnap

/// `PNGFastDecoder` must give libpng's pixels (or hand the file to libpng) for every input:
/// each test decodes the same bytes with and without the fast path and compares.
@Suite struct PNGFastDecoderTests {
    /// A PNG built chunk by chunk: the test controls layout, filters, chunk order and damage.
    struct Builder {
        var colorType: UInt8
        var bitDepth: UInt8
        var width = 13
        var height = 7
        var interlace: UInt8 = 0
        /// Filter type per row (cycled); 5 or more is an invalid type.
        var filters: [UInt8] = [0, 1, 2, 3, 4]
        var palette: [UInt8]? = nil
        var transparency: [UInt8]? = nil
        /// Extra chunks written after IHDR (type, data).
        var extra: [(String, [UInt8])] = []
        /// Number of IDAT chunks the stream is split over.
        var idatCount = 1
        var seed: UInt64 = 1
        /// Largest sample value written (palette files: below the palette's size).
        var sampleLimit: Int? = nil

        var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]! }

        /// Unfiltered rows (no filter bytes) of seeded pseudo-random samples.
        func rawRows() -> [[UInt8]] {
            var rng = SeededGenerator(seed: seed)
            let rowBytes = (width * channels * Int(bitDepth) + 7) / 8
            let limit = sampleLimit ?? (1 << Int(bitDepth))
            return (0..<height).map { _ in
                var bits: [Int] = []
                for _ in 0..<(width * channels) {
                    // Mostly repeats of the previous sample (runs), sometimes noise: every filter sees both.
                    let state = rng.next()
                    let noise = Int(state >> 33) % limit
                    let repeatPrevious = state >> 62 != 0 && !bits.isEmpty
                    bits.append(repeatPrevious ? bits[bits.count - 1] : noise)
                }
                var row = [UInt8](repeating: 0, count: rowBytes)
                let d = Int(bitDepth)
                for (i, v) in bits.enumerated() {
                    if d == 8 { row[i] = UInt8(v) } else {
                        let bit = i * d
                        row[bit / 8] |= UInt8(v << (8 - d - bit % 8))
                    }
                }
                return row
            }
        }

        func filtered() -> [UInt8] {
            let rows = rawRows()
            let bpp = max(1, channels * Int(bitDepth) / 8)
            var out: [UInt8] = []
            for (y, row) in rows.enumerated() {
                let f = filters[y % filters.count]
                out.append(f)
                let up = y == 0 ? [UInt8](repeating: 0, count: row.count) : rows[y - 1]
                for i in 0..<row.count {
                    let a = i >= bpp ? row[i - bpp] : 0, b = up[i], c = i >= bpp ? up[i - bpp] : 0
                    let p: UInt8
                    switch f {
                    case 1: p = a
                    case 2: p = b
                    case 3: p = UInt8((Int(a) + Int(b)) / 2)
                    case 4: p = PNGEncoder.paethPredictor(left: a, up: b, upperLeft: c)
                    default: p = 0
                    }
                    out.append(row[i] &- p)
                }
            }
            return out
        }

        func bytes(stream: [UInt8]? = nil) throws -> [UInt8] {
            var png = PNGChunkScanner.signature
            func chunk(_ type: String, _ data: [UInt8]) {
                let body = Array(type.utf8) + data
                png += be32(UInt32(data.count)) + body
                png += be32(body.withUnsafeBytes { Gzip.crc32($0) })
            }
            chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [bitDepth, colorType, 0, 0, interlace])
            for (t, d) in extra { chunk(t, d) }
            if let palette { chunk("PLTE", palette) }
            if let transparency { chunk("tRNS", transparency) }
            let z = try stream ?? DeflateCompressor(level: 6).zlib(filtered())
            let part = max(1, (z.count + idatCount - 1) / idatCount)
            var i = 0
            repeat { chunk("IDAT", Array(z[i..<min(z.count, i + part)])); i += part } while i < z.count
            chunk("IEND", [])
            return png
        }
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// Both decoders on `png`: the same pixels or the same error. Returns whether the fast path took it.
    @discardableResult
    func expectSameAsLibpng(_ png: [UInt8], _ comment: Comment? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let fast = Result { () throws(PNGError) in try PNGCodec.decode(png, origin: "t", fastPath: true) }
        let slow = Result { () throws(PNGError) in try PNGCodec.decode(png, origin: "t", fastPath: false) }
        switch (fast, slow) {
        case let (.success(a), .success(b)):
            #expect(a.width == b.width && a.height == b.height && a.pixels == b.pixels, comment, sourceLocation: sourceLocation)
        case let (.failure(a), .failure(b)):
            #expect(a == b, comment, sourceLocation: sourceLocation)
        default:
            Issue.record("fast \(fast) vs libpng \(slow) \(comment.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        }
        let took = png.withUnsafeBufferPointer { b in
            (try? PNGChunkScanner.scan(b, origin: "t")).flatMap { PNGFastDecoder.decode(b, header: $0) } != nil
        }
        return took
    }

    static func palette(_ n: Int) -> [UInt8] {
        var p: [UInt8] = []
        for i in 0..<n {
            p.append(UInt8((i * 37) & 0xFF))
            p.append(UInt8((i * 91) & 0xFF))
            p.append(UInt8(255 - i % 256))
        }
        return p
    }

    @Test(arguments: [(UInt8(0), UInt8(1)), (0, 2), (0, 4), (0, 8), (2, 8), (3, 1), (3, 2), (3, 4), (3, 8), (4, 8), (6, 8)])
    func everyLayoutAndFilterMatchesLibpng(_ layout: (UInt8, UInt8)) throws {
        let (type, depth) = layout
        for width in [1, 5, 13, 64] {
            for filters: [UInt8] in [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4], [4, 3, 2, 1]] {
                var b = Builder(colorType: type, bitDepth: depth, width: width, height: 9, filters: filters, seed: UInt64(width))
                if type == 3 { b.palette = Self.palette(1 << Int(depth)) }
                #expect(expectSameAsLibpng(try b.bytes(), "type \(type) depth \(depth) width \(width) filters \(filters)"))
            }
        }
    }

    @Test func transparencyMatchesLibpng() throws {
        // Palette: partial and full alpha tables.
        for alphas: [UInt8] in [[0], [0, 128, 255, 7], [UInt8](repeating: 77, count: 16)] {
            var b = Builder(colorType: 3, bitDepth: 4)
            b.palette = Self.palette(16)
            b.transparency = alphas
            #expect(expectSameAsLibpng(try b.bytes(), "palette alphas \(alphas)"))
        }
        // Grey keys at every depth, and an RGB key that occurs.
        for depth: UInt8 in [1, 2, 4, 8] {
            var b = Builder(colorType: 0, bitDepth: depth)
            b.transparency = [0, 1]
            #expect(expectSameAsLibpng(try b.bytes(), "grey \(depth) key 1"))
        }
        var rgb = Builder(colorType: 2, bitDepth: 8, sampleLimit: 2)
        rgb.transparency = [0, 1, 0, 0, 0, 1]
        #expect(expectSameAsLibpng(try rgb.bytes(), "rgb key"))
    }

    @Test func splitImageDataAndAncillaryChunksMatchLibpng() throws {
        var b = Builder(colorType: 6, bitDepth: 8, width: 40, height: 30)
        b.idatCount = 7
        b.extra = [("tEXt", Array("Comment\u{0}hi".utf8)), ("sRGB", [0]), ("pHYs", [0, 0, 11, 19, 0, 0, 11, 19, 1])]
        #expect(expectSameAsLibpng(try b.bytes()))
    }

    /// What the fast path leaves to libpng: the results are libpng's (same pixels or error).
    @Test func filesOutsideTheFastPathGoToLibpng() throws {
        var cases: [(String, Builder, [UInt8]?)] = []
        var g = Builder(colorType: 2, bitDepth: 8)
        g.extra = [("gAMA", Self.be32(100_000))]
        cases.append(("gAMA", g, nil))
        var s = Builder(colorType: 6, bitDepth: 8)
        s.extra = [("sBIT", [5, 6, 5, 8])]
        cases.append(("sBIT", s, nil))
        cases.append(("16-bit", Builder(colorType: 2, bitDepth: 16), nil))
        var short = Builder(colorType: 3, bitDepth: 8)
        short.palette = Self.palette(4)   // samples reach past the 4 entries
        cases.append(("index past palette", short, nil))
        var badFilter = Builder(colorType: 0, bitDepth: 8)
        badFilter.filters = [0, 7]
        cases.append(("filter type 7", badFilter, nil))
        var noPalette = Builder(colorType: 3, bitDepth: 8)
        noPalette.sampleLimit = 4
        cases.append(("no PLTE", noPalette, nil))
        let plain = Builder(colorType: 2, bitDepth: 8)
        let stream = try DeflateCompressor(level: 6).zlib(plain.filtered())
        cases.append(("stream one byte short", plain, Array(stream.dropLast(5)) + Array(stream.suffix(4))))
        var adler = stream
        adler[adler.count - 1] ^= 1
        cases.append(("wrong Adler-32", plain, adler))
        cases.append(("trailing bytes after the stream", plain, stream + [1, 2, 3]))
        let longer = try DeflateCompressor(level: 6).zlib(plain.filtered() + [0, 0, 0])
        cases.append(("too much image data", plain, longer))
        var unknownCritical = Builder(colorType: 2, bitDepth: 8)
        unknownCritical.extra = [("ZZZZ", [1])]
        cases.append(("unknown critical chunk", unknownCritical, nil))
        for (name, b, stream) in cases {
            #expect(!expectSameAsLibpng(try b.bytes(stream: stream), Comment(rawValue: name)), Comment(rawValue: name))
        }
    }

    /// Every fixture file (all libpng colour types, depths and interlacing) decodes alike.
    @Test func fixturesMatchLibpng() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/png")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".png") }.sorted()
        #expect(names.count >= 5)
        for name in names { expectSameAsLibpng(try pngFixture(name), Comment(rawValue: name)) }
    }

    /// Random damage to a valid file: each result is libpng's.
    @Test func damagedFilesMatchLibpng() throws {
        var b = Builder(colorType: 3, bitDepth: 8, width: 20, height: 10)
        b.palette = Self.palette(256)
        let good = try b.bytes()
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            var bad = good
            let state = rng.next()
            let i = 8 + Int(state >> 33) % (bad.count - 8)
            bad[i] ^= UInt8(truncatingIfNeeded: state >> 20) | 1
            expectSameAsLibpng(bad)
        }
    }
}
