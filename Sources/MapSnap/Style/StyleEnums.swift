/// `visibility` (layout, every layer type).
public enum Visibility: String, Sendable, CaseIterable {
    case visible, none
}

// `line-cap` and `line-join` reuse `LineCap`/`LineJoin` from Overlays/Overlay.swift: the
// raw values are the style-spec keywords.

/// `symbol-placement`.
public enum SymbolPlacement: String, Sendable, CaseIterable {
    case point, line
    case lineCenter = "line-center"
}

/// `text-anchor` / `icon-anchor`: which part of the label sits on the anchor point.
public enum TextAnchor: String, Sendable, CaseIterable {
    case center, left, right, top, bottom
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"
}

/// `text-transform`.
public enum TextTransform: String, Sendable, CaseIterable {
    case none, uppercase, lowercase

    /// Applies the transform (locale-independent, as MapLibre does).
    public func apply(_ text: String) -> String {
        switch self {
        case .none: return text
        case .uppercase: return text.uppercased()
        case .lowercase: return text.lowercased()
        }
    }
}

/// `text-justify`.
public enum TextJustify: String, Sendable, CaseIterable {
    case auto, left, center, right
}

/// `text-rotation-alignment` / `icon-rotation-alignment`.
public enum RotationAlignment: String, Sendable, CaseIterable {
    case map, viewport, auto
    case viewportGlyph = "viewport-glyph"
}
