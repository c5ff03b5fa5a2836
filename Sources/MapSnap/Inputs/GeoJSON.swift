import Foundation

/// A GeoJSON document (RFC 7946) turned into overlays.
///
/// Accepts a FeatureCollection, a Feature, a bare geometry or a GeometryCollection.
/// Point/MultiPoint → markers, LineString/MultiLineString → paths, Polygon/MultiPolygon →
/// polygons with holes. Positions are `[lon, lat]` or `[lon, lat, alt]` (altitude ignored).
/// A feature's simplestyle-spec properties style its overlays:
///
/// | Property          | Applies to        | Becomes                                   |
/// |-------------------|-------------------|-------------------------------------------|
/// | `stroke`          | lines, polygons   | path colour / polygon stroke colour       |
/// | `stroke-width`    | lines, polygons   | width in points                           |
/// | `stroke-opacity`  | lines, polygons   | multiplies the stroke alpha               |
/// | `fill`            | polygons          | fill colour                               |
/// | `fill-opacity`    | polygons          | multiplies the fill alpha                 |
/// | `marker-color`    | points            | pin colour                                |
/// | `marker-size`     | points            | small → small, medium → mid, large → normal |
/// | `marker-symbol`   | points            | label when 1–2 letters/digits             |
/// | `title`           | points            | marker title                              |
///
/// Absent properties keep mapsnap's overlay defaults (the same look as `--path`/`--marker`),
/// not simplestyle's grey, so routes from every input format look alike.
public struct GeoJSON: Sendable {
    /// Markers, paths and polygons in document order.
    public var overlays: [Overlay] = []
    /// Properties that were present but not usable (e.g. a maki icon name as marker-symbol).
    public var warnings: [String] = []

    /// Largest total number of positions in one document.
    public static let maximumPositionCount = 10_000_000
    /// Deepest GeometryCollection nesting accepted.
    public static let maximumNestingDepth = 16

    /// Parses JSON bytes. `source` names the document in errors (usually the file name).
    public init(data: Data, source: String) throws(GeoJSONError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw .invalidJSON(source: source, reason: Self.reason(error))
        }
        try self.init(object: object, source: source, keyPath: "")
    }

    /// Parses an already decoded JSON value (from `JSONSerialization`), e.g. GeoJSON inlined
    /// in a spec. `keyPath` prefixes every key path in errors.
    init(object: Any, source: String, keyPath: String) throws(GeoJSONError) {
        var parser = GeoJSONReader(source: source)
        try parser.parseObject(object, path: keyPath)
        overlays = parser.overlays
        warnings = parser.warnings
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let detail = ns.userInfo[NSDebugDescriptionErrorKey] as? String { return detail }
        return ns.localizedDescription
    }
}

/// Why a GeoJSON document was rejected; `keyPath` is like `features[2].geometry.coordinates[5]`.
public enum GeoJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidJSON(source: String, reason: String)
    /// A value has the wrong JSON type or shape; `expected` says what was wanted.
    case unexpected(source: String, keyPath: String, expected: String)
    case coordinateOutOfRange(source: String, keyPath: String, longitude: Double, latitude: Double)
    case unsupportedType(source: String, keyPath: String, type: String)
    case badProperty(source: String, keyPath: String, reason: String)
    case tooManyPositions(source: String, limit: Int)
    case tooDeep(source: String, keyPath: String)

    public var description: String {
        switch self {
        case let .invalidJSON(source, reason): return "\(source): invalid JSON: \(reason)"
        case let .unexpected(source, keyPath, expected): return "\(source): \(Self.show(keyPath)): expected \(expected)"
        case let .coordinateOutOfRange(source, keyPath, lon, lat):
            return "\(source): \(Self.show(keyPath)): [\(lon), \(lat)] is outside lon -180…180, lat -90…90"
        case let .unsupportedType(source, keyPath, type):
            return "\(source): \(Self.show(keyPath)): unsupported type \"\(type)\""
        case let .badProperty(source, keyPath, reason): return "\(source): \(Self.show(keyPath)): \(reason)"
        case let .tooManyPositions(source, limit): return "\(source): more than \(limit) positions"
        case let .tooDeep(source, keyPath): return "\(source): \(Self.show(keyPath)): geometry collections nested too deeply"
        }
    }

    private static func show(_ keyPath: String) -> String { keyPath.isEmpty ? "(root)" : keyPath }
}

/// Typed access to `JSONSerialization` output. Foundation bridges JSON booleans to NSNumber
/// on Linux, so booleans and numbers are told apart by their Objective-C type code.
enum InputJSON {
    static func number(_ value: Any) -> Double? {
        guard !isBool(value) else { return nil }
        if let n = value as? NSNumber { return n.doubleValue }
        if let d = value as? Double { return d }
        if let i = value as? Int { return Double(i) }
        return nil
    }

    static func bool(_ value: Any) -> Bool? {
        guard isBool(value) else { return nil }
        return (value as? NSNumber)?.boolValue ?? (value as? Bool)
    }

    /// JSON booleans arrive as NSNumber with type code "c" (char); JSON numbers never do.
    static func isBool(_ value: Any) -> Bool {
        guard let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    static func typeName(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if isBool(value) { return "a boolean" }
        if number(value) != nil { return "a number" }
        if value is String { return "a string" }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "an object" }
        return "an unknown value"
    }
}

private struct GeoJSONReader {
    let source: String
    var overlays: [Overlay] = []
    var warnings: [String] = []
    var positionCount = 0

    init(source: String) { self.source = source }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    mutating func parseObject(_ value: Any, path: String) throws(GeoJSONError) {
        let object = try dictionary(value, path: path, expected: "a GeoJSON object")
        let type = try string(object, "type", path: path)
        switch type {
        case "FeatureCollection":
            let featuresPath = join(path, "features")
            guard let features = object["features"] as? [Any] else {
                throw .unexpected(source: source, keyPath: featuresPath, expected: "an array of features")
            }
            for (i, feature) in features.enumerated() {
                try parseFeature(feature, path: "\(featuresPath)[\(i)]")
            }
        case "Feature":
            try parseFeature(value, path: path)
        default:
            try parseGeometry(object, path: path, style: SimpleStyle(), depth: 0)
        }
    }

    mutating func parseFeature(_ value: Any, path: String) throws(GeoJSONError) {
        let object = try dictionary(value, path: path, expected: "a Feature object")
        let type = try string(object, "type", path: path)
        guard type == "Feature" else {
            throw .unexpected(source: source, keyPath: join(path, "type"), expected: "\"Feature\", found \"\(type)\"")
        }
        var style = SimpleStyle()
        if let properties = object["properties"], !(properties is NSNull) {
            let propertiesPath = join(path, "properties")
            let dict = try dictionary(properties, path: propertiesPath, expected: "an object or null")
            style = try SimpleStyle(dict, path: propertiesPath, source: source, warnings: &warnings)
        }
        guard let geometry = object["geometry"], !(geometry is NSNull) else { return }
        let geometryPath = join(path, "geometry")
        let geometryObject = try dictionary(geometry, path: geometryPath, expected: "a geometry object or null")
        try parseGeometry(geometryObject, path: geometryPath, style: style, depth: 0)
    }

    mutating func parseGeometry(_ object: [String: Any], path: String, style: SimpleStyle, depth: Int) throws(GeoJSONError) {
        let type = try string(object, "type", path: path)
        if type == "GeometryCollection" {
            guard depth < GeoJSON.maximumNestingDepth else { throw .tooDeep(source: source, keyPath: path) }
            let geometriesPath = join(path, "geometries")
            guard let geometries = object["geometries"] as? [Any] else {
                throw .unexpected(source: source, keyPath: geometriesPath, expected: "an array of geometries")
            }
            for (i, g) in geometries.enumerated() {
                let p = "\(geometriesPath)[\(i)]"
                try parseGeometry(try dictionary(g, path: p, expected: "a geometry object"), path: p, style: style, depth: depth + 1)
            }
            return
        }
        let cPath = join(path, "coordinates")
        guard let coordinates = object["coordinates"] else {
            if ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"].contains(type) {
                throw .unexpected(source: source, keyPath: cPath, expected: "a coordinates array")
            }
            throw .unsupportedType(source: source, keyPath: join(path, "type"), type: type)
        }
        switch type {
        case "Point":
            overlays.append(.marker(style.marker(at: try position(coordinates, path: cPath))))
        case "MultiPoint":
            for p in try positions(coordinates, path: cPath, minimum: 0) { overlays.append(.marker(style.marker(at: p))) }
        case "LineString":
            let line = try positions(coordinates, path: cPath, minimum: 2)
            if !line.isEmpty { overlays.append(.path(style.path(line))) }
        case "MultiLineString":
            for (i, item) in try array(coordinates, path: cPath, expected: "an array of LineString coordinates").enumerated() {
                let line = try positions(item, path: "\(cPath)[\(i)]", minimum: 2)
                if !line.isEmpty { overlays.append(.path(style.path(line))) }
            }
        case "Polygon":
            let rings = try polygonRings(coordinates, path: cPath)
            if !rings.isEmpty { overlays.append(.polygon(style.polygon(rings))) }
        case "MultiPolygon":
            for (i, item) in try array(coordinates, path: cPath, expected: "an array of Polygon coordinates").enumerated() {
                let rings = try polygonRings(item, path: "\(cPath)[\(i)]")
                if !rings.isEmpty { overlays.append(.polygon(style.polygon(rings))) }
            }
        default:
            throw .unsupportedType(source: source, keyPath: join(path, "type"), type: type)
        }
    }

    mutating func polygonRings(_ value: Any, path: String) throws(GeoJSONError) -> [[LatLng]] {
        var rings: [[LatLng]] = []
        for (i, ring) in try array(value, path: path, expected: "an array of linear rings").enumerated() {
            let points = try positions(ring, path: "\(path)[\(i)]", minimum: 4)
            // An empty outer ring is an empty polygon; an empty hole is dropped.
            if points.isEmpty {
                if i == 0 { return [] }
                continue
            }
            rings.append(points)
        }
        return rings
    }

    /// An array of positions; an empty array is allowed (empty geometry), otherwise at least
    /// `minimum` positions.
    mutating func positions(_ value: Any, path: String, minimum: Int) throws(GeoJSONError) -> [LatLng] {
        let items = try array(value, path: path, expected: "an array of [lon, lat] positions")
        guard items.isEmpty || items.count >= minimum else {
            throw .unexpected(source: source, keyPath: path, expected: "at least \(minimum) positions, found \(items.count)")
        }
        guard positionCount + items.count <= GeoJSON.maximumPositionCount else {
            throw .tooManyPositions(source: source, limit: GeoJSON.maximumPositionCount)
        }
        var result: [LatLng] = []
        result.reserveCapacity(items.count)
        for (i, item) in items.enumerated() { result.append(try position(item, path: "\(path)[\(i)]")) }
        return result
    }

    mutating func position(_ value: Any, path: String) throws(GeoJSONError) -> LatLng {
        guard let items = value as? [Any], items.count >= 2, items.count <= 4,
              let lon = InputJSON.number(items[0]), let lat = InputJSON.number(items[1]) else {
            throw .unexpected(source: source, keyPath: path, expected: "[lon, lat] numbers")
        }
        let coordinate = LatLng(latitude: lat, longitude: lon)
        guard coordinate.isValid else { throw .coordinateOutOfRange(source: source, keyPath: path, longitude: lon, latitude: lat) }
        positionCount += 1
        return coordinate
    }

    func dictionary(_ value: Any, path: String, expected: String) throws(GeoJSONError) -> [String: Any] {
        guard let d = value as? [String: Any] else {
            throw .unexpected(source: source, keyPath: path, expected: "\(expected), found \(InputJSON.typeName(value))")
        }
        return d
    }

    func array(_ value: Any, path: String, expected: String) throws(GeoJSONError) -> [Any] {
        guard let a = value as? [Any] else {
            throw .unexpected(source: source, keyPath: path, expected: "\(expected), found \(InputJSON.typeName(value))")
        }
        return a
    }

    func string(_ object: [String: Any], _ key: String, path: String) throws(GeoJSONError) -> String {
        guard let s = object[key] as? String else {
            throw .unexpected(source: source, keyPath: join(path, key), expected: "a string")
        }
        return s
    }
}

/// simplestyle-spec properties of one feature, resolved to model values.
private struct SimpleStyle {
    var stroke: Color?
    var strokeWidth: Double?
    var strokeOpacity: Double?
    var fill: Color?
    var fillOpacity: Double?
    var markerColor: Color?
    var markerSize: MarkerOverlay.PinSize?
    var label: String?
    var title: String?

    init() {}

    init(_ properties: [String: Any], path: String, source: String, warnings: inout [String]) throws(GeoJSONError) {
        func key(_ k: String) -> String { "\(path).\(k)" }
        func color(_ k: String) throws(GeoJSONError) -> Color? {
            guard let raw = properties[k] else { return nil }
            guard let text = raw as? String else { throw .badProperty(source: source, keyPath: key(k), reason: "expected a colour string") }
            do { return try ColorSyntax.parse(text) } catch {
                throw .badProperty(source: source, keyPath: key(k), reason: error.description)
            }
        }
        func number(_ k: String, _ range: ClosedRange<Double>) throws(GeoJSONError) -> Double? {
            guard let raw = properties[k] else { return nil }
            // simplestyle files in the wild sometimes quote numbers.
            let value = InputJSON.number(raw) ?? (raw as? String).flatMap { Double($0) }
            guard let value, value.isFinite, range.contains(value) else {
                throw .badProperty(source: source, keyPath: key(k), reason: "expected a number in \(range.lowerBound)…\(range.upperBound)")
            }
            return value
        }
        stroke = try color("stroke")
        strokeWidth = try number("stroke-width", 0...200)
        strokeOpacity = try number("stroke-opacity", 0...1)
        fill = try color("fill")
        fillOpacity = try number("fill-opacity", 0...1)
        markerColor = try color("marker-color")
        if let raw = properties["marker-size"] {
            switch raw as? String {
            case "small": markerSize = .small
            case "medium": markerSize = .mid
            case "large": markerSize = .normal
            default: throw .badProperty(source: source, keyPath: key("marker-size"), reason: "expected small, medium or large")
            }
        }
        if let raw = properties["marker-symbol"] {
            // Maki icon names ("rail", "cafe") have no drawing here; letters and digits do.
            let text = (raw as? String) ?? InputJSON.number(raw).map { StaticMapsSyntax.format($0) } ?? ""
            if !text.isEmpty, text.count <= 2, text.allSatisfy({ $0.isLetter || $0.isNumber }) {
                label = text
            } else if !text.isEmpty {
                warnings.append("\(source): \(key("marker-symbol")): icon \"\(text)\" is not supported; only letters and digits are drawn")
            }
        }
        if let raw = properties["title"] {
            guard let text = raw as? String else { throw .badProperty(source: source, keyPath: key("title"), reason: "expected a string") }
            title = String(text.prefix(StaticMapsSyntax.maximumTitleLength))
        }
    }

    func marker(at coordinate: LatLng) -> MarkerOverlay {
        var m = MarkerOverlay(coordinate: coordinate, label: label, title: title)
        if let markerSize { m.style = .pin(markerSize) }
        if let markerColor { m.color = markerColor }
        return m
    }

    func path(_ coordinates: [LatLng]) -> PathOverlay {
        var p = PathOverlay(coordinates: coordinates)
        if let stroke { p.color = stroke }
        if let strokeOpacity { p.color = p.color.withOpacity(strokeOpacity) }
        if let strokeWidth { p.width = strokeWidth }
        return p
    }

    func polygon(_ rings: [[LatLng]]) -> PolygonOverlay {
        var p = PolygonOverlay(rings: rings)
        if let stroke { p.strokeColor = stroke }
        if let strokeOpacity { p.strokeColor = p.strokeColor?.withOpacity(strokeOpacity) }
        if let strokeWidth { p.strokeWidth = strokeWidth }
        // simplestyle's default fill-opacity is 0.6: an opaque fill would hide the map.
        if let fill { p.fillColor = fill.withOpacity(fillOpacity ?? 0.6) } else if let fillOpacity { p.fillColor = p.fillColor?.withOpacity(fillOpacity) }
        return p
    }
}
