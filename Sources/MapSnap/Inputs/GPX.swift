import Foundation

/// A GPX 1.0 or 1.1 document turned into overlays.
///
/// Each `<trkseg>` becomes its own path (segments are gaps in recording, so they are not
/// joined), each `<rte>` a path, each `<wpt>` a marker titled with its `<name>`. Elements are
/// matched by local name whatever their namespace prefix; unknown elements and
/// `<extensions>` are skipped. The XML is read by expat (`XMLEventReader`): UTF-8, UTF-16
/// and ISO-8859-1 documents; documents that declare entities are rejected outright (GPX never
/// needs them, and refusing them closes the door on entity-expansion attacks), and external
/// entities are never loaded.
public struct GPX: Sendable {
    /// Paths and markers in document order.
    public var overlays: [Overlay] = []

    /// Largest total number of points in one document.
    public static let maximumPointCount = 10_000_000
    /// Longest waypoint name kept (longer names are cut).
    public static let maximumNameLength = StaticMapsSyntax.maximumTitleLength
    /// Deepest element nesting accepted: GPX itself needs 4 levels, extensions a few more.
    public static let maximumDepth = 256

    /// Parses GPX bytes; `source` names the document in errors (usually the file name).
    public init(data: Data, source: String) throws(GPXError) {
        let collector = GPXCollector(source: source)
        let result: Result<Void, XMLReadError> = data.withUnsafeBytes { raw in
            do throws(XMLReadError) {
                try XMLEventReader.parse(raw, handler: collector, maximumDepth: Self.maximumDepth)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if let error = collector.error { throw error }
        switch result {
        case .success:
            overlays = collector.overlays
        case let .failure(.malformed(position, reason)):
            throw .malformedXML(source: source, line: position.line, column: position.column, reason: reason)
        case let .failure(.entityDeclaration(position)):
            throw .entitiesNotAllowed(source: source, line: position.line)
        case let .failure(.nestingTooDeep(position, limit)):
            throw .nestingTooDeep(source: source, line: position.line, limit: limit)
        case .failure(.stoppedByHandler):
            // Only the collector stops the reader, and it records its error first (thrown above).
            preconditionFailure("GPXCollector stopped the XML reader without recording an error")
        }
    }
}

/// Why a GPX document was rejected; lines are 1-based.
public enum GPXError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not well-formed XML; `reason` is expat's message ("mismatched tag").
    case malformedXML(source: String, line: Int, column: Int, reason: String)
    case notGPX(source: String, line: Int, root: String)
    /// A `lat`/`lon` attribute is missing, not a number or out of range.
    case badCoordinate(source: String, line: Int, element: String, attribute: String, value: String?, reason: String)
    case entitiesNotAllowed(source: String, line: Int)
    case tooManyPoints(source: String, line: Int, limit: Int)
    /// Elements nest deeper than `limit` (`GPX.maximumDepth`).
    case nestingTooDeep(source: String, line: Int, limit: Int)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case let .malformedXML(source, line, column, reason):
            return "\(source): line \(line), column \(column): malformed XML: \(reason)"
        case let .notGPX(source, line, root):
            return "\(source): line \(line): root element is <\(root)>, expected <gpx>"
        case let .badCoordinate(source, line, element, attribute, value, reason):
            guard let value else { return "\(source): line \(line): <\(element)> has no \(attribute) attribute" }
            return "\(source): line \(line): <\(element)> \(attribute)=\"\(value)\" \(reason)"
        case let .entitiesNotAllowed(source, line):
            return "\(source): line \(line): entity declarations are not allowed in GPX"
        case let .tooManyPoints(source, line, limit): return "\(source): line \(line): more than \(limit) points"
        case let .nestingTooDeep(source, line, limit):
            return "\(source): line \(line): elements nested more than \(limit) deep"
        }
    }
}

/// Turns `XMLEventReader`'s events into overlays; records the first `GPXError` and stops.
private final class GPXCollector: XMLEventHandler {
    let source: String
    var overlays: [Overlay] = []
    var error: GPXError?
    /// How many `<extensions>` elements are open; their content is skipped.
    private var extensionDepth = 0
    /// Element local names from the root down to the current element.
    private var stack: [String] = []
    private var points: [LatLng] = []
    private var pointCount = 0
    private var waypoint: LatLng?
    private var waypointName: String?
    private var nameText: String?

    init(source: String) { self.source = source }

    var wantsText: Bool { nameText != nil }

    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    private func fail(_ e: GPXError) -> Bool {
        if error == nil { error = e }
        return false
    }

    func startElement(_ qualifiedName: String, attributes: XMLAttributes, at position: XMLPosition) -> Bool {
        let name = Self.localName(qualifiedName)
        if stack.isEmpty, name != "gpx" {
            return fail(.notGPX(source: source, line: position.line, root: name))
        }
        let parent = stack.last
        stack.append(name)
        // Anything inside <extensions> belongs to some other schema.
        guard extensionDepth == 0 else {
            if name == "extensions" { extensionDepth += 1 }
            return true
        }
        if name == "extensions" {
            extensionDepth = 1
            return true
        }
        switch (parent, name) {
        case ("trk", "trkseg"), ("gpx", "rte"):
            points.removeAll(keepingCapacity: true)
        case ("trkseg", "trkpt"), ("rte", "rtept"):
            guard let c = coordinate(element: name, attributes: attributes, line: position.line) else { return false }
            guard pointCount < GPX.maximumPointCount else {
                return fail(.tooManyPoints(source: source, line: position.line, limit: GPX.maximumPointCount))
            }
            pointCount += 1
            points.append(c)
        case ("gpx", "wpt"):
            guard let c = coordinate(element: name, attributes: attributes, line: position.line) else { return false }
            waypoint = c
            waypointName = nil
        case ("wpt", "name"):
            nameText = ""
        default:
            break
        }
        return true
    }

    func text(_ string: String) -> Bool {
        guard var text = nameText else { return true }
        // Cap while reading: a 1 GB name must not be buffered whole.
        if text.count < GPX.maximumNameLength { text += string.prefix(GPX.maximumNameLength - text.count) }
        nameText = text
        return true
    }

    func endElement(_ qualifiedName: String, at position: XMLPosition) -> Bool {
        let name = Self.localName(qualifiedName)
        guard !stack.isEmpty else { return true }
        stack.removeLast()
        let parent = stack.last
        if extensionDepth > 0 {
            if name == "extensions" { extensionDepth -= 1 }
            return true
        }
        switch (parent, name) {
        case ("trk", "trkseg"), ("gpx", "rte"):
            if !points.isEmpty { overlays.append(.path(PathOverlay(coordinates: points))) }
            points.removeAll(keepingCapacity: true)
        case ("wpt", "name"):
            waypointName = nameText?.trimmingASCIIWhitespace()
            nameText = nil
        case ("gpx", "wpt"):
            if let waypoint {
                let title = waypointName.flatMap { $0.isEmpty ? nil : $0 }
                overlays.append(.marker(MarkerOverlay(coordinate: waypoint, title: title)))
            }
            waypoint = nil
            waypointName = nil
        default:
            break
        }
        return true
    }

    /// The `lat`/`lon` pair of a point element, or nil after recording why not.
    private func coordinate(element: String, attributes: XMLAttributes, line: Int) -> LatLng? {
        func value(_ attribute: String, limit: Int, isValid: (Double) -> Bool) -> Double? {
            guard let text = attributes.value(of: attribute) else {
                _ = fail(.badCoordinate(source: source, line: line, element: element, attribute: attribute, value: nil, reason: ""))
                return nil
            }
            guard let v = Double(text.trimmingASCIIWhitespace()), v.isFinite else {
                _ = fail(.badCoordinate(source: source, line: line, element: element, attribute: attribute, value: text, reason: "is not a number"))
                return nil
            }
            guard isValid(v) else {
                _ = fail(.badCoordinate(source: source, line: line, element: element, attribute: attribute, value: text,
                                        reason: "is out of range -\(limit)…\(limit)"))
                return nil
            }
            return v
        }
        guard let lat = value("lat", limit: 90, isValid: LatLng.isValidLatitude),
              let lon = value("lon", limit: 180, isValid: LatLng.isValidLongitude) else { return nil }
        return LatLng(latitude: lat, longitude: lon)
    }
}
