import Foundation

extension RenderSpec {
    /// The spec as a JSON document in the `--spec` schema, with sorted keys so that equal
    /// specs give equal bytes. Reading it back with `RenderSpec.parse` gives the same options,
    /// except that overlays come back grouped by kind in the schema's drawing order
    /// (polygons, circles, paths, markers) and `maximumFitZoom`/`maximumPixelSize`, which the
    /// schema does not carry, return to the defaults given to the parser.
    public func jsonData() throws -> Data {
        Data(JSONWriter.bytes(jsonValue(), pretty: true, sortedKeys: true))
    }

    /// The spec as a JSON tree; see `jsonData()`.
    func jsonValue() -> JSONValue {
        let o = options
        var json: JSONObject = [
            "size": .object(["width": .number(Double(o.width)), "height": .number(Double(o.height))]),
            "scale": .number(o.scale),
            "padding": .number(o.padding),
            "fractionalZoom": .bool(o.allowsFractionalZoom),
            "style": .string(o.style),
            "scaleBar": .bool(o.showsScaleBar),
        ]
        if let center = o.center { json["center"] = Self.location(center) }
        if let zoom = o.zoom { json["zoom"] = .number(zoom) }
        if o.isTrackUp { json["bearing"] = .string("auto") } else if o.heading != 0 { json["bearing"] = .number(o.heading) }
        if o.pitch != 0 { json["pitch"] = .number(o.pitch) }
        if let arrow = o.showsNorthArrow { json["northArrow"] = .bool(arrow) }
        if let source = o.source { json["source"] = .string(source) }
        if let basemap = o.basemap { json["basemap"] = .string(basemap.name.rawValue) }
        if let sprite = o.sprite { json["sprite"] = .string(sprite) }
        if let dem = o.demSource { json["dem"] = .string(dem) }
        if let encoding = o.demEncoding { json["demEncoding"] = .string(encoding.rawValue) }
        if let attribution = o.attribution { json["attribution"] = .string(attribution.isEmpty ? "none" : attribution) }
        if let caption = o.caption { json["caption"] = .string(caption) }
        if let output { json["output"] = .string(output) }
        if !o.visibleCoordinates.isEmpty { json["visible"] = .array(o.visibleCoordinates.map(Self.location)) }
        var paths: [JSONValue] = []
        var markers: [JSONValue] = []
        var polygons: [JSONValue] = []
        var circles: [JSONValue] = []
        for overlay in o.overlays {
            switch overlay {
            case let .path(p): paths.append(Self.path(p))
            case let .marker(m): markers.append(Self.marker(m))
            case let .polygon(p): polygons.append(Self.polygon(p))
            case let .circle(c): circles.append(Self.circle(c))
            }
        }
        if !paths.isEmpty { json["paths"] = .array(paths) }
        if !markers.isEmpty { json["markers"] = .array(markers) }
        if !polygons.isEmpty { json["polygons"] = .array(polygons) }
        if !circles.isEmpty { json["circles"] = .array(circles) }
        return .object(json)
    }

    private static func location(_ c: LatLng) -> JSONValue { .array([.number(c.latitude), .number(c.longitude)]) }

    /// `"none"` for an absent fill or stroke, `#rrggbbaa` otherwise.
    private static func color(_ c: Color?) -> JSONValue { .string(c.map(\.description) ?? "none") }

    private static func path(_ p: PathOverlay) -> JSONValue {
        var json: JSONObject = [
            "coordinates": .array(p.coordinates.map(location)), "color": color(p.color), "width": .number(p.width),
            "casingColor": color(p.casingColor), "casingWidth": .number(p.casingWidth), "dash": .array(p.dash.map(JSONValue.number)),
            "cap": .string(p.cap.rawValue), "join": .string(p.join.rawValue), "geodesic": .bool(p.geodesic),
            "level": .string(p.level.rawValue),
        ]
        if let fill = p.fillColor { json["fillColor"] = color(fill) }
        return .object(json)
    }

    private static func marker(_ m: MarkerOverlay) -> JSONValue {
        var json: JSONObject = ["location": location(m.coordinate), "color": color(m.color), "level": .string(m.level.rawValue)]
        switch m.style {
        case let .pin(size):
            json["size"] = .string(size.rawValue)
        case let .dot(diameter):
            json["style"] = .string("dot")
            json["diameter"] = .number(diameter)
        case let .icon(path, anchor):
            json["icon"] = .string(path)
            if let anchor {
                json["anchor"] = .array([.number(anchor.x), .number(anchor.y)])
            } else if let name = m.iconAnchorFraction?.name {
                json["anchor"] = .string(name)
            }
        case .callout:
            json["style"] = .string("callout")
        }
        if let label = m.label { json["label"] = .string(label) }
        if let title = m.title { json["title"] = .string(title) }
        if let snippet = m.snippet { json["snippet"] = .string(snippet) }
        if m.opacity != 1 { json["opacity"] = .number(m.opacity) }
        return .object(json)
    }

    private static func polygon(_ p: PolygonOverlay) -> JSONValue {
        .object(["rings": .array(p.rings.map { .array($0.map(location)) }), "fillColor": color(p.fillColor),
                 "strokeColor": color(p.strokeColor), "strokeWidth": .number(p.strokeWidth), "level": .string(p.level.rawValue)])
    }

    private static func circle(_ c: CircleOverlay) -> JSONValue {
        .object(["center": location(c.center), "radiusMeters": .number(c.radiusMeters), "fillColor": color(c.fillColor),
                 "strokeColor": color(c.strokeColor), "strokeWidth": .number(c.strokeWidth), "level": .string(c.level.rawValue)])
    }
}
