import MapSnapTesting
import Foundation
import Testing
@testable import MapSnap

/// The libdeflate PNG writer: real renders and edge-case canvases go through encode and back
/// through libpng's decoder with every premultiplied byte unchanged.
@Suite struct PNGEncoderTests {
    /// The IHDR fields (bit depth, colour type) of an encoded file.
    private func header(_ png: [UInt8]) -> (bitDepth: UInt8, colorType: UInt8) { (png[24], png[25]) }

    private func roundTrip(_ canvas: Canvas, maximumIDATLength: Int = PNGEncoder.defaultMaximumIDATLength) throws -> Canvas {
        try PNGCodec.decode(try PNGEncoder.encode(canvas, maximumIDATLength: maximumIDATLength), origin: "memory")
    }

    /// Real renders of every kind the encoder distinguishes: a drawn street map (unfiltered),
    /// satellite imagery and hillshaded relief (Paeth), at @1x and @2x.
    @Test(arguments: [
        ("normal", LatLng(60.1699, 24.9450), 16.0, 1.0),
        ("normal", LatLng(60.1699, 24.9450), 15.0, 2.0),
        ("hybrid", LatLng(50, 10), 4.5, 1.0),
        ("terrain", LatLng(46.5, 8), 4.5, 1.0),
    ])
    func realRendersDecodeToIdenticalPixels(style: String, center: LatLng, zoom: Double, scale: Double) throws {
        let o = MapSnapshotOptions(width: 384, height: 256, scale: scale, center: center, zoom: zoom, style: style)
        let canvas = Canvas(try MapSnapshotter(options: o).render().image)
        let png = try PNGCodec.encode(canvas)
        #expect(header(png) == (8, 2))
        let back = try PNGCodec.decode(png, origin: style)
        let same = back.pixels == canvas.pixels  // a Bool: Swift Testing would diff whole arrays
        #expect(same, "\(style) z\(zoom) @\(scale)x changed pixels through encode → decode")
    }

    @Test func drawnMapsStayUnfilteredAndImageryIsPaethFiltered() throws {
        let map = Canvas(try MapSnapshotter(options: MapSnapshotOptions(width: 384, height: 256, scale: 1,
                                                                         center: LatLng(60.1699, 24.9450), zoom: 16, style: "normal")).render().image)
        let imagery = Canvas(try MapSnapshotter(options: MapSnapshotOptions(width: 384, height: 256, scale: 1,
                                                                             center: LatLng(50, 10), zoom: 4.5, style: "hybrid")).render().image)
        for (canvas, expected) in [(map, PNGEncoder.RowFilter.none), (imagery, .paeth)] {
            let rows = PNGEncoder.scanlines(canvas, channels: 3)
            #expect(try PNGEncoder.chooseFilter(rows, lineLength: canvas.width * 3 + 1, bytesPerPixel: 3) == expected)
        }
    }

    /// With a second thread the unfiltered deflate runs beside the filter trial; the file must
    /// be the same bytes as on one thread, whichever filter the trial picks (a drawn map:
    /// unfiltered; imagery: Paeth, the speculative stream thrown away).
    @Test func encodingOnTwoThreadsGivesTheSameBytes() throws {
        for (style, center, zoom) in [("normal", LatLng(60.1699, 24.9450), 16.0), ("hybrid", LatLng(50, 10), 4.5)] {
            let o = MapSnapshotOptions(width: 384, height: 256, scale: 1, center: center, zoom: zoom, style: style)
            let image = try MapSnapshotter(options: o).render().image
            let one = try image.pngData(threads: 1)
            let two = try image.pngData(threads: 2)
            let same = one == two
            #expect(same, "\(style): \(one.count) bytes on one thread, \(two.count) on two")
            #expect(try image.data(format: .png32, threads: 4) == one)
        }
    }

    /// A drawn map with 2 MiB of rows or more deflates in two parts (igzip, then libdeflate)
    /// joined into one zlib stream: the same bytes on 1, 2 and 4 threads, exactly the
    /// stream `joinParts` builds from the two parts, and the same pixels back through libpng
    /// and through the fast decoder.
    @Test func largeDrawnMapsDeflateInTwoPartsIntoOneStream() throws {
        let o = MapSnapshotOptions(width: 1024, height: 720, scale: 1, center: LatLng(60.1699, 24.9450), zoom: 16, style: "normal")
        let image = try MapSnapshotter(options: o).render().image
        let canvas = Canvas(image)
        let lineLength = canvas.width * 3 + 1
        #expect(lineLength * canvas.height >= PNGEncoder.partedMinimumBytes)
        let one = try image.pngData(threads: 1)
        let same2 = try image.pngData(threads: 2) == one, same4 = try image.pngData(threads: 4) == one
        #expect(same2 && same4)

        let rows = PNGEncoder.scanlines(canvas, channels: 3)
        let split = canvas.height * PNGEncoder.firstPartShare.0 / PNGEncoder.firstPartShare.1
        let parts = [0..<split, split..<canvas.height]
        let streams = try rows.withUnsafeBufferPointer { r in
            try parts.indices.map { try PNGEncoder.deflatePart($0, of: parts, rows: r, lineLength: lineLength) }
        }
        let joined = PNGEncoder.joinParts(streams, rows: rows)
        let idat = Self.imageData(one)
        #expect(idat == joined, "the file's IDAT data is not the two joined parts")
        #expect(try Gzip.decompress(joined, maxOutputBytes: rows.count) == rows)
        let slow = try PNGCodec.decode(one, origin: "parted", fastPath: false).pixels == canvas.pixels
        let fast = try PNGCodec.decode(one, origin: "parted", fastPath: true).pixels == canvas.pixels
        #expect(slow && fast)
    }

    /// igzip's sync-flushed raw deflate followed by libdeflate's raw deflate inflates as one
    /// stream, for data that compresses and data that does not, and for a one-byte part.
    @Test func syncFlushedPartsJoinIntoOneZlibStream() throws {
        var rng = SeededGenerator(seed: 3)
        let noise = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let runs = (0..<90_000).map { UInt8(($0 / 700) % 5) }
        for (a, b) in [(noise, runs), (runs, noise), ([UInt8(9)], runs), (runs, [UInt8(1)])] {
            let head = try a.withUnsafeBytes { try IgzipDeflate.syncFlushed($0) }
            #expect(Array(head.suffix(4)) == [0, 0, 0xFF, 0xFF])  // the flush's empty stored block
            let tail = try b.withUnsafeBytes { try DeflateCompressor(level: 1).deflate($0) }
            let joined = PNGEncoder.joinParts([head, tail], rows: a + b)
            #expect(try Gzip.decompress(joined, maxOutputBytes: a.count + b.count) == a + b)
        }
    }

    /// The concatenated payload of a PNG's IDAT chunks.
    static func imageData(_ png: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 8
        while i + 12 <= png.count {
            let n = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            if Array(png[(i + 4)..<(i + 8)]) == Array("IDAT".utf8) { out += png[(i + 8)..<(i + 8 + n)] }
            i += 12 + n
        }
        return out
    }

    /// A translucent canvas with noise (so Paeth is chosen) and every alpha value: RGBA rows
    /// filtered with a 4-byte pixel distance.
    @Test func translucentNoiseRoundTripsThroughPaeth() throws {
        var rng = SeededGenerator(seed: 7)
        let c = Canvas(width: 300, height: 170)
        for i in stride(from: 0, to: c.pixels.count, by: 4) {
            let alpha = UInt8(truncatingIfNeeded: i / 4)
            let p = Canvas.premultiply(Color(red: UInt8(truncatingIfNeeded: rng.next()), green: UInt8(truncatingIfNeeded: i / 7),
                                             blue: UInt8(truncatingIfNeeded: rng.next() >> 8), alpha: alpha))
            c.pixels[i] = p.0; c.pixels[i + 1] = p.1; c.pixels[i + 2] = p.2; c.pixels[i + 3] = p.3
        }
        let rows = PNGEncoder.scanlines(c, channels: 4)
        #expect(try PNGEncoder.chooseFilter(rows, lineLength: 300 * 4 + 1, bytesPerPixel: 4) == .paeth)
        let png = try PNGCodec.encode(c)
        #expect(header(png) == (8, 6))
        #expect(try PNGCodec.decode(png, origin: "noise").pixels == c.pixels)
    }

    /// Paeth's predictor against the PNG specification's definition, over every byte triple.
    @Test func paethPredictorMatchesTheSpecification() {
        for a in 0..<256 {
            for b in 0..<256 {
                for c in stride(from: 0, to: 256, by: 3) {
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    let expected = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                    let got = PNGEncoder.paethPredictor(left: UInt8(a), up: UInt8(b), upperLeft: UInt8(c))
                    if Int(got) != expected {
                        Issue.record("paeth(\(a), \(b), \(c)) = \(got), expected \(expected)")
                        return
                    }
                }
            }
        }
    }

    /// One-pixel-wide and one-row images: the filter's left and up neighbours are missing.
    @Test(arguments: [(1, 1), (1, 40), (40, 1), (2, 3)])
    func tinyCanvasesRoundTrip(width: Int, height: Int) throws {
        let c = Canvas(width: width, height: height)
        for i in 0..<c.pixels.count { c.pixels[i] = UInt8(truncatingIfNeeded: i * 37 + 11) | 0x80 }
        for i in stride(from: 3, to: c.pixels.count, by: 4) { c.pixels[i] = 255 }
        let rows = PNGEncoder.scanlines(c, channels: 3)
        var filtered = rows
        PNGEncoder.paethFilterInPlace(&filtered, lineLength: width * 3 + 1, bytesPerPixel: 3)
        #expect(filtered.count == rows.count)
        #expect(try roundTrip(c).pixels == c.pixels)
    }

    @Test func oneColourCanvasIsAOneBitPalette() throws {
        let opaque = Canvas(width: 1600, height: 1200, fill: Color(rgb: 0xF2EFE9))
        let png = try PNGCodec.encode(opaque)
        #expect(header(png) == (1, 3))
        #expect(chunkTypes(png) == ["IHDR", "sRGB", "PLTE", "IDAT", "IEND"])
        #expect(png.count < 1000)
        #expect(try PNGCodec.decode(png, origin: "flat").pixels == opaque.pixels)
    }

    @Test(arguments: [Color.clear, Color(rgba: 0x3366_9980), Color(rgba: 0xFF00_0001)])
    func translucentOneColourCanvasKeepsItsAlpha(_ fill: Color) throws {
        let c = Canvas(width: 13, height: 5, fill: fill)
        let png = try PNGCodec.encode(c)
        #expect(chunkTypes(png) == ["IHDR", "sRGB", "PLTE", "tRNS", "IDAT", "IEND"])
        #expect(try PNGCodec.decode(png, origin: "flat").pixels == c.pixels)
    }

    /// Palette bit depth grows with the colour count; 257 colours are RGB again.
    @Test(arguments: [(2, 1 as UInt8), (3, 2), (4, 2), (5, 4), (16, 4), (17, 8), (256, 8)])
    func fewColoursAreAPaletteOfTheSmallestDepth(colours: Int, bitDepth: UInt8) throws {
        let c = Canvas(width: 37, height: 11, fill: .white)
        for i in 0..<(c.width * c.height) {
            let k = (i * 7) % colours  // every colour used, neighbours differ
            let p = Canvas.premultiply(Color(red: UInt8(k), green: 200, blue: UInt8(255 - k), alpha: k % 3 == 1 ? 128 : 255))
            c.pixels[i * 4] = p.0; c.pixels[i * 4 + 1] = p.1; c.pixels[i * 4 + 2] = p.2; c.pixels[i * 4 + 3] = p.3
        }
        let png = try PNGCodec.encode(c)
        #expect(header(png) == (bitDepth, 3))
        #expect(chunkTypes(png).contains("tRNS") == (colours > 1))
        #expect(try PNGCodec.decode(png, origin: "palette").pixels == c.pixels)
    }

    @Test func twoHundredFiftySevenColoursAreNotAPalette() throws {
        let c = Canvas(width: 257, height: 1)
        for x in 0..<257 { c.pixels[x * 4] = UInt8(x & 0xFF); c.pixels[x * 4 + 1] = UInt8(x >> 8); c.pixels[x * 4 + 3] = 255 }
        #expect(IndexedImage(c) == nil)
        #expect(header(try PNGCodec.encode(c)) == (8, 2))
        #expect(try roundTrip(c).pixels == c.pixels)
    }

    /// A blank background with the default scale bar and attribution: ~130 colours, the case
    /// that a palette makes cheap and small.
    @Test func blankMapWithDecorationsIsAPaletteImage() throws {
        let style = TestPaths.temporaryDirectory() + "/blank.json"
        try Data(##"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#f2efe9"}}]}"##.utf8)
            .write(to: URL(fileURLWithPath: style))
        let o = MapSnapshotOptions(width: 480, height: 320, scale: 1, center: LatLng(60.17, 24.94), zoom: 16, style: style)
        let canvas = Canvas(try MapSnapshotter(options: o).render().image)
        let png = try PNGCodec.encode(canvas)
        #expect(header(png).colorType == 3)
        #expect(try PNGCodec.decode(png, origin: "blank").pixels == canvas.pixels)
    }

    /// The compressed stream split over many IDAT chunks decodes the same (and each chunk's
    /// CRC is checked by `PNGChunkScanner` on the way in).
    @Test func compressedStreamSplitOverManyIDATChunks() throws {
        let c = Canvas(width: 200, height: 150)
        var rng = SeededGenerator(seed: 3)
        for i in 0..<c.pixels.count { c.pixels[i] = UInt8(truncatingIfNeeded: rng.next()) }
        for i in stride(from: 3, to: c.pixels.count, by: 4) { c.pixels[i] = 255 }
        let png = try PNGEncoder.encode(c, maximumIDATLength: 1000)
        let idats = chunkTypes(png).filter { $0 == "IDAT" }.count
        #expect(idats > 10)
        #expect(try PNGCodec.decode(png, origin: "split").pixels == c.pixels)
    }

    /// The chunks' CRC (libdeflate's `crc32`) against the standard check value and a known chunk.
    @Test func crc32MatchesTheStandardCheckValues() {
        let check = Array("123456789".utf8).withUnsafeBytes { Gzip.crc32($0) }
        #expect(check == 0xCBF4_3926)
        let iend = Array("IEND".utf8).withUnsafeBytes { Gzip.crc32($0) }
        #expect(iend == 0xAE42_6082)
        let split = Array("12345".utf8).withUnsafeBytes { first in
            Array("6789".utf8).withUnsafeBytes { Gzip.crc32($0, continuing: Gzip.crc32(first)) }
        }
        #expect(split == check)
    }

    /// Opaque pixels lose their alpha four at a time, the rest one by one: every count and
    /// every position in a row gives the bytes of the plain per-byte copy.
    @Test func opaquePixelsDropAlphaForEveryCount() {
        var rng = SeededGenerator(seed: 7)
        let src = (0..<(4 * 23)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for count in 0...23 {
            var out = [UInt8](repeating: 0xAA, count: count * 3 + 5)
            src.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { d in PNGEncoder.writeStraightPixels(s, into: d, count: count, channels: 3) }
            }
            var want: [UInt8] = []
            for i in 0..<count { want += src[(i * 4)..<(i * 4 + 3)] }
            #expect(Array(out[0..<(count * 3)]) == want, "count \(count)")
            #expect(out[(count * 3)...].allSatisfy { $0 == 0xAA }, "count \(count): wrote past the pixels")
        }
    }
}

/// Whole-image helpers for the tests (the encoder itself converts and samples rows in place).
extension PNGEncoder {
    /// Scanlines in PNG layout, all unfiltered: per row a filter-type byte 0, then `channels`
    /// (3 or 4) straight-alpha bytes per pixel.
    static func scanlines(_ canvas: Canvas, channels: Int) -> [UInt8] {
        let width = canvas.width, height = canvas.height
        let lineLength = width * channels + 1
        return [UInt8](unsafeUninitializedCapacity: lineLength * height) { out, initialized in
            canvas.pixels.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    writeScanline(src, row: y, width: width, channels: channels,
                                  into: UnsafeMutableBufferPointer(rebasing: out[(y * lineLength)..<((y + 1) * lineLength)]))
                }
            }
            initialized = lineLength * height
        }
    }

    /// `chooseFilter` over unfiltered scanlines already in memory.
    static func chooseFilter(_ rows: [UInt8], lineLength: Int, bytesPerPixel: Int) throws(PNGError) -> RowFilter {
        let result = rows.withUnsafeBufferPointer { all in
            Result { () throws(PNGError) in
                try chooseFilter(height: rows.count / lineLength, lineLength: lineLength, bytesPerPixel: bytesPerPixel) { y, out in
                    _ = out.update(fromContentsOf: all[(y * lineLength)..<((y + 1) * lineLength)])
                }
            }
        }
        return try result.get()
    }
}
