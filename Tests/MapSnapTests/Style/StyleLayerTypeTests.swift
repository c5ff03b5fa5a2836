import Testing
@testable import MapSnap

@Suite struct StyleLayerTypeTests {
    @Test(arguments: ["background", "fill", "line", "symbol", "raster", "hillshade", "fill-extrusion"])
    func drawnTypesRoundTripTheirNames(name: String) {
        let type = StyleLayerType(name: name)
        #expect(type != .other(name))
        #expect(type.description == name)
    }

    @Test func otherTypesKeepTheirNames() {
        #expect(StyleLayerType(name: "circle") == .other("circle"))
        #expect(StyleLayerType(name: "circle").description == "circle")
        #expect(StyleLayerType(name: "Fill") == .other("Fill"), "names are case-sensitive, as in MapLibre")
        #expect(StyleLayerType(name: "fill-extrusion") == .fillExtrusion)
    }
}
