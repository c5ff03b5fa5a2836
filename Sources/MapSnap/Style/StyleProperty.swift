/// A style layer type. Types we do not draw are kept as `.other` so the layer list keeps
/// its order and ids (and the renderer can skip them knowingly).
enum StyleLayerType: Hashable, Sendable, CustomStringConvertible {
    case background, fill, line, symbol, raster, hillshade
    /// `fill-extrusion`, drawn as mapsnap's cameras see it: from straight above, where an
    /// extruded polygon shows only its roof, a flat fill.
    case fillExtrusion
    /// A MapLibre layer type we parse but do not draw (`circle`, `fill-extrusion`, …).
    case other(String)

    /// The types mapsnap draws and their style-spec names: the one list both directions read.
    private static let named: [(type: StyleLayerType, name: String)] = [
        (.background, "background"), (.fill, "fill"), (.line, "line"), (.symbol, "symbol"),
        (.raster, "raster"), (.hillshade, "hillshade"), (.fillExtrusion, "fill-extrusion"),
    ]

    init(name: String) {
        self = Self.named.first { $0.name == name }?.type ?? .other(name)
    }

    var description: String {
        if case .other(let name) = self { return name }
        return Self.named.first { $0.type == self }?.name ?? ""
    }

    /// Whether the layer type is one MapLibre defines (the others are a style error).
    var isKnownToMapLibre: Bool {
        switch self {
        case .other(let name):
            return ["circle", "heatmap", "color-relief", "sky"].contains(name)
        default:
            return true
        }
    }
}

/// The type of value a property holds; it decides how constants are validated, how legacy
/// functions interpolate and which accessor reads it.
enum StylePropertyKind: Hashable, Sendable {
    case color
    case number
    case numberArray
    case boolean
    case string
    case stringArray
    /// One of a fixed set of keywords.
    case enumeration([String])
    /// `text-field`: a string with `{token}` substitution, or `format`.
    case formatted
    /// `icon-image`: an image name with `{token}` substitution, or `image`.
    case image
    /// A number or an array of 1–4 numbers (`icon-padding`).
    case padding

    /// Whether legacy zoom functions interpolate (exponential) rather than step (interval).
    var isInterpolatable: Bool {
        switch self {
        case .color, .number, .numberArray, .padding: return true
        default: return false
        }
    }
}

/// How far mapsnap implements a property.
enum StylePropertySupport: Hashable, Sendable {
    /// Parsed and honoured by the renderer.
    case supported
    /// Parsed (so values are validated) but without visible effect; a warning says so.
    case ignored
    /// Not implemented; a warning says so and the default is used.
    case unsupported
}

/// The paint and layout properties mapsnap knows, one case per style-spec name. This enum is
/// the single table of style-spec property strings.
enum StyleProperty: String, CaseIterable, CaseIdentified, Sendable {
    // All layer types.
    case visibility

    case backgroundColor = "background-color"
    case backgroundOpacity = "background-opacity"
    case backgroundPattern = "background-pattern"

    case fillSortKey = "fill-sort-key"
    case fillAntialias = "fill-antialias"
    case fillOpacity = "fill-opacity"
    case fillColor = "fill-color"
    case fillOutlineColor = "fill-outline-color"
    case fillTranslate = "fill-translate"
    case fillTranslateAnchor = "fill-translate-anchor"
    case fillPattern = "fill-pattern"

    case lineCap = "line-cap"
    case lineJoin = "line-join"
    case lineMiterLimit = "line-miter-limit"
    case lineRoundLimit = "line-round-limit"
    case lineSortKey = "line-sort-key"
    case lineOpacity = "line-opacity"
    case lineColor = "line-color"
    case lineTranslate = "line-translate"
    case lineTranslateAnchor = "line-translate-anchor"
    case lineWidth = "line-width"
    case lineGapWidth = "line-gap-width"
    case lineOffset = "line-offset"
    case lineBlur = "line-blur"
    case lineDasharray = "line-dasharray"
    case linePattern = "line-pattern"
    case lineGradient = "line-gradient"

    case symbolPlacement = "symbol-placement"
    case symbolSpacing = "symbol-spacing"
    case symbolAvoidEdges = "symbol-avoid-edges"
    case symbolSortKey = "symbol-sort-key"
    case symbolZOrder = "symbol-z-order"
    case iconAllowOverlap = "icon-allow-overlap"
    case iconOverlap = "icon-overlap"
    case iconIgnorePlacement = "icon-ignore-placement"
    case iconOptional = "icon-optional"
    case iconRotationAlignment = "icon-rotation-alignment"
    case iconSize = "icon-size"
    case iconTextFit = "icon-text-fit"
    case iconTextFitPadding = "icon-text-fit-padding"
    case iconImage = "icon-image"
    case iconRotate = "icon-rotate"
    case iconPadding = "icon-padding"
    case iconKeepUpright = "icon-keep-upright"
    case iconOffset = "icon-offset"
    case iconAnchor = "icon-anchor"
    case iconPitchAlignment = "icon-pitch-alignment"
    case textPitchAlignment = "text-pitch-alignment"
    case textRotationAlignment = "text-rotation-alignment"
    case textField = "text-field"
    case textFont = "text-font"
    case textSize = "text-size"
    case textMaxWidth = "text-max-width"
    case textLineHeight = "text-line-height"
    case textLetterSpacing = "text-letter-spacing"
    case textJustify = "text-justify"
    case textRadialOffset = "text-radial-offset"
    case textVariableAnchor = "text-variable-anchor"
    case textAnchor = "text-anchor"
    case textMaxAngle = "text-max-angle"
    case textWritingMode = "text-writing-mode"
    case textRotate = "text-rotate"
    case textPadding = "text-padding"
    case textKeepUpright = "text-keep-upright"
    case textTransform = "text-transform"
    case textOffset = "text-offset"
    case textAllowOverlap = "text-allow-overlap"
    case textOverlap = "text-overlap"
    case textIgnorePlacement = "text-ignore-placement"
    case textOptional = "text-optional"
    case iconOpacity = "icon-opacity"
    case iconColor = "icon-color"
    case iconHaloColor = "icon-halo-color"
    case iconHaloWidth = "icon-halo-width"
    case iconHaloBlur = "icon-halo-blur"
    case iconTranslate = "icon-translate"
    case iconTranslateAnchor = "icon-translate-anchor"
    case textOpacity = "text-opacity"
    case textColor = "text-color"
    case textHaloColor = "text-halo-color"
    case textHaloWidth = "text-halo-width"
    case textHaloBlur = "text-halo-blur"
    case textTranslate = "text-translate"
    case textTranslateAnchor = "text-translate-anchor"

    case rasterOpacity = "raster-opacity"
    case rasterHueRotate = "raster-hue-rotate"
    case rasterBrightnessMin = "raster-brightness-min"
    case rasterBrightnessMax = "raster-brightness-max"
    case rasterSaturation = "raster-saturation"
    case rasterContrast = "raster-contrast"
    case rasterResampling = "raster-resampling"
    case rasterFadeDuration = "raster-fade-duration"

    case fillExtrusionOpacity = "fill-extrusion-opacity"
    case fillExtrusionColor = "fill-extrusion-color"
    case fillExtrusionTranslate = "fill-extrusion-translate"
    case fillExtrusionTranslateAnchor = "fill-extrusion-translate-anchor"
    case fillExtrusionPattern = "fill-extrusion-pattern"
    case fillExtrusionHeight = "fill-extrusion-height"
    case fillExtrusionBase = "fill-extrusion-base"
    case fillExtrusionVerticalGradient = "fill-extrusion-vertical-gradient"

    case hillshadeIlluminationDirection = "hillshade-illumination-direction"
    case hillshadeIlluminationAnchor = "hillshade-illumination-anchor"
    case hillshadeExaggeration = "hillshade-exaggeration"
    case hillshadeShadowColor = "hillshade-shadow-color"
    case hillshadeHighlightColor = "hillshade-highlight-color"
    case hillshadeAccentColor = "hillshade-accent-color"

    /// The layer type the property belongs to; nil for `visibility` (every type).
    var layerType: StyleLayerType? { Self.table[self]?.layer }
    /// Whether the property lives in `layout` (otherwise `paint`).
    var isLayout: Bool { Self.table[self]?.layout ?? false }
    var kind: StylePropertyKind { Self.table[self]?.kind ?? .number }
    /// The style-spec default, `.null` where the spec has none (`fill-outline-color` follows
    /// `fill-color`, `line-dasharray` means solid).
    var defaultValue: StyleValue { Self.table[self]?.defaultValue ?? .null }
    var support: StylePropertySupport { Self.table[self]?.support ?? .unsupported }

    /// Finds the property named `name` valid for `layerType` in `layout` or `paint`.
    static func named(_ name: String, layerType: StyleLayerType, layout: Bool) -> StyleProperty? {
        guard let p = StyleProperty(rawValue: name), p.isLayout == layout else { return nil }
        return p.layerType == nil || p.layerType == layerType ? p : nil
    }

    private struct Info {
        let layer: StyleLayerType?
        let layout: Bool
        let kind: StylePropertyKind
        let defaultValue: StyleValue
        let support: StylePropertySupport
    }

    private static let anchors = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]
    private static let mapViewport = ["map", "viewport"]
    private static let mapViewportAuto = ["map", "viewport", "auto"]

    // `*-pitch-alignment` and `*-translate-anchor` choose between the map's and the
    // viewport's frame: fill and line translate anchors are honoured on a turned map
    // (`LayerTranslate`); symbols always stand upright and move on the page (docs/style-subset.md).
    private static let table: [StyleProperty: Info] = {
        func n(_ v: Double) -> StyleValue { .number(v) }
        func c(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> StyleValue {
            .color(StyleColor(red: r, green: g, blue: b, alpha: a))
        }
        let zero2: StyleValue = .array([.number(0), .number(0)])
        let black = c(0, 0, 0)
        let clear = c(0, 0, 0, 0)
        typealias Row = (StyleProperty, StyleLayerType?, Bool, StylePropertyKind, StyleValue, StylePropertySupport)
        let rows: [Row] = [
            (.visibility, nil, true, .enumeration(["visible", "none"]), .string("visible"), .supported),

            (.backgroundColor, .background, false, .color, black, .supported),
            (.backgroundOpacity, .background, false, .number, n(1), .supported),
            (.backgroundPattern, .background, false, .image, .null, .supported),

            (.fillSortKey, .fill, true, .number, .null, .ignored),
            (.fillAntialias, .fill, false, .boolean, .bool(true), .supported),
            (.fillOpacity, .fill, false, .number, n(1), .supported),
            (.fillColor, .fill, false, .color, black, .supported),
            (.fillOutlineColor, .fill, false, .color, .null, .supported),
            (.fillTranslate, .fill, false, .numberArray, zero2, .supported),
            (.fillTranslateAnchor, .fill, false, .enumeration(mapViewport), .string("map"), .supported),
            (.fillPattern, .fill, false, .image, .null, .supported),

            (.lineCap, .line, true, .enumeration(["butt", "round", "square"]), .string("butt"), .supported),
            (.lineJoin, .line, true, .enumeration(["bevel", "round", "miter"]), .string("miter"), .supported),
            (.lineMiterLimit, .line, true, .number, n(2), .supported),
            (.lineRoundLimit, .line, true, .number, n(1.05), .ignored),
            (.lineSortKey, .line, true, .number, .null, .ignored),
            (.lineOpacity, .line, false, .number, n(1), .supported),
            (.lineColor, .line, false, .color, black, .supported),
            (.lineTranslate, .line, false, .numberArray, zero2, .supported),
            (.lineTranslateAnchor, .line, false, .enumeration(mapViewport), .string("map"), .supported),
            (.lineWidth, .line, false, .number, n(1), .supported),
            (.lineGapWidth, .line, false, .number, n(0), .supported),
            (.lineOffset, .line, false, .number, n(0), .supported),
            (.lineBlur, .line, false, .number, n(0), .ignored),
            (.lineDasharray, .line, false, .numberArray, .null, .supported),
            (.linePattern, .line, false, .image, .null, .supported),
            (.lineGradient, .line, false, .color, .null, .unsupported),

            (.symbolPlacement, .symbol, true, .enumeration(["point", "line", "line-center"]), .string("point"), .supported),
            (.symbolSpacing, .symbol, true, .number, n(250), .supported),
            (.symbolAvoidEdges, .symbol, true, .boolean, .bool(false), .ignored),
            (.symbolSortKey, .symbol, true, .number, .null, .supported),
            (.symbolZOrder, .symbol, true, .enumeration(["auto", "viewport-y", "source"]), .string("auto"), .ignored),
            (.iconAllowOverlap, .symbol, true, .boolean, .bool(false), .supported),
            (.iconOverlap, .symbol, true, .enumeration(["never", "always", "cooperative"]), .null, .ignored),
            (.iconIgnorePlacement, .symbol, true, .boolean, .bool(false), .supported),
            (.iconOptional, .symbol, true, .boolean, .bool(false), .supported),
            (.iconRotationAlignment, .symbol, true, .enumeration(mapViewportAuto), .string("auto"), .supported),
            (.iconSize, .symbol, true, .number, n(1), .supported),
            (.iconTextFit, .symbol, true, .enumeration(["none", "width", "height", "both"]), .string("none"), .supported),
            (.iconTextFitPadding, .symbol, true, .numberArray, .array([n(0), n(0), n(0), n(0)]), .supported),
            (.iconImage, .symbol, true, .image, .null, .supported),
            (.iconRotate, .symbol, true, .number, n(0), .supported),
            (.iconPadding, .symbol, true, .padding, .array([n(2)]), .supported),
            (.iconKeepUpright, .symbol, true, .boolean, .bool(false), .supported),
            (.iconOffset, .symbol, true, .numberArray, zero2, .supported),
            (.iconAnchor, .symbol, true, .enumeration(anchors), .string("center"), .supported),
            (.iconPitchAlignment, .symbol, true, .enumeration(mapViewportAuto), .string("auto"), .supported),
            (.textPitchAlignment, .symbol, true, .enumeration(mapViewportAuto), .string("auto"), .supported),
            (.textRotationAlignment, .symbol, true, .enumeration(["map", "viewport", "viewport-glyph", "auto"]), .string("auto"), .supported),
            (.textField, .symbol, true, .formatted, .string(""), .supported),
            (.textFont, .symbol, true, .stringArray, .array([.string("Open Sans Regular"), .string("Arial Unicode MS Regular")]), .supported),
            (.textSize, .symbol, true, .number, n(16), .supported),
            (.textMaxWidth, .symbol, true, .number, n(10), .supported),
            (.textLineHeight, .symbol, true, .number, n(1.2), .supported),
            (.textLetterSpacing, .symbol, true, .number, n(0), .supported),
            (.textJustify, .symbol, true, .enumeration(["auto", "left", "center", "right"]), .string("center"), .supported),
            (.textRadialOffset, .symbol, true, .number, n(0), .supported),
            (.textVariableAnchor, .symbol, true, .stringArray, .null, .supported),
            (.textAnchor, .symbol, true, .enumeration(anchors), .string("center"), .supported),
            (.textMaxAngle, .symbol, true, .number, n(45), .supported),
            (.textWritingMode, .symbol, true, .stringArray, .null, .unsupported),
            (.textRotate, .symbol, true, .number, n(0), .supported),
            (.textPadding, .symbol, true, .number, n(2), .supported),
            (.textKeepUpright, .symbol, true, .boolean, .bool(true), .supported),
            (.textTransform, .symbol, true, .enumeration(["none", "uppercase", "lowercase"]), .string("none"), .supported),
            (.textOffset, .symbol, true, .numberArray, zero2, .supported),
            (.textAllowOverlap, .symbol, true, .boolean, .bool(false), .supported),
            (.textOverlap, .symbol, true, .enumeration(["never", "always", "cooperative"]), .null, .ignored),
            (.textIgnorePlacement, .symbol, true, .boolean, .bool(false), .supported),
            (.textOptional, .symbol, true, .boolean, .bool(false), .supported),
            (.iconOpacity, .symbol, false, .number, n(1), .supported),
            (.iconColor, .symbol, false, .color, black, .supported),
            (.iconHaloColor, .symbol, false, .color, clear, .supported),
            (.iconHaloWidth, .symbol, false, .number, n(0), .supported),
            (.iconHaloBlur, .symbol, false, .number, n(0), .ignored),
            (.iconTranslate, .symbol, false, .numberArray, zero2, .supported),
            (.iconTranslateAnchor, .symbol, false, .enumeration(mapViewport), .string("map"), .supported),
            (.textOpacity, .symbol, false, .number, n(1), .supported),
            (.textColor, .symbol, false, .color, black, .supported),
            (.textHaloColor, .symbol, false, .color, clear, .supported),
            (.textHaloWidth, .symbol, false, .number, n(0), .supported),
            (.textHaloBlur, .symbol, false, .number, n(0), .ignored),
            (.textTranslate, .symbol, false, .numberArray, zero2, .supported),
            (.textTranslateAnchor, .symbol, false, .enumeration(mapViewport), .string("map"), .supported),

            (.rasterOpacity, .raster, false, .number, n(1), .supported),
            (.rasterHueRotate, .raster, false, .number, n(0), .supported),
            (.rasterBrightnessMin, .raster, false, .number, n(0), .supported),
            (.rasterBrightnessMax, .raster, false, .number, n(1), .supported),
            (.rasterSaturation, .raster, false, .number, n(0), .supported),
            (.rasterContrast, .raster, false, .number, n(0), .supported),
            (.rasterResampling, .raster, false, .enumeration(["linear", "nearest"]), .string("linear"), .supported),
            (.rasterFadeDuration, .raster, false, .number, n(300), .ignored),

            // Seen from straight above, an extrusion is its roof: height, base and the
            // walls' gradient have no visible effect (honoured by doing nothing).
            (.fillExtrusionOpacity, .fillExtrusion, false, .number, n(1), .supported),
            (.fillExtrusionColor, .fillExtrusion, false, .color, black, .supported),
            (.fillExtrusionTranslate, .fillExtrusion, false, .numberArray, zero2, .supported),
            (.fillExtrusionTranslateAnchor, .fillExtrusion, false, .enumeration(mapViewport), .string("map"), .supported),
            (.fillExtrusionPattern, .fillExtrusion, false, .image, .null, .supported),
            (.fillExtrusionHeight, .fillExtrusion, false, .number, n(0), .supported),
            (.fillExtrusionBase, .fillExtrusion, false, .number, n(0), .supported),
            (.fillExtrusionVerticalGradient, .fillExtrusion, false, .boolean, .bool(true), .supported),

            (.hillshadeIlluminationDirection, .hillshade, false, .number, n(335), .supported),
            (.hillshadeIlluminationAnchor, .hillshade, false, .enumeration(mapViewport), .string("viewport"), .supported),
            (.hillshadeExaggeration, .hillshade, false, .number, n(0.5), .supported),
            (.hillshadeShadowColor, .hillshade, false, .color, black, .supported),
            (.hillshadeHighlightColor, .hillshade, false, .color, c(1, 1, 1), .supported),
            (.hillshadeAccentColor, .hillshade, false, .color, black, .supported),
        ]
        var table: [StyleProperty: Info] = [:]
        for row in rows {
            table[row.0] = Info(layer: row.1, layout: row.2, kind: row.3, defaultValue: row.4, support: row.5)
        }
        return table
    }()
}
