import Foundation

/// One map request turned into a render: the options, the style name it asked for, and
/// the parts that identify it for its `ETag`. Built from a Static Maps query (`GET`) or a
/// JSON spec (`POST /render`), with the server's rules on top of the CLI's parsing:
/// requests name only configured styles, never files or tile URLs, and stay within the
/// configured limits. No file is read for a request: the parsers run with
/// `FilePathPolicy.refused` (no GeoJSON/GPX files, icons or style files), the keys that
/// name tile sources are refused outright, URL templates included, and icon URLs must be on
/// the configured `iconHosts`, so a request cannot make the server fetch from a host the
/// operator did not configure.
struct MapRequest: Sendable {
    var options: MapSnapshotOptions
    /// The configured style rendered.
    var styleName: String
    /// The image format: the request's; else `png8` for Static Maps queries (Google's
    /// default), and for JSON specs what `mapsnap render --spec` writes to standard output.
    var format: ImageFormat
    /// JPEG / lossy WebP quality (nil: the format's default).
    var quality: Int?
    /// What identifies the image besides the data version (canonical request).
    var identity: [String]
    /// Directions to ask the configured router for before drawing (nil: none asked).
    var directions: DirectionsQuery?

    /// Why a request is refused: the one-line message sent with `400`.
    struct Rejection: Error, Sendable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Query parameters the server reads itself instead of passing to the Static Maps parser.
    static let serverParameters: Set<String> = ["maptype", "basemap", "key"]
    /// Every parameter of Google's Static Maps API that `StaticMapsURL` reads or knowingly
    /// ignores. The CLI warns about others; the server refuses them (`400` naming them): a
    /// parameter it silently dropped would give one image for two different requests.
    static let staticMapsParameters: Set<String> = [
        "center", "zoom", "bearing", "pitch", "size", "scale", "maptype", "markers", "path", "visible", "style", "language", "format",
        "quality", "region", "map_id", "key", "signature", "client", "channel", "sensor",
    ]
    /// Parameters that do not change the image (left out of the `ETag`).
    static let credentialParameters: Set<String> = ["key", "signature", "client", "channel", "sensor"]

    /// A Google Static Maps query: exactly what `mapsnap render --url` accepts, with
    /// `maptype` naming a configured style.
    /// `listening`: where the server listens (its bound port), so icons never point at it.
    init(query: [HTTPRequest.QueryItem], configuration: ServerConfiguration, resolver: (any PlaceResolving)?,
         listening: ListenAddress? = nil) throws {
        var styleName = configuration.defaultStyle
        var passed: [String] = []
        var identity = ["staticmap"]
        for (index, item) in query.enumerated() {
            guard let name = StaticMapsURL.percentDecode(Substring(item.name))?.lowercased(),
                  let value = StaticMapsURL.percentDecode(Substring(item.value ?? "")) else {
                throw Rejection("url: parameter \(index + 1): invalid percent-encoding")
            }
            if name == "maptype" || name == "basemap" {
                guard let served = configuration.styleName(for: value) else {
                    throw Rejection("url \(name): \"\(value)\" is not served here\(configuration.styleSuggestion(for: value)) (styles: \(configuration.styles.keys.sorted().joined(separator: ", ")))")
                }
                styleName = served
                continue
            }
            if StaticMapsURL.directionsParameters.contains(name), configuration.router == nil {
                throw Rejection("url \(name): directions need a routing engine, and this server has none "
                                + "(its configuration's \"router\", or mapsnap serve --router URL)")
            }
            guard Self.staticMapsParameters.contains(name) || StaticMapsURL.directionsParameters.contains(name) else {
                let shown = name.count > 64 ? String(name.prefix(64)) + "…" : name
                throw Rejection("url: unknown parameter \(JSONWriter.quoted(shown)) (this server takes "
                                + Self.staticMapsParameters.union(configuration.router == nil ? [] : StaticMapsURL.directionsParameters)
                                    .sorted().joined(separator: ", ") + ")")
            }
            // Name and value as separate parts: `EntityTag` length-prefixes each, so no name
            // and value can be read as another split (a name holding `=`, a value holding `&`).
            if !Self.credentialParameters.contains(name) {
                identity.append(name)
                identity.append(item.value == nil ? "" : "=" + value)
            }
            if !Self.serverParameters.contains(name) {
                passed.append(item.value.map { "\(item.name)=\($0)" } ?? item.name)
            }
        }
        var builder = RenderSpecBuilder(options: Self.defaults(configuration), resolver: resolver)
        builder.filePaths = .refused
        try builder.applyStaticMapsURL(passed.joined(separator: "&"), origin: "url")
        // Google sends png8 when a URL names no format.
        builder.impliedFormat = .png8
        try self.init(builder: builder, styleName: styleName, identity: identity + ["style=\(styleName)"], configuration: configuration,
                      listening: listening)
    }

    /// A JSON render spec (docs/spec-format.md) without the keys that name files or sources.
    init(body: [UInt8], configuration: ServerConfiguration, resolver: (any PlaceResolving)?,
         listening: ListenAddress? = nil) throws {
        let source = "body"
        var styleName = configuration.defaultStyle
        if case .object(let root)? = try? JSONValue.parse(body, origin: source) {
            for key in ["source", "dem", "demEncoding", "sprite", "gpx", "output"] where root[key] != nil {
                throw Rejection("\(source): \(key): not allowed in requests (the server's configuration names files and sources)")
            }
            for key in ["style", "basemap"] {
                guard let style = root[key] else { continue }
                guard case .string(let name) = style, let served = configuration.styleName(for: name) else {
                    let hint = style.stringValue.map(configuration.styleSuggestion) ?? ""
                    throw Rejection("\(source): \(key): \(style.excerpt) is not served here\(hint) (styles: \(configuration.styles.keys.sorted().joined(separator: ", ")))")
                }
                styleName = served
            }
        }
        // Malformed JSON and every other mistake get the spec parser's own message.
        let spec = try RenderSpec.parse(data: Data(body), source: source, resolver: resolver, defaults: Self.defaults(configuration),
                                        filePaths: .refused)
        var builder = RenderSpecBuilder(options: spec.options, resolver: resolver)
        builder.filePaths = .refused
        builder.directions = spec.directions
        builder.warnings = spec.warnings
        builder.format = spec.format
        builder.impliedFormat = spec.impliedFormat
        builder.quality = spec.quality
        try self.init(builder: builder, styleName: styleName,
                      identity: ["render", String(decoding: body, as: UTF8.self), "style=\(styleName)"], configuration: configuration,
                      listening: listening)
    }

    private init(builder: RenderSpecBuilder, styleName: String, identity: [String], configuration: ServerConfiguration,
                 listening: ListenAddress?) throws {
        var builder = builder
        guard let entry = configuration.styles[styleName] else { throw Rejection("style \"\(styleName)\" is not served here") }
        builder.options.style = entry.style
        builder.options.source = entry.source
        builder.options.demSource = entry.dem
        builder.options.demEncoding = entry.demEncoding
        builder.options.basemap = entry.basemap
        builder.options.sprite = nil
        let spec = try builder.build()
        if !spec.directions.isEmpty {
            guard configuration.router != nil else {
                throw Rejection("directions: directions need a routing engine, and this server has none "
                                + "(its configuration's \"router\", or mapsnap serve --router URL)")
            }
            directions = spec.directions
        }
        try Self.checkLimits(spec.options, configuration.limits)
        try Self.checkIcons(spec.options, allowedHosts: configuration.iconHosts, maximumCount: configuration.limits.maximumIconCount,
                            listening: listening)
        var options = spec.options
        // Every redirect of an icon fetch is held to the same rules as the icon's URL.
        options.iconAllowList = OriginAllowList(origins: Set(configuration.iconHosts), ownHost: listening?.host,
                                                ownPort: listening?.port)
        self.options = options
        format = spec.outputFormat(fileName: nil)
        quality = spec.quality
        self.styleName = styleName
        self.identity = identity
    }

    /// Options every request starts from: the server's pixel limit and tile-fetching settings.
    static func defaults(_ configuration: ServerConfiguration) -> MapSnapshotOptions {
        var options = MapSnapshotOptions()
        options.maximumPixelSize = configuration.limits.maximumImageSide
        options.maximumPixelCount = configuration.limits.maximumPixelCount
        options.renderTimeout = configuration.limits.renderTimeoutSeconds
        options.drawingTimeout = configuration.limits.renderTimeoutSeconds
        // The render threads already use the cores; more threads per render would only
        // compete with the other renders (output bytes do not depend on it).
        options.maximumThreads = max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, configuration.renderThreads))
        if let directory = configuration.cacheDirectory { options.http.cacheDirectory = directory }
        options.http.offline = configuration.offline
        options.http.cacheMaxBytes = configuration.cacheMaxBytes
        options.dataDirectory = DataDirectory.resolve(explicit: configuration.dataDirectory).path
        return options
    }

    /// Marker icons: URLs on the configured `iconHosts` only (file paths never get this far:
    /// the parsers refuse them).
    ///
    /// An icon on the server's own port of a local address is refused even when listed: a
    /// map whose icon is a map of this server, nested, would wait on itself with every render
    /// thread. (A host name that resolves to this machine is not recognised: do not list
    /// the server's own origin.)
    static func checkIcons(_ options: MapSnapshotOptions, allowedHosts: [String], maximumCount: Int = .max,
                           listening: ListenAddress? = nil) throws(Rejection) {
        var distinct: Set<String> = []
        for overlay in options.overlays {
            guard case .marker(let marker) = overlay, case .icon(let location, _) = marker.style else { continue }
            let shown = URLRedaction.redact(location)
            guard let origin = HTTPOrigin(location) else { throw Rejection("markers: icon \(shown): not an http(s) URL") }
            if let listening, origin.port == listening.port, Self.isLocal(origin.host, listeningOn: listening.host) {
                throw Rejection("markers: icon \(shown): icons are not fetched from this server itself")
            }
            guard allowedHosts.contains("\(origin.scheme)://\(origin.hostKey)") else {
                throw Rejection(allowedHosts.isEmpty
                                ? "markers: icon \(shown): custom icons are not allowed on this server"
                                : "markers: icon \(shown): icons from \(origin.hostKey) are not allowed on this server (iconHosts)")
            }
            // Each distinct icon is a fetch and up to a decoded megapixel (4 MiB).
            distinct.insert(location)
            guard distinct.count <= maximumCount else {
                throw Rejection("markers: more than \(maximumCount) distinct icons, this server's limit (limits.maxIcons)")
            }
        }
    }

    /// `4.2e9`-style: two significant digits, for the estimates in messages.
    static func engineering(_ x: Double) -> String { DrawingCost.engineering(x) }

    /// Whether `host` (from a URL) names this machine as a server listening on `listenHost`
    /// reaches it (`OriginAllowList.isLocal`).
    static func isLocal(_ host: String, listeningOn listenHost: String) -> Bool {
        OriginAllowList.isLocal(host, listeningOn: listenHost)
    }

    /// The per-request limits on area, overlays, points and drawing cost.
    static func checkLimits(_ options: MapSnapshotOptions, _ limits: ServerConfiguration.Limits) throws(Rejection) {
        let pixels = (Double(options.width) * options.scale).rounded() * (Double(options.height) * options.scale).rounded()
        guard pixels <= Double(limits.maximumPixelCount) else {
            throw Rejection("size: \(Int(pixels)) pixels is more than this server's limit of \(limits.maximumPixelCount)")
        }
        guard options.overlays.count <= limits.maximumOverlayCount else {
            throw Rejection("\(options.overlays.count) overlays is more than this server's limit of \(limits.maximumOverlayCount)")
        }
        var points = options.visibleCoordinates.count
        for overlay in options.overlays {
            switch overlay {
            case .path(let p): points += p.coordinates.count
            case .polygon(let p): points += p.rings.reduce(0) { $0 + $1.count }
            case .circle, .marker: points += 1
            }
        }
        guard points <= limits.maximumPointCount else {
            throw Rejection("\(points) points is more than this server's limit of \(limits.maximumPointCount)")
        }
        // Last: it projects every point, which the cheaper checks above have bounded.
        let cost = DrawingCost.estimate(options)
        guard cost <= limits.maximumDrawingCost else {
            throw Rejection("drawing these overlays would cost about \(Self.engineering(cost)) pixel operations, more than this server's "
                            + "limit of \(Self.engineering(limits.maximumDrawingCost)) (limits.maxDrawingCost): fewer, shorter or "
                            + "thinner paths and polygons, or a smaller image")
        }
    }
}
