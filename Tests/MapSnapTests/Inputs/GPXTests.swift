import Foundation
import Testing
@testable import MapSnap

@Suite struct GPXTests {
    private func parse(_ xml: String) throws -> GPX {
        try GPX(data: Data(xml.utf8), source: "test.gpx")
    }

    @Test func gpx11WithNamespacesExtensionsAndTwoSegments() throws {
        let gpx = try GPX(data: try InputsFixtures.data("gpx/track-1.1.gpx"), source: "track-1.1.gpx")
        let paths = gpx.overlays.compactMap { if case let .path(p) = $0 { return p } else { return nil } }
        let markers = gpx.overlays.compactMap { if case let .marker(m) = $0 { return m } else { return nil } }
        // Two <trkseg> → two paths; the <rte> hidden inside <extensions> is ignored.
        #expect(paths.map(\.coordinates.count) == [3, 2])
        #expect(paths[0].coordinates[0] == LatLng(47.3769, 8.5417))
        #expect(paths[1].coordinates.last == LatLng(47.3667, 8.5500))
        #expect(markers.count == 2)
        #expect(markers[0].title == "Start & café")   // entity reference and UTF-8 decoded
        #expect(markers[1].title == nil)               // waypoint without <name>
    }

    @Test func gpx10WithPrefixedElements() throws {
        let gpx = try GPX(data: try InputsFixtures.data("gpx/route-1.0.gpx"), source: "route-1.0.gpx")
        let paths = gpx.overlays.compactMap { if case let .path(p) = $0 { return p } else { return nil } }
        let markers = gpx.overlays.compactMap { if case let .marker(m) = $0 { return m } else { return nil } }
        #expect(paths.count == 2)   // one <rte>, one <trkseg>
        #expect(paths[0].coordinates == [LatLng(-33.8688, 151.2093), LatLng(-33.7, 150.3)])
        #expect(markers.map(\.title) == ["Katoomba"])  // <rtept><name> does not make a marker
    }

    @Test func badLatitudeReportsLineAndValue() throws {
        let error = GPXError.badCoordinate(source: "bad-lat.gpx", line: 6, element: "trkpt", attribute: "lat", value: "abc", reason: "is not a number")
        #expect(throws: error) { try GPX(data: try InputsFixtures.data("gpx/bad-lat.gpx"), source: "bad-lat.gpx") }
        #expect(error.description == "bad-lat.gpx: line 6: <trkpt> lat=\"abc\" is not a number")
    }

    @Test func malformedXMLReportsLineColumnAndExpatsReason() throws {
        let error = GPXError.malformedXML(source: "malformed.gpx", line: 6, column: 7, reason: "mismatched tag")
        #expect(throws: error) { try GPX(data: try InputsFixtures.data("gpx/malformed.gpx"), source: "malformed.gpx") }
        #expect(error.description == "malformed.gpx: line 6, column 7: malformed XML: mismatched tag")
    }

    @Test func entityDeclarationsAreRejected() {
        #expect(throws: GPXError.entitiesNotAllowed(source: "entities.gpx", line: 3)) {
            try GPX(data: try InputsFixtures.data("gpx/entities.gpx"), source: "entities.gpx")
        }
    }

    @Test(arguments: [
        (#"<gpx><wpt lon="1"/></gpx>"#, GPXError.badCoordinate(source: "test.gpx", line: 1, element: "wpt", attribute: "lat", value: nil, reason: "")),
        (#"<gpx><wpt lat="91" lon="1"/></gpx>"#, GPXError.badCoordinate(source: "test.gpx", line: 1, element: "wpt", attribute: "lat", value: "91", reason: "is out of range -90…90")),
        (#"<gpx><rte><rtept lat="1" lon="-180.5"/></rte></gpx>"#, GPXError.badCoordinate(source: "test.gpx", line: 1, element: "rtept", attribute: "lon", value: "-180.5", reason: "is out of range -180…180")),
        (#"<gpx><wpt lat="nan" lon="1"/></gpx>"#, GPXError.badCoordinate(source: "test.gpx", line: 1, element: "wpt", attribute: "lat", value: "nan", reason: "is not a number")),
        (#"<kml><Placemark/></kml>"#, GPXError.notGPX(source: "test.gpx", line: 1, root: "kml")),
    ])
    func invalidDocuments(xml: String, expected: GPXError) {
        #expect(throws: expected) { try parse(xml) }
    }

    @Test func emptyAndTruncatedInputDoNotTrap() {
        #expect(throws: GPXError.self) { try parse("") }
        #expect(throws: GPXError.self) { try parse("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"") }
        #expect(throws: GPXError.self) { try parse("\u{0}\u{1}\u{2}") }
    }

    @Test func invalidUTF8IsMalformedXML() throws {
        // A 0xFF byte inside an attribute name (this mutation crashed Foundation's XMLParser).
        var bytes = Array(#"<gpx><rte><rtept lat="1" lon="2"/></rte></gpx>"#.utf8)
        bytes[25] = 0xFF
        #expect(throws: GPXError.malformedXML(source: "test.gpx", line: 1, column: 26, reason: "not well-formed (invalid token)")) {
            try GPX(data: Data(bytes), source: "test.gpx")
        }
        // Latin-1 documents are transcoded by expat.
        var latin1 = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><gpx><wpt lat="1" lon="2"><name>Caf"#.utf8)
        latin1 += [0xE9] + Array("</name></wpt></gpx>".utf8)
        let gpx = try GPX(data: Data(latin1), source: "latin1.gpx")
        #expect(gpx.overlays == [.marker(MarkerOverlay(coordinate: LatLng(1, 2), title: "Café"))])
        // A broken declaration is an error, whatever follows it.
        var broken = Array(#"<?xml version="1.0" encoding=UTF-8"?><gpx><"#.utf8)
        broken += [0xC3] + Array(#"rkpt lat="1" lon="2"/></gpx>"#.utf8)
        #expect(throws: GPXError.self) { try GPX(data: Data(broken), source: "broken.gpx") }
    }

    /// Columns count characters, not bytes: "é" is one column (expat points at the name in
    /// `</nam>`, column 34; counting bytes would give 35).
    @Test func columnsCountCharacters() throws {
        #expect(throws: GPXError.malformedXML(source: "test.gpx", line: 2, column: 34, reason: "mismatched tag")) {
            try parse("<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>Café</nam></wpt></gpx>")
        }
    }

    /// Only a real declaration is refused: the text "<!ENTITY" in a comment is harmless.
    @Test func entityDeclarationsAreFoundByTheParserNotByText() throws {
        let doc = "<?xml version=\"1.0\"?>\n<!-- <!ENTITY a \"b\"> -->\n<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>"
        #expect(try parse(doc).overlays.count == 1)
        // An external entity (XXE) is a declaration too, refused before anything is read.
        #expect(throws: GPXError.entitiesNotAllowed(source: "test.gpx", line: 2)) {
            try parse("<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<gpx><wpt lat=\"1\" lon=\"2\"><name>&x;</name></wpt></gpx>")
        }
        // An external DTD subset is never fetched; the document still parses.
        #expect(try parse("<!DOCTYPE gpx SYSTEM \"http://127.0.0.1:9/gpx.dtd\">\n<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>").overlays.count == 1)
    }

    @Test func deepNestingIsCapped() throws {
        let deep = "<gpx>" + String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300) + "</gpx>"
        #expect(throws: GPXError.nestingTooDeep(source: "test.gpx", line: 1, limit: GPX.maximumDepth)) { try parse(deep) }
        let fine = "<gpx>" + String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200) + "</gpx>"
        #expect(try parse(fine).overlays.isEmpty)
    }

    @Test func waypointNameInCDATA() throws {
        let gpx = try parse("<gpx><wpt lat=\"1\" lon=\"2\"><name><![CDATA[Fish & Chips]]></name></wpt></gpx>")
        #expect(gpx.overlays == [.marker(MarkerOverlay(coordinate: LatLng(1, 2), title: "Fish & Chips"))])
    }

    @Test func emptyTrackSegmentsProduceNothing() throws {
        #expect(try parse("<gpx><trk><trkseg></trkseg></trk><rte/></gpx>").overlays.isEmpty)
    }
}

/// Processing instructions are ignored wherever they are; malformed ones (which crashed
/// Foundation's XMLParser on Linux, found by fuzz/run.sh) are errors.
@Suite struct GPXProcessingInstructionTests {
    @Test func theFuzzerCrashInputIsAnErrorNotACrash() {
        let base64 = "PD94bWw/Pgo8Z3B4IHZlcnNpb249IjEuMSI+CiAgPHRyaz4KKjw/eG1sICAgIDx0cgAAAAAAAAAAAABrc2VnPgogICAgLjEiPgogIDx0ciAgIDx0cmtwdCBsYXQ9IjQ2LjEiICAgPC90YmsAAAAAAAAAAAAAAAAAAAAAc2VnPgogIDwvdHJrPgo8L2dwCiAgPC90cms+CjwvZ3B4Pgo="
        let data = Data(base64Encoded: base64) ?? Data()
        #expect(!data.isEmpty)
        #expect(throws: GPXError.self) { _ = try GPX(data: data, source: "crash.gpx") }
    }

    @Test func processingInstructionsAreIgnored() throws {
        let doc = "<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"a.xsl\"?>\n<gpx version=\"1.1\"><wpt lat=\"60\" lon=\"24\"><name>A<?x?>B</name></wpt></gpx>\n"
        let gpx = try GPX(data: Data(doc.utf8), source: "pi.gpx")
        #expect(gpx.overlays == [.marker(MarkerOverlay(coordinate: LatLng(60, 24), title: "AB"))])
    }

    /// `<?xml?>` without a version is not an XML declaration; expat says so.
    @Test func bareDeclarationIsMalformed() {
        #expect(throws: GPXError.malformedXML(source: "pi.gpx", line: 1, column: 6, reason: "XML declaration not well-formed")) {
            try GPX(data: Data("<?xml?>\n<gpx version=\"1.1\"/>".utf8), source: "pi.gpx")
        }
    }

    @Test func utf16DocumentsAreReadNatively() throws {
        let doc = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<gpx version=\"1.1\"><?x?><wpt lat=\"60\" lon=\"24\"><name>Zürich</name></wpt></gpx>"
        for (bom, encoding) in [([UInt8](arrayLiteral: 0xFF, 0xFE), String.Encoding.utf16LittleEndian), ([0xFE, 0xFF], .utf16BigEndian)] {
            var data = Data(bom)
            data.append(doc.data(using: encoding) ?? Data())
            let gpx = try GPX(data: data, source: "utf16.gpx")
            #expect(gpx.overlays == [.marker(MarkerOverlay(coordinate: LatLng(60, 24), title: "Zürich"))])
        }
        // An entity declaration in UTF-16 is still refused.
        let evil = "<?xml version=\"1.0\"?><!DOCTYPE gpx [<!ENTITY a \"b\">]><gpx version=\"1.1\"/>"
        var evilData = Data([0xFF, 0xFE])
        evilData.append(evil.data(using: .utf16LittleEndian) ?? Data())
        #expect(throws: GPXError.entitiesNotAllowed(source: "evil.gpx", line: 1)) { _ = try GPX(data: evilData, source: "evil.gpx") }
    }
}
