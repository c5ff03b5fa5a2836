import Foundation
import Testing

/// The library files that import a C module or use unsafe pointers, each with why. A new
/// file doing either fails `unsafeCodeStaysOnTheList` until it is added here, so unsafe code
/// is a visible decision in review; a listed file that no longer needs it fails
/// `everyListedFileStillNeedsIt`, so the list only shrinks by itself.
///
/// "Unsafe" here: `import C…` (a system-library module), an `Unsafe…Pointer` type,
/// `withUnsafe…` (which hands one out), `unsafeUninitializedCapacity`, `unsafeBitCast`,
/// `Unmanaged`.
let unsafeCodeAllowList: [String: String] = [
    // The adapters: the one importer of each C library (STYLE: C interop).
    "Codecs/IgzipDeflate.swift": "adapter for ISA-L (igzip)",
    "Codecs/JPEGCodec.swift": "adapter for libjpeg-turbo (decoding)",
    "Codecs/JPEGEncoder.swift": "adapter for libjpeg-turbo (encoding)",
    "Codecs/PNGCodec.swift": "adapter for libpng",
    "Codecs/PNGEncoder.swift": "adapter for libdeflate (PNG encoding), rows filtered in place",
    "Codecs/WebPEncoder.swift": "adapter for libwebp",
    "HTTPServer/HTTPServer.swift": "adapter for libmicrohttpd (callbacks, Unmanaged context)",
    "Support/Gzip.swift": "adapter for zlib and libdeflate",
    "Support/XMLEventReader.swift": "adapter for expat (callbacks, Unmanaged context)",
    "Text/FreeTypeFace.swift": "adapter for FreeType",
    "Text/HarfBuzzFont.swift": "adapter for HarfBuzz (font blob, shaping buffers)",
    "Text/BidiParagraph.swift": "adapter for FriBiDi (UTF-32 text and embedding levels)",
    "Tiles/HTTP/CurlTransfer.swift": "adapter for libcurl (callbacks, Unmanaged context)",
    "Tiles/MBTiles/MBTilesSource.swift": "adapter for SQLite",
    // System calls on raw memory (POSIX read/write/socket addresses).
    "HTTPServer/HTTPBody.swift": "response bodies handed to libmicrohttpd as raw bytes",
    "HTTPServer/ListenAddress.swift": "sockaddr for inet_pton / getaddrinfo",
    "Support/AtomicFile.swift": "write(2) of the file's bytes",
    "Support/InputFile.swift": "read(2) into the array's storage",
    "Support/TemporaryFile.swift": "write(2) and read(2) of pieces",
    "Tiles/HTTP/TileCache.swift": "read(2) of cache files and readdir names",
    "Tiles/HTTP/TileCacheTrimmer.swift": "readdir names and stat(2) times while trimming the cache",
    "Tiles/PMTiles/PMTilesSource.swift": "pread(2) of ranges into the buffer",
    "Places/Gazetteer.swift": "memchr over the megabyte tables read at every start",
    // Measured hot paths: per-pixel and per-byte loops where bounds checks cost.
    "Codecs/PNGChunkScanner.swift": "PNG chunk walk over the encoded bytes (every raster tile)",
    "Codecs/PNGFastDecoder.swift": "PNG unfiltering and de-interlacing per byte (every raster tile)",
    "Codecs/PNG8Encoder.swift": "pixels read as UInt32 for the palette search",
    "Compare/ImageComparator.swift": "per-pixel comparison of whole images",
    "Raster/Canvas.swift": "the pixel buffer: compositeOver, canvas fills, opaque scans",
    "Raster/Canvas+Drawing.swift": "banded fills write disjoint rows from several threads",
    "Raster/Canvas+Fill.swift": "the rasterizer's rows (PixelRows)",
    "Raster/Canvas+Pattern.swift": "pattern fills and rotated images, per pixel",
    "Raster/ImageSampler.swift": "bilinear sampling of raster tiles, per pixel",
    "Raster/Scan/Rasterizer.swift": "coverage accumulation per cell",
    "Raster/SignedDistanceField.swift": "SDF icons coloured per pixel through compositeOver",
    "Render/DEMTile.swift": "elevations decoded per pixel of each DEM tile",
    "Render/HillshadePainter.swift": "hillshade per pixel",
    "Render/LayerPainters.swift": "polygon clipping per ring; raster colour adjustments per pixel",
    "Render/PolygonClipper.swift": "clips rings handed over without copying",
    "Render/TileLoader.swift": "decoded tile pixels adjusted in place",
    "Style/CompiledFilter.swift": "filters evaluated per feature over the tag arrays",
    "Support/JSONReader.swift": "the JSON pull parser, per byte",
    "Support/Parallel.swift": "results of a parallel map written in place",
    "Support/UnsafeMutableSendableBuffer.swift": "a buffer that parallel loops write disjointly",
    "Support/CaseIdentity.swift": "an enum case's number (unsafeBitCast of a payload-free enum)",
    "Text/GlyphBitmap.swift": "glyph bitmaps copied and trimmed per row",
    "Text/TextRenderer.swift": "glyph masks handed to Canvas.blendMask",
    "Tiles/HTTP/TileBodyValidator.swift": "PNGChunkScanner over the response body without a copy",
    "VectorTile/VectorTileLayer.swift": "the geometry pre-scan of every feature, per byte",
    "Inputs/GPX.swift": "the XML bytes handed to expat without a copy",
]

@Suite struct UnsafeCodeTests {
    static let sourceRoot = TestPaths.repositoryRoot + "/Sources/MapSnap"

    /// What makes a file unsafe, as a regular expression over its code (comments and strings
    /// blanked by the layer checker's stripper).
    static let unsafePattern = #"(^|\n)\s*(@_implementationOnly\s+|(internal|public|package|private|fileprivate)\s+)?import\s+C[A-Z]\w*|\bUnsafe\w*Pointer\b|\bwithUnsafe\w*|\bunsafeUninitializedCapacity\b|\bunsafeBitCast\b|\bUnmanaged\b"#

    static func unsafeFiles() throws -> Set<String> {
        var found: Set<String> = []
        for (path, text) in try LayerDependencyTests.sourceFiles() {
            let code = LayerChecker.stripCommentsAndStrings(text)
            if code.range(of: unsafePattern, options: .regularExpression) != nil { found.insert(path) }
        }
        return found
    }

    @Test func unsafeCodeStaysOnTheList() throws {
        let files = try Self.unsafeFiles()
        #expect(files.count > 20)
        let new = files.subtracting(unsafeCodeAllowList.keys).sorted()
        #expect(new.isEmpty, """
            these library files import a C module or use unsafe pointers but are not on the \
            allow-list: \(new.joined(separator: ", ")). Prefer the safe form (array indices, \
            Span, a Swift type from the C adapter); if the unsafe form is needed — a C library's \
            adapter, a system call, a measured hot path — add the file with its reason to \
            unsafeCodeAllowList in Tests/MapSnapTests/Architecture/UnsafeCodeTests.swift \
            in the same commit, so review sees the decision
            """)
    }

    @Test func everyListedFileStillNeedsIt() throws {
        let files = try Self.unsafeFiles()
        let stale = Set(unsafeCodeAllowList.keys).subtracting(files).sorted()
        #expect(stale.isEmpty, "no longer unsafe (or gone): remove from unsafeCodeAllowList: \(stale.joined(separator: ", "))")
    }

    @Test func theCheckSeesEachForm() {
        let samples = ["internal import CPNG\n", "import CZlib\n", "let p: UnsafeRawPointer? = nil\n",
                       "a.withUnsafeBytes { _ in }\n", "[UInt8](unsafeUninitializedCapacity: 1) { _, n in n = 0 }\n",
                       "unsafeBitCast(x, to: UInt8.self)\n", "Unmanaged.passRetained(self)\n"]
        for s in samples { #expect(s.range(of: Self.unsafePattern, options: .regularExpression) != nil, "\(s)") }
        for s in ["import Foundation\n", "// withUnsafeBytes in a comment\n", "let unsafe = 1\n", "import Collections\n"] {
            let code = LayerChecker.stripCommentsAndStrings(s)
            #expect(code.range(of: Self.unsafePattern, options: .regularExpression) == nil, "\(s)")
        }
    }
}
