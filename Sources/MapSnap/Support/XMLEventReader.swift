internal import CExpat

/// A position in an XML document: 1-based line and column (columns count characters).
struct XMLPosition: Equatable, Sendable {
    var line: Int
    var column: Int
}

/// The attributes of one start tag, in expat's memory: valid only during the
/// `XMLEventHandler.startElement` call that receives them.
struct XMLAttributes {
    /// Name, value, name, value, …, nil (expat's `atts` array).
    fileprivate let pairs: UnsafeMutablePointer<UnsafePointer<CChar>?>?

    /// The value of the attribute whose qualified name is exactly `name`.
    func value(of name: String) -> String? {
        guard let pairs else { return nil }
        var i = 0
        while let key = pairs[i] {
            if String(cString: key) == name { return pairs[i + 1].map { String(cString: $0) } }
            i += 2
        }
        return nil
    }
}

/// Receives `XMLEventReader`'s events in document order. A callback returns false to stop
/// the parse (the handler keeps its own reason; the reader then throws `.stoppedByHandler`).
protocol XMLEventHandler: AnyObject {
    /// Whether character data is wanted now; while false, text (mostly the whitespace
    /// between elements) is skipped without building strings.
    var wantsText: Bool { get }
    /// A start tag; `name` is the qualified name as written (`gpx:trkpt`).
    func startElement(_ name: String, attributes: XMLAttributes, at position: XMLPosition) -> Bool
    func endElement(_ name: String, at position: XMLPosition) -> Bool
    /// Character data, CDATA sections included, entity references resolved; one run of
    /// text may arrive in several pieces.
    func text(_ text: String) -> Bool
}

/// Why `XMLEventReader.parse` stopped.
enum XMLReadError: Error, Equatable, Sendable {
    /// Not well-formed XML; `reason` is expat's message ("mismatched tag").
    case malformed(XMLPosition, reason: String)
    /// A DTD declares an entity, which is refused (see `XMLEventReader`).
    case entityDeclaration(XMLPosition)
    /// Elements nest deeper than `limit`.
    case nestingTooDeep(XMLPosition, limit: Int)
    /// A handler callback returned false.
    case stoppedByHandler
}

/// A streaming (SAX) XML reader over expat, the only file that imports `CExpat`.
///
/// Encodings are expat's own: UTF-8, UTF-16 (by byte-order mark or declaration),
/// ISO-8859-1 and US-ASCII; names and text reach the handler as Swift strings.
///
/// Hardened for untrusted documents: a DTD may be present, but any entity declaration stops
/// the parse, so nothing is ever expanded (no billion laughs) and no external entity or
/// external DTD subset is ever loaded (no XXE; parameter-entity parsing stays off). Element
/// nesting is capped at `maximumDepth`.
enum XMLEventReader {
    /// Input is handed to expat in pieces of this size (its length parameter is an `int`,
    /// and one run of text reaches the handler in pieces of at most about this size).
    static let chunkSize = 1 << 20

    static func parse(_ bytes: UnsafeRawBufferPointer, handler: some XMLEventHandler,
                      maximumDepth: Int) throws(XMLReadError) {
        guard let parser = XML_ParserCreate(nil) else {
            // A few kilobytes could not be allocated: fatal, as for any Swift allocation.
            preconditionFailure("expat could not allocate a parser (out of memory)")
        }
        defer { XML_ParserFree(parser) }
        let context = ParseContext(parser: parser, handler: handler, maximumDepth: maximumDepth)
        try withExtendedLifetime(context) { () throws(XMLReadError) in
            XML_SetUserData(parser, Unmanaged.passUnretained(context).toOpaque())
            _ = XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
            XML_SetElementHandler(parser, { userData, name, attributes in
                ParseContext.from(userData)?.start(name, attributes)
            }, { userData, name in
                ParseContext.from(userData)?.end(name)
            })
            XML_SetCharacterDataHandler(parser) { userData, text, length in
                ParseContext.from(userData)?.text(text, Int(length))
            }
            XML_SetEntityDeclHandler(parser) { userData, _, _, _, _, _, _, _, _ in
                ParseContext.from(userData)?.entityDeclared()
            }
            var offset = 0
            repeat {
                let length = min(chunkSize, bytes.count - offset)
                let isFinal: Int32 = offset + length == bytes.count ? 1 : 0
                let status = XML_Parse(parser, bytes.baseAddress.map { ($0 + offset).assumingMemoryBound(to: CChar.self) },
                                       Int32(length), isFinal)
                if let failure = context.failure { throw failure }
                guard status == XML_STATUS_OK else {
                    let reason = XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) } ?? "malformed XML"
                    throw .malformed(context.position, reason: reason)
                }
                offset += length
            } while offset < bytes.count
        }
    }
}

/// The state expat's C callbacks reach through their user-data pointer.
private final class ParseContext {
    let parser: XML_Parser
    let handler: any XMLEventHandler
    let maximumDepth: Int
    var depth = 0
    /// Set when the parse was stopped from a callback; expat may still deliver a few
    /// buffered events after `XML_StopParser`, which are then ignored.
    var failure: XMLReadError?

    init(parser: XML_Parser, handler: any XMLEventHandler, maximumDepth: Int) {
        self.parser = parser
        self.handler = handler
        self.maximumDepth = maximumDepth
    }

    static func from(_ userData: UnsafeMutableRawPointer?) -> ParseContext? {
        userData.map { Unmanaged<ParseContext>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Where expat is: the start of the current event, or of the error after a failure.
    var position: XMLPosition {
        XMLPosition(line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)) + 1)
    }

    func stop(_ reason: XMLReadError) {
        guard failure == nil else { return }
        failure = reason
        _ = XML_StopParser(parser, 0)
    }

    func entityDeclared() {
        stop(.entityDeclaration(position))
    }

    func start(_ name: UnsafePointer<CChar>?, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>?) {
        guard failure == nil, let name else { return }
        depth += 1
        guard depth <= maximumDepth else { return stop(.nestingTooDeep(position, limit: maximumDepth)) }
        if !handler.startElement(String(cString: name), attributes: XMLAttributes(pairs: attributes), at: position) {
            stop(.stoppedByHandler)
        }
    }

    func end(_ name: UnsafePointer<CChar>?) {
        guard failure == nil, let name else { return }
        depth -= 1
        if !handler.endElement(String(cString: name), at: position) { stop(.stoppedByHandler) }
    }

    func text(_ text: UnsafePointer<CChar>?, _ length: Int) {
        guard failure == nil, handler.wantsText, let text, length > 0 else { return }
        let string = text.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        if !handler.text(string) { stop(.stoppedByHandler) }
    }
}

extension XMLEventReader {
    /// The version of the Expat this process runs with (`XML_ExpatVersionInfo`), for `--version`.
    static var libraryVersion: String {
        let v = XML_ExpatVersionInfo()
        return "\(v.major).\(v.minor).\(v.micro)"
    }
}
