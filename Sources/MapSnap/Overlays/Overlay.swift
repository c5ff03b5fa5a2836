/// Something drawn on top of (or between the layers of) the base map.
///
/// After go-staticmaps: every overlay reports its geographic extent *and* how far it sticks
/// out beyond that extent in pixels (a pin rises above its coordinate, a title runs to the
/// right), so that camera fitting can keep the whole drawing inside the padding.
public enum Overlay: Sendable, Hashable {
    case path(PathOverlay)
    case polygon(PolygonOverlay)
    case circle(CircleOverlay)
    case marker(MarkerOverlay)

    /// Where an overlay sits in the layer stack.
    public enum Level: String, Sendable, Hashable, Codable {
        /// Above roads, below base-map labels.
        case aboveRoads
        /// Above everything in the base map (the default). Base-map labels keep clear of
        /// the paths (routes) drawn at this level rather than show half covered.
        case aboveLabels
    }
}

/// A polyline on the map. Widths are in points (multiplied by the render scale).
public struct PathOverlay: Sendable, Hashable {
    /// The line, in drawing order; longitudes may run past ±180 to cross the antimeridian.
    public var coordinates: [LatLng]
    /// Line colour.
    public var color: Color
    /// Stroke width in points.
    public var width: Double
    /// Optional outline drawn beneath the line, `casingWidth` points wider on each side.
    public var casingColor: Color?
    /// Width of the casing each side of the line, in points.
    public var casingWidth: Double
    /// Dash pattern in points (on, off, …); empty for a solid line.
    public var dash: [Double]
    /// How open ends are drawn.
    public var cap: LineCap
    /// How corners are drawn.
    public var join: LineJoin
    /// Follow great circles between vertices instead of straight Mercator segments.
    public var geodesic: Bool
    /// When set, the path is closed and filled (Google's `fillcolor:`).
    public var fillColor: Color?
    /// Whether base-map labels are drawn over it or under it.
    public var level: Overlay.Level

    /// Google Static Maps defaults: opaque-ish blue (0x0000FF, 50% alpha per Google), weight 5.
    public init(coordinates: [LatLng], color: Color = Color(rgba: 0x0000FF80), width: Double = 5,
                casingColor: Color? = nil, casingWidth: Double = 1.5, dash: [Double] = [],
                cap: LineCap = .round, join: LineJoin = .round, geodesic: Bool = false,
                fillColor: Color? = nil, level: Overlay.Level = .aboveLabels) {
        self.coordinates = coordinates
        self.color = color
        self.width = width
        self.casingColor = casingColor
        self.casingWidth = casingWidth
        self.dash = dash
        self.cap = cap
        self.join = join
        self.geodesic = geodesic
        self.fillColor = fillColor
        self.level = level
    }
}

/// A polygon with optional holes: `rings[0]` is the outer ring, the rest are holes.
/// Rings need not repeat their first point. Filled with the even-odd rule so hole winding
/// does not matter.
public struct PolygonOverlay: Sendable, Hashable {
    /// The outer ring first, then holes; each ring closes itself.
    public var rings: [[LatLng]]
    /// Fill colour; nil leaves the inside unfilled.
    public var fillColor: Color?
    /// Outline colour; nil draws no outline.
    public var strokeColor: Color?
    /// Stroke width in points.
    public var strokeWidth: Double
    /// Whether base-map labels are drawn over it or under it.
    public var level: Overlay.Level

    /// A polygon; the defaults fill it translucent blue with a 2-point blue outline.
    public init(rings: [[LatLng]], fillColor: Color? = Color(rgba: 0x0000FF40),
                strokeColor: Color? = Color(rgba: 0x0000FFC0), strokeWidth: Double = 2,
                level: Overlay.Level = .aboveLabels) {
        self.rings = rings
        self.fillColor = fillColor
        self.strokeColor = strokeColor
        self.strokeWidth = strokeWidth
        self.level = level
    }
}

/// A circle of a given ground radius, drawn as a geodesic circle.
public struct CircleOverlay: Sendable, Hashable {
    /// The centre of the circle.
    public var center: LatLng
    /// Radius on the ground, in metres (drawn as a geodesic circle).
    public var radiusMeters: Double
    /// Fill colour; nil leaves the inside unfilled.
    public var fillColor: Color?
    /// Outline colour; nil draws no outline.
    public var strokeColor: Color?
    /// Outline width in points.
    public var strokeWidth: Double
    /// Whether base-map labels are drawn over it or under it.
    public var level: Overlay.Level

    /// A circle; the defaults fill it translucent red with a 2-point red outline.
    public init(center: LatLng, radiusMeters: Double, fillColor: Color? = Color(rgba: 0xFF000040),
                strokeColor: Color? = Color(rgba: 0xFF0000C0), strokeWidth: Double = 2,
                level: Overlay.Level = .aboveLabels) {
        self.center = center
        self.radiusMeters = radiusMeters
        self.fillColor = fillColor
        self.strokeColor = strokeColor
        self.strokeWidth = strokeWidth
        self.level = level
    }
}

/// A point marker: a Google-like pin, a dot, or a custom PNG icon, with an optional short
/// label drawn inside it and an optional title drawn beside it.
public struct MarkerOverlay: Sendable, Hashable {
    /// Pin sizes of the Static Maps syntax (`size:tiny|small|mid|normal`).
    public enum PinSize: String, Sendable, Hashable, Codable, CaseIterable { case tiny, small, mid, normal }

    /// What the marker looks like.
    public enum Style: Sendable, Hashable {
        /// Teardrop pin whose tip is at the coordinate.
        case pin(PinSize)
        /// Filled circle with a white rim centred on the coordinate; diameter in points.
        case dot(diameter: Double)
        /// A PNG file; `anchor` is the point of the icon (in icon pixels at scale 1, origin
        /// top-left) that sits on the coordinate. nil anchor = bottom centre.
        case icon(path: String, anchor: PixelPoint?)
        /// A rounded bubble holding the `title` (a route's "18 min · 4.2 km"), its pointer's
        /// tip on the coordinate; `color` fills it. The title is drawn inside, not beside.
        case callout
    }

    /// Where the marker points.
    public var coordinate: LatLng
    /// Pin, dot or icon.
    public var style: Style
    /// Pin or dot colour (icons keep their own).
    public var color: Color
    /// Text inside the pin (Google allows one character; we allow any short string).
    public var label: String?
    /// Text drawn beside the marker with a halo.
    public var title: String?
    /// A second, smaller line under the title (`GMSMarker.snippet`, `snippet:`).
    public var snippet: String? = nil
    /// 0 (invisible) to 1 (opaque, the default): multiplies the alpha of the whole marker,
    /// its title and snippet included (`GMSMarker.opacity`, `opacity:`).
    public var opacity: Double = 1
    /// Whether base-map labels are drawn over it or under it.
    public var level: Overlay.Level
    /// Pixels of a custom icon per point (Google's `scale:`): an icon made for scale 2 is
    /// drawn at half its pixel size in points, so it is sharp, not twice as big, on a scale-2
    /// map. Anchors stay in icon pixels. Pins and dots ignore it.
    public var iconScale: Double
    /// A named anchor (`anchor:top`, …) of an icon URL, whose size is known only once it is
    /// fetched; used when the style's `anchor` is nil.
    var iconAnchorFraction: IconAnchorFraction? = nil

    /// Google's default marker: a red normal-size pin.
    public init(coordinate: LatLng, style: Style = .pin(.normal), color: Color = Color(rgb: 0xEA4335),
                label: String? = nil, title: String? = nil, level: Overlay.Level = .aboveLabels, iconScale: Double = 1) {
        self.coordinate = coordinate
        self.style = style
        self.color = color
        self.label = label
        self.title = title
        self.level = level
        self.iconScale = iconScale
    }
}

/// A point of a marker icon as fractions of its size (0,0 top-left, 0.5,1 bottom centre):
/// where Google's named anchors (`top`, `bottomright`, …) put the coordinate.
struct IconAnchorFraction: Sendable, Hashable {
    var x: Double
    var y: Double

    /// Google's anchor names, as `anchor:` and a spec's `"anchor"` write them.
    static let named: [String: IconAnchorFraction] = [
        "top": .init(x: 0.5, y: 0), "bottom": .init(x: 0.5, y: 1), "left": .init(x: 0, y: 0.5), "right": .init(x: 1, y: 0.5),
        "center": .init(x: 0.5, y: 0.5), "topleft": .init(x: 0, y: 0), "topright": .init(x: 1, y: 0),
        "bottomleft": .init(x: 0, y: 1), "bottomright": .init(x: 1, y: 1),
    ]

    /// The name this fraction has in `named`, if any.
    var name: String? { Self.named.first { $0.value == self }?.key }

    /// The point in icon pixels of an icon `width` × `height` pixels.
    func point(width: Int, height: Int) -> PixelPoint {
        PixelPoint(x: Double(width) * x, y: Double(height) * y)
    }
}
