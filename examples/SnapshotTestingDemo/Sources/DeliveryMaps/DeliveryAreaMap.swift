import MapSnap

/// Where a (fictional) Helsinki bakery delivers, and to whom today.
public struct DeliveryArea: Sendable {
    /// The bakery; the centre of the delivery circle.
    public var bakery: LatLng
    /// Delivery radius in metres.
    public var radiusMeters: Double
    /// Today's orders, drawn as numbered pins.
    public var customers: [LatLng]

    /// The area the demo's tests pin down.
    public static let helsinki = DeliveryArea(
        bakery: LatLng(60.1712, 24.9443),
        radiusMeters: 300,
        customers: [LatLng(60.1730, 24.9425), LatLng(60.1700, 24.9480), LatLng(60.1695, 24.9415)]
    )

    public init(bakery: LatLng, radiusMeters: Double, customers: [LatLng]) {
        self.bakery = bakery
        self.radiusMeters = radiusMeters
        self.customers = customers
    }
}

/// Renders the delivery-area map: the bundled Helsinki street map, the delivery circle,
/// the bakery and one numbered pin per customer, fitted to the circle.
///
/// Deterministic: the same area gives the same PNG bytes on every run, which is what lets
/// the tests compare it against a golden image.
public func deliveryAreaMap(_ area: DeliveryArea = .helsinki) throws -> MapSnapshot {
    var overlays: [Overlay] = [
        .circle(CircleOverlay(center: area.bakery, radiusMeters: area.radiusMeters,
                              fillColor: Color(rgba: 0x1A73E830), strokeColor: Color(rgba: 0x1A73E8C0), strokeWidth: 2)),
        .marker(MarkerOverlay(coordinate: area.bakery, style: .dot(diameter: 12), color: Color(rgb: 0x8B4513),
                              title: "Bakery")),
    ]
    for (i, customer) in area.customers.enumerated() {
        overlays.append(.marker(MarkerOverlay(coordinate: customer, style: .pin(.mid), label: "\(i + 1)")))
    }
    // Fractional zoom: the circle fills the image instead of snapping to the next zoom out.
    let options = MapSnapshotOptions(width: 400, height: 300, padding: 12, allowsFractionalZoom: true,
                                     overlays: overlays, style: "normal")
    return try MapSnapshotter(options: options).render()
}
