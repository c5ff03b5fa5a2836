import Foundation

extension RenderSpec {
    /// The spec as a JSON document in the `--spec` schema, with sorted keys so that equal
    /// specs give equal bytes. Reading it back with `RenderSpec.parse` gives the same options,
    /// except that overlays come back grouped by kind in the schema's drawing order
    /// (polygons, circles, paths, markers) and `maximumFitZoom`/`maximumPixelSize`, which the
    /// schema does not carry, return to the defaults given to the parser.
    public func jsonData() throws -> Data {
        try JSONSerialization.data(withJSONObject: jsonObject(), options: [.sortedKeys, .prettyPrinted])
    }

    /// The spec as `JSONSerialization` values; see `jsonData()`.
    public func jsonObject() -> [String: Any] {
        let o = options
        var json: [String: Any] = [
            "size": ["width": o.width, "height": o.height],
            "scale": o.scale,
            "padding": o.padding,
            "fractionalZoom": o.allowsFractionalZoom,
            "style": o.style,
            "scaleBar": o.showsScaleBar,
        ]
        if let center = o.center { json["center"] = Self.location(center) }
        if let zoom = o.zoom { json["zoom"] = zoom }
        if let source = o.source { json["source"] = source }
        if let dem = o.demSource { json["dem"] = dem }
        if let encoding = o.demEncoding { json["demEncoding"] = encoding.rawValue }
        if let attribution = o.attribution { json["attribution"] = attribution.isEmpty ? "none" : attribution }
        if let caption = o.caption { json["caption"] = caption }
        if let output { json["output"] = output }
        if !o.visibleCoordinates.isEmpty { json["visible"] = o.visibleCoordinates.map(Self.location) }
        var paths: [Any] = []
        var markers: [Any] = []
        var polygons: [Any] = []
        var circles: [Any] = []
        for overlay in o.overlays {
            switch overlay {
            case let .path(p): paths.append(Self.path(p))
            case let .marker(m): markers.append(Self.marker(m))
            case let .polygon(p): polygons.append(Self.polygon(p))
            case let .circle(c): circles.append(Self.circle(c))
            }
        }
        if !paths.isEmpty { json["paths"] = paths }
        if !markers.isEmpty { json["markers"] = markers }
        if !polygons.isEmpty { json["polygons"] = polygons }
        if !circles.isEmpty { json["circles"] = circles }
        return json
    }

    private static func location(_ c: LatLng) -> [Double] { [c.latitude, c.longitude] }

    /// `"none"` for an absent fill or stroke, `#rrggbbaa` otherwise.
    private static func color(_ c: Color?) -> String { c.map(\.description) ?? "none" }

    private static func path(_ p: PathOverlay) -> [String: Any] {
        var json: [String: Any] = [
            "coordinates": p.coordinates.map(location), "color": color(p.color), "width": p.width,
            "casingColor": color(p.casingColor), "casingWidth": p.casingWidth, "dash": p.dash,
            "cap": p.cap.rawValue, "join": p.join.rawValue, "geodesic": p.geodesic, "level": p.level.rawValue,
        ]
        if let fill = p.fillColor { json["fillColor"] = color(fill) }
        return json
    }

    private static func marker(_ m: MarkerOverlay) -> [String: Any] {
        var json: [String: Any] = ["location": location(m.coordinate), "color": color(m.color), "level": m.level.rawValue]
        switch m.style {
        case let .pin(size):
            json["size"] = size.rawValue
        case let .dot(diameter):
            json["style"] = "dot"
            json["diameter"] = diameter
        case let .icon(path, anchor):
            json["icon"] = path
            if let anchor { json["anchor"] = [anchor.x, anchor.y] }
        }
        if let label = m.label { json["label"] = label }
        if let title = m.title { json["title"] = title }
        return json
    }

    private static func polygon(_ p: PolygonOverlay) -> [String: Any] {
        ["rings": p.rings.map { $0.map(location) }, "fillColor": color(p.fillColor), "strokeColor": color(p.strokeColor),
         "strokeWidth": p.strokeWidth, "level": p.level.rawValue]
    }

    private static func circle(_ c: CircleOverlay) -> [String: Any] {
        ["center": location(c.center), "radiusMeters": c.radiusMeters, "fillColor": color(c.fillColor),
         "strokeColor": color(c.strokeColor), "strokeWidth": c.strokeWidth, "level": c.level.rawValue]
    }
}
