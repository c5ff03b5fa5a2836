/// The common PNG layouts decoded without libpng's row machinery: libdeflate inflates all
/// the image data in one call, then the rows are unfiltered and expanded to premultiplied
/// RGBA here. On the 256-px palette tiles of a raster tile directory this is about ten
/// times faster than libpng's simplified API (0.05 against 0.5 ms a tile; zlib's inflate
/// alone is twice libdeflate's, and libpng feeds it row by row).
///
/// It takes what tile servers and renderers write: bit depth 8 or less, not interlaced,
/// grey, RGB, palette, grey+alpha or RGBA, with or without `tRNS`, and no colour-space
/// chunk (`gAMA`, `cHRM`, `iCCP`, `sBIT`: their conversions are libpng's). For anything
/// else — and for any stream that does not simply inflate to exactly the rows `IHDR`
/// declares, an unknown filter type, a palette index past the palette, a chunk out of
/// place — it returns nil and libpng decodes or reports the file as before. So the pixels
/// and the errors are libpng's for every input: `PNGFastDecoderTests` and the `png` fuzz
/// target compare the two.
enum PNGFastDecoder {
    /// libpng's default limit on either side (`PNG_USER_WIDTH_MAX`): wider files are libpng's to reject.
    static let maximumSide: UInt32 = 1_000_000

    /// Premultiplied RGBA pixels, or nil when the file is outside the fast path.
    /// - Parameter bytes: a PNG whose chunk structure and CRCs `PNGChunkScanner` has checked.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, header: PNGChunkScanner.Header) -> Canvas? {
        guard !header.interlaced, header.width <= maximumSide, header.height <= maximumSide,
              let layout = Layout(colorType: header.colorType, bitDepth: header.bitDepth),
              let chunks = Chunks(bytes, layout: layout) else { return nil }
        let width = Int(header.width), height = Int(header.height)
        let rowBytes = (width * layout.channels * layout.bitDepth + 7) / 8
        let stride = rowBytes + 1
        var inflated = false
        var rows = [UInt8](unsafeUninitializedCapacity: stride * height) { out, initialized in
            inflated = chunks.withImageData(bytes) { data in
                Gzip.inflateExactly(data, into: UnsafeMutableRawBufferPointer(out), container: .zlib)
            }
            initialized = inflated ? out.count : 0
        }
        guard inflated else { return nil }
        var table: [UInt32]? = nil
        if layout.usesTable {
            guard let t = chunks.table(layout: layout, bytes: bytes) else { return nil }
            table = t
        }
        var ok = true
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, initialized in
            rows.withUnsafeMutableBufferPointer { r in
                ok = unfilter(r, stride: stride, height: height, bytesPerPixel: max(1, layout.channels * layout.bitDepth / 8))
                guard ok else { return }
                let base = UnsafeMutableRawPointer(out.baseAddress!)
                if let table {
                    ok = table.withUnsafeBufferPointer { t in
                        expandIndexed(r, stride: stride, width: width, height: height, bitDepth: layout.bitDepth,
                                      table: t, into: base)
                    }
                } else {
                    expandDirect(r, stride: stride, width: width, height: height, layout: layout,
                                 key: chunks.transparentKey, into: base)
                }
            }
            initialized = ok ? out.count : 0
        }
        guard ok else { return nil }
        return Canvas(width: width, height: height, premultipliedPixels: pixels)
    }

    /// Colour type and bit depth of the fast path's layouts.
    struct Layout {
        let colorType: UInt8
        let bitDepth: Int
        let channels: Int

        init?(colorType: UInt8, bitDepth: UInt8) {
            switch (colorType, bitDepth) {
            case (0, 1), (0, 2), (0, 4), (0, 8), (3, 1), (3, 2), (3, 4), (3, 8): channels = 1
            case (2, 8): channels = 3
            case (4, 8): channels = 2
            case (6, 8): channels = 4
            default: return nil
            }
            self.colorType = colorType
            self.bitDepth = Int(bitDepth)
        }

        /// Palette and grey samples go through a 256-entry table of premultiplied pixels.
        var usesTable: Bool { colorType == 0 || colorType == 3 }
    }

    /// The chunks after `IHDR` that decide the pixels, in the order libpng accepts without
    /// complaint; `init` fails on anything else.
    struct Chunks {
        var palette: Range<Int>?
        var transparency: Range<Int>?
        var imageData: [Range<Int>] = []
        /// The RGB colour `tRNS` makes transparent in an RGB file.
        var transparentKey: (UInt8, UInt8, UInt8)?

        init?(_ b: UnsafeBufferPointer<UInt8>, layout: Layout) {
            guard b.count >= 33, b[8 + 8 + 10] == 0, b[8 + 8 + 11] == 0 else { return nil }  // compression, filter method
            var offset = 8
            var idatEnded = false
            while offset + 12 <= b.count {
                let length = Int(PNGChunkScanner.readUInt32(b, offset))
                let type = PNGChunkScanner.readUInt32(b, offset + 4)
                let data = (offset + 8)..<(offset + 8 + length)
                guard data.upperBound + 4 <= b.count else { return nil }
                switch type {
                case Self.IHDR:
                    guard offset == 8 else { return nil }
                case Self.IEND:
                    guard !imageData.isEmpty else { return nil }
                    if layout.colorType == 3, palette == nil { return nil }
                    return
                case Self.IDAT:
                    guard !idatEnded else { return nil }
                    imageData.append(data)
                case Self.PLTE:
                    guard palette == nil, imageData.isEmpty, transparency == nil, length % 3 == 0 else { return nil }
                    if layout.colorType == 3 {
                        guard length >= 3, length / 3 <= 1 << layout.bitDepth else { return nil }
                    } else if layout.colorType == 0 || layout.colorType == 4 {
                        return nil  // a palette in a grey file: libpng's to judge
                    }
                    palette = data
                case Self.tRNS:
                    guard transparency == nil, imageData.isEmpty else { return nil }
                    switch layout.colorType {
                    case 3:
                        guard let p = palette, length >= 1, length <= p.count / 3 else { return nil }
                    case 0:
                        guard length == 2, readUInt16(b, data.lowerBound) < 1 << layout.bitDepth else { return nil }
                    case 2:
                        guard length == 6, (0..<3).allSatisfy({ readUInt16(b, data.lowerBound + 2 * $0) < 256 })
                        else { return nil }
                        transparentKey = (b[data.lowerBound + 1], b[data.lowerBound + 3], b[data.lowerBound + 5])
                    default:
                        return nil
                    }
                    transparency = data
                case Self.gAMA, Self.cHRM, Self.iCCP, Self.sBIT:
                    return nil
                default:
                    // Unknown critical chunks (upper-case first letter) are errors to libpng.
                    guard type & 0x2000_0000 != 0 else { return nil }
                }
                if !imageData.isEmpty && type != Self.IDAT { idatEnded = true }
                offset = data.upperBound + 4
            }
            return nil
        }


        /// Runs `body` on the image data: the one `IDAT`'s bytes in place, or all of them joined.
        func withImageData<R>(_ b: UnsafeBufferPointer<UInt8>, _ body: (UnsafeRawBufferPointer) -> R) -> R {
            if imageData.count == 1 { return body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: b[imageData[0]]))) }
            var joined: [UInt8] = []
            joined.reserveCapacity(imageData.reduce(0) { $0 + $1.count })
            for r in imageData { joined.append(contentsOf: b[r]) }
            return joined.withUnsafeBytes(body)
        }

        /// Premultiplied pixels (bytes R, G, B, A in memory order) for each palette index or
        /// grey sample; nil when a palette is missing.
        func table(layout: Layout, bytes b: UnsafeBufferPointer<UInt8>) -> [UInt32]? {
            var t = [UInt32](repeating: 0, count: 256)
            if layout.colorType == 3 {
                guard let p = palette else { return nil }
                let count = p.count / 3
                let alphas = transparency.map { Array(b[$0]) } ?? []
                for i in 0..<count {
                    let a = i < alphas.count ? alphas[i] : 255
                    t[i] = PNGFastDecoder.pack(b[p.lowerBound + 3 * i], b[p.lowerBound + 3 * i + 1], b[p.lowerBound + 3 * i + 2], a)
                }
                // Indices past the palette stay marked by `paletteCount` (checked while expanding).
                t.append(UInt32(count))
                return t
            }
            let levels = 1 << layout.bitDepth
            let scale = 255 / (levels - 1)
            let key = transparency.map { Int(readUInt16(b, $0.lowerBound)) }
            for v in 0..<levels {
                let g = UInt8(v * scale)
                t[v] = v == key ? 0 : PNGFastDecoder.pack(g, g, g, 255)
            }
            t.append(UInt32(levels))
            return t
        }

        static let IHDR: UInt32 = 0x4948_4452, PLTE: UInt32 = 0x504C_5445, IDAT: UInt32 = 0x4944_4154
        static let IEND: UInt32 = 0x4945_4E44, tRNS: UInt32 = 0x7452_4E53, gAMA: UInt32 = 0x6741_4D41
        static let cHRM: UInt32 = 0x6348_524D, iCCP: UInt32 = 0x6943_4350, sBIT: UInt32 = 0x7342_4954
    }

    /// Big-endian UInt16 at `offset` (inside a chunk the scanner has bounded).
    static func readUInt16(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Int {
        Int(b[offset]) << 8 | Int(b[offset + 1])
    }

    /// One premultiplied pixel as the four bytes R, G, B, A in memory order.
    @inline(__always)
    static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
        let a32 = UInt32(a)
        let pr = Canvas.div255(UInt32(r) * a32), pg = Canvas.div255(UInt32(g) * a32), pb = Canvas.div255(UInt32(b) * a32)
        return (pr | pg << 8 | pb << 16 | a32 << 24).littleEndian
    }

    /// Undoes the per-row filters in place (PNG spec §9); false on a filter type above 4.
    static func unfilter(_ r: UnsafeMutableBufferPointer<UInt8>, stride: Int, height: Int, bytesPerPixel bpp: Int) -> Bool {
        let p = r.baseAddress!
        let n = stride - 1
        for y in 0..<height {
            let row = p + y * stride + 1
            let up: UnsafeMutablePointer<UInt8>? = y == 0 ? nil : row - stride
            switch p[y * stride] {
            case 0:
                break
            case 1:
                if n > bpp { for i in bpp..<n { row[i] &+= row[i - bpp] } }
            case 2:
                if let up { for i in 0..<n { row[i] &+= up[i] } }
            case 3:
                for i in 0..<n {
                    let left = i >= bpp ? Int(row[i - bpp]) : 0
                    let above = up.map { Int($0[i]) } ?? 0
                    row[i] &+= UInt8(truncatingIfNeeded: (left + above) >> 1)
                }
            case 4:
                for i in 0..<n {
                    let a = i >= bpp ? row[i - bpp] : 0
                    let b = up?[i] ?? 0
                    let c = i >= bpp ? (up?[i - bpp] ?? 0) : 0
                    row[i] &+= PNGEncoder.paethPredictor(left: a, up: b, upperLeft: c)
                }
            default:
                return false
            }
        }
        return true
    }

    /// Palette or grey rows through `table` (256 pixels, then the number of valid entries);
    /// false when an index reaches past the palette.
    static func expandIndexed(_ r: UnsafeMutableBufferPointer<UInt8>, stride: Int, width: Int, height: Int, bitDepth: Int,
                              table t: UnsafeBufferPointer<UInt32>, into out: UnsafeMutableRawPointer) -> Bool {
        let valid = Int(t[256])
        let dst = out.bindMemory(to: UInt32.self, capacity: width * height)
        var highest = 0
        let perByte = 8 / bitDepth, mask = (1 << bitDepth) - 1
        for y in 0..<height {
            let row = r.baseAddress! + y * stride + 1
            let line = dst + y * width
            if bitDepth == 8 {
                for x in 0..<width {
                    let v = Int(row[x])
                    highest = max(highest, v)
                    line[x] = t[v]
                }
            } else {
                for x in 0..<width {
                    let shift = 8 - bitDepth * (x % perByte + 1)
                    let v = Int(row[x / perByte]) >> shift & mask
                    highest = max(highest, v)
                    line[x] = t[v]
                }
            }
        }
        return highest < valid
    }

    /// Grey+alpha, RGB and RGBA rows to premultiplied RGBA; `key` is an RGB `tRNS` colour.
    static func expandDirect(_ r: UnsafeMutableBufferPointer<UInt8>, stride: Int, width: Int, height: Int,
                             layout: Layout, key: (UInt8, UInt8, UInt8)?, into out: UnsafeMutableRawPointer) {
        let dst = out.bindMemory(to: UInt32.self, capacity: width * height)
        for y in 0..<height {
            let row = r.baseAddress! + y * stride + 1
            let line = dst + y * width
            switch layout.channels {
            case 2:
                for x in 0..<width { line[x] = pack(row[2 * x], row[2 * x], row[2 * x], row[2 * x + 1]) }
            case 3:
                for x in 0..<width {
                    let cr = row[3 * x], cg = row[3 * x + 1], cb = row[3 * x + 2]
                    if let key, key == (cr, cg, cb) { line[x] = 0 } else { line[x] = pack(cr, cg, cb, 255) }
                }
            default:
                for x in 0..<width { line[x] = pack(row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]) }
            }
        }
    }
}
