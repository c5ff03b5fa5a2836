import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A GPX 1.0 or 1.1 document turned into overlays.
///
/// Each `<trkseg>` becomes its own path (segments are gaps in recording, so they are not
/// joined), each `<rte>` a path, each `<wpt>` a marker titled with its `<name>`. Elements are
/// matched by local name whatever their namespace prefix; unknown elements and
/// `<extensions>` are skipped. Documents that declare entities are rejected outright: GPX
/// never needs them, and refusing them closes the door on entity-expansion attacks.
public struct GPX: Sendable {
    /// Paths and markers in document order.
    public var overlays: [Overlay] = []

    /// Largest total number of points in one document.
    public static let maximumPointCount = 10_000_000
    /// Longest waypoint name kept (longer names are cut).
    public static let maximumNameLength = StaticMapsSyntax.maximumTitleLength

    /// Parses GPX bytes; `source` names the document in errors (usually the file name).
    public init(data original: Data, source: String) throws(GPXError) {
        var data = original
        // UTF-16 becomes UTF-8 first, so every later byte check sees the real text.
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) {
            guard let text = String(data: data, encoding: .utf16) else {
                throw .malformedXML(source: source, line: 1, reason: "invalid UTF-16")
            }
            var bytes = Array(text.utf8)
            Self.blankProcessingInstructions(in: &bytes, keepingDeclaration: false)  // it names UTF-16
            data = Data(bytes)
        }
        if let line = Self.lineOfEntityDeclaration(in: data) {
            throw .entitiesNotAllowed(source: source, line: line)
        }
        if let line = Self.lineOfInvalidUTF8(in: data) {
            throw .malformedXML(source: source, line: line, reason: "invalid UTF-8 (GPX is read as UTF-8, UTF-16 or ISO-8859-1)")
        }
        var bytes = [UInt8](data)
        Self.blankProcessingInstructions(in: &bytes, keepingDeclaration: true)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        let delegate = GPXParserDelegate(source: source)
        parser.delegate = delegate
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        guard ok else {
            let reason = parser.parserError.map(GPX.describeXMLError) ?? "malformed XML"
            throw .malformedXML(source: source, line: parser.lineNumber, reason: reason)
        }
        guard delegate.sawRoot else { throw .notGPX(source: source, line: 1, root: delegate.rootName ?? "") }
        overlays = delegate.overlays
    }

    /// The 1-based line of the first byte that is not UTF-8, unless the document is one that
    /// libxml2 transcodes to UTF-8 itself (UTF-16 with a byte-order mark, or a well-formed
    /// ISO-8859-1 declaration, where every byte is a character).
    ///
    /// Why: swift-corelibs-foundation's XMLParser traps when libxml2 hands it an element or
    /// attribute name that is not valid UTF-8 (found by `InputsRobustnessTests`), so such
    /// bytes must never reach it.
    static func lineOfInvalidUTF8(in data: Data) -> Int? {
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) { return nil }
        if let encoding = declaredEncoding(in: data), ["iso-8859-1", "latin1", "iso_8859-1"].contains(encoding) { return nil }
        var line = 1
        var decoder = UTF8()
        var iterator = data.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar): if scalar == "\n" { line += 1 }
            case .emptyInput: return nil
            case .error: return line
            }
        }
    }

    /// Replaces every processing instruction (`<?target …?>`) after the XML declaration with
    /// spaces (newlines kept, so line numbers stay right); an unclosed `<?` loses its two
    /// bytes. GPX needs no processing instructions, and swift-corelibs-foundation's
    /// XMLParser crashes (strlen of a null pointer in its processing-instruction callback)
    /// on some malformed ones — found by fuzz/run.sh.
    static func blankProcessingInstructions(in bytes: inout [UInt8], keepingDeclaration: Bool) {
        let lt = UInt8(ascii: "<"), q = UInt8(ascii: "?"), gt = UInt8(ascii: ">"), nl = UInt8(ascii: "\n")
        func blank(_ range: Range<Int>) {
            for k in range where bytes[k] != nl { bytes[k] = 0x20 }
        }
        func close(from start: Int) -> Int? {
            var k = start
            while k + 1 < bytes.count {
                if bytes[k] == q && bytes[k + 1] == gt { return k + 2 }
                k += 1
            }
            return nil
        }
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        if bytes[i...].starts(with: Array("<?xml".utf8)), i + 5 < bytes.count,
           [0x20, 0x09, 0x0A, 0x0D, q].contains(bytes[i + 5]), let end = close(from: i + 5) {
            // Only a declaration with a version is one; libxml2 reports a bare `<?xml?>` as a
            // processing instruction without data, which is what crashes the parser.
            let hasVersion = bytes[i..<end].firstRange(of: Array("version".utf8)) != nil
            if !keepingDeclaration || !hasVersion { blank(i..<end) }
            i = end
        }
        while i + 1 < bytes.count {
            if bytes[i] == lt && bytes[i + 1] == q {
                if let end = close(from: i + 2) {
                    blank(i..<end)
                    i = end
                } else {
                    blank(i..<(i + 2))
                    i += 2
                }
            } else {
                i += 1
            }
        }
    }

    /// The lower-cased `encoding` of a well-formed XML declaration, if there is one.
    static func declaredEncoding(in data: Data) -> String? {
        let head = String(decoding: data.prefix(256), as: UTF8.self).lowercased()
        guard head.hasPrefix("<?xml "), let end = head.range(of: "?>") else { return nil }
        let declaration = head[..<end.lowerBound]
        guard let key = declaration.range(of: " encoding=") else { return nil }
        let rest = declaration[key.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst()
        guard let close = value.firstIndex(of: quote) else { return nil }
        return String(value[..<close])
    }

    /// The 1-based line of the first `<!ENTITY`, if any (XML keywords are case-sensitive).
    static func lineOfEntityDeclaration(in data: Data) -> Int? {
        let needle = Array("<!ENTITY".utf8)
        guard let range = data.firstRange(of: needle) else { return nil }
        return data[data.startIndex..<range.lowerBound].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }
}

/// Why a GPX document was rejected; lines are 1-based.
public enum GPXError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformedXML(source: String, line: Int, reason: String)
    case notGPX(source: String, line: Int, root: String)
    /// A `lat`/`lon` attribute is missing, not a number or out of range.
    case badCoordinate(source: String, line: Int, element: String, attribute: String, value: String?, reason: String)
    case entitiesNotAllowed(source: String, line: Int)
    case tooManyPoints(source: String, line: Int, limit: Int)

    public var description: String {
        switch self {
        case let .malformedXML(source, line, reason): return "\(source): line \(line): malformed XML: \(reason)"
        case let .notGPX(source, line, root):
            return "\(source): line \(line): root element is <\(root)>, expected <gpx>"
        case let .badCoordinate(source, line, element, attribute, value, reason):
            guard let value else { return "\(source): line \(line): <\(element)> has no \(attribute) attribute" }
            return "\(source): line \(line): <\(element)> \(attribute)=\"\(value)\" \(reason)"
        case let .entitiesNotAllowed(source, line):
            return "\(source): line \(line): entity declarations are not allowed in GPX"
        case let .tooManyPoints(source, line, limit): return "\(source): line \(line): more than \(limit) points"
        }
    }
}

/// SAX-style collector. XMLParser calls back synchronously on the parsing thread, so the
/// unchecked Sendable is only to satisfy the delegate protocol's requirements.
private final class GPXParserDelegate: NSObject, XMLParserDelegate, @unchecked Sendable {
    let source: String
    var overlays: [Overlay] = []
    var error: GPXError?
    var sawRoot = false
    var rootName: String?
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

    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    private func fail(_ parser: XMLParser, _ e: GPXError) {
        if error == nil { error = e }
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        guard error == nil else { return }
        let name = Self.localName(elementName)
        if stack.isEmpty {
            rootName = name
            guard name == "gpx" else { return fail(parser, .notGPX(source: source, line: parser.lineNumber, root: name)) }
            sawRoot = true
        }
        let parent = stack.last
        stack.append(name)
        // Anything inside <extensions> belongs to some other schema.
        guard extensionDepth == 0 else {
            if name == "extensions" { extensionDepth += 1 }
            return
        }
        if name == "extensions" {
            extensionDepth = 1
            return
        }
        switch (parent, name) {
        case ("trk", "trkseg"), ("gpx", "rte"):
            points.removeAll(keepingCapacity: true)
        case ("trkseg", "trkpt"), ("rte", "rtept"):
            guard let c = coordinate(parser, element: name, attributes: attributes) else { return }
            guard pointCount < GPX.maximumPointCount else {
                return fail(parser, .tooManyPoints(source: source, line: parser.lineNumber, limit: GPX.maximumPointCount))
            }
            pointCount += 1
            points.append(c)
        case ("gpx", "wpt"):
            guard let c = coordinate(parser, element: name, attributes: attributes) else { return }
            waypoint = c
            waypointName = nil
        case ("wpt", "name"):
            nameText = ""
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard var text = nameText else { return }
        // Cap while reading: a 1 GB name must not be buffered whole.
        if text.count < GPX.maximumNameLength { text += string.prefix(GPX.maximumNameLength - text.count) }
        nameText = text
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard nameText != nil else { return }
        self.parser(parser, foundCharacters: String(decoding: CDATABlock.prefix(GPX.maximumNameLength * 4), as: UTF8.self))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard error == nil else { return }
        let name = Self.localName(elementName)
        guard !stack.isEmpty else { return }
        stack.removeLast()
        let parent = stack.last
        if extensionDepth > 0 {
            if name == "extensions" { extensionDepth -= 1 }
            return
        }
        switch (parent, name) {
        case ("trk", "trkseg"), ("gpx", "rte"):
            if !points.isEmpty { overlays.append(.path(PathOverlay(coordinates: points))) }
            points.removeAll(keepingCapacity: true)
        case ("wpt", "name"):
            waypointName = nameText?.trimmingFieldSpaces()
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
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if error == nil {
            error = .malformedXML(source: source, line: parser.lineNumber, reason: GPX.describeXMLError(parseError))
        }
    }

    private func coordinate(_ parser: XMLParser, element: String, attributes: [String: String]) -> LatLng? {
        func value(_ attribute: String, limit: Double) -> Double? {
            let line = parser.lineNumber
            guard let text = attributes[attribute] else {
                fail(parser, .badCoordinate(source: source, line: line, element: element, attribute: attribute, value: nil, reason: ""))
                return nil
            }
            guard let v = Double(text.trimmingFieldSpaces()), v.isFinite else {
                fail(parser, .badCoordinate(source: source, line: line, element: element, attribute: attribute, value: text, reason: "is not a number"))
                return nil
            }
            guard abs(v) <= limit else {
                fail(parser, .badCoordinate(source: source, line: line, element: element, attribute: attribute, value: text,
                                            reason: "is out of range -\(Int(limit))…\(Int(limit))"))
                return nil
            }
            return v
        }
        guard let lat = value("lat", limit: 90), let lon = value("lon", limit: 180) else { return nil }
        return LatLng(latitude: lat, longitude: lon)
    }
}

extension GPX {
    /// A readable reason for an `XMLParser` error. Foundation on Linux reports libxml2's
    /// error numbers (xmlerror.h) and describes them only as "NSXMLParserErrorDomain error
    /// 76"; the common ones are named here.
    static func describeXMLError(_ error: Error) -> String {
        let code = (error as NSError).code
        switch code {
        case 4: return "the document is empty"
        case 5: return "the document does not end properly (an element is left open, or content follows the root)"
        case 86: return "there is content after the end of the document"
        case 9: return "the document contains an invalid character"
        case 23: return "an entity reference lacks its semicolon"
        case 26: return "an undeclared entity is used"
        case 38, 39, 41: return "an attribute is malformed (values must be quoted)"
        case 42: return "an attribute is given twice"
        case 73: return "a tag is not closed with '>'"
        case 76: return "a closing tag does not match the element it closes"
        case 77: return "the document ends before its elements are closed"
        case 85: return "elements are not properly nested"
        default: return "XML error \(code)"
        }
    }
}
