import Foundation
internal import CFreeType

/// One font face loaded with FreeType: glyph lookup, metrics and rasterisation; shaping
/// (kerning, ligatures, joining, marks) is HarfBuzz's, over the same bytes (`shape`).
///
/// This file is the only importer of `CFreeType`. Pixel-affecting knobs are pinned here:
///
/// - **No hinting** (`FT_LOAD_NO_HINTING`, `FT_LOAD_NO_AUTOHINT`). Map text is drawn at
///   sub-pixel pen positions and rotated along roads; hinting snaps outlines to the pixel
///   grid of one orientation, so the same word would change shape with its angle or offset,
///   and the TrueType bytecode interpreter / autohinter differ between FreeType releases.
///   Unhinted outlines keep glyph shapes and spacing consistent, which matters more on a
///   map than stem crispness. Advances come unscaled from the font (design units) and are
///   scaled in `Double`, so layout never sees hinted (rounded) widths.
/// - **No embedded bitmaps** (`FT_LOAD_NO_BITMAP`): outlines only, at any size.
/// - **Grey-scale anti-aliasing** (`FT_RENDER_MODE_NORMAL`), never LCD/sub-pixel colour.
/// - Coverage is FreeType's linear area coverage, composited as-is (no gamma tweak).
///
/// An `FT_Face` is not thread-safe, so each face owns its own `FT_Library` and serialises
/// every FreeType call behind a lock; different faces rasterise in parallel.
final class FreeTypeFace: @unchecked Sendable {
    /// A face's HarfBuzz font: not made before the face first shapes, then made (nil when
    /// HarfBuzz is missing or rejects the font).
    private enum LazyHarfBuzzFont {
        case notMade
        case made(HarfBuzzFont?)
    }

    /// Font files above this size are refused (the CJK fallback is about 4 MB).
    static let maxFileBytes = 64 << 20
    /// A glyph bitmap above this many bytes is dropped (drawn empty) rather than allocated.
    static let maxBitmapBytes = 8 << 20

    /// The file this face came from (or the name given for in-memory bytes); used in errors.
    let path: String
    /// Family name from the font, e.g. "Noto Sans".
    let familyName: String
    /// Style name from the font, e.g. "Bold".
    let styleName: String
    /// Design units per em; metrics below are in these units.
    let unitsPerEm: Int
    /// Typographic ascender above the baseline (positive, design units).
    let ascender: Int
    /// Typographic descender below the baseline (positive, design units).
    let descender: Int
    /// Extra gap between lines recommended by the font (design units, ≥ 0).
    let lineGap: Int
    /// Number of glyphs in the face.
    let glyphCount: Int
    /// Process-unique identity for cache keys (object addresses can be reused).
    let id: Int

    private let lock = NSLock()
    private let face: FTFace
    private let stroker: FTStroker
    /// HarfBuzz over the same font bytes, made by the first `shape`: HarfBuzz is opened on
    /// first shaping, and the bundled faces load for every render, with text or without.
    private let harfBuzz = Locked(LazyHarfBuzzFont.notMade)
    private var advanceCache: [UInt32: Int] = [:]

    /// `FT_LOAD_*` flags for every glyph load (see the type's documentation).
    private static let loadFlags = Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_AUTOHINT | FT_LOAD_NO_BITMAP)

    /// Loads the face at `path` (face index 0).
    convenience init(path: String) throws(FontError) {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: FreeTypeFace.maxFileBytes)
        } catch .tooLarge(_, let size, let limit) {
            throw FontError.fileTooLarge(path: path, bytes: size ?? limit + 1, limit: limit)
        } catch {
            throw FontError.unreadableFile(path: path, reason: error.reason)
        }
        try self.init(bytes: bytes, path: path)
    }

    /// Loads a face from font file bytes (TrueType/OpenType/CFF; face index 0). `path` only
    /// names the source in errors.
    init(bytes: [UInt8], path: String) throws(FontError) {
        guard bytes.count <= FreeTypeFace.maxFileBytes else {
            throw FontError.fileTooLarge(path: path, bytes: bytes.count, limit: FreeTypeFace.maxFileBytes)
        }
        self.path = path
        let library = try FTLibrary(path: path)
        let face = try FTFace(library: library, bytes: bytes, path: path)
        let rec = face.raw.pointee
        guard rec.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else { throw FontError.notScalable(path: path) }
        guard FT_Select_Charmap(face.raw, FT_ENCODING_UNICODE) == 0 else { throw FontError.noUnicodeCharmap(path: path) }
        guard rec.units_per_EM > 0, rec.num_glyphs > 0 else {
            throw FontError.invalidFont(path: path, freeTypeError: 0, reason: "no glyphs or zero units per em")
        }
        self.face = face
        stroker = try FTStroker(library: library, path: path)
        familyName = rec.family_name.map { String(cString: $0) } ?? ""
        styleName = rec.style_name.map { String(cString: $0) } ?? ""
        unitsPerEm = Int(rec.units_per_EM)
        ascender = max(0, Int(rec.ascender))
        descender = max(0, -Int(rec.descender))
        lineGap = max(0, Int(rec.height) - Int(rec.ascender) + Int(rec.descender))
        glyphCount = Int(rec.num_glyphs)
        id = FaceIdentity.next()
    }

    /// The glyph for a Unicode scalar, or `nil` when the face does not map it.
    func glyphIndex(for scalar: Unicode.Scalar) -> UInt32? {
        lock.lock()
        defer { lock.unlock() }
        let index = FT_Get_Char_Index(face.raw, FT_ULong(scalar.value))
        return index == 0 ? nil : UInt32(index)
    }

    /// The horizontal advance of a glyph in design units (0 for an invalid index).
    func advance(of glyph: UInt32) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if let cached = advanceCache[glyph] { return cached }
        var advance = 0
        if Int(glyph) < glyphCount,
           FT_Load_Glyph(face.raw, FT_UInt(glyph), Int32(FT_LOAD_NO_SCALE | FT_LOAD_IGNORE_TRANSFORM)) == 0,
           let slot = face.raw.pointee.glyph {
            advance = Int(slot.pointee.metrics.horiAdvance)
        }
        advanceCache[glyph] = advance
        return advance
    }

    /// Shapes `scalars[range]` as one run of `script` (an ISO 15924 tag) in this face:
    /// glyphs in visual order, in design units. Without a HarfBuzz font, one glyph per
    /// scalar with its plain advance (HarfBuzz cannot be loaded, `HarfBuzzFont.libraryError`
    /// says why, or cannot read a font FreeType could).
    func shape(_ scalars: [UInt32], range: Range<Int>, rightToLeft: Bool, script: UInt32) -> [ShapedGlyph] {
        let harfBuzz = self.harfBuzz.withLock { state -> HarfBuzzFont? in
            if case .made(let font) = state { return font }
            let font = HarfBuzzFont(bytes: UnsafeRawBufferPointer(face.memory), owner: face)
            state = .made(font)
            return font
        }
        if let harfBuzz { return harfBuzz.shape(scalars, range: range, rightToLeft: rightToLeft, script: script) }
        var out: [ShapedGlyph] = []
        for i in range {
            let glyph = Unicode.Scalar(scalars[i]).flatMap(glyphIndex(for:)) ?? 0
            out.append(ShapedGlyph(glyph: glyph, cluster: i, xAdvance: Int32(clamping: advance(of: glyph)), xOffset: 0, yOffset: 0))
        }
        return rightToLeft ? out.reversed() : out
    }

    /// Rasterises a glyph (or its halo, when `spec.haloRadius64 > 0`) to an 8-bit coverage
    /// bitmap. A glyph FreeType cannot load or render comes back empty, never as an error:
    /// one broken glyph must not sink a whole map.
    func rasterize(_ spec: GlyphRasterSpec) -> GlyphBitmap {
        guard Int(spec.glyph) < glyphCount, spec.size64 > 0 else { return .empty }
        lock.lock()
        defer { lock.unlock() }
        let raw = face.raw
        guard FT_Set_Char_Size(raw, 0, FT_F26Dot6(spec.size64), 72, 72) == 0 else { return .empty }

        // Rotation is clockwise on a y-down screen, i.e. by -θ in FreeType's y-up space.
        let angle = spec.rotationRadians
        let c = FT_Fixed((cos(angle) * 65536).rounded()), s = FT_Fixed((sin(angle) * 65536).rounded())
        var matrix = FT_Matrix(xx: c, xy: s, yx: -s, yy: c)
        let steps = GlyphRasterSpec.subpixelSteps
        var delta = FT_Vector(x: FT_Pos(Int(spec.subpixelX) * 64 / steps),
                              y: FT_Pos(-(Int(spec.subpixelY) * 64 / steps)))
        FT_Set_Transform(raw, &matrix, &delta)
        defer { FT_Set_Transform(raw, nil, nil) }

        guard FT_Load_Glyph(raw, FT_UInt(spec.glyph), FreeTypeFace.loadFlags) == 0,
              let slot = raw.pointee.glyph,
              slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE,
              slot.pointee.outline.n_points > 0 else { return .empty }

        if spec.haloRadius64 <= 0 {
            guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return .empty }
            return FreeTypeFace.copy(slot.pointee.bitmap, left: Int(slot.pointee.bitmap_left),
                                     top: Int(slot.pointee.bitmap_top)).trimmed()
        }
        return halo(slot, radius64: spec.haloRadius64).trimmed()
    }

    /// The glyph dilated by `radius64`: its stroked outline (round joins) united with its
    /// fill. Stroking the full outline and taking the union is robust to contour direction
    /// and overlapping contours, where `FT_Glyph_StrokeBorder`'s "outside only" can pick
    /// the wrong side. Called with the lock held and the glyph loaded in `slot`.
    private func halo(_ slot: FT_GlyphSlot, radius64: Int32) -> GlyphBitmap {
        var glyph: FT_Glyph?
        guard FT_Get_Glyph(slot, &glyph) == 0, glyph != nil else { return .empty }
        FT_Stroker_Set(stroker.raw, FT_Fixed(radius64), FT_STROKER_LINECAP_ROUND, FT_STROKER_LINEJOIN_ROUND, 0)
        // With destroy = 1 each call frees the glyph it replaces, also on failure.
        guard FT_Glyph_Stroke(&glyph, stroker.raw, 1) == 0,
              FT_Glyph_To_Bitmap(&glyph, FT_RENDER_MODE_NORMAL, nil, 1) == 0,
              let rendered = glyph, rendered.pointee.format == FT_GLYPH_FORMAT_BITMAP else {
            if let g = glyph { FT_Done_Glyph(g) }
            return .empty
        }
        defer { FT_Done_Glyph(rendered) }
        let bitmapGlyph = UnsafeMutableRawPointer(rendered).assumingMemoryBound(to: FT_BitmapGlyphRec.self)
        let stroke = FreeTypeFace.copy(bitmapGlyph.pointee.bitmap, left: Int(bitmapGlyph.pointee.left),
                                       top: Int(bitmapGlyph.pointee.top))
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return stroke }
        let fill = FreeTypeFace.copy(slot.pointee.bitmap, left: Int(slot.pointee.bitmap_left),
                                     top: Int(slot.pointee.bitmap_top))
        return FreeTypeFace.union(stroke, fill)
    }

    /// Copies an 8-bit grey FreeType bitmap (any pitch sign) into a `GlyphBitmap`.
    private static func copy(_ bitmap: FT_Bitmap, left: Int, top: Int) -> GlyphBitmap {
        let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard width > 0, rows > 0, let buffer = bitmap.buffer,
              bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue),
              abs(pitch) >= width, width * rows <= maxBitmapBytes else { return .empty }
        var out = [UInt8](repeating: 0, count: width * rows)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<rows {
                // A negative pitch means rows are stored bottom-up from `buffer`.
                let src = pitch >= 0 ? buffer + y * pitch : buffer + (rows - 1 - y) * -pitch
                for x in 0..<width { dst[y * width + x] = src[x] }
            }
        }
        return GlyphBitmap(width: width, height: rows, left: left, top: top, coverage: out)
    }

    /// Per-pixel maximum of two bitmaps, on the union of their boxes.
    static func union(_ a: GlyphBitmap, _ b: GlyphBitmap) -> GlyphBitmap {
        if b.isEmpty { return a }
        if a.isEmpty { return b }
        let left = min(a.left, b.left), top = max(a.top, b.top)
        let right = max(a.left + a.width, b.left + b.width)
        let bottom = min(a.top - a.height, b.top - b.height)
        let width = right - left, height = top - bottom
        guard width * height <= maxBitmapBytes else { return a }
        var out = [UInt8](repeating: 0, count: width * height)
        for bitmap in [a, b] {
            let dx = bitmap.left - left, dy = top - bitmap.top
            bitmap.coverage.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<bitmap.height {
                        let s = y * bitmap.width, d = (y + dy) * width + dx
                        for x in 0..<bitmap.width where src[s + x] > dst[d + x] { dst[d + x] = src[s + x] }
                    }
                }
            }
        }
        return GlyphBitmap(width: width, height: height, left: left, top: top, coverage: out)
    }
}

/// Hands out process-unique face identities.
private enum FaceIdentity {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var counter = 0

    static func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        counter += 1
        return counter
    }
}

/// A short reason for an `FT_Error`, falling back to the number when FreeType was built
/// without error strings.
private func freeTypeReason(_ code: FT_Error) -> String {
    if let s = FT_Error_String(code) { return String(cString: s) }
    return "error 0x" + String(code, radix: 16)
}

/// Owns an `FT_Library`.
private final class FTLibrary {
    let raw: FT_Library

    init(path: String) throws(FontError) {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else {
            throw FontError.invalidFont(path: path, freeTypeError: error, reason: "FT_Init_FreeType: " + freeTypeReason(error))
        }
        raw = library
    }

    deinit { FT_Done_FreeType(raw) }
}

/// Owns an `FT_Face` and the font bytes it reads from (FreeType does not copy them).
private final class FTFace {
    let raw: FT_Face
    /// The font file's bytes, also read by the face's HarfBuzz font.
    let memory: UnsafeMutableRawBufferPointer
    /// Keeps the library alive until the face is done.
    private let library: FTLibrary

    init(library: FTLibrary, bytes: [UInt8], path: String) throws(FontError) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { src in memory.copyMemory(from: src) }
        var face: FT_Face?
        let error = FT_New_Memory_Face(library.raw, memory.baseAddress?.assumingMemoryBound(to: FT_Byte.self),
                                       FT_Long(bytes.count), 0, &face)
        guard error == 0, let face else {
            memory.deallocate()
            throw FontError.invalidFont(path: path, freeTypeError: error, reason: freeTypeReason(error))
        }
        raw = face
        self.memory = memory
        self.library = library
    }

    deinit {
        FT_Done_Face(raw)
        memory.deallocate()
    }
}

/// Owns an `FT_Stroker` (used for halos).
private final class FTStroker {
    let raw: FT_Stroker
    private let library: FTLibrary

    init(library: FTLibrary, path: String) throws(FontError) {
        var stroker: FT_Stroker?
        let error = FT_Stroker_New(library.raw, &stroker)
        guard error == 0, let stroker else {
            throw FontError.invalidFont(path: path, freeTypeError: error, reason: "FT_Stroker_New: " + freeTypeReason(error))
        }
        raw = stroker
        self.library = library
    }

    deinit { FT_Stroker_Done(raw) }
}

extension FreeTypeFace {
    /// The version of the FreeType this process runs with (`FT_Library_Version` of a library
    /// made for the question and freed), for `--version`; nil when FreeType cannot start.
    static var libraryVersion: String? {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        defer { FT_Done_FreeType(library) }
        var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
        FT_Library_Version(library, &major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
}
