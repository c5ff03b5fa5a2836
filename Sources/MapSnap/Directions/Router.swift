import Foundation

/// A routing engine's HTTP API: which engine, where, and how a `DirectionsRequest` is asked.
///
/// Written `valhalla+http://host:8002`, `osrm+http://host:5000` or
/// `graphhopper+https://host/…` (`--router`, `MAPSNAP_ROUTER`, the server's `router`). Without
/// a prefix the engine is told from the URL: a path with `/route/v1` or port 5000 is OSRM,
/// port 8989 or `graphhopper` in it is GraphHopper, anything else Valhalla (port 8002).
public struct Router: Sendable, Hashable, CustomStringConvertible {
    /// The engines mapsnap asks.
    public enum Engine: String, Sendable, Hashable, CaseIterable {
        case valhalla, osrm, graphHopper = "graphhopper"

        var format: DirectionsFormat {
            switch self {
            case .valhalla: .valhalla
            case .osrm: .osrm
            case .graphHopper: .graphHopper
            }
        }
    }

/// Which engine's API is spoken.
    public var engine: Engine
    /// The API's base URL (`http://127.0.0.1:8002`), without a trailing slash; a query string
    /// (an API key) is kept and sent with every request.
    public var baseURL: String

    /// A router from its written form; nil when it is not an http(s) URL.
    public init?(_ text: String) {
        var url = text.trimmingSpaces()
        var engine: Engine?
        if let plus = url.firstIndex(of: "+"), let colon = url.firstIndex(of: ":"), plus < colon {
            guard let named = Engine(rawValue: url[..<plus].lowercased()) else { return nil }
            engine = named
            url = String(url[url.index(after: plus)...])
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), url.count > 8, !url.contains(where: \.isWhitespace) else {
            return nil
        }
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
        self.engine = engine ?? Self.detectedEngine(lower)
    }

/// A router of a known engine at `baseURL` (no prefix, no detection).
    public init(engine: Engine, baseURL: String) {
        self.engine = engine
        self.baseURL = baseURL
    }

    private static func detectedEngine(_ lower: String) -> Engine {
        if lower.contains("/route/v1") || lower.contains(":5000") { return .osrm }
        if lower.contains(":8989") || lower.contains("graphhopper") { return .graphHopper }
        return .valhalla
    }

    /// `Valhalla at http://127.0.0.1:8002` (secrets in the query hidden): how messages name it.
    public var description: String {
        "\(engine.format.displayName) at \(URLRedaction.redact(baseURL))"
    }

    /// The GET URL that asks this engine for `request`, or the reason it cannot be asked.
    func url(for request: DirectionsRequest) -> Result<String, DirectionsError> {
        var base = baseURL
        var query = ""
        if let q = base.firstIndex(of: "?") {
            query = String(base[base.index(after: q)...])
            base = String(base[..<q])
        }
        switch engine {
        case .valhalla:
            return .success(base + "/route?" + join(query, "json=" + Self.escape(valhallaJSON(request))))
        case .osrm:
            guard let profile = Self.osrmProfiles[request.transportType] else {
                return .failure(.unsupported(origin: description, reason: "OSRM has no \(request.transportType.rawValue) routing; use Valhalla for transit"))
            }
            if base.hasSuffix("/route/v1") { base.removeLast("/route/v1".count) }
            let points = request.stops.map { "\(Self.number($0.longitude)),\(Self.number($0.latitude))" }.joined(separator: ";")
            var params = "overview=full&geometries=polyline6&steps=true"
            params += "&alternatives=" + (request.alternateCount > 0 ? "\(request.alternateCount)" : "false")
            if !request.avoid.isEmpty {
                let names: [DirectionsRequest.RoadFeature: String] = [.tolls: "toll", .highways: "motorway", .ferries: "ferry"]
                params += "&exclude=" + request.avoid.sorted().compactMap { names[$0] }.joined(separator: ",")
            }
            return .success("\(base)/route/v1/\(profile)/\(points)?" + join(query, params))
        case .graphHopper:
            guard let profile = Self.graphHopperProfiles[request.transportType] else {
                return .failure(.unsupported(origin: description, reason: "GraphHopper has no \(request.transportType.rawValue) routing; use Valhalla for transit"))
            }
            if !request.avoid.isEmpty {
                return .failure(.unsupported(origin: description, reason: "avoiding \(request.avoid.sorted().map(\.rawValue).joined(separator: ", ")) needs a GraphHopper custom model; use Valhalla or OSRM"))
            }
            if base.hasSuffix("/route") { base.removeLast("/route".count) }
            var params = request.stops.map { "point=\(Self.number($0.latitude)),\(Self.number($0.longitude))" }.joined(separator: "&")
            params += "&profile=\(profile)&points_encoded=true&instructions=true&calc_points=true&locale=en"
            if request.alternateCount > 0, request.waypoints.isEmpty {
                params += "&algorithm=alternative_route&alternative_route.max_paths=\(request.alternateCount + 1)"
            }
            return .success(base + "/route?" + join(query, params))
        }
    }

    private func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "&" + b }

    static let osrmProfiles: [TransportType: String] = [.drive: "driving", .walk: "walking", .bike: "cycling"]
    static let graphHopperProfiles: [TransportType: String] = [.drive: "car", .walk: "foot", .bike: "bike"]
    static let valhallaCostings: [TransportType: String] = [.drive: "auto", .walk: "pedestrian", .bike: "bicycle", .transit: "multimodal"]

    /// Valhalla's request document, keys in a fixed order (the URL, and so any cache key or
    /// log line, is the same for the same request).
    func valhallaJSON(_ request: DirectionsRequest) -> String {
        let stops = request.stops
        let locations = stops.enumerated().map { i, p in
            // Stops between the ends are stopovers, as Google's waypoints are: the route
            // may turn around there, and each starts a new leg.
            "{\"lat\":\(Self.number(p.latitude)),\"lon\":\(Self.number(p.longitude)),\"type\":\"break\"}"
        }.joined(separator: ",")
        let costing = Self.valhallaCostings[request.transportType] ?? "auto"
        var json = "{\"locations\":[\(locations)],\"costing\":\"\(costing)\""
        if !request.avoid.isEmpty, request.transportType == .drive {
            var options: [String] = []
            if request.avoid.contains(.tolls) { options.append("\"use_tolls\":0") }
            if request.avoid.contains(.highways) { options.append("\"use_highways\":0") }
            if request.avoid.contains(.ferries) { options.append("\"use_ferry\":0") }
            json += ",\"costing_options\":{\"auto\":{\(options.joined(separator: ","))}}"
        } else if request.avoid.contains(.ferries) {
            json += ",\"costing_options\":{\"\(costing)\":{\"use_ferry\":0}}"
        }
        // Valhalla computes alternates for two locations only.
        if request.alternateCount > 0, request.waypoints.isEmpty { json += ",\"alternates\":\(request.alternateCount)" }
        json += ",\"units\":\"kilometers\",\"directions_options\":{\"units\":\"kilometers\",\"language\":\"en-US\"}}"
        return json
    }

    /// Degrees with at most 7 decimals (1 cm), no exponent.
    static func number(_ x: Double) -> String {
        let rounded = (x * 1e7).rounded() / 1e7
        var s = String(format: "%.7f", rounded)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986).
    static func escape(_ s: String) -> String {
        var out = ""
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
