/// Draws overlays in layer order for one camera: at each level, shapes in the order given,
/// then markers (southern pins over northern ones), then marker titles. What each overlay
/// looks like is its own business (`Overlays/`); this type decides order and where titles go.
struct OverlayPainter {
    let context: OverlayContext
    /// The overlays with their world geometry, projected once for fitting and drawing.
    let overlays: [ProjectedOverlay]

    init(camera: Camera, canvas: Canvas, text: TextEngine, icons: IconStore, overlays: [ProjectedOverlay]) {
        context = OverlayContext(camera: camera, canvas: canvas, text: text, icons: icons)
        self.overlays = overlays
    }

    /// Where each marker's title goes, by overlay index (planned before any label is drawn).
    private var titleRects: [Int: PixelRect] = [:]
    /// Fills made ahead of drawing (`prepareRoutes`), by overlay index.
    var preparedStrokes: [Int: PreparedStrokes] = [:]
    /// Markers a pitched image leaves out because they lie beyond its far limit, in the sky
    /// above the ground it draws (set by `planMarkers`).
    private(set) var markersBeyondFarLimit = 0
    /// All the markers.
    var markerCount: Int { overlays.count { if case .marker = $0.overlay { true } else { false } } }

    /// The warning for markers a pitched image left out, nil when none was.
    var farMarkersWarning: String? {
        guard markersBeyondFarLimit > 0 else { return nil }
        let degrees = StyleValue.formatNumber(context.camera.pitch)
        let verb = markersBeyondFarLimit == 1 ? "is" : "are"
        return "\(markersBeyondFarLimit) of \(markerCount) marker\(markerCount == 1 ? "" : "s") \(verb) beyond the far limit "
            + "of the map tilted \(degrees)° (in its sky) and \(verb) not drawn: lower the pitch, "
            + "or leave out the zoom so the camera fits them"
    }

    /// Whether `prepareRoutes` is worth a thread: some unfilled, undashed path long enough
    /// that outlining it costs more than handing it over (a few hundred microseconds).
    static func routesWorthPreparing(_ overlays: [ProjectedOverlay]) -> Bool {
        overlays.contains { o in
            guard case .path(let p) = o.overlay, p.strokesCanBePrepared else { return false }
            return (o.lines.first?.count ?? 0) >= 1_000
        }
    }

    /// The casing and line fills of every unfilled, undashed path, by overlay index, for a
    /// canvas of `camera`'s pixel size drawn with `threads` threads. They need nothing the
    /// base map draws, so a render makes them on another thread meanwhile; drawing them
    /// gives the bytes `draw(level:)` gives without them.
    static func prepareRoutes(_ overlays: [ProjectedOverlay], camera: Camera, threads: Int) -> [Int: PreparedStrokes] {
        var out: [Int: PreparedStrokes] = [:]
        for (i, o) in overlays.enumerated() {
            guard case .path(let p) = o.overlay else { continue }
            out[i] = p.preparedStrokes(o, camera: camera, width: camera.pixelWidth, height: camera.pixelHeight,
                                       threads: threads)
        }
        return out
    }

    /// Reserves every marker and places every title in the collision index *before* the
    /// base map places its labels, so the map's own labels give way to the user's: overlay
    /// titles are never dropped.
    mutating func planMarkers(labels: LabelCollisionIndex) throws(OverlayError) {
        var markers: [(Int, MarkerOverlay, PixelRect)] = []
        let camera = context.camera
        markersBeyondFarLimit = 0
        for (i, o) in overlays.enumerated() {
            guard case .marker(let m) = o.overlay else { continue }
            if camera.showsOnGround(m.coordinate) {
                markers.append((i, m, try m.box(in: context)))
            } else if camera.liesBeyondFarLimit(m.coordinate) {
                // A pitched image leaves out markers beyond its far limit; one whose point
                // lies within the image (in its sky) is said. One above its top or off to the
                // side, or behind the eye, is simply out of view, as on a flat map.
                let p = camera.point(for: m.coordinate)
                if p.x >= 0 && p.x <= Double(camera.pixelWidth) && p.y >= 0 && p.y <= Double(camera.pixelHeight) {
                    markersBeyondFarLimit += 1
                }
            }
        }
        for (_, _, box) in markers { labels.insert(box) }
        for (i, m, box) in markers {
            if let size = m.titleSize(scale: context.scale, text: context.text) {
                titleRects[i] = placeTitle(m.titleCandidates(beside: box, size: size, scale: context.scale), labels: labels)
            }
        }
    }

    /// Marks where `level`'s routes (path overlays that are lines, not areas) will be drawn,
    /// casing included, so base-map labels placed afterwards keep clear of them. A route
    /// runs along the very streets whose names are drawn along them, so it would hide a
    /// name from end to end or cut it in half ("uuvikatu"); an area's outline, like a
    /// boundary on any map, only crosses a label and leaves it readable, so areas, circles
    /// and filled paths do not block.
    func reserveRoutes(level: Overlay.Level, labels: LabelCollisionIndex) {
        for projected in overlays {
            guard case .path(let p) = projected.overlay, p.level == level, p.fillColor == nil else { continue }
            let casing = (p.casingColor?.alpha ?? 0) > 0 && p.casingWidth > 0 ? 2 * p.casingWidth : 0
            let k = LabelCollisionIndex.obstacleScale
            guard p.color.alpha > 0 || casing > 0, let line = p.obstacleLine(projected, in: context, scale: k) else { continue }
            labels.block(obstacleLine: line,
                         style: StrokeStyle(width: (p.width + casing) * context.scale * k, cap: p.cap, join: p.join))
        }
    }

    /// Draws every overlay of `level`: shapes in the order given, then markers, then titles.
    func draw(level: Overlay.Level) throws(OverlayError) {
        let canvas = context.canvas
        for (i, projected) in overlays.enumerated() {
            // Past the drawing deadline the render is thrown away (`Canvas.deadline`).
            if canvas.drawingDeadlinePassed() { return }
            switch projected.overlay {
            case .path(let p) where p.level == level: p.draw(projected, in: context, prepared: preparedStrokes[i])
            case .polygon(let p) where p.level == level: p.draw(projected, in: context)
            case .circle(let c) where c.level == level: c.draw(in: context)
            default: break
            }
        }
        var markers: [(Int, MarkerOverlay)] = []
        for (i, o) in overlays.enumerated() {
            if case .marker(let m) = o.overlay, m.level == level, context.camera.showsOnGround(m.coordinate) {
                markers.append((i, m))
            }
        }
        // Pins farther south overlap those north of them, as on a real map; on a pitched
        // map, nearer pins (lower in the image) overlap farther ones.
        let camera = context.camera
        let order = markers.indices.sorted {
            if camera.isPitched {
                let a = camera.point(for: markers[$0].1.coordinate).y, b = camera.point(for: markers[$1].1.coordinate).y
                return a != b ? a < b : $0 < $1
            }
            let a = markers[$0].1.coordinate.latitude, b = markers[$1].1.coordinate.latitude
            return a != b ? a > b : $0 < $1
        }
        for k in order {
            if canvas.drawingDeadlinePassed() { return }
            try markers[k].1.draw(in: context)
        }
        for (i, m) in markers {
            if let rect = titleRects[i] { m.drawTitle(in: rect, context) }
        }
    }

    /// The first spot inside the image and free of markers and other titles. Overlay titles
    /// are never dropped: when every spot is taken the first one is used anyway.
    private func placeTitle(_ candidates: [PixelRect], labels: LabelCollisionIndex) -> PixelRect {
        let canvas = context.canvas
        let bounds = PixelRect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
        let chosen = candidates.first { c in
            c.minX >= bounds.minX && c.maxX <= bounds.maxX && c.minY >= bounds.minY && c.maxY <= bounds.maxY
                && !labels.collides(c)
        } ?? candidates[0]
        labels.insert(chosen)
        return chosen
    }
}
