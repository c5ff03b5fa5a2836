import Foundation
import Testing
@testable import MapSnap

/// Golden images of every overlay kind on a plain background, at scale 1 and 2.
/// Text is FreeType output from the bundled fonts; compared exactly, like every golden.
@Suite struct OverlayGoldenTests {
    static let center = LatLng(60.1699, 24.9450)

    func options(scale: Double, _ overlays: [Overlay], width: Int = 360, height: Int = 280) -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: width, height: height, scale: scale, center: Self.center, zoom: 15,
                                   overlays: overlays, style: TestPaths.plainStyle, attribution: "", showsScaleBar: false)
        o.padding = 0
        return o
    }

    func render(_ o: MapSnapshotOptions) throws -> MapImage {
        try MapSnapshotter(options: o).render().image
    }

    /// Offsets from the centre in degrees → coordinate.
    func at(_ dLat: Double, _ dLon: Double) -> LatLng { LatLng(Self.center.latitude + dLat, Self.center.longitude + dLon) }

    @Test(arguments: [1.0, 2.0])
    func markerSizesColorsAndLabels(scale: Double) throws {
        var overlays: [Overlay] = []
        let colors: [Color] = [Color(rgb: 0xEA4335), Color(rgb: 0x34A853), Color(rgb: 0x4285F4), Color(rgb: 0xFBBC05), Color(rgb: 0x202124)]
        for (row, size) in MarkerOverlay.PinSize.allCases.enumerated() {
            for (col, color) in colors.enumerated() {
                let label = col == 0 ? nil : (col % 2 == 0 ? String(col) : String(UnicodeScalar(UInt8(64 + col))))
                overlays.append(.marker(MarkerOverlay(coordinate: at([0.0022, 0.0011, -0.0003, -0.0018][row], -0.0050 + Double(col) * 0.0020),
                                                      style: .pin(size), color: color, label: label)))
            }
        }
        overlays.append(.marker(MarkerOverlay(coordinate: at(-0.0026, -0.0040), style: .dot(diameter: 10), color: Color(rgb: 0x4285F4))))
        overlays.append(.marker(MarkerOverlay(coordinate: at(-0.0026, -0.0020), style: .dot(diameter: 16), color: Color(rgb: 0xEA4335), label: "7")))
        Golden.expect(try render(options(scale: scale, overlays)), named: "markers@\(Int(scale))x", in: "Overlays")
    }

    @Test(arguments: [1.0, 2.0])
    func titlesWithHalo(scale: Double) throws {
        let overlays: [Overlay] = [
            .path(PathOverlay(coordinates: [at(0.002, -0.006), at(-0.002, 0.006)], color: Color(rgb: 0x202124), width: 6)),
            .marker(MarkerOverlay(coordinate: at(0.0010, -0.0030), label: "A", title: "Central Station")),
            .marker(MarkerOverlay(coordinate: at(-0.0005, 0.0005), style: .pin(.mid), color: Color(rgb: 0x4285F4), label: "12", title: "Senaatintori ✓")),
            .marker(MarkerOverlay(coordinate: at(-0.0018, 0.0030), style: .dot(diameter: 12), color: Color(rgb: 0x34A853), title: "東京 · Tōkyō")),
        ]
        Golden.expect(try render(options(scale: scale, overlays)), named: "titles@\(Int(scale))x", in: "Overlays")
    }

    @Test(arguments: [1.0, 2.0])
    func pathJoinsCapsDashesAndAlpha(scale: Double) throws {
        func zigzag(_ lat: Double) -> [LatLng] { [at(lat, -0.006), at(lat + 0.0009, -0.0045), at(lat, -0.003)] }
        let overlays: [Overlay] = [
            .path(PathOverlay(coordinates: zigzag(0.0015), color: Color(rgb: 0x4285F4), width: 10, cap: .butt, join: .miter)),
            .path(PathOverlay(coordinates: zigzag(0.0000), color: Color(rgb: 0x4285F4), width: 10, cap: .round, join: .round)),
            .path(PathOverlay(coordinates: zigzag(-0.0015), color: Color(rgb: 0x4285F4), width: 10, cap: .square, join: .bevel)),
            // A hairpin: the miter limit falls back to bevel instead of a spike.
            .path(PathOverlay(coordinates: [at(0.0020, -0.0015), at(-0.0020, -0.0008), at(0.0020, -0.0001)],
                              color: Color(rgb: 0xEA4335), width: 6, cap: .butt, join: .miter)),
            // Translucent, self-crossing: no darker overlap where it crosses itself.
            .path(PathOverlay(coordinates: [at(0.0020, 0.0010), at(-0.0020, 0.0050), at(-0.0020, 0.0010), at(0.0020, 0.0050)],
                              color: Color(rgba: 0x34A85380), width: 12)),
            // Dashed with a casing.
            .path(PathOverlay(coordinates: [at(-0.0026, -0.006), at(-0.0026, 0.006)], color: Color(rgb: 0xFBBC05), width: 4,
                              casingColor: Color(rgb: 0x202124), casingWidth: 1.5, dash: [8, 6], cap: .butt)),
            // A hairline.
            .path(PathOverlay(coordinates: [at(0.0027, -0.006), at(0.0022, 0.006)], color: Color(rgb: 0x202124), width: 0.5)),
        ]
        Golden.expect(try render(options(scale: scale, overlays)), named: "paths@\(Int(scale))x", in: "Overlays")
    }

    @Test(arguments: [1.0, 2.0])
    func polygonsWithHolesAndCircles(scale: Double) throws {
        let outer = [at(0.0025, -0.0060), at(0.0025, -0.0005), at(-0.0025, -0.0005), at(-0.0025, -0.0060)]
        let hole1 = [at(0.0012, -0.0048), at(0.0012, -0.0030), at(-0.0005, -0.0030), at(-0.0005, -0.0048)]
        let hole2 = [at(-0.0010, -0.0022), at(-0.0018, -0.0012), at(-0.0018, -0.0028)]
        let overlays: [Overlay] = [
            .polygon(PolygonOverlay(rings: [outer, hole1, hole2], fillColor: Color(rgba: 0x4285F466),
                                    strokeColor: Color(rgb: 0x1A73E8), strokeWidth: 2)),
            .circle(CircleOverlay(center: at(0.0005, 0.0030), radiusMeters: 150)),
            .circle(CircleOverlay(center: at(-0.0010, 0.0045), radiusMeters: 60, fillColor: Color(rgba: 0x34A85399),
                                  strokeColor: nil, strokeWidth: 0)),
            .path(PathOverlay(coordinates: [at(0.0020, 0.0005), at(0.0020, 0.0058), at(-0.0005, 0.0058)],
                              color: Color(rgb: 0x9C27B0), width: 3, fillColor: Color(rgba: 0x9C27B033))),
        ]
        Golden.expect(try render(options(scale: scale, overlays)), named: "polygons@\(Int(scale))x", in: "Overlays")
    }

    @Test(arguments: [1.0, 2.0])
    func scaleBarAttributionAndCaption(scale: Double) throws {
        var o = options(scale: scale, [.marker(MarkerOverlay(coordinate: Self.center, style: .pin(.small)))])
        o.showsScaleBar = true
        o.attribution = "© OpenStreetMap contributors"
        o.caption = "Route 4.2 km · 1 h"
        Golden.expect(try render(o), named: "decorations@\(Int(scale))x", in: "Overlays")
    }

    @Test func customIconWithAnchor() throws {
        // A 12×20 icon: red bar with a black foot; anchored at its foot.
        let icon = Canvas(width: 12, height: 20, fill: Color(rgb: 0xEA4335))
        var foot = Path()
        foot.addRect(PixelRect(x: 0, y: 16, width: 12, height: 4))
        icon.fill(foot, color: .black)
        let dir = TestPaths.temporaryDirectory()
        let path = dir + "/icon.png"
        try AtomicFile.write(try PNGCodec.encode(icon), to: path)
        let o = options(scale: 2, [.marker(MarkerOverlay(coordinate: Self.center, style: .icon(path: path, anchor: PixelPoint(x: 6, y: 20))))],
                        width: 60, height: 60)
        let canvas = try render(o)
        // The anchor (6, 20) sits on the coordinate at the image centre (60, 60): the foot
        // spans y 52…60 at scale 2, the red bar above it.
        #expect(canvas.color(atX: 60, y: 57) == .black)
        #expect(canvas.color(atX: 60, y: 40) == Color(rgb: 0xEA4335))
        #expect(canvas.color(atX: 60, y: 62) == Color(rgb: 0xF4F1EA))
        #expect(canvas.color(atX: 46, y: 40) == Color(rgb: 0xF4F1EA))  // icon spans x 48…72
    }
}
