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
///
/// The document is read in one streaming pass (`JSONReader`): coordinates go from bytes to
/// `[LatLng]` with no JSON tree in between, so memory is the file plus 16 bytes a position.
/// The members GeoJSON gives meaning to (`type`, `coordinates`, `geometry`, `geometries`,
/// `features`, `properties`) must appear once per object; other keys are skipped. Problems
/// are reported in document order, each with its key path.
public struct GeoJSON: Sendable {
    /// Markers, paths and polygons in document order.
    public var overlays: [Overlay] = []
    /// Properties that were present but not usable (e.g. a maki icon name as marker-symbol).
    public var warnings: [String] = []

    /// Largest total number of positions in one document.
    public static let maximumPositionCount = 10_000_000
    /// Largest number of markers (Point and MultiPoint positions) in one document: each is
    /// drawn with its own pin and label, so a million of them is a mistake, not a map.
    public static let maximumMarkerCount = 100_000
    /// Deepest GeometryCollection nesting accepted.
    public static let maximumNestingDepth = 16
    /// Deepest JSON nesting accepted (properties included).
    static let maximumJSONDepth = 128

    /// Parses JSON bytes. `source` names the document in errors (usually the file name).
    public init(data: Data, source: String) throws(GeoJSONError) {
        try self.init(bytes: [UInt8](data), source: source)
    }

    /// Parses JSON bytes; see `init(data:source:)`.
    public init(bytes: [UInt8], source: String) throws(GeoJSONError) {
        let json: JSONReader
        do {
            json = try JSONReader(bytes: bytes, source: source, maximumDepth: Self.maximumJSONDepth)
        } catch {
            throw .invalidJSON(error)
        }
        var reader = GeoJSONReader(json: json, source: source)
        try reader.readDocument()
        try reader.finish()
        overlays = reader.overlays
        warnings = reader.warnings
    }

    /// Reads the GeoJSON object at `json`'s position (GeoJSON inlined in a spec), leaving
    /// `json` after it; key paths in errors continue `json`'s (`geojson.features[2]…`).
    init(reading json: inout JSONReader, source: String) throws(GeoJSONError) {
        var reader = GeoJSONReader(json: json, source: source)
        try reader.readDocument()
        overlays = reader.overlays
        warnings = reader.warnings
        json = reader.json
    }
}

/// Why a GeoJSON document was rejected; `keyPath` is like `features[2].geometry.coordinates[5]`.
public enum GeoJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON; the error names the byte offset, line, column and key path.
    case invalidJSON(JSONError)
    /// A value has the wrong JSON type or shape; `expected` says what was wanted.
    case unexpected(source: String, keyPath: String, expected: String)
    case coordinateOutOfRange(source: String, keyPath: String, longitude: Double, latitude: Double)
    case unsupportedType(source: String, keyPath: String, type: String)
    case badProperty(source: String, keyPath: String, reason: String)
    case tooManyPositions(source: String, limit: Int)
    /// More than `GeoJSON.maximumMarkerCount` markers; `keyPath` is the first one too many.
    case tooManyMarkers(source: String, keyPath: String, limit: Int)
    case tooDeep(source: String, keyPath: String)
    /// A member GeoJSON gives meaning to (`type`, `coordinates`, `geometry`, …) appears twice
    /// in one object; which one was meant cannot be known.
    case duplicateKey(source: String, keyPath: String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case let .invalidJSON(error): return error.description
        case let .unexpected(source, keyPath, expected): return "\(source): \(Self.show(keyPath)): expected \(expected)"
        case let .coordinateOutOfRange(source, keyPath, lon, lat):
            return "\(source): \(Self.show(keyPath)): [\(lon), \(lat)] is outside lat -90…90, lon -540…540"
        case let .unsupportedType(source, keyPath, type):
            return "\(source): \(Self.show(keyPath)): unsupported type \"\(type)\""
        case let .badProperty(source, keyPath, reason): return "\(source): \(Self.show(keyPath)): \(reason)"
        case let .tooManyPositions(source, limit): return "\(source): more than \(limit) positions"
        case let .tooManyMarkers(source, keyPath, limit):
            return "\(source): \(Self.show(keyPath)): more than \(limit) markers (points)"
        case let .tooDeep(source, keyPath): return "\(source): \(Self.show(keyPath)): geometry collections nested too deeply"
        case let .duplicateKey(source, keyPath): return "\(source): \(Self.show(keyPath)): the key appears twice in one object"
        }
    }

    private static func show(_ keyPath: String) -> String { keyPath.isEmpty ? "(root)" : keyPath }
}

/// One drawable part of a geometry, before a feature's style turns it into an overlay (a
/// Feature's `properties` may come after its `geometry`).
private enum Shape {
    case point(LatLng)
    case line([LatLng])
    case polygon([[LatLng]])
}

/// A `coordinates` array read before its geometry's type was known, by its nesting alone.
private enum CoordinateTree {
    case position(LatLng)
    case positions([LatLng])
    case lines([[LatLng]])
    case polygons([[[LatLng]]])
}

/// Reads GeoJSON from a `JSONReader` in one pass, straight into shapes and overlays: no tree,
/// and coordinates go from bytes to `[LatLng]` directly.
///
/// GeoJSON objects may list their members in any order, but what a member means depends on
/// the object's `type`. Members that follow `type` are read as they stream past. Members met
/// before it (files written with sorted keys put `type` last at every level) are read at once
/// on the guess their key implies — `geometry` and `properties` belong to a Feature,
/// `coordinates` has the shape its nesting shows — and kept or dropped once the type is
/// known. When a guess fails (a malformed member, an unusual shape), the member is marked,
/// skipped and read again by the type's own rules, so messages and their order are the same
/// as if `type` had come first.
private struct GeoJSONReader {
    var json: JSONReader
    let source: String
    var overlays: [Overlay] = []
    var warnings: [String] = []
    var positionCount = 0
    var markerCount = 0

    init(json: JSONReader, source: String) {
        self.json = json
        self.source = source
    }

    /// What an object may be where it is found.
    private enum Role {
        case root, feature, geometry
    }

    /// The members GeoJSON gives meaning to; each may appear once per object.
    private static let structuralKeys = ["type", "features", "geometry", "properties", "coordinates", "geometries"]
    private static let geometryTypes: Set<String> = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"]

    /// Whether an object of `type` reads its member `key`.
    private static func uses(_ type: String, _ key: String) -> Bool {
        switch key {
        case "features": return type == "FeatureCollection"
        case "geometry", "properties": return type == "Feature"
        case "geometries": return type == "GeometryCollection"
        case "coordinates": return geometryTypes.contains(type)
        default: return false
        }
    }

    /// Whether an object found in `role` can be of a type that reads `key`.
    private static func mayUse(_ role: Role, _ key: String) -> Bool {
        switch role {
        case .root: return true
        case .feature: return key == "geometry" || key == "properties"
        case .geometry: return key == "coordinates" || key == "geometries"
        }
    }

    mutating func readDocument() throws(GeoJSONError) {
        let kind = try peek()
        guard kind == .object else {
            throw .unexpected(source: source, keyPath: json.keyPath, expected: "a GeoJSON object, found \(kind.withArticle)")
        }
        var shapes: [Shape] = []
        try readObject(role: .root, depth: 0, shapes: &shapes)
        emit(shapes, style: SimpleStyle())
    }

    mutating func finish() throws(GeoJSONError) {
        do { try json.finish() } catch { throw .invalidJSON(error) }
    }

    /// What one object has read so far.
    private struct Parts {
        /// A geometry's shapes, or a GeometryCollection's members'.
        var shapes: [Shape] = []
        /// A Feature's geometry, drawn with its style when the Feature ends.
        var featureShapes: [Shape] = []
        var style = SimpleStyle()
    }

    /// Reads the object at the reader: a FeatureCollection's features and a Feature's
    /// geometry become overlays as they complete; a bare geometry's shapes go to `shapes`.
    private mutating func readObject(role: Role, depth: Int, shapes: inout [Shape]) throws(GeoJSONError) {
        try beginObject()
        var type: String?
        var seen = Set<String>()
        var early: [EarlyMember] = []
        var parts = Parts()
        while let key = try nextKey() {
            guard Self.structuralKeys.contains(key) else {
                try skipValue()
                continue
            }
            guard seen.insert(key).inserted else { throw .duplicateKey(source: source, keyPath: json.keyPath) }
            if key == "type" {
                let name = try readType()
                try check(type: name, role: role, depth: depth)
                type = name
            } else if let type {
                try readMember(key, type: type, depth: depth, into: &parts)
            } else if Self.mayUse(role, key) {
                early.append(try readEarly(key, depth: depth))
            } else {
                try skipValue()
            }
        }
        // The object has ended: the reader's key path is the object's own.
        guard let type else { throw .unexpected(source: source, keyPath: json.keyPath(appending: "type"), expected: "a string") }
        for member in early { try settle(member, type: type, depth: depth, into: &parts) }
        switch type {
        case "FeatureCollection":
            guard seen.contains("features") else {
                throw .unexpected(source: source, keyPath: json.keyPath(appending: "features"), expected: "an array of features")
            }
        case "Feature":
            emit(parts.featureShapes, style: parts.style)
        case "GeometryCollection":
            guard seen.contains("geometries") else {
                throw .unexpected(source: source, keyPath: json.keyPath(appending: "geometries"), expected: "an array of geometries")
            }
        default:
            guard seen.contains("coordinates") else {
                throw .unexpected(source: source, keyPath: json.keyPath(appending: "coordinates"), expected: "a coordinates array")
            }
        }
        shapes += parts.shapes
    }

    private mutating func readType() throws(GeoJSONError) -> String {
        guard try peek() == .string else { throw .unexpected(source: source, keyPath: json.keyPath, expected: "a string") }
        return try readString()
    }

    /// Rejects a type that cannot stand where the object is, as soon as it is read.
    private func check(type: String, role: Role, depth: Int) throws(GeoJSONError) {
        switch (role, type) {
        case (.feature, "Feature"), (.root, "Feature"), (.root, "FeatureCollection"):
            return
        case (.feature, _):
            throw .unexpected(source: source, keyPath: json.keyPath, expected: "\"Feature\", found \"\(type)\"")
        case (_, "GeometryCollection"):
            // The reader is inside the collection, at its "type": one level up names it.
            guard depth < GeoJSON.maximumNestingDepth else {
                throw .tooDeep(source: source, keyPath: json.keyPath(depth: json.depth - 1))
            }
        case (_, let name) where Self.geometryTypes.contains(name):
            return
        default:
            throw .unsupportedType(source: source, keyPath: json.keyPath, type: type)
        }
    }

    /// Reads one structural member of an object whose type is known; members the type does
    /// not use are skipped.
    private mutating func readMember(_ key: String, type: String, depth: Int, into parts: inout Parts) throws(GeoJSONError) {
        guard Self.uses(type, key) else {
            try skipValue()
            return
        }
        switch key {
        case "features": try readFeatures()
        case "properties":
            let (style, found) = try readProperties()
            parts.style = style
            warnings += found
        case "geometry": try readGeometry(into: &parts.featureShapes)
        case "geometries": try readGeometries(depth: depth, into: &parts.shapes)
        default: try readCoordinates(type: type, into: &parts.shapes)
        }
    }

    // MARK: Members before the type

    /// A member read before its object's type, on the guess its key implies.
    private struct EarlyMember {
        enum Outcome {
            /// The guess failed: read it again, by the type's rules, once the type is known.
            case unread
            case overlays([Overlay], warnings: [String])
            case style(SimpleStyle, warnings: [String])
            case shapes([Shape])
            case coordinates(CoordinateTree)
        }
        var key: String
        var mark: JSONReader.Mark
        /// Positions it counted, returned if the type does not use it.
        var positions: Int
        var markers: Int
        var outcome: Outcome
    }

    private mutating func readEarly(_ key: String, depth: Int) throws(GeoJSONError) -> EarlyMember {
        let mark = json.mark
        let start = (overlays: overlays.count, warnings: warnings.count, positions: positionCount, markers: markerCount)
        var outcome: EarlyMember.Outcome?
        do {
            switch key {
            case "features":
                try readFeatures()
                outcome = .overlays(Array(overlays[start.overlays...]), warnings: Array(warnings[start.warnings...]))
            case "properties":
                let (style, found) = try readProperties()
                outcome = .style(style, warnings: found)
            case "geometry":
                var shapes: [Shape] = []
                try readGeometry(into: &shapes)
                outcome = .shapes(shapes)
            case "geometries":
                var shapes: [Shape] = []
                try readGeometries(depth: depth, into: &shapes)
                outcome = .shapes(shapes)
            default:
                outcome = try readCoordinateTree().map { .coordinates($0) }
            }
        } catch {
            outcome = nil
        }
        // Overlays and warnings wait in the outcome until the type says whether they count.
        overlays.removeSubrange(start.overlays...)
        warnings.removeSubrange(start.warnings...)
        guard let outcome else {
            positionCount = start.positions
            markerCount = start.markers
            json.seek(to: mark)
            try skipValue()
            return EarlyMember(key: key, mark: mark, positions: 0, markers: 0, outcome: .unread)
        }
        return EarlyMember(key: key, mark: mark, positions: positionCount - start.positions,
                           markers: markerCount - start.markers, outcome: outcome)
    }

    /// Keeps what an early member read if the type uses it, else drops it; reads it again
    /// when the guess failed.
    private mutating func settle(_ member: EarlyMember, type: String, depth: Int, into parts: inout Parts) throws(GeoJSONError) {
        guard Self.uses(type, member.key) else {
            positionCount -= member.positions
            markerCount -= member.markers
            return
        }
        switch member.outcome {
        case .unread:
            try reread(member, type: type, depth: depth, into: &parts)
        case let .overlays(drawn, found):
            overlays += drawn
            warnings += found
        case let .style(style, found):
            parts.style = style
            warnings += found
        case .shapes(let shapes):
            if member.key == "geometry" { parts.featureShapes += shapes } else { parts.shapes += shapes }
        case .coordinates(let tree):
            if let shapes = interpret(tree, type: type) {
                parts.shapes += shapes
            } else {
                positionCount -= member.positions
                try reread(member, type: type, depth: depth, into: &parts)
            }
        }
    }

    private mutating func reread(_ member: EarlyMember, type: String, depth: Int, into parts: inout Parts) throws(GeoJSONError) {
        let after = json.mark
        json.seek(to: member.mark)
        try readMember(member.key, type: type, depth: depth, into: &parts)
        json.seek(to: after)
    }

    /// `coordinates` read by nesting alone: the shape the brackets show, or nil for an empty
    /// inner array or anything irregular (then the type's own rules read it).
    private mutating func readCoordinateTree() throws(GeoJSONError) -> CoordinateTree? {
        let nesting = json.arrayNesting()
        if nesting.depth == 1 && nesting.innermostEmpty {
            try skipValue()
            return .positions([])
        }
        guard !nesting.innermostEmpty else { return nil }
        switch nesting.depth {
        case 1:
            return .position(try position())
        case 2:
            return .positions(try positions(minimum: 0))
        case 3:
            var lines: [[LatLng]] = []
            try readArray(expected: "an array") { (reader: inout GeoJSONReader) throws(GeoJSONError) in
                lines.append(try reader.positions(minimum: 0))
            }
            return .lines(lines)
        case 4:
            var polygons: [[[LatLng]]] = []
            try readArray(expected: "an array") { (reader: inout GeoJSONReader) throws(GeoJSONError) in
                var rings: [[LatLng]] = []
                try reader.readArray(expected: "an array") { (inner: inout GeoJSONReader) throws(GeoJSONError) in
                    rings.append(try inner.positions(minimum: 0))
                }
                polygons.append(rings)
            }
            return .polygons(polygons)
        default:
            return nil
        }
    }

    /// The shapes of `type` from coordinates read early, when they fit its rules as they are;
    /// nil sends them back to be read by the rules (which report what is wrong).
    private mutating func interpret(_ tree: CoordinateTree, type: String) -> [Shape]? {
        switch (type, tree) {
        case ("Point", .position(let p)):
            guard markerCount < GeoJSON.maximumMarkerCount else { return nil }
            markerCount += 1
            return [.point(p)]
        case ("MultiPoint", .positions(let points)):
            guard markerCount + points.count <= GeoJSON.maximumMarkerCount else { return nil }
            markerCount += points.count
            return points.map(Shape.point)
        case ("LineString", .positions(let line)) where line.isEmpty || line.count >= 2:
            return line.isEmpty ? [] : [.line(line)]
        case ("MultiLineString", .lines(let lines)) where lines.allSatisfy({ $0.count >= 2 }):
            return lines.map(Shape.line)
        case ("Polygon", .lines(let rings)) where rings.allSatisfy({ $0.count >= 4 }):
            return rings.isEmpty ? [] : [.polygon(rings)]
        case ("MultiPolygon", .polygons(let polygons)) where polygons.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.count >= 4 } }):
            return polygons.map(Shape.polygon)
        case ("MultiLineString", .positions(let none)), ("Polygon", .positions(let none)), ("MultiPolygon", .positions(let none)):
            return none.isEmpty ? [] : nil
        default:
            return nil
        }
    }

    // MARK: Members

    private mutating func readFeatures() throws(GeoJSONError) {
        guard try peek() == .array else {
            throw .unexpected(source: source, keyPath: json.keyPath, expected: "an array of features")
        }
        try beginArray()
        while try nextElement() {
            let kind = try peek()
            guard kind == .object else {
                throw .unexpected(source: source, keyPath: json.keyPath, expected: "a Feature object, found \(kind.withArticle)")
            }
            var unused: [Shape] = []
            try readObject(role: .feature, depth: 0, shapes: &unused)
        }
    }

    /// A Feature's style and the warnings its properties gave.
    private mutating func readProperties() throws(GeoJSONError) -> (SimpleStyle, [String]) {
        let kind = try peek()
        if kind == .null {
            try skipValue()
            return (SimpleStyle(), [])
        }
        guard kind == .object else {
            throw .unexpected(source: source, keyPath: json.keyPath, expected: "an object or null, found \(kind.withArticle)")
        }
        let properties = try readValue().objectValue ?? JSONObject()
        // The reader still stands at the "properties" member; its path is built only if a
        // message needs it.
        let here = json
        var found: [String] = []
        let style = try SimpleStyle(properties, source: source, warnings: &found) { here.keyPath }
        return (style, found)
    }

    private mutating func readGeometry(into shapes: inout [Shape]) throws(GeoJSONError) {
        let kind = try peek()
        if kind == .null {
            try skipValue()
            return
        }
        guard kind == .object else {
            throw .unexpected(source: source, keyPath: json.keyPath, expected: "a geometry object or null, found \(kind.withArticle)")
        }
        try readObject(role: .geometry, depth: 0, shapes: &shapes)
    }

    private mutating func readGeometries(depth: Int, into shapes: inout [Shape]) throws(GeoJSONError) {
        let kind = try peek()
        guard kind == .array else {
            throw .unexpected(source: source, keyPath: json.keyPath, expected: "an array of geometries, found \(kind.withArticle)")
        }
        try beginArray()
        while try nextElement() {
            let element = try peek()
            guard element == .object else {
                throw .unexpected(source: source, keyPath: json.keyPath, expected: "a geometry object, found \(element.withArticle)")
            }
            try readObject(role: .geometry, depth: depth + 1, shapes: &shapes)
        }
    }

    /// Turns finished shapes into overlays with a feature's style.
    private mutating func emit(_ shapes: [Shape], style: SimpleStyle) {
        for shape in shapes {
            switch shape {
            case .point(let p): overlays.append(.marker(style.marker(at: p)))
            case .line(let line): overlays.append(.path(style.path(line)))
            case .polygon(let rings): overlays.append(.polygon(style.polygon(rings)))
            }
        }
    }

    // MARK: Coordinates

    private mutating func readCoordinates(type: String, into shapes: inout [Shape]) throws(GeoJSONError) {
        switch type {
        case "Point":
            try countMarker()
            shapes.append(.point(try position()))
        case "MultiPoint":
            try readArray(expected: "an array of [lon, lat] positions") { (reader: inout GeoJSONReader) throws(GeoJSONError) in
                try reader.countMarker()
                shapes.append(.point(try reader.position()))
            }
        case "LineString":
            let line = try positions(minimum: 2)
            if !line.isEmpty { shapes.append(.line(line)) }
        case "MultiLineString":
            try readArray(expected: "an array of LineString coordinates") { (reader: inout GeoJSONReader) throws(GeoJSONError) in
                let line = try reader.positions(minimum: 2)
                if !line.isEmpty { shapes.append(.line(line)) }
            }
        case "Polygon":
            let rings = try polygonRings()
            if !rings.isEmpty { shapes.append(.polygon(rings)) }
        default:  // MultiPolygon
            try readArray(expected: "an array of Polygon coordinates") { (reader: inout GeoJSONReader) throws(GeoJSONError) in
                let rings = try reader.polygonRings()
                if !rings.isEmpty { shapes.append(.polygon(rings)) }
            }
        }
    }

    /// Calls `element` at each element of the array at the reader.
    private mutating func readArray(expected: String,
                                    _ element: (inout GeoJSONReader) throws(GeoJSONError) -> Void) throws(GeoJSONError) {
        let kind = try peek()
        guard kind == .array else {
            throw .unexpected(source: source, keyPath: json.keyPath, expected: "\(expected), found \(kind.withArticle)")
        }
        try beginArray()
        while try nextElement() { try element(&self) }
    }

    private mutating func countMarker() throws(GeoJSONError) {
        guard markerCount < GeoJSON.maximumMarkerCount else {
            throw .tooManyMarkers(source: source, keyPath: json.keyPath, limit: GeoJSON.maximumMarkerCount)
        }
        markerCount += 1
    }

    private mutating func polygonRings() throws(GeoJSONError) -> [[LatLng]] {
        var rings: [[LatLng]] = []
        var empty = false
        try readArray(expected: "an array of linear rings") { (reader: inout GeoJSONReader) throws(GeoJSONError) in
            // An empty outer ring is an empty polygon (the other rings are only checked as
            // JSON); an empty hole is dropped.
            if empty {
                try reader.skipValue()
                return
            }
            let points = try reader.positions(minimum: 4)
            if points.isEmpty {
                if rings.isEmpty { empty = true }
                return
            }
            rings.append(points)
        }
        return empty ? [] : rings
    }

    /// An array of positions; an empty array is allowed (empty geometry), otherwise at least
    /// `minimum` positions.
    private mutating func positions(minimum: Int) throws(GeoJSONError) -> [LatLng] {
        let kind = try peek()
        guard kind == .array else {
            throw .unexpected(source: source, keyPath: json.keyPath, expected: "an array of [lon, lat] positions, found \(kind.withArticle)")
        }
        try beginArray()
        var result: [LatLng] = []
        var count = positionCount
        let limit = GeoJSON.maximumPositionCount
        while true {
            // Plain `[lon, lat]` pairs in bulk; anything else (and any error) one at a time.
            let closed = json.readNumberPairElements { lon, lat in
                let coordinate = LatLng(latitude: lat, longitude: lon)
                guard count < limit, coordinate.isValidVertex else { return false }
                count += 1
                result.append(coordinate)
                return true
            }
            positionCount = count
            guard !closed, try nextElement() else { break }
            result.append(try position())
            count = positionCount
        }
        // The array has ended: the key path is the array's own.
        guard result.isEmpty || result.count >= minimum else {
            throw .unexpected(source: source, keyPath: json.keyPath, expected: "at least \(minimum) positions, found \(result.count)")
        }
        return result
    }

    /// `[lon, lat]`, `[lon, lat, alt]` or `[lon, lat, alt, m]`; only lon and lat are read.
    private mutating func position() throws(GeoJSONError) -> LatLng {
        guard positionCount < GeoJSON.maximumPositionCount else {
            throw .tooManyPositions(source: source, limit: GeoJSON.maximumPositionCount)
        }
        // Almost every position is a plain `[lon, lat]`: read it in one step.
        let lon: Double, lat: Double
        if let pair = json.readNumberPair() {
            (lon, lat) = pair
        } else {
            (lon, lat) = try longPosition()
        }
        let coordinate = LatLng(latitude: lat, longitude: lon)
        guard coordinate.isValidVertex else {
            throw .coordinateOutOfRange(source: source, keyPath: json.keyPath, longitude: lon, latitude: lat)
        }
        positionCount += 1
        return coordinate
    }

    /// A position with altitude (or anything malformed, which this reports).
    private mutating func longPosition() throws(GeoJSONError) -> (Double, Double) {
        guard try peek() == .array else { throw badPosition(inside: false) }
        try beginArray()
        var values = (0.0, 0.0)
        var count = 0
        while try nextElement() {
            count += 1
            if count <= 2 {
                guard try peek() == .number else { throw badPosition(inside: true) }
                let value = try readNumber()
                if count == 1 { values.0 = value } else { values.1 = value }
            } else {
                guard count <= 4 else { throw badPosition(inside: true) }
                try skipValue()
            }
        }
        guard count >= 2 else { throw badPosition(inside: false) }
        return values
    }

    /// "expected [lon, lat] numbers" at the position (from inside it, one level up).
    private func badPosition(inside: Bool) -> GeoJSONError {
        .unexpected(source: source, keyPath: inside ? json.keyPath(depth: json.depth - 1) : json.keyPath, expected: "[lon, lat] numbers")
    }

    // MARK: JSON, with its errors as GeoJSON errors

    private mutating func peek() throws(GeoJSONError) -> JSONReader.Kind {
        do { return try json.peek() } catch { throw .invalidJSON(error) }
    }

    private mutating func beginObject() throws(GeoJSONError) {
        do { try json.beginObject() } catch { throw .invalidJSON(error) }
    }

    private mutating func beginArray() throws(GeoJSONError) {
        do { try json.beginArray() } catch { throw .invalidJSON(error) }
    }

    private mutating func nextKey() throws(GeoJSONError) -> String? {
        do { return try json.nextKey() } catch { throw .invalidJSON(error) }
    }

    private mutating func nextElement() throws(GeoJSONError) -> Bool {
        do { return try json.nextElement() } catch { throw .invalidJSON(error) }
    }

    private mutating func readString() throws(GeoJSONError) -> String {
        do { return try json.readString() } catch { throw .invalidJSON(error) }
    }

    private mutating func readNumber() throws(GeoJSONError) -> Double {
        do { return try json.readNumber() } catch { throw .invalidJSON(error) }
    }

    private mutating func readValue() throws(GeoJSONError) -> JSONValue {
        do { return try json.readValue() } catch { throw .invalidJSON(error) }
    }

    private mutating func skipValue() throws(GeoJSONError) {
        do { try json.skipValue() } catch { throw .invalidJSON(error) }
    }
}

/// simplestyle-spec properties of one feature, resolved to model values.
private struct SimpleStyle {
    var stroke, fill, markerColor: Color?
    var strokeWidth, strokeOpacity, fillOpacity: Double?
    var markerSize: MarkerOverlay.PinSize?
    var label, title: String?

    init() {}

    /// Reads the properties object of a feature; `path` gives its key path, asked for only
    /// when a message needs it.
    init(_ properties: JSONObject, source: String, warnings: inout [String], path: () -> String) throws(GeoJSONError) {
        func key(_ k: String) -> String { "\(path()).\(k)" }
        func color(_ k: String) throws(GeoJSONError) -> Color? {
            guard let raw = properties[k] else { return nil }
            guard case .string(let text) = raw else { throw .badProperty(source: source, keyPath: key(k), reason: "expected a colour string") }
            do { return try ColorSyntax.parse(text) } catch {
                throw .badProperty(source: source, keyPath: key(k), reason: error.description)
            }
        }
        func number(_ k: String, _ range: ClosedRange<Double>) throws(GeoJSONError) -> Double? {
            guard let raw = properties[k] else { return nil }
            // simplestyle files in the wild sometimes quote numbers.
            let value = raw.numberValue ?? raw.stringValue.flatMap { Double($0) }
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
            switch raw.stringValue {
            case "small": markerSize = .small
            case "medium": markerSize = .mid
            case "large": markerSize = .normal
            default: throw .badProperty(source: source, keyPath: key("marker-size"), reason: "expected small, medium or large")
            }
        }
        if let raw = properties["marker-symbol"] {
            // Maki icon names ("rail", "cafe") have no drawing here; letters and digits do.
            let text = raw.stringValue ?? raw.numberValue.map { StaticMapsSyntax.format($0) } ?? ""
            if !text.isEmpty, text.count <= 2, text.allSatisfy({ $0.isLetter || $0.isNumber }) {
                label = text
            } else if !text.isEmpty {
                warnings.append("\(source): \(key("marker-symbol")): icon \"\(text.prefix(40))\" is not supported; only letters and digits are drawn")
            }
        }
        if let raw = properties["title"] {
            guard case .string(let text) = raw else { throw .badProperty(source: source, keyPath: key("title"), reason: "expected a string") }
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
