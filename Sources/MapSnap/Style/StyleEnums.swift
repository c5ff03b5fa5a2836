/// `visibility` (layout, every layer type).
enum Visibility: String, Sendable, CaseIterable {
    case visible, none
}

// `line-cap` and `line-join` reuse `LineCap`/`LineJoin` from Overlays/Overlay.swift: the
// raw values are the style-spec keywords.

/// `symbol-placement`.
enum SymbolPlacement: String, Sendable, CaseIterable {
    case point, line
    case lineCenter = "line-center"
}

// `text-anchor` / `icon-anchor` reuse `TextAnchor` from Text/TextRenderer.swift (raw values
// are the style-spec keywords).

/// `text-transform`.
enum TextTransform: String, Sendable, CaseIterable {
    case none, uppercase, lowercase

    /// Applies the transform (locale-independent, as MapLibre does). Only scripts with case
    /// change: the others have no case mappings, and Georgian, whose Mkhedruli letters gained
    /// Mtavruli capitals in Unicode 11 that are not used for upper-case text, is kept as
    /// written.
    func apply(_ text: String) -> String {
        switch self {
        case .none: return text
        case .uppercase:
            guard text.unicodeScalars.contains(where: TextTransform.keepsCase) else { return text.uppercased() }
            var out = ""
            for c in text { out += c.unicodeScalars.contains(where: TextTransform.keepsCase) ? String(c) : c.uppercased() }
            return out
        case .lowercase: return text.lowercased()
        }
    }

    /// Georgian Mkhedruli letters (U+10D0–U+10FF), which `uppercased()` would turn into
    /// Mtavruli.
    private static func keepsCase(_ s: Unicode.Scalar) -> Bool { (0x10D0...0x10FF).contains(s.value) }
}

/// `text-justify`.
enum TextJustify: String, Sendable, CaseIterable {
    case auto, left, center, right
}

/// `text-rotation-alignment` / `icon-rotation-alignment`.
enum RotationAlignment: String, Sendable, CaseIterable {
    case map, viewport, auto
    case viewportGlyph = "viewport-glyph"
}

/// `icon-text-fit`: which of the icon's dimensions stretch to the text's box.
enum IconTextFit: String, Sendable, CaseIterable {
    case none, width, height, both
}
