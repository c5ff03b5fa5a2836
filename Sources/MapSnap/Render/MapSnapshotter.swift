/// Renders a map image from `MapSnapshotOptions`, like `MKMapSnapshotter`.
///
/// ```swift
/// var options = MapSnapshotOptions(width: 600, height: 400)
/// options.overlays = [.marker(MarkerOverlay(coordinate: LatLng(60.1699, 24.9384), label: "A"))]
/// let snapshot = try MapSnapshotter(options: options).render()
/// try snapshot.write(to: "map.png")
/// ```
///
/// Pipeline: validate → camera (given or fitted) → base map → overlays (above roads) →
/// base-map labels → overlays (above labels) → decorations (scale bar, attribution, caption).
public struct MapSnapshotter: Sendable {
    public var options: MapSnapshotOptions
    /// Keeps styles, sources, decoded tiles and glyphs between renders.
    public let renderer: MapRenderer

    public init(options: MapSnapshotOptions, renderer: MapRenderer = .shared) {
        self.options = options
        self.renderer = renderer
    }

    /// Renders the image. Throws `RenderError` for invalid options or unusable inputs;
    /// recoverable problems (a skipped tile, an unsupported style property) become warnings
    /// on the snapshot.
    public func render() throws -> MapSnapshot {
        let started = ContinuousClock.now
        try validate()
        let text = renderer.text
        let camera = makeCamera(text: text)
        let base = BaseMap(setup: try renderer.preparedStyle(for: options), tileCache: renderer.tiles)
        let canvas = Canvas(width: camera.pixelWidth, height: camera.pixelHeight, fill: .white)
        var warnings: [String] = []
        base.maxThreads = options.maximumThreads
        base.loadOrder = options.tileLoadOrder
        base.fetchDeadline = FetchClock.instant(after: options.http.renderTimeout, from: started)
        base.prepare(camera: camera)
        let labels = LabelCollisionIndex(width: canvas.width, height: canvas.height)
        var painter = OverlayPainter(camera: camera, canvas: canvas, text: text, icons: IconStore())
        let decorations = Decorations(camera: camera, canvas: canvas, text: text)
        // Decorations reserve their space first so base-map labels keep clear of them.
        let reserved = decorations.reservedRects(attribution: attributionText(base), caption: options.caption,
                                                 scaleBar: options.showsScaleBar)
        for r in reserved { labels.insert(r) }
        try painter.planMarkers(options.overlays, labels: labels)

        base.drawLayers(camera: camera, canvas: canvas, labels: labels, pass: .belowLabels, text: text)
        try painter.draw(options.overlays, level: .aboveRoads)
        base.drawLayers(camera: camera, canvas: canvas, labels: labels, pass: .labels, text: text)
        try painter.draw(options.overlays, level: .aboveLabels)
        warnings.append(contentsOf: base.allWarnings)
        warnings.append(contentsOf: painter.warnings)

        let attribution = attributionText(base)
        decorations.draw(attribution: attribution, caption: options.caption, scaleBar: options.showsScaleBar)
        return MapSnapshot(canvas: canvas, camera: camera, warnings: warnings, attribution: attribution)
    }

    /// nil option → the sources' attribution; "" → none; otherwise the text given.
    func attributionText(_ base: BaseMap) -> String {
        if let a = options.attribution { return a }
        return base.attribution
    }

    func validate() throws {
        let o = options
        guard o.width >= 1, o.height >= 1 else { throw RenderError.invalidSize(width: o.width, height: o.height) }
        guard o.scale.isFinite, o.scale >= 1, o.scale <= 4 else { throw RenderError.invalidScale(o.scale) }
        if let z = o.zoom, !(z.isFinite && z >= 0 && z <= 22) { throw RenderError.invalidZoom(z) }
        guard o.padding.isFinite, o.padding >= 0 else { throw RenderError.invalidPadding(o.padding) }
        let pw = Double(o.width) * o.scale, ph = Double(o.height) * o.scale
        let limit = o.maximumPixelSize
        if pw.rounded() > Double(limit) || ph.rounded() > Double(limit) {
            throw RenderError.imageTooLarge(pixelWidth: Int(min(pw.rounded(), 1e9)), pixelHeight: Int(min(ph.rounded(), 1e9)), limit: limit)
        }
        if let c = o.center, !c.isValid { throw RenderError.invalidCoordinate(what: "center", c) }
        for (i, c) in o.visibleCoordinates.enumerated() where !c.isValid {
            throw RenderError.invalidCoordinate(what: "visible #\(i + 1)", c)
        }
        for (i, overlay) in o.overlays.enumerated() {
            let (what, coords) = OverlayGeometry.describe(overlay, index: i)
            if let bad = coords.first(where: { !$0.isValid }) {
                throw RenderError.invalidCoordinate(what: what, bad)
            }
        }
    }

    /// The camera: as given, or fitted to overlays and visible points with their pixel margins.
    func makeCamera(text: TextEngine) -> Camera {
        let o = options
        if let c = o.center, let z = o.zoom {
            return Camera(center: c, zoom: z, width: o.width, height: o.height, scale: o.scale)
        }
        var items: [FitItem] = []
        items.reserveCapacity(o.overlays.count + 1)
        for overlay in o.overlays {
            items.append(fitItem(for: overlay, text: text))
        }
        if !o.visibleCoordinates.isEmpty {
            items.append(contentsOf: o.visibleCoordinates.map { FitItem(points: [WebMercator.project($0)]) })
        }
        return CameraFit.camera(fitting: items, width: o.width, height: o.height, scale: o.scale,
                                padding: o.padding, center: o.center, zoom: o.zoom,
                                fractional: o.allowsFractionalZoom, maximumZoom: o.maximumFitZoom)
    }

    func fitItem(for overlay: Overlay, text: TextEngine) -> FitItem {
        let s = options.scale
        switch overlay {
        case .path(let p):
            var coords = p.coordinates
            if p.geodesic, coords.count > 1 {
                var dense = [coords[0]]
                for i in 1..<coords.count {
                    dense.append(contentsOf: Geodesy.greatCircle(from: coords[i - 1], to: coords[i]).dropFirst())
                }
                coords = dense
            }
            let m = (p.width / 2 + (p.casingColor == nil ? 0 : p.casingWidth)) * s
            return FitItem(points: CameraFit.unwrappedWorldPoints(coords), marginLeft: m, marginTop: m, marginRight: m, marginBottom: m)
        case .polygon(let p):
            let m = p.strokeWidth / 2 * s
            return FitItem(points: CameraFit.unwrappedWorldPoints(p.rings.first ?? []), marginLeft: m, marginTop: m, marginRight: m, marginBottom: m)
        case .circle(let c):
            let ring = Geodesy.circle(center: c.center, radiusMeters: c.radiusMeters, segments: 64)
            let m = c.strokeWidth / 2 * s
            return FitItem(points: CameraFit.unwrappedWorldPoints(ring), marginLeft: m, marginTop: m, marginRight: m, marginBottom: m)
        case .marker(let mk):
            var l = 0.0, t = 0.0, r = 0.0, b = 0.0
            switch mk.style {
            case .pin(let size):
                let m = PinShape(size: size).margins(scale: s)
                (l, t, r, b) = (m.left, m.top, m.right, m.bottom)
            case .dot(let d):
                let m = (d / 2 + 1.5) * s
                (l, t, r, b) = (m, m, m, m)
            case .icon(let path, let anchor):
                if let img = try? IconStore.sharedDecode(path) {
                    let a = anchor ?? PixelPoint(x: Double(img.width) / 2, y: Double(img.height))
                    l = a.x * s; t = a.y * s
                    r = (Double(img.width) - a.x) * s; b = (Double(img.height) - a.y) * s
                }
            }
            if let title = mk.title, !title.isEmpty {
                // Titles go to the right of the marker by default.
                let m = text.measure(title, sizePoints: 13, bold: false, scale: s, haloPoints: 2)
                r += m.width + 3 * s
            }
            return FitItem(points: [WebMercator.project(mk.coordinate)], marginLeft: l, marginTop: t, marginRight: r, marginBottom: b)
        }
    }
}

/// A rendered map: the image, the camera that produced it, and warnings.
public struct MapSnapshot: @unchecked Sendable {
    /// The image (premultiplied RGBA8).
    public let canvas: Canvas
    public let camera: Camera
    /// Recoverable problems met while rendering (skipped tiles, unsupported style features).
    public let warnings: [String]
    /// The credit line drawn on the image ("" when none): the sources that supplied tiles,
    /// or the caller's `attribution`.
    public let attribution: String

    /// Image pixel of a coordinate, like `MKMapSnapshotter.Snapshot.point(for:)`.
    public func point(for coordinate: LatLng) -> PixelPoint { camera.point(for: coordinate) }

    /// The coordinate at an image pixel.
    public func coordinate(for point: PixelPoint) -> LatLng { camera.coordinate(for: point) }

    /// PNG bytes of the image (RGB when opaque, RGBA otherwise); deterministic.
    public func pngData() throws -> [UInt8] { try PNGCodec.encode(canvas) }

    /// Writes the PNG atomically (temporary file + rename).
    public func write(to path: String) throws {
        try AtomicFile.write(try pngData(), to: path)
    }
}

extension OverlayGeometry {
    /// A human name for an overlay in error messages and its coordinates.
    static func describe(_ overlay: Overlay, index: Int) -> (String, [LatLng]) {
        switch overlay {
        case .path(let p): return ("overlay #\(index + 1) (path)", p.coordinates)
        case .polygon(let p): return ("overlay #\(index + 1) (polygon)", p.rings.flatMap { $0 })
        case .circle(let c): return ("overlay #\(index + 1) (circle)", [c.center])
        case .marker(let m): return ("overlay #\(index + 1) (marker)", [m.coordinate])
        }
    }
}
