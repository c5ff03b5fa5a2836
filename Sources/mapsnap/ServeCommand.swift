import Foundation
import MapSnap

/// `mapsnap serve`: the Static Maps HTTP API until SIGTERM or SIGINT, then a drain.
enum ServeCommand {
    static let help = """
    USAGE: mapsnap serve [options]

    Serves static map images over HTTP with the Google Static Maps parameters:
      GET  /maps/api/staticmap?center=Helsinki&zoom=13&size=600x400&markers=label:H|Helsinki
      GET  /staticmap?…        the same
      POST /render             a JSON render spec (docs/spec-format.md), no file paths
      GET  /health  /ready  /metrics (Prometheus)  /  (a page documenting the API)
    SIGTERM or SIGINT stops accepting connections, answers the requests already accepted
    (at most --drain-timeout seconds, default 30; the rest are cut off) and exits 0; a
    second signal exits at once. A data file (a style, a source, a region) replaced while
    the server runs is used from the next request, with new ETags. One JSON access-log
    line per request goes to stderr, and one per warning of its render (a failed tile,
    missing detail, a missing glyph).
    Parameters that are not Google's are refused (400). A map missing some tiles is sent
    with Cache-Control: no-store and X-Missing-Tiles: FAILED/REQUESTED.
    With a router (--router, the config's "router"), maps may ask for directions with
    Google Directions' parameters, drawn as `mapsnap render --from/--to` draws them:
      GET  /staticmap?size=600x400&origin=Helsinki+Central+Station&destination=60.1675,24.9525&mode=walking
    (origin, destination, waypoints=A|via:B, mode=driving|walking|bicycling|transit,
    alternatives=true, avoid, units). Without a router they are refused (400). The router
    unreachable or failing is 502, not answering within "routerTimeout" (10 s) is 504, the
    engine's "no route" is 400; none of them is cached.

    OPTIONS
      --listen HOST:PORT    address to listen on (default 127.0.0.1:8080; 0.0.0.0:8080 for
                            every interface, [::1]:8080 for IPv6, port 0 for any free port)
      --threads N           render threads (default: one per core)
      --max-concurrent N    requests admitted at once, rendering or queued (default 64);
                            more are answered 503 with Retry-After
      --timeout SEC         close connections idle this long (default 30): slow clients
      --max-connections N   connections open at once (default 1000); each takes a file
                            descriptor: keep the open-file limit (ulimit -n, LimitNOFILE)
                            above it
      --max-connections-per-client N
                            connections from one IP address (default 64; 0: no limit);
                            behind a reverse proxy raise it and set the config's
                            "connections.trustedProxies"
      --max-size PX         largest image side in pixels (default 2048)
      --cache-dir DIR       on-disk cache for everything fetched over HTTP: tiles, styles,
                            TileJSON, sprites, icons (default $MAPSNAP_CACHE_DIR or
                            ~/.cache/mapsnap/tiles)
      --cache-max-mb N      most the on-disk cache may hold, in MiB; past it the least
                            recently used tiles and resources are removed (default: no
                            limit; also the config's "cacheMaxMB")
      --offline             use the cache only; never touch the network
      --data-dir DIR        the regions the bundled styles draw where they cover a map
                            (default $MAPSNAP_DATA, else $XDG_DATA_HOME/mapsnap, else
                            ~/.local/share/mapsnap; also the config's "dataDirectory")
      --router URL          the routing engine for directions: valhalla+http://HOST:8002,
                            osrm+http://HOST:5000 or graphhopper+http://HOST:8989 (the
                            engine is told from the URL without a prefix); default the
                            config's "router", else $MAPSNAP_ROUTER
      --response-cache-mb N memory for images by ETag, so a repeated request needs no
                            render (default 64; 0 turns it off)
      --config FILE         JSON: styles and sources served, API keys, CORS origins,
                            icon hosts, cache max-age, per-request limits (see README,
                            "Serving maps"), among them "limits": {"renderTimeout": 30}
                            seconds for tiles, icons and drawing (503 after),
                            "maxDrawingCost": 1e9 pixel operations estimated before a
                            render (400 above), "maxQueuedPerClient": 8 (429 above),
                            "maxIcons": 16 distinct icons; "iconHosts" are origins
                            (https://icons.example.org:443: scheme, host and port);
                            connection limits: see below
      --drain-timeout SEC   how long a SIGTERM/SIGINT waits for accepted requests
                            (default 30; also the config's "drainTimeout")
      -q, --quiet           no access log (render warnings are not written either)

    LIMITS ON CLIENTS (the config's "connections" object)
      A request head must arrive within 10 s of the connection opening or of its previous
      response, and a body at 1024 bytes/s or faster after that (else 408, closed); at most
      1000 query parameters (414); a second Content-Length, or one beside
      Transfer-Encoding, is refused (400); at most 256 MB of responses are being sent at
      once (503 beyond), through 64 KB send buffers.

    EXIT CODES
      0 stopped by a signal after draining, 2 bad usage or configuration, 3 cannot listen,
      130/143 a second SIGINT/SIGTERM during the drain
    """

    static let options = OptionTable(
        valued: ["--listen", "--threads", "--max-concurrent", "--timeout", "--max-size", "--cache-dir", "--config",
                 "--response-cache-mb", "--data-dir", "--max-connections", "--max-connections-per-client", "--router",
                 "--cache-max-mb", "--drain-timeout"],
        switches: ["--offline", "--quiet", "--help"],
        aliases: ["-q": "--quiet", "-h": "--help"])

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try options.parse(arguments)
        if args.has("--help") { Output.out(help); return }
        if let extra = args.positionals.first {
            throw .usage("serve: unexpected argument '\(extra)' (see mapsnap serve --help)")
        }
        let configuration = try makeConfiguration(args)
        // Signals are taken by sigwait below: blocked here, before any thread starts, so that
        // every thread inherits the mask and none is interrupted. SIGPIPE is ignored: a client
        // that goes away is an outcome, not a reason to exit.
        signal(SIGPIPE, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let quiet = args.has("--quiet")
        // Place names and addresses: the data directory's region indexes, the bundled
        // Helsinki index, then the gazetteer.
        let places = DataDirectory.resolve(explicit: configuration.dataDirectory).placeResolver()
        let server = StaticMapServer(configuration: configuration, version: version, places: places,
                                     accessLog: { line in if !quiet { FileHandle.standardError.write(Data((line + "\n").utf8)) } })
        let port: Int
        do {
            port = try server.start()
        } catch {
            throw .runtime("serve: \(error)")
        }
        let shown = configuration.listen.isIPv6 ? "[\(configuration.listen.host)]" : configuration.listen.host
        Output.note("listening on http://\(shown):\(port)/ (\(configuration.renderThreads) render threads, styles: \(configuration.styles.keys.sorted().joined(separator: ", ")))")
        let regions = DataDirectory.resolve(explicit: configuration.dataDirectory)
        let count = regions.regionNames().count
        if let router = configuration.router { Output.note("directions: \(router)") }
        Output.note("regions: \(count == 0 ? "none" : "\(count)") in \(regions.path) (added or removed ones are used from the next request)")
        var received: Int32 = 0
        sigwait(&signals, &received)
        let limit = configuration.drainTimeoutSeconds
        Output.note("\(received == SIGINT ? "SIGINT" : "SIGTERM"): draining (at most \(limit) s; a second signal exits now)")
        // A second signal means "now": an operator (or an orchestrator's escalation) must
        // not wait for the drain.
        let waitForSecond = signals
        Thread.detachNewThread {
            var set = waitForSecond
            var again: Int32 = 0
            sigwait(&set, &again)
            Output.note("\(again == SIGINT ? "SIGINT" : "SIGTERM") again: exiting without draining")
            _exit(128 + again)
        }
        let drained = server.drain(timeout: .seconds(limit))
        Output.note(drained ? "stopped" : "stopped: requests still open after \(limit) s were cut off")
    }

    static func makeConfiguration(_ args: ParsedArguments) throws(CLIError) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        for (name, value) in args.options {
            guard let v = value else { continue }
            switch name {
            case "--config": try InputPath.check(v, .file, label: name)
            case "--data-dir", "--cache-dir": try InputPath.checkOptionalDirectory(v, label: name)
            default: break
            }
        }
        if let path = args.last("--config") {
            do {
                try configuration.load(path: path)
            } catch {
                throw .input("--config \(error)")
            }
        }
        for (name, value) in args.options {
            guard let v = value else {
                if name == "--offline" { configuration.offline = true }
                continue
            }
            switch name {
            case "--listen":
                do {
                    configuration.listen = try ListenAddress(parsing: v)
                } catch {
                    throw .usage("\(error)")
                }
            case "--threads": configuration.renderThreads = try integer(v, name, in: 1...1_024)
            case "--max-concurrent": configuration.maximumConcurrentRequests = try integer(v, name, in: 1...100_000)
            case "--timeout": configuration.connectionTimeoutSeconds = try integer(v, name, in: 1...3_600)
            case "--max-size": configuration.limits.maximumImageSide = try integer(v, name, in: 1...16_384)
            case "--max-connections": configuration.connections.maximumConnections = try integer(v, name, in: 1...1_000_000)
            case "--max-connections-per-client": configuration.connections.maximumPerClient = try integer(v, name, in: 0...1_000_000)
            case "--cache-dir": configuration.cacheDirectory = v
            case "--data-dir": configuration.dataDirectory = v
            case "--cache-max-mb": configuration.cacheMaxBytes = try integer(v, name, in: 1...(1 << 30)) << 20
            case "--drain-timeout": configuration.drainTimeoutSeconds = try integer(v, name, in: 0...3_600)
            case "--response-cache-mb": configuration.responseCacheBytes = try integer(v, name, in: 0...16_384) << 20
            case "--router":
                guard let router = Router(v) else {
                    throw .usage("--router \(v): expected an http(s) URL, optionally prefixed valhalla+, osrm+ or graphhopper+")
                }
                configuration.router = router
            default: break
            }
        }
        // As for render: without --router or the config's "router", $MAPSNAP_ROUTER.
        if configuration.router == nil, let text = ProcessInfo.processInfo.environment["MAPSNAP_ROUTER"], !text.isEmpty {
            guard let router = Router(text) else {
                throw .usage("MAPSNAP_ROUTER \(text): expected an http(s) URL, optionally prefixed valhalla+, osrm+ or graphhopper+")
            }
            configuration.router = router
        }
        return configuration
    }

    private static func integer(_ text: String, _ flag: String, in range: ClosedRange<Int>) throws(CLIError) -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw .usage("\(flag) \(text): expected a whole number \(range.lowerBound)-\(range.upperBound)")
        }
        return n
    }
}
