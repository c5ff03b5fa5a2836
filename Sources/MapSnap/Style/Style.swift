import Foundation

/// A map style: a documented subset of the MapLibre GL style specification (see
/// `docs/style-subset.md`), parsed and compiled once.
///
/// Sources are kept as data for the renderer to resolve; layers keep their order; every
/// filter and property is compiled to an `StyleExpression`. What the style asks for but
/// mapsnap does not do is listed in `warnings`, one entry per distinct thing.
struct Style: Sendable {
    /// Styles larger than this are refused (real styles are well under 1 MB).
    static let maximumInputBytes = 16 << 20
    /// Deepest JSON nesting accepted; bounds recursion in the parser and compiler.
    static let maximumNestingDepth = 64
    /// Most layers accepted (real styles have up to a few hundred); more is an error.
    static let maximumLayerCount = 2_000
    /// Most nodes in one compiled expression or filter (real ones have under a thousand),
    /// which bounds the work of evaluating it; more is an error.
    static let maximumExpressionNodes = 100_000
    /// Longest string (UTF-8 bytes) a style may write or an expression may build. A longer
    /// literal, or a constant expression building one, is an error; an expression building
    /// one from feature data fails at evaluation (the property takes its default).
    static let maximumStringBytes = 10_000
    /// Longest label (characters) `text-field` yields; longer labels are cut to this.
    static let maximumLabelCharacters = 256

    /// Where the style came from (file name or caller label), used in errors.
    let origin: String
    /// The style-spec version (always 8).
    let version: Int
    let name: String?
    /// Sources by id.
    let sources: [String: StyleSource]
    /// Layers in drawing order (first is drawn first, at the bottom).
    let layers: [StyleLayer]
    /// The sprite sheets the style names (`sprite`), in order; empty when it names none.
    let sprites: [StyleSprite]
    /// Degradations, deduplicated, in order of first occurrence.
    let warnings: [StyleWarning]
    /// The root `sky` object's colours (nil when the style has none): what a pitched map
    /// paints above its far limit.
    var sky: StyleSky?

    init(origin: String, version: Int, name: String?, sources: [String: StyleSource], layers: [StyleLayer],
         sprites: [StyleSprite] = [], warnings: [StyleWarning], sky: StyleSky? = nil) {
        self.sky = sky
        self.origin = origin
        self.version = version
        self.name = name
        self.sources = sources
        self.layers = layers
        self.sprites = sprites
        self.warnings = warnings
    }

    /// Reads and parses the style file at `path`; errors name the file's last path component.
    static func load(path: String) throws(StyleError) -> Style {
        try load(path: path, customization: StyleCustomization())
    }

    /// Reads the style file at `path` and parses it with `customization` (Google styling
    /// rules, a label language) applied to its JSON first.
    ///
    /// - Parameter layerTypes: when given, only layers of these types are parsed (after the
    ///   customization, so they come out as in the whole style): what a caller that needs one
    ///   kind of layer reads of a trusted style, without compiling the others.
    static func load(path: String, customization: StyleCustomization,
                     layerTypes: Set<String>? = nil) throws(StyleError) -> Style {
        let origin = (path as NSString).lastPathComponent
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: maximumInputBytes)
        } catch .tooLarge(_, let count, let limit) {
            throw .tooLarge(origin: origin, byteCount: count ?? limit + 1, limit: limit)
        } catch {
            throw .unreadable(origin: origin, reason: error.description)
        }
        return try parse(bytes: bytes, origin: origin, customization: customization, layerTypes: layerTypes)
    }

    /// Parses style JSON. `origin` names the style in errors and warnings.
    static func parse(data: Data, origin: String) throws(StyleError) -> Style {
        guard data.count <= maximumInputBytes else {
            throw .tooLarge(origin: origin, byteCount: data.count, limit: maximumInputBytes)
        }
        return try parse(bytes: [UInt8](data), origin: origin)
    }

    static func parse(bytes: [UInt8], origin: String, customization: StyleCustomization = StyleCustomization(),
                      layerTypes: Set<String>? = nil) throws(StyleError) -> Style {
        var json: JSONValue
        do {
            json = try JSONValue.parse(bytes, origin: origin, maximumDepth: maximumNestingDepth)
        } catch {
            if case .tooDeep(let limit) = error.reason {
                throw .nestingTooDeep(origin: origin, keyPath: error.keyPath.isEmpty ? "(root)" : error.keyPath, limit: limit)
            }
            throw .invalidJSON(error)
        }
        customization.apply(to: &json)
        if let layerTypes, case .object(var root) = json, case .array(let items)? = root["layers"] {
            root["layers"] = .array(items.filter { item in
                guard case .object(let layer) = item, case .string(let type)? = layer["type"] else { return false }
                return layerTypes.contains(type)
            })
            json = .object(root)
        }
        do {
            var parser = StyleParser(origin: origin)
            return try parser.parseStyle(json)
        } catch let error as StyleError {
            throw error
        } catch {
            throw .invalidValue(origin: origin, keyPath: "(root)", reason: "\(error)")
        }
    }

    /// The layer with `id`, if any.
    func layer(id: String) -> StyleLayer? {
        layers.first { $0.id == id }
    }
}

/// A sprite sheet named by a style: `url` is the sheet's base, to which `.json` (the index)
/// and `.png` (the image) are appended, with `@2x` before them for high-density renders.
struct StyleSprite: Sendable, Hashable {
    /// The id of the sheet whose images are named without a prefix.
    static let defaultID = "default"
    /// `default`, or the prefix of this sheet's image names (`id:name`).
    let id: String
    let url: String

    init(id: String, url: String) {
        self.id = id
        self.url = url
    }
}

/// A tile or data source declared by a style, kept as data: the renderer resolves it.
struct StyleSource: Sendable, Equatable {
    enum Kind: Hashable, Sendable {
        case vector, raster, rasterDEM, geoJSON
        /// `image`, `video` or anything else: not read by mapsnap.
        case other(String)
    }

    let id: String
    let kind: Kind
    /// A TileJSON URL (`url`), when given.
    let url: String?
    /// Tile URL templates (`tiles`).
    let tiles: [String]
    let minZoom: Double?
    let maxZoom: Double?
    /// Tile size in pixels at scale 1 (`tileSize`; raster default 512 in the spec).
    let tileSize: Int?
    let attribution: String?
    /// `xyz` (default) or `tms`.
    let scheme: String?
    /// `raster-dem` encoding: `mapbox` (default) or `terrarium`.
    let encoding: String?
    /// `[west, south, east, north]` in degrees, when given.
    let bounds: [Double]?
    /// GeoJSON `data` given as a URL.
    let dataURL: String?
    /// GeoJSON `data` given inline, re-serialised with sorted keys.
    let inlineData: Data?
}

/// One style layer: what to draw from which source, when, and how.
struct StyleLayer: Sendable {
    let id: String
    let type: StyleLayerType
    /// The style source and the layer in its tiles it draws (nil for `background`).
    let source, sourceLayer: String?
    /// The layer is hidden at zooms below `minZoom` and at or above `maxZoom`.
    let minZoom, maxZoom: Double?
    /// Which features the layer draws; nil draws all.
    let filter: StyleExpression?
    let visibility: Visibility
    /// Paint properties that the style sets (see `property(_:)` for defaults).
    let paint: [StyleProperty: PropertyValue]
    /// Layout properties that the style sets, except `visibility`.
    let layout: [StyleProperty: PropertyValue]

    /// The value of `property`: as set by the style, or the spec default.
    func property(_ property: StyleProperty) -> PropertyValue {
        (property.isLayout ? layout[property] : paint[property]) ?? .defaultValue(of: property)
    }

    /// Whether the layer draws at `zoom` (visibility and zoom range; MapLibre's
    /// `minzoom <= z < maxzoom`).
    func isVisible(atZoom zoom: Double) -> Bool {
        guard visibility == .visible else { return false }
        if case .other = type { return false }
        if let minZoom, zoom < minZoom { return false }
        if let maxZoom, zoom >= maxZoom { return false }
        return true
    }

    /// Whether the layer's filter accepts `feature` at `zoom`.
    func matches<F: StyleFeature>(_ feature: F, zoom: Double) -> Bool {
        guard let filter else { return true }
        return filter.matches(feature, zoom: zoom)
    }
}

/// The colours of a style's root `sky` object (MapLibre's `sky-color`, `horizon-color` and
/// `fog-color`; literal colours only — an expression keeps the default, which is
/// MapLibre's). A pitched map paints the sky from `skyColor` at the top to `horizonColor`
/// at the far limit, and fades the farthest ground into `fogColor`.
struct StyleSky: Hashable, Sendable {
    var skyColor = StyleColor(red: 0x88 / 255.0, green: 0xC6 / 255.0, blue: 0xFC / 255.0)
    var horizonColor = StyleColor.white
    var fogColor = StyleColor.white
}
