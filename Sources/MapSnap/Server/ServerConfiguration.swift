import Foundation

/// What a `StaticMapServer` serves and how: the styles requests may name, API keys, CORS
/// origins, HTTP caching, per-request limits, and the process settings (address, threads,
/// queue, timeouts) that `mapsnap serve` takes as flags.
///
/// The JSON file (`--config FILE`); every key is optional, unknown keys are errors:
///
/// ```
/// {
///   "styles": { "NAME": { "style": "normal|terrain|hybrid|satellite|/path/style.json",
///                         "source": "tiles: file or URL template", "dem": "…",
///                         "demEncoding": "terrarium|mapbox" }
///               or { "basemap": "liberty|positron|bright|osm|protomaps" }, … },
///   "basemaps": ["liberty", "osm", …],
///   "contact": "ops@example.org",
///   "defaultStyle": "NAME",
///   "keys": ["secret", …],
///   "cors": ["https://example.org", …] or ["*"],
///   "cacheMaxAge": seconds,
///   "responseCacheMB": megabytes,
///   "iconHosts": ["https://icons.example.org:443", "http://127.0.0.1:8081", …],
///   "router": "valhalla+http://127.0.0.1:8002", "routerTimeout": seconds,
///   "limits": { "maxSize": px, "maxPixels": px, "maxOverlays": n, "maxPoints": n,
///               "maxURLLength": bytes, "maxBodyBytes": bytes, "maxQueuedPerClient": n,
///               "renderTimeout": seconds, "maxDrawingCost": pixel operations, "maxIcons": n }
/// }
/// ```
/// Without `styles` the bundled `normal`, `terrain`, `hybrid` and `satellite` styles are served over the
/// embedded data. A request picks a style by name (`maptype=NAME`, spec `"style"`); Google's
/// map types (`roadmap`, `satellite`, …) mean the bundled style of that kind when it is
/// served. Requests never name files or tile URLs themselves: only the operator does, here.
/// Named online base maps (`Basemap`) are offered the same way: each name in `basemaps` is
/// served as a style of that name (`maptype=liberty`), or a style entry names one
/// (`"streets": {"basemap": "liberty"}`); `defaultStyle` may name it. `contact` is sent to their
/// providers in the User-Agent (else `$MAPSNAP_CONTACT`).
/// Marker icons (`icon:https://…`) are fetched only from the hosts `iconHosts` lists.
/// With a `router` (or `serve --router`), map requests may ask for directions (Google's
/// `origin`, `destination`, `waypoints`, `mode`, `alternatives`; a spec's `"directions"`).
package struct ServerConfiguration: Sendable {
    /// A style the server may render: a bundled style name or a style file, and optional
    /// tile and elevation sources (the flags `--style`, `--source`, `--dem`, `--dem-encoding`).
    package struct StyleEntry: Sendable, Hashable {
        package var style: String
        package var source: String?
        package var dem: String?
        package var demEncoding: DEMEncoding?
        /// A named online base map instead of `style` and `source`.
        package var basemap: Basemap?

        package init(style: String, source: String? = nil, dem: String? = nil, demEncoding: DEMEncoding? = nil) {
            self.style = style
            self.source = source
            self.dem = dem
            self.demEncoding = demEncoding
        }
    }

    /// Per-request limits. A request over one is answered `400` with the limit's name.
    package struct Limits: Sendable, Hashable {
        /// Largest image side in pixels (size × scale).
        package var maximumImageSide = 2048
        /// Largest image area in pixels.
        package var maximumPixelCount = 2048 * 2048
        /// Most overlays (paths, polygons, circles, markers) in one request.
        package var maximumOverlayCount = 1_000
        /// Most coordinates in one request's overlays, all together.
        package var maximumPointCount = 100_000
        /// Longest request target (path and query), in bytes (`414` above).
        package var maximumURLLength = 16_384
        /// Largest `POST /render` body, in bytes (`413` above).
        package var maximumBodyBytes = 1 << 20
        /// Most requests one client address may have queued or rendering (`429` above;
        /// 0: no per-client limit). On by default so that one client cannot fill the queue
        /// ahead of everyone else; 8 is above the 6 connections a browser opens to one host,
        /// so a page full of maps never meets it.
        package var maximumQueuedPerClient = 8
        /// Seconds a render may take, loading tiles and icons and drawing (`503` after):
        /// tiles not read by then are skipped, and drawing stops between layers, overlays
        /// and bands of rows (`MapSnapshotOptions.drawingTimeout`).
        package var renderTimeoutSeconds = 30.0
        /// Largest estimated cost of drawing a request's overlays, in pixel operations
        /// (`DrawingCost`; `400` above, before any rendering); by default `DrawingCost.defaultLimit`.
        package var maximumDrawingCost = DrawingCost.defaultLimit
        /// Most distinct marker icon URLs in one request (`400` above): each is a fetch and
        /// up to 1024² decoded pixels, so 16 bound a request's icons to 64 MiB.
        package var maximumIconCount = 16

        package init() {}
    }

    /// Limits on connections, set before any request is read (the configuration's
    /// `"connections"` object): what keeps slow or hostile clients from exhausting sockets,
    /// memory or the event loop. See `HTTPServer` for how each is enforced.
    package struct ConnectionLimits: Sendable, Hashable {
        /// Most connections open at once (`--max-connections`, `maxConnections`); each takes
        /// a file descriptor, so the open-file limit must be higher (`LimitNOFILE`).
        package var maximumConnections = 1_000
        /// Most connections from one IP address (`--max-connections-per-client`,
        /// `maxPerClient`; 0: no limit). Behind a reverse proxy, raise it: every client
        /// shares the proxy's address.
        package var maximumPerClient = 64
        /// Seconds for a request head to arrive after a connection opens or its previous
        /// response ends (`headerTimeout`; `408` and closed after).
        package var headerTimeoutSeconds = 10
        /// Least average upload rate of a request body after that grace, in bytes per second
        /// (`minBodyRate`; 0: none).
        package var minimumBodyBytesPerSecond = 1_024
        /// Most query parameters in one request (`maxParameters`; `414` above).
        package var maximumParameters = 1_000
        /// Most bytes of responses being sent at once, all clients together
        /// (`maxSendingMB`; `503` with `Retry-After` beyond; 0: no limit).
        package var maximumSendingBytes = 256 << 20
        /// Kernel send buffer per connection (`sendBufferKB`; 0: the kernel's default).
        package var sendBufferBytes = 64 << 10
        /// Reverse proxies whose `X-Forwarded-For` names the client for the per-client
        /// limits and the access log (`trustedProxies`, IP addresses; empty: the peer is the client).
        package var trustedProxies: [String] = []

        package init() {}
    }

    /// Styles requests may name, by name.
    package var styles: [String: StyleEntry] = [
        "normal": StyleEntry(style: "normal"),
        "terrain": StyleEntry(style: "terrain"),
        "hybrid": StyleEntry(style: "hybrid"),
        "satellite": StyleEntry(style: "satellite"),
    ]
    /// The style of requests that name none.
    package var defaultStyle = "normal"
    /// API keys; when not empty every map request needs one (`key=` or `X-API-Key`).
    package var apiKeys: [String] = []
    /// Origins allowed to read responses from scripts (`*` for any); empty: no CORS headers.
    package var corsOrigins: [String] = []
    /// `Cache-Control: public, max-age=…` of images, in seconds.
    package var cacheMaxAgeSeconds = 86_400
    /// Bytes of encoded images kept in memory by `ETag`, so that a request made again is
    /// answered without a render (`--response-cache-mb`, `"responseCacheMB"`; 0 turns it off).
    package var responseCacheBytes = 64 << 20
    /// Origins marker icon URLs may name (`icon:https://HOST:PORT/…`), as
    /// `scheme://host:port`, lowercased: scheme, host and port must all match, so an allowed
    /// host does not open its other ports (a database, an admin page). Empty (the default):
    /// requests may not use custom icons, so a request cannot make the server fetch from a
    /// host the operator did not choose.
    package var iconHosts: [String] = []
    package var limits = Limits()
    package var connections = ConnectionLimits()
    /// The routing engine asked for directions (`--router`, the file's `router`); nil: map
    /// requests that ask for directions are refused (`400`).
    package var router: Router?
    /// Seconds the router has to answer one request (`routerTimeout`; `504` after).
    package var routerTimeoutSeconds = 10.0

    /// Where to listen (`--listen`).
    package var listen: ListenAddress
    /// Render threads (`--threads`; default one per core).
    package var renderThreads = ProcessInfo.processInfo.activeProcessorCount
    /// Most requests admitted at once, rendering or waiting (`--max-concurrent`); more are
    /// answered `503` with `Retry-After`.
    package var maximumConcurrentRequests = 64
    /// Seconds a connection may stay idle before it is closed (`--timeout`).
    package var connectionTimeoutSeconds = 30
    /// On-disk cache of HTTP tiles (`--cache-dir`; nil: the renderer's default).
    package var cacheDirectory: String?
    /// Most bytes the on-disk cache may hold (`--cache-max-mb`, `"cacheMaxMB"`); past it the
    /// least recently used tiles and resources are removed. nil (the default): no cap.
    package var cacheMaxBytes: Int?
    /// Never fetch HTTP tiles, use only cached ones (`--offline`).
    package var offline = false
    /// Seconds a SIGTERM/SIGINT waits for accepted requests before the rest are cut off
    /// (`--drain-timeout`, `"drainTimeout"`); a second signal exits at once.
    package var drainTimeoutSeconds = 30
    /// The data directory whose regions the bundled styles draw (`--data-dir`, the file's
    /// `dataDirectory`; nil: `$MAPSNAP_DATA`, else `$XDG_DATA_HOME/mapsnap`, else
    /// `~/.local/share/mapsnap`).
    package var dataDirectory: String?
    /// Identifies the data in `ETag`s: the file given by `--config`, its styles' files and
    /// sources (see `StaticMapServer.dataVersion`).
    package var configurationText = ""

    /// The defaults: the bundled styles on `127.0.0.1:8080`.
    package init(listen: ListenAddress? = nil) {
        self.listen = listen ?? Self.defaultListenAddress
    }

    /// `127.0.0.1:8080`.
    package static let defaultListenAddress = ListenAddress(host: "127.0.0.1", port: 8080, isIPv6: false)

    /// Keys of the configuration file.
    static let keys = ["styles", "basemaps", "contact", "defaultStyle", "keys", "cors", "cacheMaxAge", "responseCacheMB", "iconHosts",
                       "limits", "dataDirectory", "connections", "router", "routerTimeout", "cacheMaxMB", "drainTimeout"]
    static let styleKeys = ["style", "source", "dem", "demEncoding", "basemap"]
    static let connectionKeys = ["maxConnections", "maxPerClient", "headerTimeout", "minBodyRate", "maxParameters", "maxSendingMB",
                                 "sendBufferKB", "trustedProxies"]
    static let limitKeys = ["maxSize", "maxPixels", "maxOverlays", "maxPoints", "maxURLLength", "maxBodyBytes", "maxQueuedPerClient",
                            "renderTimeout", "maxDrawingCost", "maxIcons"]

    /// Reads a configuration file; relative style and source paths resolve against its folder.
    package mutating func load(path: String) throws(ServerConfigurationError) {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: 1 << 20)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        try apply(bytes: bytes, source: path, baseDirectory: RenderSpec.directory(of: path))
    }

    /// Applies a configuration document on top of the current settings.
    package mutating func apply(bytes: [UInt8], source: String, baseDirectory: String?) throws(ServerConfigurationError) {
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(bytes, origin: source)
        } catch {
            throw .badJSON(error)
        }
        guard case .object(let root) = parsed else {
            throw .badValue(source: source, keyPath: "(root)", reason: "expected an object")
        }
        let reader = Reader(source: source)
        try reader.checkKeys(root, "(root)", allowed: Self.keys)
        if let v = root["styles"] {
            let o = try reader.object(v, "styles")
            var styles: [String: StyleEntry] = [:]
            for (name, value) in o {
                let path = "styles.\(name)"
                guard Self.isValidName(name) else {
                    throw .badValue(source: source, keyPath: path, reason: "style names are letters, digits, '-' and '_' (at most 64)")
                }
                let s = try reader.object(value, path)
                try reader.checkKeys(s, path, allowed: Self.styleKeys)
                if let b = s["basemap"] {
                    guard s.count == 1 else {
                        throw .badValue(source: source, keyPath: path, reason: "a \"basemap\" brings its own style and sources: give it alone")
                    }
                    var entry = StyleEntry(style: "normal")
                    entry.basemap = try Self.basemap(try reader.string(b, "\(path).basemap"), source: source, keyPath: "\(path).basemap")
                    styles[name] = entry
                    continue
                }
                guard let styleValue = s["style"] else {
                    throw .badValue(source: source, keyPath: path, reason: "missing \"style\"")
                }
                var entry = StyleEntry(style: Self.resolve(try reader.string(styleValue, "\(path).style"), baseDirectory, isStyle: true))
                if let v = s["source"] { entry.source = Self.resolve(try reader.string(v, "\(path).source"), baseDirectory, isStyle: false) }
                if let v = s["dem"] { entry.dem = Self.resolve(try reader.string(v, "\(path).dem"), baseDirectory, isStyle: false) }
                if let v = s["demEncoding"] {
                    let text = try reader.string(v, "\(path).demEncoding")
                    guard let encoding = DEMEncoding(rawValue: text) else {
                        throw .badValue(source: source, keyPath: "\(path).demEncoding", reason: "expected terrarium or mapbox")
                    }
                    entry.demEncoding = encoding
                }
                styles[name] = entry
            }
            guard !styles.isEmpty else { throw .badValue(source: source, keyPath: "styles", reason: "no styles") }
            self.styles = styles
            if root["defaultStyle"] == nil {
                defaultStyle = styles["normal"] != nil ? "normal" : (o.first?.key ?? defaultStyle)
            }
        }
        if let v = root["basemaps"] {
            for (i, item) in try reader.array(v, "basemaps").enumerated() {
                let keyPath = "basemaps[\(i)]"
                let basemap = try Self.basemap(try reader.string(item, keyPath), source: source, keyPath: keyPath)
                let name = basemap.name.rawValue
                if let existing = styles[name], existing.basemap?.name != basemap.name {
                    throw .badValue(source: source, keyPath: keyPath, reason: "\"\(name)\" is already a style of the \"styles\" key")
                }
                var entry = StyleEntry(style: "normal")
                entry.basemap = basemap
                styles[name] = entry
            }
        }
        if let v = root["contact"] {
            let contact = try reader.string(v, "contact").trimmingSpaces()
            guard !contact.isEmpty, contact.count <= 200, !contact.contains(where: \.isNewline) else {
                throw .badValue(source: source, keyPath: "contact", reason: "expected an e-mail address or web page (one line, at most 200 characters)")
            }
            for (name, entry) in styles where entry.basemap != nil { styles[name]?.basemap?.contact = contact }
        }
        // A server is a caching proxy in front of the tile server: OpenStreetMap's policy says it
        // must be reachable.
        if let osm = styles.keys.sorted().first(where: { styles[$0]?.basemap?.followsOpenStreetMapTilePolicy == true && styles[$0]?.basemap?.contact == nil }) {
            throw .badValue(source: source, keyPath: osm == "osm" && root["basemaps"] != nil ? "basemaps" : "styles.\(osm)",
                            reason: "serving the osm base map needs a \"contact\" (or $MAPSNAP_CONTACT): OpenStreetMap's tile policy "
                                + "requires a caching service in front of its tiles to send a User-Agent it can reach you by")
        }
        if let v = root["defaultStyle"] { defaultStyle = try reader.string(v, "defaultStyle") }
        guard styles[defaultStyle] != nil else {
            throw .badValue(source: source, keyPath: "defaultStyle", reason: "\"\(defaultStyle)\" is not one of the styles")
        }
        if let v = root["keys"] {
            apiKeys = try reader.strings(v, "keys")
            guard !apiKeys.contains(where: \.isEmpty) else { throw .badValue(source: source, keyPath: "keys", reason: "empty key") }
        }
        if let v = root["cors"] {
            corsOrigins = try reader.strings(v, "cors")
        }
        if let v = root["iconHosts"] {
            var origins: [String] = []
            for (i, entry) in try reader.strings(v, "iconHosts").enumerated() {
                guard let origin = Self.iconOrigin(entry) else {
                    throw .badValue(source: source, keyPath: "iconHosts[\(i)]",
                                    reason: "\"\(entry)\" is not an origin such as https://icons.example.org:443 (scheme, host and port; "
                                        + "a host alone would allow every port of it)")
                }
                origins.append(origin)
            }
            iconHosts = origins
        }
        if let v = root["dataDirectory"] {
            dataDirectory = Self.resolve(try reader.string(v, "dataDirectory"), baseDirectory, isStyle: false)
        }
        if let v = root["router"] {
            let text = try reader.string(v, "router")
            guard let router = Router(text) else {
                throw .badValue(source: source, keyPath: "router",
                                reason: "\"\(text)\" is not an http(s) URL (optionally prefixed valhalla+, osrm+ or graphhopper+)")
            }
            self.router = router
        }
        if let v = root["routerTimeout"] { routerTimeoutSeconds = Double(try reader.integer(v, "routerTimeout", in: 1...600)) }
        if let v = root["cacheMaxAge"] { cacheMaxAgeSeconds = try reader.integer(v, "cacheMaxAge", in: 0...31_536_000) }
        if let v = root["cacheMaxMB"] { cacheMaxBytes = try reader.integer(v, "cacheMaxMB", in: 1...(1 << 30)) << 20 }
        if let v = root["drainTimeout"] { drainTimeoutSeconds = try reader.integer(v, "drainTimeout", in: 0...3_600) }
        if let v = root["responseCacheMB"] { responseCacheBytes = try reader.integer(v, "responseCacheMB", in: 0...16_384) << 20 }
        if let v = root["limits"] {
            let o = try reader.object(v, "limits")
            try reader.checkKeys(o, "limits", allowed: Self.limitKeys)
            if let v = o["maxSize"] { limits.maximumImageSide = try reader.integer(v, "limits.maxSize", in: 1...16_384) }
            if let v = o["maxPixels"] { limits.maximumPixelCount = try reader.integer(v, "limits.maxPixels", in: 1...(16_384 * 16_384)) }
            if let v = o["maxOverlays"] { limits.maximumOverlayCount = try reader.integer(v, "limits.maxOverlays", in: 0...1_000_000) }
            if let v = o["maxPoints"] { limits.maximumPointCount = try reader.integer(v, "limits.maxPoints", in: 0...10_000_000) }
            if let v = o["maxURLLength"] { limits.maximumURLLength = try reader.integer(v, "limits.maxURLLength", in: 256...(8 << 20)) }
            if let v = o["maxBodyBytes"] { limits.maximumBodyBytes = try reader.integer(v, "limits.maxBodyBytes", in: 0...(256 << 20)) }
            if let v = o["renderTimeout"] { limits.renderTimeoutSeconds = Double(try reader.integer(v, "limits.renderTimeout", in: 1...3_600)) }
            if let v = o["maxDrawingCost"] {
                limits.maximumDrawingCost = Double(try reader.integer(v, "limits.maxDrawingCost", in: 1...1_000_000_000_000))
            }
            if let v = o["maxIcons"] { limits.maximumIconCount = try reader.integer(v, "limits.maxIcons", in: 0...1_000) }
            if let v = o["maxQueuedPerClient"] { limits.maximumQueuedPerClient = try reader.integer(v, "limits.maxQueuedPerClient", in: 0...100_000) }
        }
        if let v = root["connections"] {
            let o = try reader.object(v, "connections")
            try reader.checkKeys(o, "connections", allowed: Self.connectionKeys)
            if let v = o["maxConnections"] { connections.maximumConnections = try reader.integer(v, "connections.maxConnections", in: 1...1_000_000) }
            if let v = o["maxPerClient"] { connections.maximumPerClient = try reader.integer(v, "connections.maxPerClient", in: 0...1_000_000) }
            if let v = o["headerTimeout"] { connections.headerTimeoutSeconds = try reader.integer(v, "connections.headerTimeout", in: 1...3_600) }
            if let v = o["minBodyRate"] { connections.minimumBodyBytesPerSecond = try reader.integer(v, "connections.minBodyRate", in: 0...(1 << 30)) }
            if let v = o["maxParameters"] { connections.maximumParameters = try reader.integer(v, "connections.maxParameters", in: 1...100_000) }
            if let v = o["maxSendingMB"] { connections.maximumSendingBytes = try reader.integer(v, "connections.maxSendingMB", in: 0...1_048_576) << 20 }
            if let v = o["sendBufferKB"] { connections.sendBufferBytes = try reader.integer(v, "connections.sendBufferKB", in: 0...65_536) << 10 }
            if let v = o["trustedProxies"] {
                let proxies = try reader.strings(v, "connections.trustedProxies")
                for proxy in proxies {
                    var v4 = in_addr(), v6 = in6_addr()
                    guard inet_pton(AF_INET, proxy, &v4) == 1 || inet_pton(AF_INET6, proxy, &v6) == 1 else {
                        throw .badValue(source: source, keyPath: "connections.trustedProxies", reason: "\"\(proxy)\" is not an IP address")
                    }
                }
                connections.trustedProxies = proxies
            }
        }
        configurationText = String(decoding: bytes, as: UTF8.self)
    }

    /// `scheme://host:port`, lowercased, for an `iconHosts` entry that names exactly that
    /// (an explicit port, no path, query or user); nil otherwise.
    static func iconOrigin(_ entry: String) -> String? {
        guard let url = URL(string: entry), url.port != nil, url.user == nil, url.query == nil, url.fragment == nil,
              url.path.isEmpty || url.path == "/", let origin = HTTPOrigin(entry) else { return nil }
        return "\(origin.scheme)://\(origin.hostKey)"
    }

    /// The style served for `name`: a configured name, or a Google map type whose bundled
    /// style is served (`roadmap` → `normal`); nil when neither.
    func styleName(for name: String) -> String? {
        if styles[name] != nil { return name }
        if let bundled = StaticMapsSyntax.styleName(forMapType: name), styles[bundled] != nil { return bundled }
        return nil
    }

    /// ` (did you mean "normal"?)` for a style name close to one served here (or to a Google
    /// map type whose bundled style is served), else "".
    func styleSuggestion(for name: String) -> String {
        let served = styles.keys.sorted()
        let mapTypes = BundledStyle.mapTypes.filter { styles[$0.style] != nil }.map(\.mapType)
        return Suggestion.hint(for: name, among: served + mapTypes.filter { !served.contains($0) })
    }

    /// The base map called `text`, or the configuration error naming `keyPath`.
    private static func basemap(_ text: String, source: String, keyPath: String) throws(ServerConfigurationError) -> Basemap {
        do {
            return try Basemap.named(text)
        } catch {
            guard case .unknownName(_, let suggestion) = error else { throw .badValue(source: source, keyPath: keyPath, reason: error.description) }
            let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
            throw .badValue(source: source, keyPath: keyPath,
                            reason: "no base map named '\(text)'\(hint); known: \(Basemap.names.joined(separator: ", "))")
        }
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
        }
    }

    /// Relative file paths resolve against the configuration's folder; bundled style names
    /// and URL templates stay as they are.
    private static func resolve(_ text: String, _ base: String?, isStyle: Bool) -> String {
        if text.contains("://") { return text }
        if isStyle && !text.contains("/") && !text.lowercased().hasSuffix(".json") { return text }
        return StaticMapsSyntax.resolvePath(text, against: base)
    }

    /// Typed access to the configuration's JSON values, errors naming the key path.
    private struct Reader {
        let source: String

        func checkKeys(_ o: JSONObject, _ keyPath: String, allowed: [String]) throws(ServerConfigurationError) {
            if let unknown = o.keys.first(where: { !allowed.contains($0) }) {
                let path = keyPath == "(root)" ? unknown : "\(keyPath).\(unknown)"
                throw .badValue(source: source, keyPath: path, reason: "unknown key (expected one of \(allowed.joined(separator: ", ")))")
            }
        }

        func object(_ v: JSONValue, _ keyPath: String) throws(ServerConfigurationError) -> JSONObject {
            guard case .object(let o) = v else { throw .badValue(source: source, keyPath: keyPath, reason: "expected an object, found \(v.kind.withArticle)") }
            return o
        }

        func array(_ v: JSONValue, _ keyPath: String) throws(ServerConfigurationError) -> [JSONValue] {
            guard case .array(let a) = v else { throw .badValue(source: source, keyPath: keyPath, reason: "expected an array, found \(v.kind.withArticle)") }
            return a
        }

        func strings(_ v: JSONValue, _ keyPath: String) throws(ServerConfigurationError) -> [String] {
            var out: [String] = []
            for (i, item) in try array(v, keyPath).enumerated() { out.append(try string(item, "\(keyPath)[\(i)]")) }
            return out
        }

        func string(_ v: JSONValue, _ keyPath: String) throws(ServerConfigurationError) -> String {
            guard case .string(let s) = v else { throw .badValue(source: source, keyPath: keyPath, reason: "expected a string, found \(v.kind.withArticle)") }
            return s
        }

        func integer(_ v: JSONValue, _ keyPath: String, in range: ClosedRange<Int>) throws(ServerConfigurationError) -> Int {
            guard case .number(let n) = v, n.isFinite, n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
                throw .badValue(source: source, keyPath: keyPath, reason: "expected a whole number \(range.lowerBound)-\(range.upperBound), found \(v.excerpt)")
            }
            return Int(n)
        }
    }
}

/// Why a server configuration file was refused.
package enum ServerConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// Not JSON; the error names the file, line, column and byte offset.
    case badJSON(JSONError)
    case badValue(source: String, keyPath: String, reason: String)

    package var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): \(reason)"
        case let .badJSON(error): return error.description
        case let .badValue(source, keyPath, reason): return "\(source): \(keyPath): \(reason)"
        }
    }
}
