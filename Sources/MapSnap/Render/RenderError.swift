/// Why a render could not be made. Every case names what was wrong and where.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Size in points out of range (flag/key named in `origin`).
    case invalidSize(width: Int, height: Int)
    case invalidScale(Double)
    case invalidZoom(Double)
    /// A heading outside −360…360 or not a number.
    case invalidHeading(Double)
    /// A pitch outside 0…`Camera.maximumPitch` or not a number.
    case invalidPitch(Double)
    case invalidPadding(Double)
    /// The output would exceed the pixel limit.
    case imageTooLarge(pixelWidth: Int, pixelHeight: Int, limit: Int)
    /// The output's area would exceed `maximumPixelCount` (`limit` pixels).
    case imageAreaTooLarge(pixelWidth: Int, pixelHeight: Int, limit: Int)
    /// A coordinate that is not a valid latitude/longitude; `what` says which overlay.
    case invalidCoordinate(what: String, LatLng)
    /// An overlay vertex outside `LatLng.isValidVertex` (longitudes may run one world past ±180).
    case invalidVertex(what: String, LatLng)
    /// An overlay could not be drawn (an unreadable marker icon).
    case overlay(OverlayError)
    /// `style` is neither a bundled style name nor an existing file or URL.
    case unknownStyle(String)
    /// The server of a style URL has no such style (HTTP 404); `url` has credentials redacted.
    case remoteStyleNotFound(url: String)
    /// A style URL could not be fetched (the network, offline mode) or did not give JSON.
    case styleUnavailable(ResourceError)
    /// The style file could not be loaded: the parser's error, with the file and the JSON
    /// key path (or, for malformed JSON, the byte offset).
    case style(StyleError)
    /// The style's sprite sheet, or the `sprite` given in the options (`fromOptions`), is
    /// malformed; `style` is the style's name or path.
    case sprite(SpriteError, style: String, fromOptions: Bool)
    /// A tile source could not be opened: `role` says which one, `location` is its path or
    /// URL (credentials redacted), `error` the container's own error or why a remote one
    /// could not be fetched.
    case source(role: TileSourceRole, location: String, error: TileSourceError)
    /// The `demSource` in the options holds vector tiles, not elevation images.
    case demSourceNotRaster(location: String)
    /// A bundled resource folder (`Styles/`, `Data/`) is missing from the installation.
    case resourcesNotFound(ResourceNotFound)
    /// The named base map (`MapSnapshotOptions.basemap`) could not be used.
    case basemap(BasemapError)
    /// Drawing was not finished within `MapSnapshotOptions.drawingTimeout` (`seconds`).
    case timedOut(seconds: Double)
    /// Drawing the overlays would cost about `estimate` pixel operations (`DrawingCost`),
    /// more than `MapSnapshotOptions.maximumDrawingCost` (`limit`); nothing was drawn.
    case drawingTooCostly(estimate: Double, limit: Double)

    /// True for problems with the input (exit 2) rather than the environment (exit 3): a
    /// remote resource that is missing or malformed is input, a network failure or an
    /// offline cache miss is the environment; a tile source as `TileSourceError.isInputProblem`
    /// says (a missing or corrupt file is input, a read that fails part way is not).
    public var isInputError: Bool {
        switch self {
        case .styleUnavailable(let e), .overlay(.iconUnavailable(_, let e)): return !e.isTransient
        case .basemap(let e): return !e.isTransient
        case .source(_, _, let e): return e.isInputProblem
        case .resourcesNotFound, .timedOut: return false
        default: return true
        }
    }

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case .invalidSize(let w, let h): return "size \(w)x\(h): width and height must be at least 1"
        case .invalidScale(let s): return "scale \(s): must be between 1 and 4"
        case .invalidZoom(let z): return "zoom \(z): must be between 0 and 22"
        case .invalidHeading(let h): return "bearing \(h): must be degrees between -360 and 360"
        case .invalidPitch(let p): return "pitch \(p): must be degrees between 0 and 85"
        case .invalidPadding(let p): return "padding \(p): must be a finite number ≥ 0"
        case .imageTooLarge(let w, let h, let limit):
            return "image \(w)x\(h) px exceeds the limit of \(limit)x\(limit) px (lower --size or --scale)"
        case .imageAreaTooLarge(let w, let h, let limit):
            return "image \(w)x\(h) px has \(w * h) pixels, more than the limit of \(limit) (lower --size or --scale, or raise --max-pixels)"
        case .invalidCoordinate(let what, let c):
            return "\(what): coordinate \(c.latitude),\(c.longitude) is out of range (latitude −90…90, longitude −180…180)"
        case .invalidVertex(let what, let c):
            return "\(what): coordinate \(c.latitude),\(c.longitude) is out of range (latitude −90…90, longitude −540…540)"
        case .overlay(let e): return e.description
        case .unknownStyle(let name):
            return "--style \(name): no such style\(BundledStyle.suggestion(for: name)); expected normal, terrain, hybrid, satellite (or Google's roadmap), a style .json file or an http(s) URL"
        case .remoteStyleNotFound(let url): return "--style \(url): the server has no such style (HTTP 404)"
        case .styleUnavailable(let e): return "--style \(e)"
        case .style(let e): return "--style \(e)"
        case .sprite(let e, let style, let fromOptions): return fromOptions ? "--sprite \(e)" : "--style \(style): \(e)"
        case .source(let role, let location, let e):
            // A fetch error's own text starts with the URL, which `location` already names.
            var why: String
            if case .resource(let fetch) = e { why = fetch.reason } else { why = e.description }
            // The container's own message starts with the path `location` already names.
            if why.hasPrefix(location + ": ") { why.removeFirst(location.count + 2) }
            switch role {
            case .source: return "--source \(location): \(why)"
            case .dem: return "--dem \(location): \(why)"
            case .style(let id): return "style source \"\(id)\" (\(location)): \(why)"
            }
        case .demSourceNotRaster(let location):
            return "--dem \(location): holds vector tiles; expected PNG elevation tiles (Terrarium or Mapbox Terrain-RGB)"
        case .resourcesNotFound(let e): return e.description
        case .basemap(let e): return e.description
        case .drawingTooCostly(let estimate, let limit):
            return "drawing these overlays would cost about \(DrawingCost.engineering(estimate)) pixel operations, more than the "
                + "limit of \(DrawingCost.engineering(limit)) (--max-cost): fewer, shorter or thinner paths and polygons, "
                + "or a smaller image"
        case .timedOut(let seconds):
            return "the map was not drawn within its time limit of \(seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)) s"
        }
    }
}

/// Which of a render's tile sources a `RenderError.source` is about.
public enum TileSourceRole: Sendable, Hashable {
    /// `MapSnapshotOptions.source` (`--source`).
    case source
    /// `MapSnapshotOptions.demSource` (`--dem`).
    case dem
    /// A source the style declares, by its id in the style's `sources`.
    case style(id: String)
}
