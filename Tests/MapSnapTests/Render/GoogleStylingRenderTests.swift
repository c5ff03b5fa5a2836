import Foundation
import Testing
@testable import MapSnap

/// Google Static Maps parameters that change the picture: `style=` rules on the bundled
/// styles, `maptype=satellite`, and a marker icon's `scale:`; checked by reading pixels.
@Suite struct GoogleStylingRenderTests {
    func render(_ url: String) throws -> MapSnapshot {
        var builder = RenderSpecBuilder()
        try builder.applyStaticMapsURL(url, origin: "--url")
        try builder.setAttribution("none", origin: "--attribution")
        builder.setShowsScaleBar(false)
        return try MapSnapshotter(options: try builder.build().options).render()
    }

    func count(_ color: Color, in c: MapImage) -> Int {
        var n = 0
        for y in 0..<c.height {
            for x in 0..<c.width where c.color(atX: x, y: y) == color { n += 1 }
        }
        return n
    }

    /// Helsinki at zoom 12: the bundled street tiles and the world's sea and labels.
    static let helsinki = "https://maps.googleapis.com/maps/api/staticmap?size=400x300&zoom=12&center=60.16,24.95"

    @Test func waterColourAndHiddenLabelsShowOnTheMap() throws {
        let plain = try render(Self.helsinki)
        let styled = try render(Self.helsinki + "&style=feature:water%7Ccolor:0xff00ff&style=element:labels%7Cvisibility:off")
        let sea = styled.point(for: LatLng(60.145, 24.98))
        #expect(styled.image.color(atX: Int(sea.x), y: Int(sea.y)) == Color(rgb: 0xFF00FF))
        #expect(plain.image.color(atX: Int(sea.x), y: Int(sea.y)) != Color(rgb: 0xFF00FF))
        // The normal style draws place names in #222222; with labels off there are none.
        #expect(count(Color(rgb: 0x222222), in: plain.image) > 20)
        #expect(count(Color(rgb: 0x222222), in: styled.image) == 0)
    }

    @Test func landscapeColourFromGooglesExampleTurnsTheLandBlack() throws {
        // developers.google.com/maps/documentation/maps-static/styling, the Brooklyn example,
        // on Helsinki: black landscape, green local roads.
        let styled = try render(Self.helsinki.replacingOccurrences(of: "zoom=12&center=60.16,24.95", with: "zoom=15&center=60.17,24.94")
            + "&style=feature:road.local%7Celement:geometry%7Ccolor:0x00ff00"
            + "&style=feature:landscape%7Celement:geometry.fill%7Ccolor:0x000000")
        let pixels = styled.image.width * styled.image.height
        #expect(count(Color(rgb: 0x000000), in: styled.image) > pixels / 10)
        #expect(count(Color(rgb: 0x00FF00), in: styled.image) > pixels / 50)
    }

    @Test func satelliteIsImageryWithoutRoadsOrLabels() throws {
        let path = TestPaths.repositoryRoot + "/Styles/satellite.json"
        let style = try Style.load(path: path)
        #expect(style.layers.contains { $0.type == .raster && $0.source == "imagery" })
        #expect(!style.layers.contains { $0.type == .symbol })
        #expect(!style.layers.contains { ["transportation", "boundary"].contains($0.sourceLayer ?? "") })
        let world = "https://maps.googleapis.com/maps/api/staticmap?size=300x200&zoom=2&center=20,0"
        let satellite = try render(world + "&maptype=satellite")
        let hybrid = try render(world + "&maptype=hybrid")
        #expect(satellite.attribution.isEmpty)  // --attribution none
        // Hybrid draws white labels and boundaries over the imagery; satellite does not.
        #expect(count(.white, in: hybrid.image) > count(.white, in: satellite.image))
    }

    @Test func markerScaleDrawsTheIconAtItsPixelSizeOverTheScale() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let icon = dir + "/icon.png"
        try Data(try PNGCodec.encode(Canvas(width: 8, height: 8, fill: Color(rgb: 0x3355CC)))).write(to: URL(fileURLWithPath: icon))
        func pixels(_ scaleDescriptor: String) throws -> Int {
            let url = "?size=100x100&zoom=10&center=10,10&markers=\(scaleDescriptor)icon:\(icon)%7C10,10"
            var builder = RenderSpecBuilder()
            try builder.applyStaticMapsURL(url, origin: "--url")
            try builder.setStyle(TestPaths.plainStyle, origin: "--style")
            try builder.setAttribution("none", origin: "--attribution")
            builder.setShowsScaleBar(false)
            return count(Color(rgb: 0x3355CC), in: try MapSnapshotter(options: try builder.build().options).render().image)
        }
        #expect(try pixels("") == 64)
        #expect(try pixels("scale:2%7Cshadow:true%7C") == 16)
    }
}
