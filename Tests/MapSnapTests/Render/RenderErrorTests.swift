import Foundation
import Testing
@testable import MapSnap

/// A render that cannot start throws `RenderError` carrying the stage's own typed error —
/// the style parser's key path, the JSON reader's byte offset, the tile container's file —
/// not a string. The CLI's one-line message is the error's `description`.
@Suite struct RenderErrorTests {
    /// Renders `style` (with `source`, when given) through a fresh renderer and returns the
    /// `RenderError` it throws; records an issue when it throws nothing or something else.
    static func renderError(style: String, source: String? = nil, sprite: String? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) -> RenderError? {
        var o = MapSnapshotOptions(width: 64, height: 64, center: LatLng(60.17, 24.94), zoom: 12, style: style,
                                   source: source, attribution: "", showsScaleBar: false)
        o.sprite = sprite
        do {
            _ = try MapSnapshotter(options: o, renderer: MapRenderer()).render()
            Issue.record("the render succeeded", sourceLocation: sourceLocation)
        } catch let error as RenderError {
            return error
        } catch {
            Issue.record("not a RenderError: \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func aStyleValueOfTheWrongTypeKeepsItsKeyPath() throws {
        let style = TestPaths.temporaryDirectory() + "/style.json"
        try Self.write(#"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-opacity": "half"}}]}"#,
                       to: style)
        let error = try #require(Self.renderError(style: style))
        guard case .style(.wrongType(let origin, let keyPath, _, _)) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(origin == "style.json")
        #expect(keyPath == "layers[0].paint.background-opacity")
        #expect(error.isInputError)
        #expect(error.description == #"--style style.json: layers[0].paint.background-opacity: expected number, found string "half""#)
    }

    @Test func malformedStyleJSONKeepsItsByteOffset() throws {
        let style = TestPaths.temporaryDirectory() + "/style.json"
        try Self.write("{\"version\": 8,\n \"layers\": [}", to: style)
        let error = try #require(Self.renderError(style: style))
        guard case .style(.invalidJSON(let json)) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(json.byteOffset == 27)
        #expect((json.line, json.column) == (2, 13))
        #expect(json.keyPath == "layers[0]")
        #expect(error.description == "--style \(json)")
    }

    @Test func anUnknownStyleNameIsItsOwnCase() {
        #expect(Self.renderError(style: "no-such-style") == .unknownStyle("no-such-style"))
    }

    @Test func aBrokenSourceFileKeepsTheContainersError() throws {
        let file = TestPaths.temporaryDirectory() + "/cut.pmtiles"
        try Self.write("PMTiles", to: file)
        let error = try #require(Self.renderError(style: "normal", source: file))
        #expect(error == .source(role: .source, location: file, error: .pmtiles(.fileTooSmall(path: file, size: 7))))
        #expect(error.isInputError, "a file that is not a whole archive is bad input (exit 2)")
        #expect(error.description == "--source \(file): 7 bytes is too small for a PMTiles header (127 bytes)")
    }

    /// A style's own source, a tile directory whose `metadata.json` is broken: the error names
    /// the source id and keeps the JSON reader's byte offset into that file.
    @Test func aStyleSourcesBrokenMetadataKeepsItsByteOffset() throws {
        let dir = TestPaths.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/tiles/1/0", withIntermediateDirectories: true)
        try Data([0x1A, 0x00]).write(to: URL(fileURLWithPath: dir + "/tiles/1/0/0.pbf"))
        try Self.write(#"{"minzoom": 1 "maxzoom": 1}"#, to: dir + "/tiles/metadata.json")
        try Self.write(#"{"version": 8, "sources": {"t": {"type": "vector", "url": "tiles"}}, "layers": []}"#, to: dir + "/style.json")
        let error = try #require(Self.renderError(style: dir + "/style.json"))
        guard case .source(.style(id: "t"), let location, .directory(.metadataNotJSON(let json))) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(location == "tiles")
        #expect(json.source == dir + "/tiles/metadata.json")
        #expect(json.byteOffset == 14)
    }

    @Test func aMarkerIconThatIsNotPNGKeepsTheDecodersError() throws {
        let icon = TestPaths.temporaryDirectory() + "/pin.png"
        try Self.write("GIF89a", to: icon)
        let marker = MarkerOverlay(coordinate: LatLng(60.17, 24.94), style: .icon(path: icon, anchor: nil))
        let o = MapSnapshotOptions(width: 64, height: 64, center: LatLng(60.17, 24.94), zoom: 12,
                                   overlays: [.marker(marker)], style: TestPaths.plainStyle, attribution: "", showsScaleBar: false)
        #expect(throws: RenderError.overlay(.invalidIcon(path: icon, .notPNG(origin: icon, signature: Array("GIF89a".utf8))))) {
            try MapSnapshotter(options: o, renderer: MapRenderer()).render()
        }
    }

    @Test func aMalformedSpriteIndexKeepsItsByteOffset() throws {
        let dir = TestPaths.temporaryDirectory()
        try FileManager.default.copyItem(atPath: TestPaths.fixture("sprites/test.png"), toPath: dir + "/icons.png")
        try Self.write(#"{"square": {"x": 0,, "y": 0}}"#, to: dir + "/icons.json")
        let error = try #require(Self.renderError(style: "normal", sprite: dir + "/icons"))
        guard case .sprite(.invalidIndexJSON(let json), "normal", fromOptions: true) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(json.source == dir + "/icons.json")
        #expect(json.byteOffset == 19)
        #expect(json.keyPath == "square")
        #expect(error.description.hasPrefix("--sprite \(dir)/icons.json: cannot read sprite: "))
    }
}
