import Foundation
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
/// This file is the only importer of `CHarfBuzz`. HarfBuzz is opened on first use (the shim
/// `dlopen`s `libharfbuzz.so.0`), not linked: with GLib and the rest it pulls in it would cost
/// every process milliseconds at start, and `--version`, `info` or a render without text never
/// shape. Without the library no font is made (`init` returns nil) and `libraryError` says
/// why, in one line naming the Debian package. Pinned here, so shaping is the same on
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
        guard HarfBuzzFont.loadLibrary() == nil, let base = bytes.baseAddress, bytes.count > 0,
              bytes.count <= Int(UInt32.max),
              let blob = mapsnap_hb_blob_create(base.assumingMemoryBound(to: CChar.self), UInt32(bytes.count),
                                                HB_MEMORY_MODE_READONLY, nil, nil) else { return nil }
        guard let face = mapsnap_hb_face_create(blob, 0) else {
            mapsnap_hb_blob_destroy(blob)
            return nil
        }
        guard mapsnap_hb_face_get_glyph_count(face) > 0, let font = mapsnap_hb_font_create(face) else {
            mapsnap_hb_face_destroy(face)
            mapsnap_hb_blob_destroy(blob)
            return nil
        }
        let upem = Int32(clamping: mapsnap_hb_face_get_upem(face))
        mapsnap_hb_font_set_scale(font, upem, upem)
        mapsnap_hb_font_make_immutable(font)
        self.blob = blob
        self.face = face
        self.font = font
        self.owner = owner
    }

    deinit {
        mapsnap_hb_font_destroy(font)
        mapsnap_hb_face_destroy(face)
        mapsnap_hb_blob_destroy(blob)
    }

    /// Shapes `scalars[range]` as one run (the other scalars are context HarfBuzz may look
    /// at, e.g. for Arabic joining). Glyphs come back in visual order: left to right on the
    /// page, so a right-to-left run's first glyph is its last character's.
    func shape(_ scalars: [UInt32], range: Range<Int>, rightToLeft: Bool, script: UInt32) -> [ShapedGlyph] {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= scalars.count,
              scalars.count <= Int(Int32.max) else { return [] }
        guard let buffer = mapsnap_hb_buffer_create() else { return [] }
        defer { mapsnap_hb_buffer_destroy(buffer) }
        scalars.withUnsafeBufferPointer { text in
            mapsnap_hb_buffer_add_codepoints(buffer, text.baseAddress, Int32(text.count),
                                             UInt32(range.lowerBound), Int32(range.count))
        }
        mapsnap_hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        mapsnap_hb_buffer_set_script(buffer, hb_script_t(rawValue: script))
        mapsnap_hb_shape(font, buffer)
        var count: UInt32 = 0
        guard let infos = mapsnap_hb_buffer_get_glyph_infos(buffer, &count),
              let positions = mapsnap_hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
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
    /// `Zzzz` unknown), from HarfBuzz's Unicode data; `Zzzz` for every scalar when HarfBuzz
    /// cannot be loaded.
    static func script(of scalar: UInt32) -> UInt32 {
        guard loadLibrary() == nil else { return ShapedParagraph.unknownScript }
        return mapsnap_hb_unicode_script(scalar).rawValue
    }

    /// The version of the HarfBuzz this process runs with (`--version --all`); loads it. Nil
    /// when it cannot be loaded.
    static var libraryVersion: String? {
        guard loadLibrary() == nil else { return nil }
        return mapsnap_hb_version_string().map { String(cString: $0) }
    }

    /// The HarfBuzz header mapsnap was built against (`HB_VERSION_STRING`), without loading it.
    static var headerVersion: String { String(cString: mapsnap_hb_header_version()) }

    /// Why HarfBuzz could not be loaded, once a load was tried and failed; nil when it is loaded
    /// or was never needed. Does not load it.
    static var libraryError: FontError? { attempted.withLock { $0 } ? loadLibrary() : nil }

    /// Whether `loadLibrary` has run (so `libraryError` can answer without loading).
    private static let attempted = Locked(false)

    /// Loads HarfBuzz (the first call only); nil when it is there, else why not.
    static func loadLibrary() -> FontError? { loaded }

    private static let loaded: FontError? = {
        defer { attempted.withLock { $0 = true } }
        #if DEBUG
        // Tests of a debug build simulate a machine without the library (a release build
        // ignores this): the name must stay valid for the process, hence strdup.
        if let name = ProcessInfo.processInfo.environment["MAPSNAP_DEBUG_HARFBUZZ_SONAME"], !name.isEmpty {
            mapsnap_hb_use_soname(strdup(name))
        }
        #endif
        guard mapsnap_hb() == nil else { return nil }
        return FontError.libraryUnavailable(library: "HarfBuzz", file: String(cString: mapsnap_hb_soname()),
                                            package: "libharfbuzz0b", reason: String(cString: mapsnap_hb_load_error()))
    }()
}
