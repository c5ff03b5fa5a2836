import Foundation

/// One render, fully described: the snapshot options, where to write the PNG, and the
/// warnings collected while reading the inputs.
///
/// A spec comes from command-line flags or from a JSON file (`--spec`), both through
/// `RenderSpecBuilder`. The JSON schema (also in `docs/spec-format.md`); every key is
/// optional, unknown keys are errors:
///
/// ```
/// {
///   "size": "600x400" | {"width": 600, "height": 400},     points
///   "scale": 1…4,  "zoom": 0…22,  "padding": points,  "fractionalZoom": bool,
///   "bearing": -360…360 | "auto",  "northArrow": bool,
///   "center": "lat,lon" | [lat, lon] | {"lat": …, "lon": …} | "Place name",
///   "style": "normal" | "terrain" | "hybrid" | "satellite" | "file.json",  "source": "path or URL template",
///   "basemap": "liberty" | "positron" | "bright" | "osm" | "protomaps" (replaces style and source),
///   "sprite": "local sprite sheet base path (BASE.json + BASE.png)",
///   "dem": "elevation tiles: path or URL template",  "demEncoding": "terrarium" | "mapbox",
///   "paths": [ "Static Maps path syntax"
///            | {"coordinates": [[lat, lon], …]  or  "polyline": "…", "precision": 5|6,
///               "color", "width", "casingColor", "casingWidth", "dash": [on, off, …],
///               "cap": "butt|round|square", "join": "miter|round|bevel", "geodesic": bool,
///               "fillColor", "level": "aboveRoads|aboveLabels"} ],
///   "markers": [ "Static Maps markers syntax"
///              | {"lat", "lon"  or  "location", "color", "size": "tiny|small|mid|normal",
///                 "style": "pin|dot", "diameter" (dot, points), "label", "title", "icon": "file.png" | "https://…",
///                 "anchor": "bottom|…|x,y" | [x, y], "level"} ],
///   "polygons": [ {"rings": [[[lat, lon], …], …], "fillColor", "strokeColor", "strokeWidth", "level"} ],
///   "circles": [ {"center", "radiusMeters", "fillColor", "strokeColor", "strokeWidth", "level"} ],
///   "visible": [ "lat,lon" | [lat, lon] | {"lat", "lon"} | "Place" ],
///   "geojson": "file.geojson" | { inline GeoJSON },   "gpx": "file.gpx",
///   "polyline": "…",  "polyline6": "…",  "url": "Static Maps URL",
///   "attribution": "text" | "none",  "scaleBar": bool,  "caption": "text",  "output": "out.png",
///   "format": "png8|png|png32|jpg|jpg-baseline|webp",  "quality": 1…100,
///   "directions": {"origin": PLACE, "destination": PLACE, "waypoints": [PLACE, …], "mode": "drive|walk|bike|transit",
///                  "alternatives": 0…3, "avoid": ["tolls", "highways", "ferries"], "units": "metric|imperial",
///                  "response": "saved-answer.json", "steps": bool}
/// }
/// ```
/// Colours use `ColorSyntax` (`#RRGGBB`, `0xRRGGBBAA`, names); a fill or stroke colour of
/// `null` or `"none"` removes it. Relative file paths resolve against the spec's directory.
/// Overlays are added in this order, whatever the key order in the file: url, geojson, gpx,
/// polyline, polyline6, polygons, circles, paths, markers — later ones draw on top.
public struct RenderSpec: Sendable {
    /// Camera, size, style, overlays and decorations.
    public var options: MapSnapshotOptions
    /// Where to write the PNG (`-` for standard output); nil when the spec does not say.
    public var output: String?
    /// Inputs that were ignored or degraded, one line each, in input order.
    public var warnings: [String]
    /// The image format asked for (`--format`, `"format"`, a Static Maps URL's `format=`).
    public var format: ImageFormat?
    /// The format a Static Maps URL implies without a `format` parameter (Google's `png8`),
    /// used when neither `format` nor the output file's extension says.
    public var impliedFormat: ImageFormat?
    /// JPEG / lossy WebP quality 1–100 (nil: the format's default; WebP then lossless).
    public var quality: Int?
    /// Directions to ask a router for, or a saved answer to draw (empty: none).
    public var directions = DirectionsQuery()

    /// A spec from parts (library callers that build options in code).
    public init(options: MapSnapshotOptions, output: String? = nil, warnings: [String] = []) {
        self.options = options
        self.output = output
        self.warnings = warnings
    }

    /// The format to write: `format`; else the one the output file's extension names
    /// (`.png` → png32, `.jpg`, `.webp`) unless `impliedFormat` has that extension (a Static
    /// Maps URL written to `.png` stays png8, as Google sends it); else `impliedFormat`;
    /// else png32.
    public func outputFormat(fileName: String?) -> ImageFormat {
        if let format { return format }
        if let named = fileName.flatMap({ ImageFormat(fileName: $0) }) {
            return impliedFormat?.fileExtension == named.fileExtension ? impliedFormat ?? named : named
        }
        return impliedFormat ?? .png32
    }

    /// Why no image can be written to `fileName`: no format is named (`format` is nil) and the
    /// name's extension is not one mapsnap writes (`map.gif`). nil when it can: a named
    /// format goes to any name, and a name without extension gets PNG.
    public func outputNameProblem(fileName: String) -> ImageFormatError? {
        format == nil ? ImageFormat.unwritableExtension(of: fileName) : nil
    }

    /// Every top-level key of the JSON schema.
    public static let keys: [String] = [
        "size", "scale", "center", "zoom", "bearing", "pitch", "northArrow", "padding", "fractionalZoom", "style", "basemap", "source", "sprite", "dem", "demEncoding", "paths", "markers",
        "polygons", "circles", "visible", "geojson", "gpx", "polyline", "polyline6", "url", "attribution",
        "scaleBar", "caption", "output", "format", "quality", "directions",
    ]

    /// Largest number of jobs in a JSON Lines batch.
    public static let maximumJobCount = 1_000_000

    /// Reads and parses a spec file; relative paths inside resolve against its directory,
    /// and `filePaths` says which files it may name.
    public static func load(path: String, resolver: (any PlaceResolving)? = nil,
                            defaults: MapSnapshotOptions = MapSnapshotOptions(),
                            filePaths: FilePathPolicy = .unrestricted) throws(RenderSpecError) -> RenderSpec {
        var reader = RenderSpecBuilder(options: defaults, resolver: resolver)
        reader.filePaths = filePaths
        let bytes = try reader.readFile(path, origin: "--spec")
        reader.baseDirectory = directory(of: path)
        return try parse(bytes: bytes, range: nil, file: path, line: nil, builder: reader)
    }

    /// Parses one JSON spec. `source` names it in errors; `baseDirectory` resolves relative
    /// paths; `filePaths` says which files it may name (`.refused` for a server).
    public static func parse(data: Data, source: String, baseDirectory: String? = nil,
                             resolver: (any PlaceResolving)? = nil,
                             defaults: MapSnapshotOptions = MapSnapshotOptions(),
                             filePaths: FilePathPolicy = .unrestricted) throws(RenderSpecError) -> RenderSpec {
        var builder = RenderSpecBuilder(options: defaults, resolver: resolver, baseDirectory: baseDirectory)
        builder.filePaths = filePaths
        return try parse(bytes: [UInt8](data), range: nil, file: source, line: nil, builder: builder)
    }

    /// One line of a JSON Lines batch: its 1-based line number and its spec, or why the line
    /// was rejected (the error's message starts with `file:line`).
    public struct Job: Sendable {
        /// The job's line in the file, counting from 1.
        public var line: Int
        /// The parsed spec, or why that line is not one.
        public var result: Result<RenderSpec, RenderSpecError>
    }

    /// Parses JSON Lines: one spec object per line; blank lines are skipped. Each line is
    /// parsed on its own, so one bad line fails only its job. Throws only when the file as a
    /// whole is unusable (more than `maximumJobCount` jobs). `source` names the file; errors
    /// give its line numbers (`jobs.jsonl:3: …`) and byte offsets. `filePaths` says which
    /// files the jobs may name.
    public static func parseJobs(data: Data, source: String, baseDirectory: String? = nil,
                                 resolver: (any PlaceResolving)? = nil,
                                 defaults: MapSnapshotOptions = MapSnapshotOptions(),
                                 filePaths: FilePathPolicy = .unrestricted) throws(RenderSpecError) -> [Job] {
        let jobs = try RenderJobs(bytes: [UInt8](data), source: source, baseDirectory: baseDirectory)
        return (0..<jobs.count).map { i in
            Job(line: jobs.lineNumber(of: i),
                result: jobs.spec(at: i, resolver: resolver, defaults: defaults, filePaths: filePaths))
        }
    }

    /// Parses one line of a JSON Lines file; every error names `source:line`.
    static func parseJob(bytes: [UInt8], line: JSONLines.Line, source: String,
                         builder: RenderSpecBuilder) -> Result<RenderSpec, RenderSpecError> {
        let lineSource = "\(source):\(line.number)"
        do {
            return .success(try parse(bytes: bytes, range: line.range, file: source, line: line.number, builder: builder))
        } catch {
            switch error {
            case .syntax, .geoJSON, .gpx, .basemap: break
            default: return .failure(error)
            }
            // Messages of other stages start with the origin they were given ("jobs.jsonl:3: …")
            // or name another file (a GeoJSON's own errors); either way the line is said once.
            let text = error.description
            let prefix = lineSource + ": "
            let message = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
            return .failure(.inJob(source: source, line: line.number, message: message))
        }
    }

    /// Parses JSON Lines (see `parseJobs`) and fails on the first bad line.
    public static func parseLines(data: Data, source: String, baseDirectory: String? = nil,
                                  resolver: (any PlaceResolving)? = nil,
                                  defaults: MapSnapshotOptions = MapSnapshotOptions(),
                                  filePaths: FilePathPolicy = .unrestricted) throws(RenderSpecError) -> [RenderSpec] {
        try parseJobs(data: data, source: source, baseDirectory: baseDirectory, resolver: resolver, defaults: defaults,
                      filePaths: filePaths)
            .map { job throws(RenderSpecError) in try job.result.get() }
    }

    static func directory(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Reads the spec in `bytes[range]`, line `line` of `file` for JSON Lines (its errors then
    /// start with `file:line`). Every member becomes a tree except an inline `geojson` object,
    /// which is only marked: the GeoJSON reader streams it later, when its turn comes in the
    /// schema order, straight into overlays.
    private static func parse(bytes: [UInt8], range: Range<Int>?, file: String, line: Int?,
                              builder: RenderSpecBuilder) throws(RenderSpecError) -> RenderSpec {
        let source = line.map { "\(file):\($0)" } ?? file
        var json: JSONReader
        var root = JSONObject()
        var inlineGeoJSON: JSONReader.Mark?
        var coordinates: [Int: [LatLng]] = [:]
        var rootIsNot: String?  // what the root is, when it is not an object
        do throws(JSONError) {
            json = try JSONReader(bytes: bytes, range: range, source: file, firstLine: line ?? 1)
            let kind = try json.peek()
            if kind != .object {
                // Syntax errors first, as for any other document.
                _ = try json.readValue()
                rootIsNot = kind.withArticle
            } else {
                try json.beginObject()
                while let key = try json.nextKey() {
                    if key == "geojson", try json.peek() == .object {
                        inlineGeoJSON = json.mark
                        try json.skipValue()
                        root[key] = .object(JSONObject())
                    } else if key == "paths", try json.peek() == .array {
                        (root[key], coordinates) = try readPaths(&json)
                    } else {
                        if key == "geojson" { inlineGeoJSON = nil }
                        root[key] = try json.readValue()
                    }
                }
            }
            try json.finish()
        } catch {
            throw .invalidJSON(error)
        }
        if let rootIsNot {
            throw .wrongType(source: source, keyPath: "(root)", expected: "an object", found: rootIsNot)
        }
        var reader = SpecReader(source: source, builder: builder, json: json, inlineGeoJSON: inlineGeoJSON,
                                coordinates: coordinates)
        try reader.read(root)
        return try reader.builder.build()
    }

    /// The `paths` array as a tree, except that a path object's `coordinates` array whose
    /// every element is a `[lat, lon]` pair of plain numbers in range (at most
    /// `EncodedPolyline.maximumPointCount`) is read straight into coordinates, by path index:
    /// a route's ten thousand pairs then make no tree of ten thousand arrays. Its placeholder
    /// in the tree is an empty array. Any other array is read again as a tree, whose reading
    /// then reports every error as it would have.
    private static func readPaths(_ json: inout JSONReader) throws(JSONError) -> (JSONValue, [Int: [LatLng]]) {
        var items: [JSONValue] = []
        var direct: [Int: [LatLng]] = [:]
        try json.beginArray()
        while try json.nextElement() {
            guard try json.peek() == .object else {
                items.append(try json.readValue())
                continue
            }
            try json.beginObject()
            var object = JSONObject()
            while let key = try json.nextKey() {
                // A later duplicate key replaces what an earlier one gave.
                if key == "coordinates" { direct[items.count] = nil }
                if key == "coordinates", try json.peek() == .array {
                    let mark = json.mark
                    var points: [LatLng] = []
                    try json.beginArray()
                    let complete = json.readNumberPairElements { lat, lon in
                        guard LatLng(latitude: lat, longitude: lon).isValid, points.count < EncodedPolyline.maximumPointCount else { return false }
                        points.append(LatLng(latitude: lat, longitude: lon))
                        return true
                    }
                    if complete {
                        direct[items.count] = points
                        object[key] = .array([])
                        continue
                    }
                    json.seek(to: mark)
                }
                object[key] = try json.readValue()
            }
            items.append(.object(object))
        }
        return (.array(items), direct)
    }
}

extension RenderSpecError {
    /// `body`'s value, or its Static Maps syntax error as `.syntax`.
    static func syntax<T>(_ body: () throws(StaticMapsSyntaxError) -> T) throws(RenderSpecError) -> T {
        do { return try body() } catch { throw .syntax(error) }
    }
}

/// Why a spec was rejected. `origin`/`keyPath` say where (`spec.json: paths[2].color`).
///
/// The one error of the Inputs stage's front door (`RenderSpec.load`/`parse`/`parseLines`
/// and every `RenderSpecBuilder` method): a value in one of the syntaxes a spec embeds comes
/// back as that syntax's own error inside `syntax`, `geoJSON`, `gpx` or `basemap`, so a
/// caller switches on one enum and still gets the evidence. Messages are the inner ones.
public enum RenderSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A Static Maps value (path, markers, location, size, polyline, directions field).
    case syntax(StaticMapsSyntaxError)
    /// A GeoJSON file or inline object.
    case geoJSON(GeoJSONError)
    /// A GPX file.
    case gpx(GPXError)
    /// A named base map that cannot be used.
    case basemap(BasemapError)
    /// Not JSON; the error names the byte offset, line, column and key path.
    case invalidJSON(JSONError)
    case unknownKey(source: String, keyPath: String, allowed: [String])
    case wrongType(source: String, keyPath: String, expected: String, found: String)
    case badValue(origin: String, reason: String)
    case unreadableFile(origin: String, path: String, reason: String)
    case fileTooLarge(origin: String, path: String, limit: Int)
    case imageTooLarge(width: Int, height: Int, scale: Double, limit: Int)
    /// A caption or attribution longer than `RenderSpecBuilder.maximumTextLength` characters.
    case textTooLong(origin: String, limit: Int)
    /// More markers than `RenderSpecBuilder.maximumMarkerCount`; `origin` names the flag or key.
    case tooManyMarkers(origin: String, limit: Int)
    case nothingToShow
    /// Nothing to show, and an input file (`name`) that had nothing to draw says why.
    case emptyInput(name: String, lacking: String)
    /// A job in a JSON Lines batch failed with an error from another stage.
    case inJob(source: String, line: Int, message: String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case let .syntax(error): return error.description
        case let .geoJSON(error): return error.description
        case let .gpx(error): return error.description
        case let .basemap(error): return error.description
        case let .invalidJSON(error): return error.description
        case let .unknownKey(source, keyPath, allowed):
            return "\(source): unknown key \"\(keyPath)\" (allowed here: \(allowed.joined(separator: ", ")))"
        case let .wrongType(source, keyPath, expected, found): return "\(source): \(keyPath): expected \(expected), found \(found)"
        case let .badValue(origin, reason): return "\(origin): \(reason)"
        case let .unreadableFile(origin, path, reason): return "\(origin): cannot read \"\(path)\": \(reason)"
        case let .fileTooLarge(origin, path, limit): return "\(origin): \"\(path)\" is larger than \(limit) bytes"
        case let .imageTooLarge(width, height, scale, limit):
            return "size \(width)x\(height) at scale \(StaticMapsSyntax.format(scale)) exceeds \(limit) pixels per side"
        case let .textTooLong(origin, limit): return "\(origin): longer than \(limit) characters"
        case let .tooManyMarkers(origin, limit): return "\(origin): more than \(limit) markers"
        case .nothingToShow: return "nothing to show: give a center (and zoom), or overlays to fit"
        case let .emptyInput(name, lacking): return "\(name): \(lacking): nothing to show (give a center to draw the map alone)"
        case let .inJob(source, line, message): return "\(source):\(line): \(message)"
        }
    }
}

/// Walks a decoded spec object in schema order, feeding the builder.
private struct SpecReader {
    let source: String
    var builder: RenderSpecBuilder
    /// The spec's reader, for an inline GeoJSON object marked at `inlineGeoJSON`.
    let json: JSONReader
    let inlineGeoJSON: JSONReader.Mark?
    /// Path objects' coordinates read straight from the document, by index in `paths`; the
    /// tree holds an empty array in their place (see `RenderSpec.readPaths`).
    let coordinates: [Int: [LatLng]]

    init(source: String, builder: RenderSpecBuilder, json: JSONReader, inlineGeoJSON: JSONReader.Mark?,
         coordinates: [Int: [LatLng]]) {
        self.source = source
        self.builder = builder
        self.json = json
        self.inlineGeoJSON = inlineGeoJSON
        self.coordinates = coordinates
    }

    private func origin(_ keyPath: String) -> String { "\(source): \(keyPath)" }

    mutating func read(_ object: JSONObject) throws(RenderSpecError) {
        try checkKeys(object, "(root)", allowed: RenderSpec.keys)
        if let v = object["size"] {
            if case .string(let text) = v {
                try builder.setSize(text, origin: origin("size"))
            } else {
                let o = try dictionary(v, "size", allowed: ["width", "height"])
                let w = try integer(o["width"], "size.width", in: 1...builder.options.maximumPixelSize)
                let h = try integer(o["height"], "size.height", in: 1...builder.options.maximumPixelSize)
                builder.setSize(ImageSize(width: w, height: h))
            }
        }
        if let v = object["scale"] { try builder.setScale(try numberText(v, "scale"), origin: origin("scale")) }
        if let v = object["center"] { builder.options.center = try location(v, "center") }
        if let v = object["zoom"] { try builder.setZoom(try numberText(v, "zoom"), origin: origin("zoom")) }
        if let v = object["bearing"] { try builder.setBearing(try numberText(v, "bearing"), origin: origin("bearing")) }
        if let v = object["pitch"] { try builder.setPitch(try numberText(v, "pitch"), origin: origin("pitch")) }
        if let v = object["northArrow"] { builder.setShowsNorthArrow(try bool(v, "northArrow")) }
        if let v = object["padding"] { try builder.setPadding(try numberText(v, "padding"), origin: origin("padding")) }
        if let v = object["fractionalZoom"] { builder.setFractionalZoom(try bool(v, "fractionalZoom")) }
        if let v = object["style"] { try builder.setStyle(try string(v, "style"), origin: origin("style")) }
        if let v = object["source"] { try builder.setSource(try string(v, "source"), origin: origin("source")) }
        if let v = object["basemap"] {
            if object["style"] != nil || object["source"] != nil {
                throw RenderSpecError.badValue(origin: origin("basemap"), reason: "a base map brings its own style and source: give \"basemap\" or \"style\"/\"source\", not both")
            }
            try builder.setBasemap(try string(v, "basemap"), origin: origin("basemap"))
        }
        if let v = object["sprite"] { try builder.setSprite(try string(v, "sprite"), origin: origin("sprite")) }
        if let v = object["dem"] { try builder.setDEM(try string(v, "dem"), origin: origin("dem")) }
        if let v = object["demEncoding"] { try builder.setDEMEncoding(try string(v, "demEncoding"), origin: origin("demEncoding")) }
        if let v = object["url"] { try builder.applyStaticMapsURL(try string(v, "url"), origin: origin("url")) }
        if let v = object["geojson"] {
            if case .string(let path) = v {
                try builder.loadGeoJSON(path: path, origin: origin("geojson"))
            } else {
                _ = try dictionary(v, "geojson", allowed: nil)
                if let inlineGeoJSON {
                    var reader = json
                    reader.seek(to: inlineGeoJSON)
                    let document: GeoJSON
                    do { document = try GeoJSON(reading: &reader, source: source) } catch { throw .geoJSON(error) }
                    builder.addGeoJSON(document, name: origin("geojson"))
                }
            }
        }
        if let v = object["gpx"] { try builder.loadGPX(path: try string(v, "gpx"), origin: origin("gpx")) }
        if let v = object["polyline"] { try builder.addPolyline(try string(v, "polyline"), precision: 5, origin: origin("polyline")) }
        if let v = object["polyline6"] { try builder.addPolyline(try string(v, "polyline6"), precision: 6, origin: origin("polyline6")) }
        for (i, item) in try array(object["polygons"], "polygons").enumerated() {
            builder.addOverlay(.polygon(try polygon(item, "polygons[\(i)]")))
        }
        for (i, item) in try array(object["circles"], "circles").enumerated() {
            builder.addOverlay(.circle(try circle(item, "circles[\(i)]")))
        }
        for (i, item) in try array(object["paths"], "paths").enumerated() {
            let keyPath = "paths[\(i)]"
            if case .string(let text) = item {
                try builder.addPath(text, origin: origin(keyPath))
            } else {
                builder.addOverlay(.path(try path(item, keyPath, coordinates: coordinates[i])))
            }
        }
        let markers = try array(object["markers"], "markers")
        guard markers.count <= RenderSpecBuilder.maximumMarkerCount else {
            throw RenderSpecError.tooManyMarkers(origin: origin("markers"), limit: RenderSpecBuilder.maximumMarkerCount)
        }
        for (i, item) in markers.enumerated() {
            let keyPath = "markers[\(i)]"
            if case .string(let text) = item {
                try builder.addMarkers(text, origin: origin(keyPath))
            } else {
                builder.addOverlay(.marker(try marker(item, keyPath)))
            }
        }
        if let v = object["visible"] {
            if case .string(let text) = v {
                try builder.addVisible(text, origin: origin("visible"))
            } else {
                for (i, item) in try array(v, "visible").enumerated() {
                    let keyPath = "visible[\(i)]"
                    if case .string(let text) = item {
                        try builder.addVisible(text, origin: origin(keyPath))
                    } else {
                        builder.options.visibleCoordinates.append(try location(item, keyPath))
                    }
                }
            }
        }
        if let v = object["attribution"] { try builder.setAttribution(try string(v, "attribution"), origin: origin("attribution")) }
        if let v = object["scaleBar"] { builder.setShowsScaleBar(try bool(v, "scaleBar")) }
        if let v = object["caption"] { try builder.setCaption(try string(v, "caption"), origin: origin("caption")) }
        if let v = object["output"] { try builder.setOutput(try string(v, "output"), origin: origin("output")) }
        if let v = object["format"] { try builder.setFormat(try string(v, "format"), origin: origin("format")) }
        if let v = object["quality"] { try builder.setQuality(try numberText(v, "quality"), origin: origin("quality")) }
        if let v = object["directions"] { try readDirections(v) }
    }

    /// `"directions": {"origin", "destination", "waypoints": [PLACE, …] | "A|B", "mode",
    /// "alternatives": 0…3 | bool, "avoid": ["tolls", …] | "tolls,ferries", "units",
    /// "response": "saved-answer.json", "steps": bool}`.
    mutating func readDirections(_ value: JSONValue) throws(RenderSpecError) {
        let o = try dictionary(value, "directions", allowed: ["origin", "destination", "waypoints", "mode", "alternatives", "avoid",
                                                             "units", "response", "steps"])
        func text(_ key: String) throws(RenderSpecError) -> String? {
            guard let v = o[key] else { return nil }
            if case .bool(let b) = v, key == "alternatives" { return b ? "true" : "false" }
            if case .number = v { return try numberText(v, "directions.\(key)") }
            return try string(v, "directions.\(key)")
        }
        if let t = try text("origin") { try builder.setDirectionsOrigin(t, origin: origin("directions.origin")) }
        if let t = try text("destination") { try builder.setDirectionsDestination(t, origin: origin("directions.destination")) }
        if let v = o["waypoints"] {
            if case .string(let t) = v {
                try builder.addDirectionsWaypoints(t, origin: origin("directions.waypoints"))
            } else {
                for (i, item) in try array(v, "directions.waypoints").enumerated() {
                    try builder.addDirectionsWaypoints(try string(item, "directions.waypoints[\(i)]"),
                                                       origin: origin("directions.waypoints[\(i)]"))
                }
            }
        }
        if let t = try text("mode") { try builder.setTravelMode(t, origin: origin("directions.mode")) }
        if let t = try text("alternatives") { try builder.setAlternatives(t, origin: origin("directions.alternatives")) }
        if let v = o["avoid"] {
            let t: String
            if case .string(let s) = v { t = s } else {
                t = try array(v, "directions.avoid").enumerated().map { i, item throws(RenderSpecError) in try string(item, "directions.avoid[\(i)]") }.joined(separator: ",")
            }
            try builder.setAvoid(t, origin: origin("directions.avoid"))
        }
        if let t = try text("units") { try builder.setUnits(t, origin: origin("directions.units")) }
        if let t = try text("response") { try builder.setDirectionsResponse(t, origin: origin("directions.response")) }
        if let v = o["steps"] { builder.directions.showsSteps = try bool(v, "directions.steps") }
    }

    // MARK: Overlay objects

    static let pathKeys = ["coordinates", "polyline", "precision", "color", "width", "casingColor", "casingWidth",
                           "dash", "cap", "join", "geodesic", "fillColor", "level"]

    /// A path object; `coordinates` are its coordinates when they were read straight from the
    /// document (the tree then holds a placeholder).
    func path(_ value: JSONValue, _ keyPath: String, coordinates direct: [LatLng]? = nil) throws(RenderSpecError) -> PathOverlay {
        let o = try dictionary(value, keyPath, allowed: Self.pathKeys)
        var path = PathOverlay(coordinates: [])
        switch (o["coordinates"], o["polyline"]) {
        case (_?, nil) where direct != nil:
            path.coordinates = direct ?? []
        case let (coordinates?, nil):
            let items = try array(coordinates, "\(keyPath).coordinates")
            guard items.count <= EncodedPolyline.maximumPointCount else {
                throw RenderSpecError.badValue(origin: origin("\(keyPath).coordinates"), reason: "more than \(EncodedPolyline.maximumPointCount) points")
            }
            path.coordinates.reserveCapacity(items.count)
            for (i, item) in items.enumerated() { path.coordinates.append(try location(item, "\(keyPath).coordinates[\(i)]")) }
        case let (nil, polyline?):
            let precision = try o["precision"].map { v throws(RenderSpecError) in try integer(v, "\(keyPath).precision", in: 5...6) } ?? 5
            let text = try string(polyline, "\(keyPath).polyline")
            do {
                path.coordinates = try EncodedPolyline.decode(text, precision: precision)
            } catch {
                throw .syntax(.badPolyline(origin: origin("\(keyPath).polyline"), error: error))
            }
        default:
            throw RenderSpecError.badValue(origin: origin(keyPath), reason: "give exactly one of \"coordinates\" or \"polyline\"")
        }
        guard !path.coordinates.isEmpty else { throw .syntax(.noLocations(origin: origin(keyPath))) }
        if let v = o["color"] { path.color = try color(v, "\(keyPath).color") }
        if let v = o["width"] { path.width = try number(v, "\(keyPath).width", in: 0...200) }
        if let v = o["casingColor"] { path.casingColor = try optionalColor(v, "\(keyPath).casingColor") }
        if let v = o["casingWidth"] { path.casingWidth = try number(v, "\(keyPath).casingWidth", in: 0...100) }
        if let v = o["dash"] {
            let items = try array(v, "\(keyPath).dash")
            guard items.count <= 16 else {
                throw RenderSpecError.badValue(origin: origin("\(keyPath).dash"), reason: "at most 16 dash lengths")
            }
            path.dash = try items.enumerated().map { i, item throws(RenderSpecError) in try number(item, "\(keyPath).dash[\(i)]", in: 0...1000) }
            if !path.dash.isEmpty && path.dash.allSatisfy({ $0 == 0 }) {
                throw RenderSpecError.badValue(origin: origin("\(keyPath).dash"), reason: "dash lengths cannot all be 0")
            }
        }
        if let v = o["cap"] { path.cap = try choice(v, "\(keyPath).cap", LineCap.init(rawValue:), "butt, round or square") }
        if let v = o["join"] { path.join = try choice(v, "\(keyPath).join", LineJoin.init(rawValue:), "miter, round or bevel") }
        if let v = o["geodesic"] { path.geodesic = try bool(v, "\(keyPath).geodesic") }
        if let v = o["fillColor"] { path.fillColor = try optionalColor(v, "\(keyPath).fillColor") }
        if let v = o["level"] { path.level = try level(v, "\(keyPath).level") }
        return path
    }

    static let markerKeys = ["lat", "lon", "location", "color", "size", "style", "diameter", "label", "title", "icon", "anchor", "level",
                             "snippet", "opacity"]

    func marker(_ value: JSONValue, _ keyPath: String) throws(RenderSpecError) -> MarkerOverlay {
        let o = try dictionary(value, keyPath, allowed: Self.markerKeys)
        let coordinate: LatLng
        switch (o["location"], o["lat"], o["lon"]) {
        case let (location?, nil, nil): coordinate = try self.location(location, "\(keyPath).location")
        case let (nil, lat?, lon?): coordinate = try self.location(.object(["lat": lat, "lon": lon]), keyPath)
        default: throw RenderSpecError.badValue(origin: origin(keyPath), reason: "give \"lat\" and \"lon\", or \"location\"")
        }
        var marker = MarkerOverlay(coordinate: coordinate)
        let size = try o["size"].map { v throws(RenderSpecError) in try choice(v, "\(keyPath).size", MarkerOverlay.PinSize.init(rawValue:), "tiny, small, mid or normal") } ?? .normal
        marker.style = .pin(size)
        if let v = o["style"] {
            switch try string(v, "\(keyPath).style") {
            case "pin": break
            case "dot":
                let diameter = try o["diameter"].map { v throws(RenderSpecError) in try number(v, "\(keyPath).diameter", in: 1...256) }
                marker.style = .dot(diameter: diameter ?? StaticMapsSyntax.dotDiameter(size))
            case "callout":
                marker.style = .callout
                marker.color = .white
            default: throw RenderSpecError.badValue(origin: origin("\(keyPath).style"), reason: "expected pin, dot or callout")
            }
        }
        if let v = o["color"] { marker.color = try color(v, "\(keyPath).color") }
        if let v = o["label"] {
            let label = try string(v, "\(keyPath).label")
            guard !label.isEmpty, label.count <= StaticMapsSyntax.maximumLabelLength else {
                throw RenderSpecError.badValue(origin: origin("\(keyPath).label"), reason: "expected 1…\(StaticMapsSyntax.maximumLabelLength) characters")
            }
            marker.label = label
        }
        if let v = o["title"] {
            let title = try string(v, "\(keyPath).title")
            guard title.count <= StaticMapsSyntax.maximumTitleLength else {
                throw RenderSpecError.badValue(origin: origin("\(keyPath).title"), reason: "longer than \(StaticMapsSyntax.maximumTitleLength) characters")
            }
            marker.title = title
        }
        if let v = o["snippet"] {
            let snippet = try string(v, "\(keyPath).snippet")
            guard snippet.count <= StaticMapsSyntax.maximumTitleLength else {
                throw RenderSpecError.badValue(origin: origin("\(keyPath).snippet"), reason: "longer than \(StaticMapsSyntax.maximumTitleLength) characters")
            }
            marker.snippet = snippet
        }
        if let v = o["opacity"] { marker.opacity = try number(v, "\(keyPath).opacity", in: 0...1) }
        if o["diameter"] != nil, case .pin = marker.style {
            throw RenderSpecError.badValue(origin: origin("\(keyPath).diameter"), reason: "diameter needs \"style\": \"dot\"")
        }
        if let v = o["icon"] {
            let written = try string(v, "\(keyPath).icon")
            let icon = FilePathPolicy.isURL(written) ? written : try builder.checkedPath(written, origin: origin("\(keyPath).icon"))
            var anchor: PixelPoint? = nil
            if let a = o["anchor"] {
                let text: String
                if case .string(let s) = a {
                    text = s
                } else {
                    let items = try array(a, "\(keyPath).anchor")
                    guard items.count == 2 else {
                        throw RenderSpecError.wrongType(source: source, keyPath: "\(keyPath).anchor", expected: "[x, y] or a name", found: "\(items.count) values")
                    }
                    text = "\(try number(items[0], "\(keyPath).anchor[0]", in: -4096...4096)),\(try number(items[1], "\(keyPath).anchor[1]", in: -4096...4096))"
                }
                (anchor, marker.iconAnchorFraction) = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in
                    try StaticMapsSyntax.iconAnchor(text, iconPath: icon, origin: origin(keyPath))
                }
            }
            marker.style = .icon(path: icon, anchor: anchor)
        } else if o["anchor"] != nil {
            throw RenderSpecError.badValue(origin: origin("\(keyPath).anchor"), reason: "anchor needs an icon")
        }
        if let v = o["level"] { marker.level = try level(v, "\(keyPath).level") }
        return marker
    }

    func polygon(_ value: JSONValue, _ keyPath: String) throws(RenderSpecError) -> PolygonOverlay {
        let o = try dictionary(value, keyPath, allowed: ["rings", "fillColor", "strokeColor", "strokeWidth", "level"])
        guard let ringsValue = o["rings"] else {
            throw RenderSpecError.badValue(origin: origin(keyPath), reason: "missing \"rings\"")
        }
        var rings: [[LatLng]] = []
        var total = 0
        for (i, ringValue) in try array(ringsValue, "\(keyPath).rings").enumerated() {
            let ringPath = "\(keyPath).rings[\(i)]"
            let items = try array(ringValue, ringPath)
            total += items.count
            guard items.count >= 3 else { throw RenderSpecError.badValue(origin: origin(ringPath), reason: "a ring needs at least 3 points") }
            guard total <= EncodedPolyline.maximumPointCount else {
                throw RenderSpecError.badValue(origin: origin(ringPath), reason: "more than \(EncodedPolyline.maximumPointCount) points")
            }
            rings.append(try items.enumerated().map { i, item throws(RenderSpecError) in try location(item, "\(ringPath)[\(i)]") })
        }
        guard !rings.isEmpty else { throw RenderSpecError.badValue(origin: origin("\(keyPath).rings"), reason: "no rings") }
        var polygon = PolygonOverlay(rings: rings)
        if let v = o["fillColor"] { polygon.fillColor = try optionalColor(v, "\(keyPath).fillColor") }
        if let v = o["strokeColor"] { polygon.strokeColor = try optionalColor(v, "\(keyPath).strokeColor") }
        if let v = o["strokeWidth"] { polygon.strokeWidth = try number(v, "\(keyPath).strokeWidth", in: 0...200) }
        if let v = o["level"] { polygon.level = try level(v, "\(keyPath).level") }
        return polygon
    }

    func circle(_ value: JSONValue, _ keyPath: String) throws(RenderSpecError) -> CircleOverlay {
        let o = try dictionary(value, keyPath, allowed: ["center", "radiusMeters", "fillColor", "strokeColor", "strokeWidth", "level"])
        guard let c = o["center"], let r = o["radiusMeters"] else {
            throw RenderSpecError.badValue(origin: origin(keyPath), reason: "needs \"center\" and \"radiusMeters\"")
        }
        // Half the equator: any larger circle wraps onto itself.
        var circle = CircleOverlay(center: try location(c, "\(keyPath).center"),
                                   radiusMeters: try number(r, "\(keyPath).radiusMeters", in: 0...20_037_508))
        if let v = o["fillColor"] { circle.fillColor = try optionalColor(v, "\(keyPath).fillColor") }
        if let v = o["strokeColor"] { circle.strokeColor = try optionalColor(v, "\(keyPath).strokeColor") }
        if let v = o["strokeWidth"] { circle.strokeWidth = try number(v, "\(keyPath).strokeWidth", in: 0...200) }
        if let v = o["level"] { circle.level = try level(v, "\(keyPath).level") }
        return circle
    }

    // MARK: Values

    /// "a number", "an object", "null": how messages name a value's type.
    func typeName(_ value: JSONValue) -> String {
        value.kind.withArticle
    }

    /// `"lat,lon"` or place name, `[lat, lon]`, or `{"lat", "lon"}`.
    /// The key path is built only for an error message: routes have a million coordinates.
    func location(_ value: JSONValue, _ keyPath: @autoclosure () -> String) throws(RenderSpecError) -> LatLng {
        let lat: Double
        let lon: Double
        switch value {
        case .string(let text):
            let (origin, resolver) = (origin(keyPath()), builder.resolver)
            return try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in
                try StaticMapsSyntax.parseLocation(text, origin: origin, resolver: resolver)
            }
        case .array(let items):
            guard items.count == 2, case .number(let a) = items[0], case .number(let b) = items[1] else {
                throw RenderSpecError.wrongType(source: source, keyPath: keyPath(), expected: "[lat, lon] numbers", found: typeName(value))
            }
            (lat, lon) = (a, b)
        case .object(let o):
            try checkKeys(o, keyPath(), allowed: ["lat", "lon"])
            guard case .number(let a)? = o["lat"], case .number(let b)? = o["lon"] else {
                throw RenderSpecError.wrongType(source: source, keyPath: keyPath(), expected: "{\"lat\": number, \"lon\": number}", found: "an object")
            }
            (lat, lon) = (a, b)
        default:
            throw RenderSpecError.wrongType(source: source, keyPath: keyPath(), expected: "\"lat,lon\", [lat, lon] or {\"lat\", \"lon\"}", found: typeName(value))
        }
        guard LatLng.isValidLatitude(lat) else { throw RenderSpecError.badValue(origin: origin(keyPath()), reason: "latitude \(lat) out of range -90…90") }
        guard LatLng.isValidLongitude(lon) else { throw RenderSpecError.badValue(origin: origin(keyPath()), reason: "longitude \(lon) out of range -180…180") }
        return LatLng(latitude: lat, longitude: lon)
    }

    /// The object; unknown keys are errors (see `checkKeys`). `allowed` nil skips the check
    /// (inline GeoJSON has its own rules).
    func dictionary(_ value: JSONValue, _ keyPath: String, allowed: [String]?) throws(RenderSpecError) -> JSONObject {
        guard case .object(let o) = value else {
            throw RenderSpecError.wrongType(source: source, keyPath: keyPath, expected: "an object", found: typeName(value))
        }
        if let allowed { try checkKeys(o, keyPath, allowed: allowed) }
        return o
    }

    /// Unknown keys are errors (sorted, so the same typo is reported whatever JSON order).
    func checkKeys(_ o: JSONObject, _ keyPath: String, allowed: [String]) throws(RenderSpecError) {
        if let unknown = o.keys.sorted().first(where: { !allowed.contains($0) }) {
            let path = keyPath == "(root)" ? unknown : "\(keyPath).\(unknown)"
            throw RenderSpecError.unknownKey(source: source, keyPath: path, allowed: allowed)
        }
    }

    func array(_ value: JSONValue?, _ keyPath: String) throws(RenderSpecError) -> [JSONValue] {
        guard let value else { return [] }
        guard case .array(let a) = value else {
            throw RenderSpecError.wrongType(source: source, keyPath: keyPath, expected: "an array", found: typeName(value))
        }
        return a
    }

    func string(_ value: JSONValue, _ keyPath: String) throws(RenderSpecError) -> String {
        guard case .string(let s) = value else {
            throw RenderSpecError.wrongType(source: source, keyPath: keyPath, expected: "a string", found: typeName(value))
        }
        return s
    }

    func bool(_ value: JSONValue, _ keyPath: String) throws(RenderSpecError) -> Bool {
        guard case .bool(let b) = value else {
            throw RenderSpecError.wrongType(source: source, keyPath: keyPath, expected: "true or false", found: typeName(value))
        }
        return b
    }

    /// A number, or a string holding one; returned as text so the flag parser validates it.
    func numberText(_ value: JSONValue, _ keyPath: String) throws(RenderSpecError) -> String {
        switch value {
        case .string(let s): return s
        case .number(let n): return String(n)
        default: throw RenderSpecError.wrongType(source: source, keyPath: keyPath, expected: "a number", found: typeName(value))
        }
    }

    func number(_ value: JSONValue, _ keyPath: String, in range: ClosedRange<Double>) throws(RenderSpecError) -> Double {
        guard case .number(let n) = value else {
            throw RenderSpecError.wrongType(source: source, keyPath: keyPath, expected: "a number", found: typeName(value))
        }
        guard n.isFinite, range.contains(n) else {
            throw RenderSpecError.badValue(origin: origin(keyPath),
                                           reason: "\(n) out of range \(StaticMapsSyntax.format(range.lowerBound))…\(StaticMapsSyntax.format(range.upperBound))")
        }
        return n
    }

    func integer(_ value: JSONValue?, _ keyPath: String, in range: ClosedRange<Int>) throws(RenderSpecError) -> Int {
        guard let value else { throw RenderSpecError.badValue(origin: origin(keyPath), reason: "missing") }
        let n = try number(value, keyPath, in: Double(range.lowerBound)...Double(range.upperBound))
        guard n == n.rounded() else { throw RenderSpecError.badValue(origin: origin(keyPath), reason: "\(n) is not a whole number") }
        return Int(n)
    }

    func color(_ value: JSONValue, _ keyPath: String) throws(RenderSpecError) -> Color {
        let text = try string(value, keyPath)
        do {
            return try ColorSyntax.parse(text)
        } catch {
            throw RenderSpecError.badValue(origin: origin(keyPath), reason: error.description)
        }
    }

    /// `null` or `"none"` → nil (no fill / no stroke).
    func optionalColor(_ value: JSONValue, _ keyPath: String) throws(RenderSpecError) -> Color? {
        if case .null = value { return nil }
        if case .string(let s) = value, s.lowercased() == "none" { return nil }
        return try color(value, keyPath)
    }

    func level(_ value: JSONValue, _ keyPath: String) throws(RenderSpecError) -> Overlay.Level {
        try choice(value, keyPath, Overlay.Level.init(rawValue:), "aboveRoads or aboveLabels")
    }

    func choice<T>(_ value: JSONValue, _ keyPath: String, _ make: (String) -> T?, _ expected: String) throws(RenderSpecError) -> T {
        let text = try string(value, keyPath)
        guard let result = make(text) else { throw RenderSpecError.badValue(origin: origin(keyPath), reason: "\"\(text)\": expected \(expected)") }
        return result
    }
}
