/// Reads a directions answer in any of the JSON dialects of `DirectionsFormat`, telling them
/// apart by content (never by file name), into one `DirectionsResponse`.
///
/// What tells them apart (each answer, successful or not, has one of these):
///
/// | format      | marks                                                       |
/// |-------------|-------------------------------------------------------------|
/// | Valhalla    | `trip`, or `error_code` with `error`                         |
/// | GraphHopper | `paths`, or `message` with `hints`                           |
/// | Google      | `geocoded_waypoints`, or a `status` string beside `routes`   |
/// | Mapbox      | OSRM's `code` with a `uuid` or written step `instruction`s   |
/// | OSRM        | `code` (`Ok`, `NoRoute`, …)                                  |
///
/// An answer saying there is no route becomes `DirectionsError.noRoute` with the engine's
/// own words. Every number and key is checked: a missing `distance`, a broken polyline or
/// more points than `maximumPointCount` is an error naming the key path, never a crash.
public struct DirectionsResponseParser: Sendable {
    /// Names the answer in errors: a file name or `Valhalla at http://…`.
    public var origin: String
    /// Whether the answer came from a router (its faults are then runtime failures) or a file.
    public var fromRouter: Bool
    /// Most points all routes of an answer may have together.
    public var maximumPointCount: Int
    /// Most steps one route may have.
    public static let maximumStepCount = 20_000
    /// Most routes (best + alternates) kept.
    public static let maximumRouteCount = 8
    /// Default for `maximumPointCount`: a continental drive has a few hundred thousand.
    public static let defaultMaximumPointCount = 1_000_000
    /// Largest answer read, in bytes (a saved file or a router's body).
    public static let maximumResponseBytes = 32 << 20

/// A parser whose errors name `origin` (the file or router); `fromRouter` makes a missing
/// route the router's fault rather than the file's.
    public init(origin: String, fromRouter: Bool = false, maximumPointCount: Int = DirectionsResponseParser.defaultMaximumPointCount) {
        self.origin = origin
        self.fromRouter = fromRouter
        self.maximumPointCount = maximumPointCount
    }

    /// Parses `bytes`, a whole answer.
    public func parse(_ bytes: [UInt8]) throws(DirectionsError) -> DirectionsResponse {
        guard bytes.count <= Self.maximumResponseBytes else {
            throw .tooLarge(origin: origin, what: "bytes", count: bytes.count, limit: Self.maximumResponseBytes, fromRouter: fromRouter)
        }
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes, origin: origin)
        } catch {
            throw .invalidResponse(origin: origin, keyPath: "", reason: "not JSON (\(error.reason))", fromRouter: fromRouter)
        }
        guard let object = root.objectValue else {
            throw invalid("", "expected a JSON object, found \(root.excerpt)")
        }
        let format = try Self.format(of: object, origin: origin, fromRouter: fromRouter)
        var reading = Reading(parser: self)
        let response: DirectionsResponse
        switch format {
        case .valhalla: response = try reading.valhalla(object)
        case .osrm, .mapbox: response = try reading.osrm(object, format: format)
        case .graphHopper: response = try reading.graphHopper(object)
        case .google: response = try reading.google(object)
        }
        guard !response.routes.isEmpty else { throw .noRoute(origin: origin, reason: "the answer has no routes") }
        return response
    }

    /// Which dialect `object` is written in.
    static func format(of object: JSONObject, origin: String, fromRouter: Bool) throws(DirectionsError) -> DirectionsFormat {
        if object["trip"] != nil || (object["error_code"] != nil && object["error"] != nil) { return .valhalla }
        if object["paths"] != nil || (object["message"] != nil && object["hints"] != nil) { return .graphHopper }
        if object["geocoded_waypoints"] != nil || (object["status"]?.stringValue != nil && object["code"] == nil) { return .google }
        if object["code"]?.stringValue != nil {
            if object["uuid"] != nil { return .mapbox }
            let steps = object["routes"]?.arrayValue?.first?.objectValue?["legs"]?.arrayValue?.first?.objectValue?["steps"]?.arrayValue
            if steps?.first?.objectValue?["maneuver"]?.objectValue?["instruction"] != nil { return .mapbox }
            return .osrm
        }
        let keys = object.keys.prefix(6).joined(separator: ", ")
        throw .invalidResponse(origin: origin, keyPath: "",
                               reason: "not an answer of Valhalla, OSRM, GraphHopper, Google or Mapbox Directions (keys: \(keys.isEmpty ? "none" : keys))",
                               fromRouter: fromRouter)
    }

    func invalid(_ keyPath: String, _ reason: String) -> DirectionsError {
        .invalidResponse(origin: origin, keyPath: keyPath, reason: reason, fromRouter: fromRouter)
    }
}

/// One parse's state: the points counted so far against the limit, and typed accessors that
/// name the key path of whatever is missing or wrong.
struct Reading {
    let parser: DirectionsResponseParser
    /// Points of the routes read so far.
    private(set) var pointCount = 0

    init(parser: DirectionsResponseParser) {
        self.parser = parser
    }

    func invalid(_ keyPath: String, _ reason: String) -> DirectionsError { parser.invalid(keyPath, reason) }

    func value(_ o: JSONObject, _ key: String, _ path: String) throws(DirectionsError) -> JSONValue {
        guard let v = o[key], v != .null else { throw invalid(join(path, key), "missing") }
        return v
    }

    func object(_ o: JSONObject, _ key: String, _ path: String) throws(DirectionsError) -> JSONObject {
        let v = try value(o, key, path)
        guard let x = v.objectValue else { throw invalid(join(path, key), "expected an object, found \(v.excerpt)") }
        return x
    }

    func array(_ o: JSONObject, _ key: String, _ path: String) throws(DirectionsError) -> [JSONValue] {
        let v = try value(o, key, path)
        guard let x = v.arrayValue else { throw invalid(join(path, key), "expected an array, found \(v.excerpt)") }
        return x
    }

    /// `o[key]` as an array of objects (an absent key is an empty array when `optional`).
    func objects(_ o: JSONObject, _ key: String, _ path: String, optional: Bool = false) throws(DirectionsError) -> [JSONObject] {
        if optional, o[key] == nil || o[key] == .null { return [] }
        var out: [JSONObject] = []
        for (i, v) in try array(o, key, path).enumerated() {
            guard let x = v.objectValue else { throw invalid("\(join(path, key))[\(i)]", "expected an object, found \(v.excerpt)") }
            out.append(x)
        }
        return out
    }

    func string(_ o: JSONObject, _ key: String, _ path: String) throws(DirectionsError) -> String {
        let v = try value(o, key, path)
        guard let x = v.stringValue else { throw invalid(join(path, key), "expected a string, found \(v.excerpt)") }
        return x
    }

    /// A finite, non-negative number (distances and times).
    func amount(_ o: JSONObject, _ key: String, _ path: String) throws(DirectionsError) -> Double {
        let v = try value(o, key, path)
        guard let x = v.numberValue, x.isFinite, x >= 0 else {
            throw invalid(join(path, key), "expected a number ≥ 0, found \(v.excerpt)")
        }
        return x
    }

    func optionalString(_ o: JSONObject, _ key: String) -> String? { o[key]?.stringValue }

    /// An encoded polyline at `precision`, counted against the point limit.
    mutating func polyline(_ text: String, precision: Int, _ path: String) throws(DirectionsError) -> [LatLng] {
        // Every point takes at least two bytes: refuse before decoding what cannot fit.
        let left = parser.maximumPointCount - pointCount
        if text.utf8.count / 24 > left {
            throw tooManyPoints(pointCount + text.utf8.count / 24)
        }
        let points: [LatLng]
        do {
            points = try EncodedPolyline.decode(text, precision: precision)
        } catch {
            throw invalid(path, "broken encoded polyline: \(error)")
        }
        try count(points.count)
        return points
    }

    /// `[[lon, lat], …]` (GeoJSON order), counted against the point limit.
    mutating func lonLatArray(_ items: [JSONValue], _ path: String) throws(DirectionsError) -> [LatLng] {
        try count(items.count)
        var out: [LatLng] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            out.append(try lonLat(item, "\(path)[\(i)]"))
        }
        return out
    }

    /// One `[lon, lat]` pair.
    func lonLat(_ item: JSONValue, _ path: String) throws(DirectionsError) -> LatLng {
        guard let pair = item.arrayValue, pair.count >= 2, let lon = pair[0].numberValue, let lat = pair[1].numberValue else {
            throw invalid(path, "expected [longitude, latitude], found \(item.excerpt)")
        }
        let p = LatLng(latitude: lat, longitude: lon)
        guard p.isValid else { throw invalid(path, "coordinate out of range: \(item.excerpt)") }
        return p
    }

    /// A `{"lat": …, "lng": …}` object (Google).
    func latLngObject(_ o: JSONObject, _ key: String, _ path: String) throws(DirectionsError) -> LatLng {
        let x = try object(o, key, path)
        let p = LatLng(latitude: try number(x, "lat", join(path, key)), longitude: try number(x, "lng", join(path, key)))
        guard p.isValid else { throw invalid(join(path, key), "coordinate out of range") }
        return p
    }

    func number(_ o: JSONObject, _ key: String, _ path: String) throws(DirectionsError) -> Double {
        let v = try value(o, key, path)
        guard let x = v.numberValue, x.isFinite else { throw invalid(join(path, key), "expected a number, found \(v.excerpt)") }
        return x
    }

    mutating func count(_ points: Int) throws(DirectionsError) {
        pointCount += points
        if pointCount > parser.maximumPointCount { throw tooManyPoints(pointCount) }
    }

    func tooManyPoints(_ count: Int) -> DirectionsError {
        .tooLarge(origin: parser.origin, what: "route points", count: count, limit: parser.maximumPointCount,
                  fromRouter: parser.fromRouter)
    }

    func checkStepCount(_ n: Int, _ path: String) throws(DirectionsError) {
        if n > DirectionsResponseParser.maximumStepCount {
            throw .tooLarge(origin: parser.origin, what: "steps in one route (\(path))", count: n,
                            limit: DirectionsResponseParser.maximumStepCount, fromRouter: parser.fromRouter)
        }
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Legs' lines joined into one: a leg starts where the last one ended, so that shared
    /// point is kept once.
    static func joined(_ legs: [[LatLng]]) -> [LatLng] {
        var out: [LatLng] = []
        for leg in legs {
            if let last = out.last, let first = leg.first, last == first { out.append(contentsOf: leg.dropFirst()) } else { out.append(contentsOf: leg) }
        }
        return out
    }
}
