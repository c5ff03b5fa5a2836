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

    /// Applies the transform (locale-independent, as MapLibre does).
    func apply(_ text: String) -> String {
        switch self {
        case .none: return text
        case .uppercase: return text.uppercased()
        case .lowercase: return text.lowercased()
        }
    }
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
