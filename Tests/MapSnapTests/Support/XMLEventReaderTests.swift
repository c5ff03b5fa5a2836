import Testing
@testable import MapSnap

/// Records every event as a line of text; stops at an element named `stop`.
private final class Recorder: XMLEventHandler {
    var events: [String] = []
    var wantsText = true

    func startElement(_ name: String, attributes: XMLAttributes, at position: XMLPosition) -> Bool {
        events.append("<\(name) id=\(attributes.value(of: "id") ?? "-") @\(position.line):\(position.column)")
        return name != "stop"
    }

    func endElement(_ name: String, at position: XMLPosition) -> Bool {
        events.append("</\(name)")
        return true
    }

    func text(_ text: String) -> Bool {
        // Runs of text may arrive in pieces; join neighbours so the expectations stay readable.
        if let last = events.last, last.hasPrefix("text:") { events[events.count - 1] = last + text } else { events.append("text:" + text) }
        return true
    }
}

@Suite struct XMLEventReaderTests {
    private func read(_ xml: String, into recorder: Recorder = Recorder(), maximumDepth: Int = 10) throws(XMLReadError) -> [String] {
        let bytes = Array(xml.utf8)
        let result: Result<Void, XMLReadError> = bytes.withUnsafeBytes { raw in
            do throws(XMLReadError) {
                try XMLEventReader.parse(raw, handler: recorder, maximumDepth: maximumDepth)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        return recorder.events
    }

    @Test func eventsInDocumentOrderWithAttributesAndPositions() throws {
        let events = try read("<a id=\"1\">\n  <b:c id='x&amp;y'/>t&lt;<![CDATA[<raw>]]>&#xE9;</a>")
        #expect(events == ["<a id=1 @1:1", "text:\n  ", "<b:c id=x&y @2:3", "</b:c", "text:t<<raw>é", "</a"])
    }

    @Test func textIsSkippedWhileTheHandlerDoesNotWantIt() throws {
        let recorder = Recorder()
        recorder.wantsText = false
        #expect(try read("<a> lots of text <b/> more </a>", into: recorder) == ["<a id=- @1:1", "<b id=- @1:18", "</b", "</a"])
    }

    @Test func aHandlerCanStopTheParse() {
        let recorder = Recorder()
        #expect(throws: XMLReadError.stoppedByHandler) { try read("<a><stop/><never/></a>", into: recorder) }
        #expect(!recorder.events.contains { $0.hasPrefix("<never") })
    }

    @Test func nestingBeyondTheLimitStops() {
        #expect(throws: XMLReadError.nestingTooDeep(XMLPosition(line: 1, column: 7), limit: 2)) {
            try read("<a><b><c/></b></a>", maximumDepth: 2)
        }
    }

    /// Internal and external entity declarations stop the parse before any expansion.
    @Test(arguments: ["<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>",
                      "<!DOCTYPE a [<!ENTITY e SYSTEM \"/etc/passwd\">]><a>&e;</a>",
                      "<!DOCTYPE a [<!ENTITY % p \"x\">]><a/>"])
    func entityDeclarationsAreRefused(_ xml: String) {
        #expect {
            try read(xml)
        } throws: { error in
            guard case .entityDeclaration(let position)? = error as? XMLReadError else { return false }
            return position.line == 1
        }
    }

    @Test func malformedDocumentsCarryExpatsReasonAndPosition() {
        #expect(throws: XMLReadError.malformed(XMLPosition(line: 2, column: 3), reason: "mismatched tag")) { try read("<a>\n</b>") }
        #expect(throws: XMLReadError.malformed(XMLPosition(line: 1, column: 1), reason: "no element found")) { try read("") }
        #expect(throws: XMLReadError.malformed(XMLPosition(line: 1, column: 4), reason: "undefined entity")) { try read("<a>&e;</a>") }
    }

    /// Input longer than one chunk handed to expat: text spanning the boundary arrives whole.
    @Test func inputIsFedInChunks() throws {
        let body = String(repeating: "x", count: XMLEventReader.chunkSize + 10)
        let events = try read("<a>" + body + "</a>")
        #expect(events == ["<a id=- @1:1", "text:" + body, "</a"])
    }
}
