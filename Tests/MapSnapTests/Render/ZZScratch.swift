import Testing
@testable import MapSnap

@Test func scratchRender() throws {
    var o = MapSnapshotOptions(width: 600, height: 400, scale: 1)
    let route = [LatLng(60.17135, 24.94135), LatLng(60.17040, 24.94110), LatLng(60.17000, 24.94240), LatLng(60.16960, 24.94480),
                 LatLng(60.16930, 24.94700), LatLng(60.16935, 24.94960), LatLng(60.16945, 24.95190), LatLng(60.16905, 24.95240)]
    o.overlays = [
        .path(PathOverlay(coordinates: route, color: Color(rgb: 0x1a73e8), width: 5, casingColor: .white, casingWidth: 2)),
        .marker(MarkerOverlay(coordinate: route[0], color: Color(rgb: 0x34a853), label: "A", title: "Central Station")),
        .marker(MarkerOverlay(coordinate: route[4], style: .pin(.mid), color: Color(rgb: 0xfbbc05), label: "1", title: "Senate Square")),
        .marker(MarkerOverlay(coordinate: route[5], style: .pin(.small), color: Color(rgb: 0x9c27b0))),
        .marker(MarkerOverlay(coordinate: route[6], style: .pin(.tiny), color: Color(rgb: 0x9c27b0))),
        .marker(MarkerOverlay(coordinate: route[7], style: .dot(diameter: 14), color: Color(rgb: 0xea4335), label: "B", title: "東京 Market")),
        .circle(CircleOverlay(center: route[3], radiusMeters: 80)),
    ]
    o.caption = "Walk through central Helsinki · 1.2 km"
    o.attribution = "© OpenStreetMap contributors"
    for s in [1.0, 2.0] {
        o.scale = s
        let snap = try MapSnapshotter(options: o).render()
        try snap.write(to: "/tmp/scratch-\(Int(s)).png")
    }
}
