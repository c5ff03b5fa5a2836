import Foundation

/// Accumulates one render's settings from command-line flags, a JSON spec or a Static Maps
/// URL, with the same parsing and validation whichever way a setting arrives, so that
/// `--path X` and `"paths": ["X"]` mean exactly the same thing.
///
/// Every method takes the text as the user wrote it and an `origin` naming where it came from
/// (`--path`, `spec.json: paths[2]`); errors start with that origin. Methods throw the error
/// type of the stage that rejected the input (`StaticMapsSyntaxError`, `GeoJSONError`,
/// `GPXError`, `RenderSpecError`); all print as one line.
package struct RenderSpecBuilder: Sendable {
    /// Everything set so far; starts from the defaults passed to `init`.
    package var options: MapSnapshotOptions
    /// Output PNG path (`-o`, `"output"`), resolved against `baseDirectory`.
    package var output: String?
    /// The image format asked for (see `RenderSpec.format`).
    package var format: ImageFormat?
    /// The format a Static Maps URL implies (see `RenderSpec.impliedFormat`).
    package var impliedFormat: ImageFormat?
    /// JPEG / lossy WebP quality (see `RenderSpec.quality`).
    package var quality: Int?
    /// Things ignored or degraded along the way, one line each, for the CLI to print.
    package var warnings: [String] = []
    /// Directions asked for (`--from`/`--to`, a spec's `"directions"`, a URL's `origin`…).
    package var directions = DirectionsQuery()
    /// Resolves place names in locations; nil means only `lat,lon` is accepted.
    package var resolver: (any PlaceResolving)?
    /// Directory against which relative file paths (GeoJSON, GPX, icons, styles, sources,
    /// output) are resolved; nil leaves them relative to the working directory.
    package var baseDirectory: String?
    /// Largest input file read (GeoJSON, GPX, specs, job lists).
    package var maximumFileSize: Int = 512 << 20
    /// Input files that had nothing to draw, in input order: `build()` names the first when
    /// there is nothing else to show, and warns about each otherwise.
    private var emptyInputs: [(name: String, lacking: String)] = []
    /// Which files the input may name (styles, sources, GeoJSON, GPX, icons, output);
    /// `.refused` for a server, `.insideBaseDirectory` for a spec from elsewhere.
    package var filePaths: FilePathPolicy = .unrestricted
    /// A contact given (`setContact`), for a base map chosen after it.
    private var pendingContact: String?

    /// Most markers one render may have, from all inputs together: each is drawn with its own
    /// pin, label and title, so more is a mistake that would only exhaust memory and time.
    package static let maximumMarkerCount = 100_000
    /// Longest caption or attribution, in characters (a 10M-character caption took 1.9 GB).
    package static let maximumTextLength = 1_000

    /// A builder starting from `options` (e.g. a batch file's shared defaults).
    package init(options: MapSnapshotOptions = MapSnapshotOptions(), resolver: (any PlaceResolving)? = nil,
                baseDirectory: String? = nil) {
        self.options = options
        self.resolver = resolver
        self.baseDirectory = baseDirectory
    }

    // MARK: Camera and image

    /// `--size WxH` in points.
    package mutating func setSize(_ text: String, origin: String) throws(RenderSpecError) {
        let maximum = options.maximumPixelSize
        setSize(try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try StaticMapsSyntax.parseSize(text, origin: origin, maximum: maximum) })
    }

    /// Sets the size in points; `build()` checks it against the pixel limit.
    package mutating func setSize(_ size: ImageSize) {
        options.width = size.width
        options.height = size.height
    }

    /// `--scale N`, 1…4.
    package mutating func setScale(_ text: String, origin: String) throws(RenderSpecError) {
        options.scale = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try StaticMapsSyntax.parseScale(text, origin: origin) }
    }

    /// `--center LAT,LON|NAME`.
    package mutating func setCenter(_ text: String, origin: String) throws(RenderSpecError) {
        let resolver = resolver
        options.center = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try StaticMapsSyntax.parseLocation(text, origin: origin, resolver: resolver) }
    }

    /// `--zoom Z`, 0…22, fractions allowed.
    package mutating func setZoom(_ text: String, origin: String) throws(RenderSpecError) {
        options.zoom = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try StaticMapsSyntax.parseZoom(text, origin: origin) }
    }

    /// `--bearing DEG|auto`: the heading, degrees clockwise from north (−360…360), or
    /// track-up.
    package mutating func setBearing(_ text: String, origin: String) throws(RenderSpecError) {
        setBearing(try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try StaticMapsSyntax.parseBearing(text, origin: origin) })
    }

    /// `--pitch DEG`: the tilt from straight down, degrees 0…85.
    package mutating func setPitch(_ text: String, origin: String) throws(RenderSpecError) {
        options.pitch = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try StaticMapsSyntax.parsePitch(text, origin: origin) }
    }

    /// A heading in degrees, or nil for track-up.
    package mutating func setBearing(_ degrees: Double?) {
        options.heading = degrees ?? 0
        options.isTrackUp = degrees == nil
    }

    /// `--north-arrow` / `--no-north-arrow` (default: drawn when the map is turned).
    package mutating func setShowsNorthArrow(_ shows: Bool) {
        options.showsNorthArrow = shows
    }

    /// `--padding PX` in points, 0…1024.
    package mutating func setPadding(_ text: String, origin: String) throws(RenderSpecError) {
        options.padding = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try StaticMapsSyntax.number(Substring(text), key: nil, origin: origin, in: 0...1024) }
    }

    /// `--fractional-zoom`: fit at fractional zoom levels instead of integers.
    package mutating func setFractionalZoom(_ enabled: Bool) {
        options.allowsFractionalZoom = enabled
    }

    /// `--style normal|terrain|hybrid|satellite|FILE.json|URL`; a file path is resolved against `baseDirectory`.
    package mutating func setStyle(_ text: String, origin: String) throws(RenderSpecError) {
        let name = text.trimmingASCIIWhitespace()
        guard !name.isEmpty else { throw RenderSpecError.badValue(origin: origin, reason: "empty style name") }
        let isFile = name.contains("/") || name.lowercased().hasSuffix(".json")
        if isFile && !FilePathPolicy.isURL(name) {
            options.style = try checkedPath(name, origin: origin)
        } else {
            // Google's map type names mean the bundled style of that kind (`roadmap` → normal).
            options.style = BundledStyle.resolve(name) ?? name
        }
        options.basemap = nil
    }

    /// `--basemap NAME`: a named online base map (`Basemap`); it replaces any style and source
    /// given before it, and a later `--style` or `--source` replaces it. The contact, if any,
    /// is kept from an earlier `setContact`.
    package mutating func setBasemap(_ text: String, origin: String) throws(RenderSpecError) {
        let contact = options.basemap?.contact
        do {
            options.basemap = try Basemap.named(text)
        } catch {
            guard case .unknownName(let name, let suggestion) = error else { throw .basemap(error) }
            let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
            throw RenderSpecError.badValue(origin: origin, reason: "no base map named '\(name)'\(hint); known: \(Basemap.names.joined(separator: ", "))")
        }
        if let contact { options.basemap?.contact = contact }
        options.source = nil
    }

    /// `--contact TEXT`: how a base map's provider can reach the user (sent in the User-Agent).
    package mutating func setContact(_ text: String, origin: String) throws(RenderSpecError) {
        let contact = text.trimmingASCIIWhitespace()
        guard !contact.isEmpty, contact.count <= 200, !contact.contains(where: \.isNewline) else {
            throw RenderSpecError.badValue(origin: origin, reason: "expected an e-mail address or web page (one line, at most 200 characters)")
        }
        options.basemap?.contact = contact
        pendingContact = contact
    }

    /// `--source SOURCE`: a file path (resolved against `baseDirectory`) or a URL template.
    package mutating func setSource(_ text: String, origin: String) throws(RenderSpecError) {
        let source = text.trimmingASCIIWhitespace()
        guard !source.isEmpty else { throw RenderSpecError.badValue(origin: origin, reason: "empty source") }
        options.source = try sourceLocation(source, origin: origin)
        options.basemap = nil
    }

    /// `--dem SOURCE`: elevation tiles for hillshading, a file path (resolved against
    /// `baseDirectory`) or a URL template.
    package mutating func setDEM(_ text: String, origin: String) throws(RenderSpecError) {
        let source = text.trimmingASCIIWhitespace()
        guard !source.isEmpty else { throw RenderSpecError.badValue(origin: origin, reason: "empty DEM source") }
        options.demSource = try sourceLocation(source, origin: origin)
    }

    /// `--sprite BASE`: a local copy of the style's sprite sheet (`BASE.json` + `BASE.png`),
    /// resolved against `baseDirectory` and checked against `filePaths` like sources.
    package mutating func setSprite(_ text: String, origin: String) throws(RenderSpecError) {
        let base = text.trimmingASCIIWhitespace()
        guard !base.isEmpty else { throw RenderSpecError.badValue(origin: origin, reason: "empty sprite path") }
        options.sprite = try sourceLocation(base, origin: origin)
    }

    /// `--dem-encoding terrarium|mapbox`.
    package mutating func setDEMEncoding(_ text: String, origin: String) throws(RenderSpecError) {
        let name = text.trimmingASCIIWhitespace().lowercased()
        guard let encoding = DEMEncoding(rawValue: name) else {
            throw RenderSpecError.badValue(origin: origin, reason: "unknown DEM encoding '\(text)' (terrarium or mapbox)")
        }
        options.demEncoding = encoding
    }

    // MARK: Overlays

    /// `--path SPEC` in Static Maps syntax.
    package mutating func addPath(_ text: String, origin: String) throws(RenderSpecError) {
        let resolver = resolver
        options.overlays.append(.path(try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try StaticMapsSyntax.parsePath(text, origin: origin, resolver: resolver) }))
    }

    /// `--marker SPEC` in Static Maps syntax; one marker per location.
    package mutating func addMarkers(_ text: String, origin: String) throws(RenderSpecError) {
        let (resolver, baseDirectory, filePaths) = (resolver, baseDirectory, filePaths)
        let markers = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try StaticMapsSyntax.parseMarkers(text, origin: origin, resolver: resolver, baseDirectory: baseDirectory,
                                                        filePaths: filePaths) }
        options.overlays += markers.map(Overlay.marker)
    }

    /// `--visible LAT,LON|…`: extra locations the fitted camera must show.
    package mutating func addVisible(_ text: String, origin: String) throws(RenderSpecError) {
        let resolver = resolver
        options.visibleCoordinates += try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try StaticMapsSyntax.parseLocations(text, origin: origin, resolver: resolver) }
    }

    /// `--polyline ENC` (precision 5) or `--polyline6 ENC` (precision 6): a path with default style.
    package mutating func addPolyline(_ text: String, precision: Int, origin: String) throws(RenderSpecError) {
        let encoded = text.trimmingASCIIWhitespace()
        let coordinates: [LatLng]
        do {
            coordinates = try EncodedPolyline.decode(encoded, precision: precision)
        } catch {
            // A precision-6 route (OSRM, Valhalla) read at precision 5 has points ten times too
            // far out; say so when the text decodes cleanly at 6, rather than only "outside".
            if case .coordinateOutOfRange = error, precision == 5,
               let asSix = try? EncodedPolyline.decode(encoded, precision: 6), !asSix.isEmpty {
                throw .syntax(.precision6Polyline(origin: origin, error: error))
            }
            throw .syntax(.badPolyline(origin: origin, error: error))
        }
        guard !coordinates.isEmpty else { throw .syntax(.noLocations(origin: origin)) }
        options.overlays.append(.path(PathOverlay(coordinates: coordinates)))
    }

    /// Appends an already built overlay (used by JSON specs and library callers).
    package mutating func addOverlay(_ overlay: Overlay) {
        options.overlays.append(overlay)
    }

    /// `--geojson FILE`.
    package mutating func loadGeoJSON(path: String, origin: String) throws(RenderSpecError) {
        _ = try checkedPath(path, origin: origin)
        let bytes = try readFile(path, origin: origin)
        let document: GeoJSON
        do { document = try GeoJSON(bytes: bytes, source: path) } catch { throw .geoJSON(error) }
        addGeoJSON(document, name: path)
    }

    /// Adds a parsed GeoJSON document's overlays and warnings; `name` says where it came from
    /// when it has nothing to draw.
    mutating func addGeoJSON(_ document: GeoJSON, name: String) {
        if document.overlays.isEmpty { emptyInputs.append((name, "has no features with a geometry")) }
        options.overlays += document.overlays
        warnings += document.warnings
    }

    /// `--gpx FILE`.
    package mutating func loadGPX(path: String, origin: String) throws(RenderSpecError) {
        _ = try checkedPath(path, origin: origin)
        let bytes = try readFile(path, origin: origin)
        let overlays: [Overlay]
        do { overlays = try GPX(data: Data(bytes), source: path).overlays } catch { throw .gpx(error) }
        if overlays.isEmpty { emptyInputs.append((path, "has no track, route or waypoint with a point")) }
        options.overlays += overlays
    }

    /// `--url URL`: applies every parameter of a Static Maps URL.
    package mutating func applyStaticMapsURL(_ text: String, origin: String) throws(RenderSpecError) {
        let url: StaticMapsURL
        do {
            url = try StaticMapsURL(parsing: text, origin: origin, resolver: resolver, baseDirectory: baseDirectory,
                                    filePaths: filePaths)
        } catch {
            throw .syntax(error)
        }
        if let size = url.size { setSize(size) }
        if let scale = url.scale { options.scale = scale }
        if let center = url.center { options.center = center }
        if let zoom = url.zoom { options.zoom = zoom }
        if let bearing = url.bearing { setBearing(bearing) }
        if let pitch = url.pitch { options.pitch = pitch }
        if let style = url.style { options.style = style }
        options.mapStyles += url.mapStyles
        if let language = url.language { options.language = language }
        options.overlays += url.paths.map(Overlay.path)
        options.overlays += url.markers.map(Overlay.marker)
        options.visibleCoordinates += url.visible
        if let f = url.format { format = f }
        impliedFormat = .png8
        if let q = url.quality { quality = q }
        mergeDirections(url.directions)
        warnings += url.warnings
    }

    // MARK: Decorations and output

    /// `--attribution TEXT|none`: "none" removes the attribution line. At most
    /// `maximumTextLength` characters.
    package mutating func setAttribution(_ text: String, origin: String) throws(RenderSpecError) {
        try Self.checkLength(text, origin: origin)
        options.attribution = text.trimmingASCIIWhitespace().lowercased() == "none" ? "" : text
    }

    /// `--caption TEXT`, at most `maximumTextLength` characters.
    package mutating func setCaption(_ text: String, origin: String) throws(RenderSpecError) {
        try Self.checkLength(text, origin: origin)
        options.caption = text
    }

    private static func checkLength(_ text: String, origin: String) throws(RenderSpecError) {
        // A character is at least one byte, so short texts need no counting; long ones are
        // counted only up to the limit.
        guard text.utf8.count > maximumTextLength else { return }
        var count = 0
        for _ in text {
            count += 1
            guard count <= maximumTextLength else { throw .textTooLong(origin: origin, limit: maximumTextLength) }
        }
    }

    /// `--no-scale-bar` sets false.
    package mutating func setShowsScaleBar(_ shows: Bool) {
        options.showsScaleBar = shows
    }

    /// `--format NAME`: png8 (png), png32, jpg, jpg-baseline or webp.
    package mutating func setFormat(_ text: String, origin: String) throws(RenderSpecError) {
        do {
            format = try ImageFormat(name: text.trimmingASCIIWhitespace())
        } catch {
            throw .badValue(origin: origin, reason: error.description)
        }
    }

    /// `--quality N`, 1…100: JPEG quality, or lossy WebP.
    package mutating func setQuality(_ text: String, origin: String) throws(RenderSpecError) {
        quality = try RenderSpecError.syntax { () throws(StaticMapsSyntaxError) in try StaticMapsSyntax.parseQuality(text, origin: origin) }
    }

    /// `-o OUT.png`; `-` (stdout) is kept as is. `origin` names the flag or key for
    /// `filePaths` refusals.
    package mutating func setOutput(_ path: String, origin: String = "output") throws(RenderSpecError) {
        output = path == "-" ? path : try checkedPath(path, origin: origin)
    }

    /// Final checks that need every setting: the pixel size limit and something to show.
    package func build() throws(RenderSpecError) -> RenderSpec {
        let limit = options.maximumPixelSize
        let pixelWidth = Double(options.width) * options.scale
        let pixelHeight = Double(options.height) * options.scale
        guard pixelWidth <= Double(limit), pixelHeight <= Double(limit) else {
            throw .imageTooLarge(width: options.width, height: options.height, scale: options.scale, limit: limit)
        }
        guard options.center != nil || !options.overlays.isEmpty || !options.visibleCoordinates.isEmpty || !directions.isEmpty else {
            if let empty = emptyInputs.first { throw .emptyInput(name: empty.name, lacking: empty.lacking) }
            throw .nothingToShow
        }
        var markers = 0
        for case .marker in options.overlays { markers += 1 }
        guard markers <= Self.maximumMarkerCount else {
            throw .tooManyMarkers(origin: "markers from all inputs", limit: Self.maximumMarkerCount)
        }
        let emptyWarnings = emptyInputs.map { "\($0.name): \($0.lacking), so nothing of it is drawn" }
        var options = self.options
        if let pendingContact, options.basemap != nil { options.basemap?.contact = pendingContact }
        var spec = RenderSpec(options: options, output: output, warnings: warnings + emptyWarnings)
        spec.format = format
        spec.impliedFormat = impliedFormat
        spec.quality = quality
        spec.directions = directions
        return spec
    }

    // MARK: Files

    /// `path` resolved against `baseDirectory` when relative.
    package func resolvePath(_ path: String) -> String {
        StaticMapsSyntax.resolvePath(path, against: baseDirectory)
    }

    /// `path` resolved against `baseDirectory`, if `filePaths` allows it.
    package func checkedPath(_ path: String, origin: String) throws(RenderSpecError) -> String {
        do {
            return try filePaths.resolve(path, against: baseDirectory)
        } catch {
            throw .badValue(origin: origin, reason: "\"\(path)\": \(error.reason)")
        }
    }

    /// A tile source: a URL template as given, or a file path checked by `filePaths`. Under
    /// `.unrestricted` anything with `://` passes as it always has; otherwise only http(s).
    private func sourceLocation(_ text: String, origin: String) throws(RenderSpecError) -> String {
        let remote = FilePathPolicy.isURL(text) || FilePathPolicy.isURL(String(text.dropFirst(text.lowercased().hasPrefix("pmtiles://") ? 10 : 0)))
        if filePaths == .unrestricted ? text.contains("://") : remote { return text }
        return try checkedPath(text, origin: origin)
    }

    /// Reads a whole input file (a regular file of at most `maximumFileSize` bytes, see
    /// `InputFile`). Errors name the path as the user wrote it.
    package func readFile(_ path: String, origin: String) throws(RenderSpecError) -> [UInt8] {
        do {
            return try InputFile.read(resolvePath(path), limit: Swift.max(maximumFileSize, 0))
        } catch .tooLarge {
            throw .fileTooLarge(origin: origin, path: path, limit: maximumFileSize)
        } catch {
            throw .unreadableFile(origin: origin, path: path, reason: error.reason)
        }
    }
}
