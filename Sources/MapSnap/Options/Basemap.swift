import Foundation

/// A named online base map: one word instead of a style URL or tile template, with the
/// provider's attribution and usage policy built in.
///
/// | name | what is fetched | credit |
/// |---|---|---|
/// | `liberty`, `positron`, `bright` | OpenFreeMap's public MapLibre styles (no key): the style, its TileJSON, vector tiles, glyphs and sprite | © OpenFreeMap © OpenMapTiles © OpenStreetMap contributors |
/// | `osm` | OpenStreetMap's standard raster tiles (`tile.openstreetmap.org`) | © OpenStreetMap contributors |
/// | `protomaps` | the Protomaps planet build, one PMTiles archive read by HTTP range requests, drawn in the bundled `normal` style | Protomaps © OpenStreetMap contributors |
///
/// Every URL can be changed without a new release (the OpenStreetMap policy recommends it):
/// `MAPSNAP_BASEMAP_<NAME>_URL` replaces a provider's URL (a style URL, a `{z}/{x}/{y}` template,
/// or a PMTiles URL). The Protomaps planet builds are dated files that are removed after a
/// while, so the default archive URL holds `{build}`: the newest build named by the builds list
/// (`MAPSNAP_BASEMAP_PROTOMAPS_BUILDS_URL`, default Protomaps' own), looked up at render time and
/// cached like any resource. A URL without `{build}` is used as it is.
///
/// Policies, applied to the render's HTTP options (`apply(to:)`):
/// - every request's `User-Agent` names mapsnap and its version, plus `contact` when given
///   (`MAPSNAP_CONTACT`, the CLI's `--contact`): OpenStreetMap asks for a way to reach the user;
/// - `osm`: at most 2 connections at once, and tiles cached at least 7 days whatever the
///   headers say; the render fetches only the tiles of the view. Bulk downloads (`data
///   extract`, `batch`) are refused: `bulkDownloadRefusal(for:)`;
/// - the others: at most 4 connections to the provider at once.
public struct Basemap: Sendable, Hashable {
    /// The names, as users write them.
    public enum Name: String, CaseIterable, Sendable {
        case liberty, positron, bright, osm, protomaps
    }

    /// Which base map this is.
    public let name: Name
    /// The provider URL in use: a style URL (OpenFreeMap), a tile template (`osm`) or a
    /// PMTiles archive URL, possibly with `{build}` (`protomaps`).
    public var url: String
    /// The list of Protomaps builds that `{build}` is taken from (JSON: objects whose `key` is
    /// a file name such as `20260101.pmtiles`); nil for the other providers.
    public var buildsURL: String?
    /// How the provider can reach the user (an e-mail address or web page), sent in the
    /// `User-Agent`; nil sends none.
    public var contact: String?

    /// Every name, in the order `--help` lists them.
    public static let names: [String] = Name.allCases.map(\.rawValue)

    /// The default Protomaps archive URL: the newest dated build.
    public static let protomapsDefaultURL = "https://build.protomaps.com/{build}.pmtiles"
    /// The list of current Protomaps builds.
    public static let protomapsDefaultBuildsURL = "https://build-metadata.protomaps.dev/builds.json"
    /// OpenStreetMap's standard tile server, the one whose policy `osm` follows.
    public static let openStreetMapTileHost = "tile.openstreetmap.org"
    /// The cache floor OpenStreetMap's tile policy asks for.
    public static let openStreetMapMinimumCacheAge: TimeInterval = 7 * 24 * 3600
    /// Connections at once to tile.openstreetmap.org.
    public static let openStreetMapMaxConnections = 2
    /// Connections at once to OpenFreeMap and Protomaps' hosts.
    public static let providerMaxConnections = 4

    /// The base map called `text` (case and surrounding spaces ignored), with the URLs and
    /// contact of the process environment.
    public static func named(_ text: String) throws(BasemapError) -> Basemap {
        try named(text, environment: .process)
    }

    /// The base map called `text`, URLs and contact from `environment`.
    package static func named(_ text: String, environment: EnvironmentVariables) throws(BasemapError) -> Basemap {
        let key = text.trimmingSpaces().lowercased()
        guard let name = Name(rawValue: key) else {
            throw .unknownName(text, suggestion: Suggestion.closest(to: key, among: names, maxDistance: 3).first)
        }
        func variable(_ suffix: String) -> String? {
            environment["MAPSNAP_BASEMAP_\(name.rawValue.uppercased())_\(suffix)"].flatMap { $0.isEmpty ? nil : $0 }
        }
        var basemap = Basemap(name: name, url: variable("URL") ?? name.defaultURL, buildsURL: nil,
                              contact: environment["MAPSNAP_CONTACT"].flatMap { $0.isEmpty ? nil : $0 })
        if name == .protomaps { basemap.buildsURL = variable("BUILDS_URL") ?? protomapsDefaultBuildsURL }
        return basemap
    }

    /// The credit drawn on the map (each provider's terms ask for it).
    public var attribution: String {
        switch name {
        case .liberty, .positron, .bright: return "© OpenFreeMap © OpenMapTiles © OpenStreetMap contributors"
        case .osm: return "© OpenStreetMap contributors"
        case .protomaps: return "Protomaps © OpenStreetMap contributors"
        }
    }

    /// The `User-Agent` sent to the provider: mapsnap, its version, and the contact if any.
    public var userAgent: String {
        let version = HTTPTileSource.libraryVersion
        guard let contact = contact?.filter({ !$0.isNewline && $0 != "(" && $0 != ")" }), !contact.isEmpty else {
            return HTTPTileSource.defaultUserAgent
        }
        return "mapsnap/\(version) (+offline static map renderer; contact: \(contact))"
    }

    /// Whether the base map is served under OpenStreetMap's tile policy.
    public var followsOpenStreetMapTilePolicy: Bool { name == .osm }

    /// Sets `options` up for this base map: style and source, HTTP policy (user agent,
    /// connections, cache floor) and — unless the caller chose one — the attribution.
    /// `archive` is the PMTiles URL with `{build}` resolved (`BasemapBuilds`), for `protomaps`.
    func apply(to options: inout MapSnapshotOptions, archive: String? = nil) {
        switch name {
        case .liberty, .positron, .bright:
            options.style = url
            options.source = nil
        case .osm:
            options.style = "normal"
            options.source = url
            options.http.format = .png
            options.http.cacheMinimumAge = max(options.http.cacheMinimumAge, Self.openStreetMapMinimumCacheAge)
        case .protomaps:
            options.style = "normal"
            options.source = archive ?? url
        }
        let cap = name == .osm ? Self.openStreetMapMaxConnections : Self.providerMaxConnections
        options.http.maxConcurrentRequests = min(options.http.maxConcurrentRequests, cap)
        options.http.userAgent = userAgent
        if options.attribution == nil { options.attribution = attribution }
    }

    /// Why `url` must not be bulk-downloaded (`data extract`, `batch`), or nil: the URLs of
    /// tile.openstreetmap.org, and those of the `osm` base map however configured.
    package static func bulkDownloadRefusal(for url: String, environment: EnvironmentVariables = .process) -> String? {
        var hosts: Set<String> = [openStreetMapTileHost]
        if let osm = try? named("osm", environment: environment), let host = Self.host(of: osm.url) { hosts.insert(host) }
        guard let host = Self.host(of: url), hosts.contains(host) else { return nil }
        return "\(host) serves OpenStreetMap's tiles for interactive viewing only: its tile usage policy "
            + "(https://operations.osmfoundation.org/policies/tiles/) prohibits bulk downloading; render single "
            + "maps with --basemap osm, or extract from a PMTiles/MBTiles archive (e.g. the Protomaps planet build)"
    }

    /// `host` or `host:port` of an http(s) URL (lowercased), or nil.
    static func host(of url: String) -> String? {
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("pmtiles://") { return host(of: String(url.dropFirst("pmtiles://".count))) }
        if lower.hasPrefix("https://") { rest = lower.dropFirst(8) } else if lower.hasPrefix("http://") { rest = lower.dropFirst(7) } else { return nil }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPort = authority.split(separator: "@").last.map(String.init) ?? ""
        // The default ports name the same host.
        for port in [":443", ":80"] where hostPort.hasSuffix(port) { return String(hostPort.dropLast(port.count)) }
        return hostPort.isEmpty ? nil : hostPort
    }
}

extension Basemap.Name {
    /// The provider's public URL.
    var defaultURL: String {
        switch self {
        case .liberty, .positron, .bright: return "https://tiles.openfreemap.org/styles/\(rawValue)"
        case .osm: return "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
        case .protomaps: return Basemap.protomapsDefaultURL
        }
    }
}
