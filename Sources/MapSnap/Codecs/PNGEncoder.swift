internal import CDeflate

/// Writes PNG files itself, with libdeflate compressing the scanlines: signature, `IHDR`,
/// `sRGB`, `PLTE` and `tRNS` for palette images, `IDAT`, `IEND` (PNG spec §5, §11).
///
/// Why not libpng's encoder: its adaptive per-row filter search plus zlib level 6 was 40–60 %
/// of a route image's time, and drawn maps deflate smaller *unfiltered* (long runs of one
/// colour, road edges that repeat row after row are what LZ77 matches; filtering turns them
/// into noise). Measured on real renders (1600×1200 and 2048² at z16, hybrid imagery, terrain
/// hillshading, a blank background), see the commits that introduced and tuned this file.
///
/// Every choice below is a function of the pixels alone, so the bytes are the same on every
/// run, machine and thread count for a given libdeflate:
/// - a canvas of at most 256 colours (a flat background with a scale bar and attribution) is
///   a palette image of 1, 2, 4 or 8 bits per pixel: a third of the bytes to deflate or less;
/// - otherwise opaque canvases are RGB, others RGBA with straight alpha (exactly invertible,
///   see `writeStraightPixels`);
/// - RGB(A) rows are unfiltered, or all Paeth-filtered when a sample of rows deflates clearly
///   smaller that way (photographic content: satellite imagery, hillshading);
/// - unfiltered rows of 2 MiB or more deflate in two independent parts (see
///   `partedMinimumBytes`), split at `firstPartShare` of the rows whatever the thread count.
enum PNGEncoder {
    /// The PNG filter types this encoder uses (PNG spec §9.2).
    enum RowFilter: UInt8, Sendable {
        case none = 0
        case paeth = 4
    }

    /// libdeflate level for unfiltered RGB(A) rows (drawn maps). Level 1 is libdeflate's
    /// fastest matcher; on the test renders it is 4–6× faster than libpng and still 5 % smaller.
    static let unfilteredLevel: Int32 = 1
    /// libdeflate level for Paeth-filtered rows (imagery). Lower levels lose 1–3 % against
    /// libpng's zlib 6 on photographic content; 6 is the lowest that is never larger.
    static let filteredLevel: Int32 = 6
    /// libdeflate level for palette indices: few colours mean long matches, where level 6
    /// costs no more than level 1 and is 10 % smaller.
    static let paletteLevel: Int32 = 6
    /// Level for the trial deflates that pick the filter: only their relative size matters.
    static let trialLevel: Int32 = 1
    /// Unfiltered rows of at least this many bytes deflate as two independent parts — the
    /// first `firstPartShare` of the rows by igzip ending in a sync flush (libdeflate has no
    /// flush), the rest by libdeflate — joined into one zlib stream, so two threads deflate
    /// at once. The split depends only on the image, so the bytes do not depend on threads.
    static let partedMinimumBytes = 1 << 21
    /// The share of the rows (numerator, denominator) igzip deflates. igzip is ~2.7× faster
    /// than libdeflate here, and the thread that finishes first also runs the filter trial
    /// (~3 ms on the S1 image), so 3/5 finishes both threads together. Measured on the S1
    /// route image (1600×1200, 5.8 MB of rows): one libdeflate stream 20–26 ms; zlib's level 1
    /// for half and libdeflate for half (before igzip) 21 / 12 ms, 935,398 bytes; igzip for
    /// 3/5 and libdeflate for 2/5 ~5 / ~9 ms, 952,764 bytes (+1.9 %). The S2 z16 @2x image
    /// (2048², 12.6 MB): 1,857,107 → 1,869,808 bytes (+0.7 %), still 1.4 % under libpng's.
    static let firstPartShare = (3, 5)
    /// Largest `IDAT` payload written in one chunk. Any size up to 2³¹−1 is valid; splitting
    /// keeps a streaming reader's chunk buffer bounded.
    static let defaultMaximumIDATLength = 1 << 20

    /// PNG bytes for `canvas` (see the type's notes for the format choices).
    /// - Parameter maximumIDATLength: split point of the compressed stream (tests force splits).
    static func encode(_ canvas: Canvas, maximumIDATLength: Int = defaultMaximumIDATLength) throws(PNGError) -> [UInt8] {
        guard canvas.width <= Int(Int32.max), canvas.height <= Int(Int32.max) else {
            throw .encodingFailed(reason: "\(canvas.width)×\(canvas.height) exceeds PNG's 2³¹−1 pixel side")
        }
        if let image = IndexedImage(canvas) {
            return try encodePalette(image, width: canvas.width, height: canvas.height, maximumIDATLength: maximumIDATLength)
        }
        let channels = canvas.isOpaque ? 3 : 4
        let lineLength = canvas.width * channels + 1
        let height = canvas.height
        let cut = height * firstPartShare.0 / firstPartShare.1
        let parts = height >= 2 && lineLength * height >= partedMinimumBytes
            ? [0..<cut, cut..<height] : [0..<height]
        // Every byte is written by the conversion (on the threads that deflate the parts).
        var outcome: Result<[[UInt8]]?, PNGError> = .success(nil)
        var rows = [UInt8](unsafeUninitializedCapacity: lineLength * height) { dst, initialized in
            outcome = canvas.pixels.withUnsafeBufferPointer { src in
                unfilteredStreams(pixels: src, rows: dst, width: canvas.width, channels: channels, parts: parts,
                                  threads: max(1, canvas.maximumThreads))
            }
            initialized = dst.count
        }
        let compressed: [UInt8]
        if let streams = try outcome.get() {
            compressed = streams.count == 1 ? streams[0] : joinParts(streams, rows: rows)
        } else {
            paethFilterInPlace(&rows, lineLength: lineLength, bytesPerPixel: channels)
            compressed = try DeflateCompressor(level: filteredLevel).zlib(rows)
        }
        var png = PNGChunkWriter(capacity: compressed.count + 128)
        png.header(width: canvas.width, height: canvas.height, bitDepth: 8, colorType: channels == 3 ? 2 : 6)
        png.imageData(compressed, maximumChunkLength: maximumIDATLength)
        return png.finish()
    }

    /// A palette image: `PLTE` with straight RGB, `tRNS` with the alphas when any is below
    /// 255, and unfiltered scanlines of indices packed at the smallest bit depth that holds
    /// them (1, 2, 4 or 8, most significant bits first, spec §7.2).
    static func encodePalette(_ image: IndexedImage, width: Int, height: Int,
                                      maximumIDATLength: Int) throws(PNGError) -> [UInt8] {
        let count = image.colours.count
        let bitDepth = count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8
        var straight = [UInt8](repeating: 0, count: count * 4)
        image.colours.withUnsafeBytes { raw in
            straight.withUnsafeMutableBufferPointer { dst in
                writeStraightPixels(raw.assumingMemoryBound(to: UInt8.self), into: dst, count: count, channels: 4)
            }
        }
        let lineLength = 1 + (width * bitDepth + 7) / 8
        let perByte = 8 / bitDepth
        var rows = [UInt8](repeating: 0, count: lineLength * height)
        image.indices.withUnsafeBufferPointer { indices in
            rows.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let line = y * lineLength + 1, source = y * width
                    if bitDepth == 8 {
                        for x in 0..<width { out[line + x] = indices[source + x] }
                        continue
                    }
                    for x in 0..<width {
                        let shift = 8 - bitDepth * (x % perByte + 1)
                        out[line + x / perByte] |= indices[source + x] << UInt8(shift)
                    }
                }
            }
        }
        let compressed = try DeflateCompressor(level: paletteLevel).zlib(rows)
        var png = PNGChunkWriter(capacity: compressed.count + count * 4 + 128)
        png.header(width: width, height: height, bitDepth: UInt8(bitDepth), colorType: 3)
        png.chunk("PLTE", (0..<count).flatMap { straight[($0 * 4)..<($0 * 4 + 3)] })
        if let lastTranslucent = (0..<count).last(where: { straight[$0 * 4 + 3] != 255 }) {
            png.chunk("tRNS", (0...lastTranslucent).map { straight[$0 * 4 + 3] })
        }
        png.imageData(compressed, maximumChunkLength: maximumIDATLength)
        return png.finish()
    }

    /// Canvas row `y` as an unfiltered scanline into `out` (`width · channels + 1` bytes):
    /// filter-type byte 0, then straight-alpha bytes.
    @inline(__always)
    static func writeScanline(_ pixels: UnsafeBufferPointer<UInt8>, row y: Int, width: Int, channels: Int,
                              into out: UnsafeMutableBufferPointer<UInt8>) {
        out[0] = RowFilter.none.rawValue
        writeStraightPixels(UnsafeBufferPointer(rebasing: pixels[(y * width * 4)..<((y + 1) * width * 4)]),
                            into: UnsafeMutableBufferPointer(rebasing: out[1...]), count: width, channels: channels)
    }

    /// Writes every unfiltered scanline of `pixels` into `rows`, runs the filter trial and,
    /// when it picks unfiltered, deflates each of `parts` (row ranges): the streams for
    /// `joinParts`, or nil when the trial picks Paeth. On several threads each part is
    /// converted and deflated while the trial runs on the canvas itself — the usual outcome
    /// for drawn maps, whose encode then takes the time of the slowest part; on one thread
    /// the trial runs first and nothing is deflated twice. The bytes are the same either way.
    static func unfilteredStreams(pixels: UnsafeBufferPointer<UInt8>, rows: UnsafeMutableBufferPointer<UInt8>,
                                  width: Int, channels: Int, parts: [Range<Int>],
                                  threads: Int) -> Result<[[UInt8]]?, PNGError> {
        let lineLength = width * channels + 1
        let height = rows.count / lineLength
        let source = UnsafeMutableSendableBuffer(UnsafeMutableBufferPointer(mutating: pixels))
        let target = UnsafeMutableSendableBuffer(rows)
        @Sendable func convert(_ r: Range<Int>) {
            for y in r {
                writeScanline(UnsafeBufferPointer(source.base), row: y, width: width, channels: channels,
                              into: UnsafeMutableBufferPointer(rebasing: target.base[(y * lineLength)..<((y + 1) * lineLength)]))
            }
        }
        @Sendable func trial() -> Result<RowFilter, PNGError> {
            Result { () throws(PNGError) in
                try chooseFilter(height: height, lineLength: lineLength, bytesPerPixel: channels) { y, out in
                    writeScanline(UnsafeBufferPointer(source.base), row: y, width: width, channels: channels, into: out)
                }
            }
        }
        @Sendable func deflate(_ k: Int) -> Result<[UInt8], PNGError> {
            Result { () throws(PNGError) in
                try deflatePart(k, of: parts, rows: UnsafeBufferPointer(target.base), lineLength: lineLength)
            }
        }
        if threads == 1 {
            convert(0..<height)
            return Result { () throws(PNGError) in
                guard try trial().get() == .none else { return nil }
                return try parts.indices.map { k throws(PNGError) in try deflate(k).get() }
            }
        }
        let streams = Locked<[Result<[UInt8], PNGError>?]>(Array(repeating: nil, count: parts.count))
        let choice = Locked<Result<RowFilter, PNGError>?>(nil)
        Parallel.forEach(parts.count + 1, maxThreads: threads) { task in
            if task < parts.count {
                convert(parts[task])
                let r = deflate(task)
                streams.withLock { $0[task] = r }
            } else {
                let r = trial()
                choice.withLock { $0 = r }
            }
        }
        return Result { () throws(PNGError) in
            guard let chosen = choice.withLock({ $0 }) else { throw .encodingFailed(reason: "the filter trial did not run") }
            guard try chosen.get() == .none else { return nil }
            return try streams.withLock { $0 }.map { r throws(PNGError) in
                guard let r else { throw .encodingFailed(reason: "a part of the image was not deflated") }
                return try r.get()
            }
        }
    }

    /// Part `k` of the unfiltered rows compressed: with one part, the whole zlib stream;
    /// else raw deflate data for `joinParts` — a part before the last from igzip, ended by
    /// a sync flush (no final block, byte-aligned), the last from libdeflate.
    static func deflatePart(_ k: Int, of parts: [Range<Int>], rows: UnsafeBufferPointer<UInt8>,
                            lineLength: Int) throws(PNGError) -> [UInt8] {
        let r = parts[k]
        let bytes = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: rows[(r.lowerBound * lineLength)..<(r.upperBound * lineLength)]))
        if parts.count == 1 { return try DeflateCompressor(level: unfilteredLevel).zlib(bytes) }
        if k < parts.count - 1 { return try IgzipDeflate.syncFlushed(bytes) }
        return try DeflateCompressor(level: unfilteredLevel).deflate(bytes)
    }

    /// One zlib stream (RFC 1950) from raw deflate parts: the header (deflate, 32 KiB
    /// window, fastest level), the parts back to back, the Adler-32 of all the rows.
    static func joinParts(_ parts: [[UInt8]], rows: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(parts.reduce(6) { $0 + $1.count })
        for p in parts { out.append(contentsOf: p) }
        let adler = rows.withUnsafeBytes { DeflateCompressor.adler32($0) }
        out += [UInt8(adler >> 24), UInt8(truncatingIfNeeded: adler >> 16), UInt8(truncatingIfNeeded: adler >> 8),
                UInt8(truncatingIfNeeded: adler)]
        return out
    }

    /// Straight-alpha bytes, `channels` (3 or 4) per pixel, without filter bytes.
    static func straightPixels(_ canvas: Canvas, channels: Int) -> [UInt8] {
        let n = canvas.width * canvas.height
        var out = [UInt8](repeating: 0, count: n * channels)
        canvas.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in writeStraightPixels(src, into: dst, count: n, channels: channels) }
        }
        return out
    }

    /// Un-premultiplies `count` RGBA pixels into `channels` (3: alpha dropped, caller knows it
    /// is 255; 4: RGBA) bytes each. `round(p * 255 / a)` is the exact inverse of
    /// `Canvas.premultiply` (`round(c * a / 255)`): its error is below 0.5·255/a, which
    /// premultiplying shrinks back below 0.5. Alpha 0 gives all-zero bytes.
    @inline(__always)
    static func writeStraightPixels(_ src: UnsafeBufferPointer<UInt8>, into dst: UnsafeMutableBufferPointer<UInt8>,
                                    count: Int, channels: Int) {
        if channels == 3 {
            var i = 0
            // Four pixels at a time: three 32-bit stores of what four 32-bit loads hold,
            // alpha bytes dropped (RGBA RGBA RGBA RGBA → RGBR GBRG BRGB in memory).
            if let s = UnsafeRawPointer(src.baseAddress), let d = UnsafeMutableRawPointer(dst.baseAddress) {
                @inline(__always) func pixel(_ k: Int) -> UInt32 {
                    UInt32(littleEndian: s.loadUnaligned(fromByteOffset: k * 4, as: UInt32.self))
                }
                while i + 4 <= count {
                    let p0 = pixel(i), p1 = pixel(i + 1), p2 = pixel(i + 2), p3 = pixel(i + 3)
                    d.storeBytes(of: (p0 & 0xFF_FFFF | p1 << 24).littleEndian, toByteOffset: i * 3, as: UInt32.self)
                    d.storeBytes(of: ((p1 >> 8) & 0xFFFF | p2 << 16).littleEndian, toByteOffset: i * 3 + 4, as: UInt32.self)
                    d.storeBytes(of: ((p2 >> 16) & 0xFF | p3 << 8).littleEndian, toByteOffset: i * 3 + 8, as: UInt32.self)
                    i += 4
                }
            }
            while i < count {
                dst[i * 3] = src[i * 4]; dst[i * 3 + 1] = src[i * 4 + 1]; dst[i * 3 + 2] = src[i * 4 + 2]
                i += 1
            }
            return
        }
        for i in 0..<count {
            let s = i * 4
            let a = UInt32(src[s + 3])
            dst[s + 3] = UInt8(a)
            if a == 255 {
                dst[s] = src[s]; dst[s + 1] = src[s + 1]; dst[s + 2] = src[s + 2]
            } else if a == 0 {
                dst[s] = 0; dst[s + 1] = 0; dst[s + 2] = 0
            } else {
                let half = a / 2
                dst[s] = UInt8(min(255, (UInt32(src[s]) * 255 + half) / a))
                dst[s + 1] = UInt8(min(255, (UInt32(src[s + 1]) * 255 + half) / a))
                dst[s + 2] = UInt8(min(255, (UInt32(src[s + 2]) * 255 + half) / a))
            }
        }
    }

    /// Unfiltered or Paeth for the whole image, by deflating a sample both ways: one band of 8
    /// rows in every 128 (1/16 of the image, so the trial costs a few per cent of the encode).
    /// Bands rather than single rows, so that matches between neighbouring rows count as
    /// they will in the real stream.
    ///
    /// Paeth costs a filter pass and a slower deflate level, so it must win by more than 4 %.
    /// Sample ratios (Paeth / unfiltered) measured on renders: drawn maps 1.03–1.32, flat
    /// backgrounds with a scale bar 0.99, hillshaded relief 0.93, satellite imagery 0.74.
    ///
    /// `row(y, out)` writes the unfiltered scanline `y` (filter byte first) into `out`.
    static func chooseFilter(height: Int, lineLength: Int, bytesPerPixel: Int,
                             row: (Int, UnsafeMutableBufferPointer<UInt8>) -> Void) throws(PNGError) -> RowFilter {
        var sample: [Int] = []
        var band = 0
        while band < height {
            sample.append(contentsOf: band..<min(band + 8, height))
            band += 128
        }
        var plain = [UInt8](repeating: 0, count: sample.count * lineLength)
        var filtered = [UInt8](repeating: 0, count: sample.count * lineLength)
        var previous = [UInt8](repeating: 0, count: lineLength)
        plain.withUnsafeMutableBufferPointer { p in
            filtered.withUnsafeMutableBufferPointer { f in
                previous.withUnsafeMutableBufferPointer { prev in
                    for (k, y) in sample.enumerated() {
                        let line = UnsafeMutableBufferPointer(rebasing: p[(k * lineLength)..<((k + 1) * lineLength)])
                        row(y, line)
                        var above: UnsafeBufferPointer<UInt8>? = nil
                        if y > 0 {
                            if k > 0, sample[k - 1] == y - 1 {
                                above = UnsafeBufferPointer(rebasing: p[((k - 1) * lineLength)..<(k * lineLength)])
                            } else {
                                row(y - 1, prev)
                                above = UnsafeBufferPointer(prev)
                            }
                        }
                        paethFilterRow(UnsafeBufferPointer(line), previous: above, bytesPerPixel: bytesPerPixel,
                                       into: UnsafeMutableBufferPointer(rebasing: f[(k * lineLength)..<((k + 1) * lineLength)]))
                    }
                }
            }
        }
        let trial = try DeflateCompressor(level: trialLevel)
        return try trial.zlib(filtered).count * 25 < trial.zlib(plain).count * 24 ? .paeth : .none
    }

    /// Paeth-filters every scanline of `rows` (each `lineLength` bytes, unfiltered, filter byte
    /// first). Bottom-up, so each row is filtered against its still-unfiltered predecessor.
    static func paethFilterInPlace(_ rows: inout [UInt8], lineLength: Int, bytesPerPixel: Int) {
        let height = rows.count / lineLength
        var scratch = [UInt8](repeating: 0, count: lineLength)
        rows.withUnsafeMutableBufferPointer { all in
            scratch.withUnsafeMutableBufferPointer { tmp in
                for y in Swift.stride(from: height - 1, through: 0, by: -1) {
                    let row = UnsafeBufferPointer(rebasing: all[(y * lineLength)..<((y + 1) * lineLength)])
                    let previous = y == 0 ? nil : UnsafeBufferPointer(rebasing: all[((y - 1) * lineLength)..<(y * lineLength)])
                    paethFilterRow(row, previous: previous, bytesPerPixel: bytesPerPixel, into: tmp)
                    _ = UnsafeMutableBufferPointer(rebasing: all[(y * lineLength)..<((y + 1) * lineLength)]).update(fromContentsOf: tmp)
                }
            }
        }
    }

    /// One scanline (filter byte first) Paeth-filtered into `out` (same length). Without a
    /// previous row, up and upper-left are 0 and the predictor is the left byte (spec §9.4).
    @inline(__always)
    static func paethFilterRow(_ row: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>?,
                               bytesPerPixel bpp: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        out[0] = RowFilter.paeth.rawValue
        let n = row.count
        guard let up = previous else {
            for i in 1..<min(n, 1 + bpp) { out[i] = row[i] }
            if n > 1 + bpp { for i in (1 + bpp)..<n { out[i] = row[i] &- row[i - bpp] } }
            return
        }
        for i in 1..<min(n, 1 + bpp) { out[i] = row[i] &- up[i] }
        guard n > 1 + bpp else { return }
        for i in (1 + bpp)..<n {
            out[i] = row[i] &- paethPredictor(left: row[i - bpp], up: up[i], upperLeft: up[i - bpp])
        }
    }

    /// PNG's Paeth predictor: whichever of left, up, upper-left is closest to
    /// left + up − upper-left, ties in that order.
    @inline(__always)
    static func paethPredictor(left a: UInt8, up b: UInt8, upperLeft c: UInt8) -> UInt8 {
        let ia = Int(a), ib = Int(b), ic = Int(c)
        let pa = abs(ib - ic), pb = abs(ia - ic), pc = abs(ia + ib - 2 * ic)
        // Two selects rather than nested branches: the outcome is data-dependent noise on
        // imagery, where mispredicted branches dominated the filter's time.
        let upOrUpperLeft = pb <= pc ? b : c
        return pa <= pb && pa <= pc ? a : upOrUpperLeft
    }
}

/// A canvas of at most 256 colours as palette indices.
struct IndexedImage {
    /// The distinct premultiplied RGBA values (as laid out in memory) in order of first
    /// appearance in raster order, so the palette is a function of the pixels.
    let colours: [UInt32]
    /// One index into `colours` per pixel, row-major.
    let indices: [UInt8]

    /// A palette made elsewhere (`PNG8Encoder`'s quantizer): 1…256 premultiplied colours and
    /// one index into them per pixel.
    init(colours: [UInt32], indices: [UInt8]) {
        self.colours = colours
        self.indices = indices
    }

    /// nil as soon as a 257th colour appears (drawn maps have thousands, and usually show
    /// them within the first rows, so giving up is cheap). A pixel equal to its predecessor
    /// skips the lookup: flat areas cost one comparison per pixel.
    init?(_ canvas: Canvas) {
        let count = canvas.width * canvas.height
        var colours: [UInt32] = []
        colours.reserveCapacity(256)
        // Open addressing: 1024 slots for at most 256 colours keeps probe chains short.
        var slots = [Int16](repeating: -1, count: 1024)
        var fits = true
        let indices = canvas.pixels.withUnsafeBytes { raw in
            [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                var previous: UInt32 = 0
                var index: UInt8 = 0
                for i in 0..<count {
                    let pixel = raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
                    if i == 0 || pixel != previous {
                        var slot = Int((pixel &* 0x9E37_79B1) >> 22)
                        while true {
                            let entry = slots[slot]
                            if entry < 0 {
                                guard colours.count < 256 else {
                                    fits = false
                                    return  // `initialized` stays 0
                                }
                                slots[slot] = Int16(colours.count)
                                index = UInt8(colours.count)
                                colours.append(pixel)
                                break
                            }
                            if colours[Int(entry)] == pixel {
                                index = UInt8(entry)
                                break
                            }
                            slot = (slot + 1) & 1023
                        }
                        previous = pixel
                    }
                    out[i] = index
                }
                initialized = count
            }
        }
        guard fits else { return nil }
        self.colours = colours
        self.indices = indices
    }
}

/// Appends PNG chunks (length, type, data, CRC-32 of type and data) after the signature.
private struct PNGChunkWriter {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = PNGChunkScanner.signature
        bytes.reserveCapacity(capacity)
    }

    /// `IHDR` (no interlacing) and `sRGB` (perceptual intent): the pixels are sRGB, and saying
    /// so stops viewers from guessing a gamma.
    mutating func header(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8) {
        var ihdr: [UInt8] = []
        ihdr.reserveCapacity(13)
        Self.appendUInt32(UInt32(width), to: &ihdr)
        Self.appendUInt32(UInt32(height), to: &ihdr)
        ihdr += [bitDepth, colorType, 0, 0, 0]
        chunk("IHDR", ihdr)
        chunk("sRGB", [UInt8(0)])
    }

    /// The compressed stream as consecutive `IDAT` chunks of at most `maximumChunkLength` bytes.
    mutating func imageData(_ compressed: [UInt8], maximumChunkLength: Int) {
        let step = max(1, maximumChunkLength)
        var start = 0
        repeat {
            let end = min(compressed.count, start + step)
            chunk("IDAT", compressed[start..<end])
            start = end
        } while start < compressed.count
    }

    mutating func chunk(_ type: StaticString, _ data: some Collection<UInt8>) {
        Self.appendUInt32(UInt32(data.count), to: &bytes)
        let start = bytes.count
        type.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: data)
        let crc = bytes.withUnsafeBytes { Gzip.crc32(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        Self.appendUInt32(crc, to: &bytes)
    }

    /// Appends `IEND` and returns the file.
    mutating func finish() -> [UInt8] {
        chunk("IEND", [UInt8]())
        return bytes
    }

    private static func appendUInt32(_ v: UInt32, to out: inout [UInt8]) {
        out += [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }
}

/// Owns one libdeflate compressor (not thread-safe, so one per encode).
final class DeflateCompressor {
    private let handle: OpaquePointer

    init(level: Int32) throws(PNGError) {
        guard let handle = libdeflate_alloc_compressor(level) else {
            throw .encodingFailed(reason: "libdeflate could not allocate a level-\(level) compressor")
        }
        self.handle = handle
    }

    /// `input` as a zlib stream (header, deflate data, Adler-32), as `IDAT` carries it.
    func zlib(_ input: [UInt8]) throws(PNGError) -> [UInt8] {
        try checked(input.withUnsafeBytes { compress($0, zlib: true) }, inputCount: input.count)
    }

    /// `input` as a zlib stream.
    func zlib(_ input: UnsafeRawBufferPointer) throws(PNGError) -> [UInt8] {
        try checked(compress(input, zlib: true), inputCount: input.count)
    }

    /// `input` as raw deflate data (RFC 1951), its last block final.
    func deflate(_ input: UnsafeRawBufferPointer) throws(PNGError) -> [UInt8] {
        try checked(compress(input, zlib: false), inputCount: input.count)
    }

    /// Empty when libdeflate reports that the output did not fit (impossible with its bound).
    private func compress(_ input: UnsafeRawBufferPointer, zlib: Bool) -> [UInt8] {
        let bound = zlib ? libdeflate_zlib_compress_bound(handle, input.count)
                         : libdeflate_deflate_compress_bound(handle, input.count)
        return [UInt8](unsafeUninitializedCapacity: bound) { out, initialized in
            initialized = zlib ? libdeflate_zlib_compress(handle, input.baseAddress, input.count, out.baseAddress, bound)
                               : libdeflate_deflate_compress(handle, input.baseAddress, input.count, out.baseAddress, bound)
        }
    }

    private func checked(_ output: [UInt8], inputCount: Int) throws(PNGError) -> [UInt8] {
        guard !output.isEmpty else { throw .encodingFailed(reason: "libdeflate could not compress \(inputCount) bytes") }
        return output
    }

    /// Adler-32 (RFC 1950) of `bytes`, computed by libdeflate.
    static func adler32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(libdeflate_adler32(1, bytes.baseAddress, bytes.count))
    }

    deinit { libdeflate_free_compressor(handle) }
}
