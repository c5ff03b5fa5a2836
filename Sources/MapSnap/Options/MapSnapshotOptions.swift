/// Everything that describes one render, in MapKit's vocabulary (`MKMapSnapshotter.Options`).
///
/// Camera rules (Google Static Maps compatible):
/// - `center` and `zoom` both set: that view.
/// - otherwise the camera fits all overlays and `visibleCoordinates` inside the image minus
///   `padding`, at the largest zoom that fits (integer unless `allowsFractionalZoom`), never
///   above `maximumFitZoom`; a given `center` or `zoom` is kept and only the other is solved.
public struct MapSnapshotOptions: Sendable {
    /// Image size in points.
    public var width: Int
    /// Image height in points.
    public var height: Int
    /// Pixel ratio 1…4: pixels = points × scale. Line widths, markers and text scale too.
    public var scale: Double
    /// The coordinate at the image centre; nil: fitted to the overlays.
    public var center: LatLng?
    /// Zoom 0…22 (fractional allowed); nil: fitted to the overlays.
    public var zoom: Double?
    /// Padding in points kept free around fitted content.
    public var padding: Double
    /// Whether a fitted zoom may be fractional (a tighter fit) instead of a whole number.
    public var allowsFractionalZoom: Bool
    /// Upper zoom bound when fitting (a single marker would otherwise fit at z22).
    public var maximumFitZoom: Double
    /// What to draw on the map, in drawing order.
    public var overlays: [Overlay]
    /// Extra coordinates the fitted camera must show (Google's `visible`).
    public var visibleCoordinates: [LatLng]
    /// Style name (`normal`, `terrain`, `hybrid`, `satellite`) or path to a style JSON file.
    public var style: String
    /// Google Maps styling rules (Static Maps `style=`), applied in order to the style's
    /// layers when it is loaded: see `MapStyleRule` for how Google's features map to layers.
    public var mapStyles: [MapStyleRule] = []
    /// Label language (Static Maps `language=`, e.g. `de`, `zh-CN`): labels read `name:de`
    /// where the tiles have it, else what the style reads. nil: as the style says.
    public var language: String?
    /// Tile source path or URL template overriding the style's sources; nil = embedded data.
    public var source: String?
    /// A named online base map (`Basemap.named("liberty")`): when set, it chooses the style and
    /// source at render time (so `style` and `source` are not used), its provider's HTTP policy
    /// and, unless `attribution` is set, its credit.
    public var basemap: Basemap?
    /// The data directory whose regions (tile archives from `mapsnap data extract`/`build`)
    /// draw wherever they cover the view: nil = `$MAPSNAP_DATA`, else `$XDG_DATA_HOME/mapsnap`,
    /// else `~/.local/share/mapsnap`; an empty string = no regions.
    public var dataDirectory: String?
    /// Elevation tiles (`--dem`: .mbtiles, .pmtiles, a z/x/y PNG directory or URL template)
    /// for hillshading: they replace the style's `raster-dem` sources and fill the bundled
    /// terrain style's DEM slot. nil = the style's own DEM sources (the bundled styles have none).
    public var demSource: String?
    /// How `demSource` encodes elevation; nil = as the style's `raster-dem` source says
    /// (the bundled terrain style says Terrarium; the style specification's default is Mapbox).
    public var demEncoding: DEMEncoding?
    /// A local copy of the style's sprite sheet, as the base path of its `.json` index and
    /// `.png` image (`sprites/osm-liberty` for `sprites/osm-liberty.json` + `.png`, with
    /// `@2x` files used from scale 2): it replaces the style's `default` sprite, typically a
    /// remote URL. nil = the sprite the style names (local paths resolve against the style file).
    public var sprite: String?
    /// nil = from the sources; "" = none; otherwise the text drawn.
    public var attribution: String?
    /// Whether to draw a scale bar.
    public var showsScaleBar: Bool
    /// The direction the top of the image faces, degrees clockwise from north, −360…360
    /// (`MKMapCamera.heading`, MapLibre's and Mapbox Static's `bearing`): the map, its tiles
    /// and the overlays turn; text, pins and the scale bar stay level. Ignored when
    /// `isTrackUp`.
    public var heading: Double = 0
    /// Track-up: the heading is chosen so that the overlays' main direction (their longest
    /// spread, from the first point towards the last) runs from the bottom of the image to
    /// the top; the fit then uses it.
    public var isTrackUp = false
    /// Degrees the view tilts from straight down, 0…85 (`MKMapCamera.pitch`, MapLibre's and
    /// Mapbox Static's `pitch`): the ground recedes towards the top of the image in
    /// MapLibre GL's perspective, far parts drawn from lower zooms, the sky above the far
    /// limit; labels and pins stay upright. A fitted camera is the flat fit zoomed out by the
    /// tilt's largest magnification, so everything the flat fit shows stays inside.
    public var pitch: Double = 0
    /// Whether to draw a north arrow; nil (the default) draws one when the map is turned or tilted.
    public var showsNorthArrow: Bool?
    /// A line of text drawn in the top-left corner; nil: none.
    public var caption: String?
    /// Largest accepted output in pixels per side (default 8192).
    public var maximumPixelSize: Int
    /// Largest accepted output area in pixels, width × height after `scale` (default
    /// 8192² = 67,108,864: a 256 MiB canvas). Raising it past `hardMaximumPixelCount` has no
    /// effect.
    public var maximumPixelCount: Int = MapSnapshotOptions.defaultMaximumPixelCount
    /// Seconds the render may spend loading base-map tiles; tiles not read by then are
    /// skipped (counted as failed, with a warning). nil: no limit. Distinct from
    /// `http.timeout`, which bounds each HTTP request.
    public var renderTimeout: Double?
    /// Seconds from the start of the render by which the image must be drawn, tile loading
    /// included; past it drawing stops (between style layers, overlays and bands of rows of
    /// a fill) and the render throws `RenderError.timedOut`. nil (the default): no limit.
    /// A render that finishes in time has the bytes it has without a limit. `mapsnap serve`
    /// sets it to its `renderTimeout`.
    public var drawingTimeout: Double?
    /// Most the overlays may cost to draw, in pixel operations estimated before anything is
    /// drawn (a cell an outline crosses or a pixel a fill covers: points × stroke area, for
    /// the camera of the render); past it the render throws `RenderError.drawingTooCostly`.
    /// nil (the default): no limit. The CLI's default is 10⁹, about two CPU-seconds.
    public var maximumDrawingCost: Double?
    /// Network and cache settings for HTTP(S) tile sources (timeouts, retries, cache
    /// directory and age, offline mode). `scale` is taken from the render.
    public var http = HTTPTileSource.Options()
    /// Most threads one render uses for loading tiles and for big fills (nil: one per
    /// core). Output bytes do not depend on it.
    public var maximumThreads: Int?
    /// Test hook: the order in which tiles are fetched, to prove arrival order does not
    /// change the output. nil: tile order.
    var tileLoadOrder: (@Sendable (Int) -> [Int])?
    /// Where marker icons (and their redirects) may be fetched from: `mapsnap serve`'s
    /// `iconHosts`, never the server itself. nil: wherever the redirect policy allows.
    var iconAllowList: OriginAllowList?

    /// The default `maximumPixelCount`: the default side limit squared.
    public static let defaultMaximumPixelCount = 8192 * 8192
    /// The most `maximumPixelCount` can grant: 16384² pixels, a 1 GiB canvas.
    public static let hardMaximumPixelCount = 16384 * 16384

    /// Options; by default 600 × 400 points at scale 1, the `normal` style, a camera fitted to the overlays.
    public init(width: Int = 600, height: Int = 400, scale: Double = 1, center: LatLng? = nil,
                zoom: Double? = nil, padding: Double = 24, allowsFractionalZoom: Bool = false,
                maximumFitZoom: Double = 17, overlays: [Overlay] = [], visibleCoordinates: [LatLng] = [],
                style: String = "normal", source: String? = nil, attribution: String? = nil,
                showsScaleBar: Bool = true, caption: String? = nil, maximumPixelSize: Int = 8192) {
        self.width = width
        self.height = height
        self.scale = scale
        self.center = center
        self.zoom = zoom
        self.padding = padding
        self.allowsFractionalZoom = allowsFractionalZoom
        self.maximumFitZoom = maximumFitZoom
        self.overlays = overlays
        self.visibleCoordinates = visibleCoordinates
        self.style = style
        self.source = source
        self.attribution = attribution
        self.showsScaleBar = showsScaleBar
        self.caption = caption
        self.maximumPixelSize = maximumPixelSize
    }
}
