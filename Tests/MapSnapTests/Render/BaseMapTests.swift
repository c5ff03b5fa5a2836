import Foundation
import Testing
@testable import MapSnap

/// The bundled styles on the bundled Helsinki tiles, and the same data through each source
/// format.
@Suite struct BaseMapTests {
    static let helsinki = LatLng(60.1699, 24.9450)

    func options(style: String, zoom: Double = 16, source: String? = nil) -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: 360, height: 260, scale: 1, center: Self.helsinki, zoom: zoom, style: style, source: source)
        o.overlays = [
            .path(PathOverlay(coordinates: [LatLng(60.17095, 24.9414), LatLng(60.16985, 24.94385), LatLng(60.16955, 24.94780)],
                              color: Color(rgb: 0x1A73E8), width: 5, casingColor: .white, casingWidth: 1.5)),
            .marker(MarkerOverlay(coordinate: LatLng(60.16955, 24.94780), label: "B", title: "Senate Sq")),
        ]
        return o
    }

    @Test(arguments: ["normal", "terrain", "hybrid"])
    func bundledStyleGolden(style: String) throws {
        let snap = try MapSnapshotter(options: options(style: style)).render()
        #expect(snap.warnings.isEmpty, "\(snap.warnings)")
        Golden.expect(snap.image, named: "helsinki-\(style)-z16", in: "BaseMap")
    }

    @Test func stylesAreClearlyDifferentPalettes() throws {
        var backgrounds: [Color] = []
        for style in ["normal", "terrain", "hybrid"] {
            let canvas = try MapSnapshotter(options: options(style: style, zoom: 13)).render().image
            backgrounds.append(canvas.color(atX: 5, y: 40))
        }
        #expect(Set(backgrounds).count == 3)
        // Hybrid is the dark one.
        #expect(Int(backgrounds[2].red) + Int(backgrounds[2].green) + Int(backgrounds[2].blue) < 200)
    }

    @Test func drawsTheOpenStreetMapAttribution() throws {
        let o = options(style: "normal")
        let snap = try MapSnapshotter(options: o).render()
        #expect(snap.attribution.contains("© OpenStreetMap contributors"))
        // Bottom-right corner holds the attribution box, not map.
        #expect(snap.image.color(atX: 355, y: 255) != snap.image.color(atX: 355, y: 200))
    }

    @Test func pmtilesRenderIsByteIdenticalToMBTiles() throws {
        let mbtiles = TestPaths.repositoryRoot + "/Data/helsinki.mbtiles"
        let pmtiles = TestPaths.temporaryDirectory() + "/helsinki.pmtiles"
        try PMTilesConverter.convert(mbtiles: mbtiles, to: pmtiles)
        let a = try MapSnapshotter(options: options(style: "normal", zoom: 15.5, source: mbtiles)).render().pngData()
        let b = try MapSnapshotter(options: options(style: "normal", zoom: 15.5, source: pmtiles)).render().pngData()
        let same = a == b  // a Bool: on failure Swift Testing would diff the whole arrays
        #expect(same)
    }

    @Test func overzoomedBeyondTheSourceMaxZoom() throws {
        // The data stops at z14; z18.5 scales and clips z14 tiles without error.
        let snap = try MapSnapshotter(options: options(style: "normal", zoom: 18.5)).render()
        #expect(snap.warnings.isEmpty)
        // Buildings cover most of a city block at this zoom: the image is not blank.
        let c = snap.image
        var colors = Set<Color>()
        for y in stride(from: 0, to: c.height, by: 13) { for x in stride(from: 0, to: c.width, by: 13) { colors.insert(c.color(atX: x, y: y)) } }
        #expect(colors.count > 5)
    }

    @Test func malformedStyleNamesTheFileAndKey() throws {
        let dir = TestPaths.temporaryDirectory()
        let path = dir + "/bad.json"
        try Data(#"{"version": 8, "sources": {}, "layers": [{"id": "x", "type": "line", "paint": {"line-width": "wide"}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        var o = options(style: path)
        o.overlays = []
        o.center = Self.helsinki
        #expect {
            _ = try MapSnapshotter(options: o).render()
        } throws: { error in
            let text = String(describing: error)
            return text.contains("bad.json") && text.contains("layers[0]")
        }
    }
}
