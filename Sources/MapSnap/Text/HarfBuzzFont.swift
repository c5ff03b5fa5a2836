internal import CHarfBuzz

/// One glyph as HarfBuzz shaped it, in font design units (the font's scale is its units per
/// em, so nothing is rounded to a pixel size before layout scales it).
struct ShapedGlyph: Sendable, Hashable {
    /// Glyph index in the face (0 is the missing-glyph box).
    var glyph: UInt32
    /// Index, in the scalars given to `shape`, of the first scalar of this glyph's cluster.
    var cluster: Int
    /// How far the pen moves after the glyph (kerning and mark positioning included).
    var xAdvance: Int32
    /// Where the glyph sits relative to the pen: x to the right, y up (HarfBuzz's axes).
    var xOffset: Int32
    var yOffset: Int32
}

/// A HarfBuzz font over the bytes of a face FreeType also reads: shaping (glyph choice,
/// ligatures, joining, mark positioning, kerning) for one run of one script and direction.
///
/// This file is the only importer of `CHarfBuzz`. Pinned here, so shaping is the same on
/// every machine and equals `hb-shape --font-funcs=ot` for the same font:
///
/// - HarfBuzz's own OpenType functions (`hb_font_create`'s default), never FreeType's, so
///   advances are the font's `hmtx` values, unhinted.
/// - The scale is the font's units per em: results are in design units, scaled in `Double`
///   by the layout.
/// - Script and direction come from the caller's itemisation; the language is left unset
///   (HarfBuzz's default language system), never taken from the process locale.
///
/// The font is made immutable after set-up; HarfBuzz documents immutable fonts as safe to
/// shape with from several threads at once (each call has its own buffer), so no lock.
final class HarfBuzzFont: @unchecked Sendable {
    private let blob: OpaquePointer
    private let face: OpaquePointer
    private let font: OpaquePointer
    /// Owns the bytes the blob points into (HarfBuzz does not copy them).
    private let owner: AnyObject

    /// A font over `bytes`, which `owner` keeps alive for as long as this font lives.
    /// `nil` when HarfBuzz cannot make one (it then returns its empty objects).
    init?(bytes: UnsafeRawBufferPointer, owner: AnyObject) {
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count <= Int(UInt32.max),
              let blob = hb_blob_create(base.assumingMemoryBound(to: CChar.self), UInt32(bytes.count),
                                        HB_MEMORY_MODE_READONLY, nil, nil) else { return nil }
        guard let face = hb_face_create(blob, 0) else {
            hb_blob_destroy(blob)
            return nil
        }
        guard hb_face_get_glyph_count(face) > 0, let font = hb_font_create(face) else {
            hb_face_destroy(face)
            hb_blob_destroy(blob)
            return nil
        }
        let upem = Int32(clamping: hb_face_get_upem(face))
        hb_font_set_scale(font, upem, upem)
        hb_font_make_immutable(font)
        self.blob = blob
        self.face = face
        self.font = font
        self.owner = owner
    }

    deinit {
        hb_font_destroy(font)
        hb_face_destroy(face)
        hb_blob_destroy(blob)
    }

    /// Shapes `scalars[range]` as one run (the other scalars are context HarfBuzz may look
    /// at, e.g. for Arabic joining). Glyphs come back in visual order: left to right on the
    /// page, so a right-to-left run's first glyph is its last character's.
    func shape(_ scalars: [UInt32], range: Range<Int>, rightToLeft: Bool, script: UInt32) -> [ShapedGlyph] {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= scalars.count,
              scalars.count <= Int(Int32.max) else { return [] }
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        scalars.withUnsafeBufferPointer { text in
            hb_buffer_add_codepoints(buffer, text.baseAddress, Int32(text.count),
                                     UInt32(range.lowerBound), Int32(range.count))
        }
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, hb_script_t(rawValue: script))
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        var out: [ShapedGlyph] = []
        out.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let info = infos[i], position = positions[i]
            out.append(ShapedGlyph(glyph: info.codepoint, cluster: Int(info.cluster),
                                   xAdvance: position.x_advance, xOffset: position.x_offset, yOffset: position.y_offset))
        }
        return out
    }

    /// The Unicode script of a scalar as an ISO 15924 tag (`Zyyy` common, `Zinh` inherited,
    /// `Zzzz` unknown), from HarfBuzz's Unicode data.
    static func script(of scalar: UInt32) -> UInt32 {
        hb_unicode_script(hb_unicode_funcs_get_default(), scalar).rawValue
    }

    /// The version of the HarfBuzz this process runs with, for `--version`.
    static var libraryVersion: String {
        String(cString: hb_version_string())
    }
}
