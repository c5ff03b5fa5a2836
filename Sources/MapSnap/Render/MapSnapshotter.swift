import Foundation

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
/// base-map labels (clear of markers, titles and the routes drawn above them) → overlays
/// (above labels) → decorations (scale bar, attribution, caption).
public struct MapSnapshotter: Sendable {
    /// What to render.
    public var options: MapSnapshotOptions
    /// Keeps styles, sources, decoded tiles and glyphs between renders.
    public let renderer: MapRenderer

    /// A snapshotter for `options`, sharing `renderer`'s caches (the process-wide one by default).
    public init(options: MapSnapshotOptions, renderer: MapRenderer = .shared) {
        self.options = options
        self.renderer = renderer
    }

    /// Renders the image. Throws `RenderError` for invalid options or unusable inputs;
    /// recoverable problems (a skipped tile, an unsupported style property) become warnings
    /// on the snapshot.
    public func render() throws(RenderError) -> MapSnapshot {
        if let basemap = options.basemap { return try render(basemap) }
        try validate()
        let deadline = Deadline.after(seconds: options.renderTimeout)
        let drawingDeadline = Deadline.after(seconds: options.drawingTimeout)
        let threads = max(1, options.maximumThreads ?? ProcessInfo.processInfo.activeProcessorCount)
        // A style not prepared yet (parsed, its sources opened) is prepared on another thread
        // while the fonts load and the camera is made.
        let renderer = self.renderer, options = self.options
        let key = renderer.setupKey(options)
        let style = threads > 1 && !renderer.hasPreparedStyle(key)
            ? Pending { Result { () throws(RenderError) in try renderer.preparedStyle(key, deadline: deadline) } } : nil
        let text = renderer.text.forRender()
        var http = options.http
        http.scale = options.scale
        let icons = IconStore(fetcher: HTTPResourceFetcher(options: http, deadline: deadline, allowList: options.iconAllowList))
        let projected = options.overlays.map(ProjectedOverlay.init)
        let camera = makeCamera(projected, text: text, icons: icons)
        // Before any pixel: a map whose overlays would cost too much is refused whole.
        if let limit = options.maximumDrawingCost {
            let cost = DrawingCost.estimate(projected, camera: camera)
            if cost > limit { throw RenderError.drawingTooCostly(estimate: cost, limit: limit) }
        }
        // A long route's outline and edges need no pixels: made on another thread while the
        // base map is drawn (the same fills either way, so the same bytes).
        let routes = threads > 1 && OverlayPainter.routesWorthPreparing(projected)
            ? Pending { OverlayPainter.prepareRoutes(projected, camera: camera, threads: threads) } : nil
        // A big canvas's first touch (the kernel zeroing its pages) is made on another thread
        // while the style is prepared and the tiles are found.
        let blank = threads > 1 && camera.pixelWidth * camera.pixelHeight >= 1 << 20
            ? Pending { Canvas(width: camera.pixelWidth, height: camera.pixelHeight, fill: .white) } : nil
        let setup: BaseMapSetup
        if let style { setup = try style.value.get() } else { setup = try renderer.preparedStyle(key, deadline: deadline) }
        let base = BaseMap(setup: setup, tileCache: renderer.tiles)
        var warnings: [String] = []
        base.maxThreads = options.maximumThreads
        base.loadOrder = options.tileLoadOrder
        base.deadline = deadline
        base.prepare(camera: camera)
        let canvas = blank?.value ?? Canvas(width: camera.pixelWidth, height: camera.pixelHeight, fill: .white)
        canvas.maximumThreads = threads
        // Measured from the start of the render, like the tile deadline.
        canvas.deadline = drawingDeadline
        let timedOut = { [options] in RenderError.timedOut(seconds: options.drawingTimeout ?? 0) }
        let labels = LabelCollisionIndex(width: canvas.width, height: canvas.height)
        var painter = OverlayPainter(camera: camera, canvas: canvas, text: text, icons: icons, overlays: projected)
        let decorations = Decorations(camera: camera, canvas: canvas, text: text)
        // Decorations reserve their space first so base-map labels keep clear of them.
        let northArrow = options.showsNorthArrow ?? (camera.isRotated || camera.isPitched)
        let reserved = decorations.reservedRects(attribution: attributionText(base), caption: options.caption,
                                                 scaleBar: options.showsScaleBar, northArrow: northArrow)
        for r in reserved { labels.insert(r) }
        drawing: do throws(OverlayError) {
            try painter.planMarkers(labels: labels)
            // Routes drawn over the labels would hide them: base-map labels keep clear. Only
            // the base map's label placement reads those areas (marker titles are placed).
            if base.placesLabels(atZoom: camera.zoom) {
                painter.reserveRoutes(level: .aboveLabels, labels: labels)
            }
            base.drawLayers(camera: camera, canvas: canvas, labels: labels, pass: .belowLabels, text: text)
            if let routes { painter.preparedStrokes = routes.value }
            if canvas.drawingWasAbandoned { break drawing }
            try painter.draw(level: .aboveRoads)
            if canvas.drawingWasAbandoned { break drawing }
            base.drawLayers(camera: camera, canvas: canvas, labels: labels, pass: .labels, text: text)
            if canvas.drawingWasAbandoned { break drawing }
            try painter.draw(level: .aboveLabels)
        } catch {
            throw .overlay(error)
        }
        // The last overlay's fill may have been cut short: an unfinished image is never returned.
        if canvas.drawingWasAbandoned { throw timedOut() }
        warnings.append(contentsOf: base.allWarnings)
        warnings.append(contentsOf: base.namedSourceWarnings)
        if let w = painter.farMarkersWarning { warnings.append(w) }
        let coverage = base.coverage(camera: camera)
        if let w = coverage.warning { warnings.append(w) }

        let attribution = attributionText(base)
        if options.attribution == nil {
            for name in base.uncreditedSources {
                warnings.append("\(name): no attribution in its metadata, so the map credits no one for its data; "
                                + "give the credit with --attribution TEXT (or --attribution none to leave it off)")
            }
        }
        decorations.draw(attribution: attribution, caption: options.caption, scaleBar: options.showsScaleBar,
                         northArrow: northArrow)
        warnings.append(contentsOf: text.warnings)
        return MapSnapshot(image: canvas.image, camera: camera, warnings: warnings, attribution: attribution,
                           baseMapTiles: base.tileStatistics, coverage: coverage, encoderThreads: canvas.maximumThreads)
    }

    /// nil option → the sources' attribution; "" → none; otherwise the text given.
    func attributionText(_ base: BaseMap) -> String {
        if let a = options.attribution { return a }
        return base.attribution
    }

    func validate() throws(RenderError) {
        let o = options
        guard o.width >= 1, o.height >= 1 else { throw RenderError.invalidSize(width: o.width, height: o.height) }
        guard o.scale.isFinite, o.scale >= 1, o.scale <= 4 else { throw RenderError.invalidScale(o.scale) }
        if let z = o.zoom, !(z.isFinite && z >= 0 && z <= 22) { throw RenderError.invalidZoom(z) }
        guard o.heading.isFinite, abs(o.heading) <= 360 else { throw RenderError.invalidHeading(o.heading) }
        guard o.pitch.isFinite, o.pitch >= 0, o.pitch <= Camera.maximumPitch else { throw RenderError.invalidPitch(o.pitch) }
        guard o.padding.isFinite, o.padding >= 0 else { throw RenderError.invalidPadding(o.padding) }
        let pw = Double(o.width) * o.scale, ph = Double(o.height) * o.scale
        let limit = o.maximumPixelSize
        if pw.rounded() > Double(limit) || ph.rounded() > Double(limit) {
            throw RenderError.imageTooLarge(pixelWidth: Int(min(pw.rounded(), 1e9)), pixelHeight: Int(min(ph.rounded(), 1e9)), limit: limit)
        }
        let areaLimit = min(o.maximumPixelCount, MapSnapshotOptions.hardMaximumPixelCount)
        if pw.rounded() * ph.rounded() > Double(areaLimit) {
            throw RenderError.imageAreaTooLarge(pixelWidth: Int(pw.rounded()), pixelHeight: Int(ph.rounded()), limit: areaLimit)
        }
        if let c = o.center, !c.isValid { throw RenderError.invalidCoordinate(what: "center", c) }
        for (i, c) in o.visibleCoordinates.enumerated() where !c.isValid {
            throw RenderError.invalidCoordinate(what: "visible #\(i + 1)", c)
        }
        for (i, overlay) in o.overlays.enumerated() {
            let (what, coords) = overlay.describe(index: i)
            if let bad = coords.first(where: { !$0.isValidVertex }) {
                throw RenderError.invalidVertex(what: what, bad)
            }
        }
    }

    /// The camera: as given, or fitted to overlays and visible points with their pixel margins,
    /// turned to the heading (track-up: the overlays' own), then tilted to the pitch.
    ///
    /// A pitched fit is the flat fit zoomed out by the magnification of the flat image's
    /// bottom edge, 1 / (1 − sin(pitch)/3) (half a zoom level at 60°): tilting magnifies the
    /// near half by at most that, so whatever the flat fit showed stays inside the tilted
    /// image (the far half shrinks towards the centre).
    func makeCamera(_ overlays: [ProjectedOverlay], text: TextEngine, icons: IconStore) -> Camera {
        var camera = flatCamera(overlays, text: text, icons: icons)
        camera.pitch = options.pitch
        if camera.isPitched, options.zoom == nil {
            let magnification = 1 / (1 - sin(options.pitch * .pi / 180) * Double(camera.pixelHeight) / 2 / camera.eyeDistance)
            var zoom = camera.zoom - log2(magnification)
            if !options.allowsFractionalZoom { zoom = floor(zoom + 1e-9) }
            camera.zoom = max(0, zoom)
        }
        return camera
    }

    private func flatCamera(_ overlays: [ProjectedOverlay], text: TextEngine, icons: IconStore) -> Camera {
        let o = options
        let heading = o.isTrackUp ? Self.trackUpHeading(overlays, visible: o.visibleCoordinates) : o.heading
        if let c = o.center, let z = o.zoom {
            return Camera(center: c, zoom: z, width: o.width, height: o.height, scale: o.scale, heading: heading)
        }
        var items = overlays.map { $0.fitItem(scale: o.scale, text: text, icons: icons) }
        if !o.visibleCoordinates.isEmpty {
            items.append(contentsOf: o.visibleCoordinates.map { FitItem(points: [WebMercator.project($0)]) })
        }
        return CameraFit.camera(fitting: items, width: o.width, height: o.height, scale: o.scale,
                                padding: o.padding, center: o.center, zoom: o.zoom,
                                fractional: o.allowsFractionalZoom, maximumZoom: o.maximumFitZoom, heading: heading)
    }

    /// Track-up's heading: from the paths (routes, tracks) when there are any, else from
    /// every overlay's points and the visible points.
    static func trackUpHeading(_ overlays: [ProjectedOverlay], visible: [LatLng]) -> Double {
        var lines: [[WorldPoint]] = overlays.compactMap { o in
            if case .path = o.overlay { return o.lines.first } else { return nil }
        }
        if lines.isEmpty {
            lines = overlays.compactMap(\.lines.first) + [CameraFit.unwrappedWorldPoints(visible)]
        }
        return CameraFit.trackUpHeading(lines)
    }
}

/// A rendered map: the image, the camera that produced it, and warnings.
public struct MapSnapshot: Sendable {
    /// The image.
    public let image: MapImage
    /// The view the image shows: centre, zoom, size and scale (fitted, when the options
    /// left them open).
    public let camera: Camera
    /// Recoverable problems met while rendering (skipped tiles, unsupported style features).
    public let warnings: [String]
    /// The credit line drawn on the image ("" when none): the sources that supplied tiles,
    /// or the caller's `attribution`.
    public let attribution: String
    /// How the base map's tiles fared; `baseMapTiles.nothingLoaded` means the map shows no
    /// base-map data because every tile that exists failed (see `TileLoadStatistics`).
    public let baseMapTiles: TileLoadStatistics
    /// How much of the image the base map draws with detail (not only over-zoomed or empty);
    /// `coverage.warning`, when set, is also in `warnings`.
    public let coverage: MapCoverage
    /// Threads encoding may use: the render's (`MapSnapshotOptions.maximumThreads`).
    let encoderThreads: Int

    /// Image pixel of a coordinate, like `MKMapSnapshotter.Snapshot.point(for:)`.
    public func point(for coordinate: LatLng) -> PixelPoint { camera.point(for: coordinate) }

    /// The coordinate at an image pixel.
    public func coordinate(for point: PixelPoint) -> LatLng { camera.coordinate(for: point) }

    /// PNG bytes of the image (RGB when opaque, RGBA otherwise); deterministic. Encoded with
    /// as many threads as the render was allowed (the bytes never depend on it).
    public func pngData() throws(PNGError) -> [UInt8] { try image.pngData(threads: encoderThreads) }

    /// The image in `format` (see `MapImage.data(format:quality:threads:)`), encoded with as
    /// many threads as the render was allowed; deterministic.
    public func data(format: ImageFormat, quality: Int? = nil) throws -> [UInt8] {
        try image.data(format: format, quality: quality, threads: encoderThreads)
    }

    /// Writes the PNG atomically (temporary file + rename).
    public func write(to path: String) throws {
        try AtomicFile.write(try pngData(), to: path)
    }
}

extension Overlay {
    /// A human name for an overlay in error messages, and its coordinates.
    func describe(index: Int) -> (String, [LatLng]) {
        switch self {
        case .path(let p): return ("overlay #\(index + 1) (path)", p.coordinates)
        case .polygon(let p): return ("overlay #\(index + 1) (polygon)", p.rings.flatMap { $0 })
        case .circle(let c): return ("overlay #\(index + 1) (circle)", [c.center])
        case .marker(let m): return ("overlay #\(index + 1) (marker)", [m.coordinate])
        }
    }
}
