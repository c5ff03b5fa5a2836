import Foundation
import Testing
@testable import MapSnap

/// A bundled style given raster tiles is read for its background only; the base map must
/// come out as from the whole style, with every kind of customization.
@Suite struct RasterBaseStyleTests {
    static let stylesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Styles").path

    static let customizations: [StyleCustomization] = [
        StyleCustomization(),
        StyleCustomization(rules: [MapStyleRule(feature: "landscape", stylers: [.color(Color(rgb: 0x123456))])]),
        StyleCustomization(rules: [MapStyleRule(stylers: [.invertLightness(true)]), MapStyleRule(stylers: [.hue(Color(rgb: 0xFF0000))])]),
        StyleCustomization(rules: [MapStyleRule(feature: "landscape", stylers: [.visibility(false)])], language: "de"),
    ]

    @Test(arguments: ["normal", "terrain", "hybrid", "satellite"])
    func backgroundOnlyReadGivesTheWholeStylesRasterBase(_ name: String) throws {
        let path = (Self.stylesDirectory as NSString).appendingPathComponent("\(name).json")
        for c in Self.customizations {
            let whole = try Style.load(path: path, customization: c)
            let light = try Style.load(path: path, customization: c, layerTypes: ["background"])
            #expect(light.layers.allSatisfy { $0.type == .background } && !light.layers.isEmpty)
            #expect(BaseMap.takesRasterBase(light) == BaseMap.takesRasterBase(whole))
            #expect(light.sources == whole.sources)
            let a = BaseMap.rasterBaseStyle(background: whole, tileSize: 256)
            let b = BaseMap.rasterBaseStyle(background: light, tileSize: 256)
            let colour = { (s: Style) in s.layers.first?.property(.backgroundColor).color(atZoom: 10) }
            #expect(a.layers.map(\.id) == b.layers.map(\.id))
            #expect(colour(a) == colour(b), "\(name) \(c)")
        }
    }
}
