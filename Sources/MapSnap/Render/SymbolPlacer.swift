#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Places base-map labels for the whole image at once (not per tile): collects candidates
/// from every symbol layer, places them in priority order against one collision index,
/// then draws the survivors.
///
/// Priority follows MapLibre: layers higher in the style are placed first; within a layer,
/// `symbol-sort-key` ascending, then tile and feature order. Point labels come only from
/// the tile whose square contains the point, so neighbouring tiles' buffers do not
/// duplicate them; line labels of the same text closer than `symbol-spacing` are dropped.
/// Labels must fit entirely inside the image: none is ever cut at an edge or tile border.
struct SymbolPlacer {
    let context: PaintContext
    let labels: LabelCollisionIndex
    let text: TextEngine
    private var candidates: [Candidate] = []
    private var layerCount = 0

    init(context: PaintContext, labels: LabelCollisionIndex, text: TextEngine) {
        self.context = context
        self.labels = labels
        self.text = text
    }

    struct Paint {
        var face: FreeTypeFace
        var sizePixels: Double
        var color: Color
        var haloColor: Color?
        var haloWidth: Double
        var anchor: TextAnchor
        var offset: PixelPoint  // pixels
        var maxWidth: Double?   // pixels
        var letterSpacing: Double  // ems
        var lineHeight: Double  // ems
        var padding: Double     // pixels
        var allowOverlap: Bool
        var maxAngle: Double    // radians
        var spacing: Double     // pixels
        var placement: SymbolPlacement
    }

    struct Candidate {
        var layer: Int
        var sortKey: Double
        var sequence: Int
        var text: String
        var paint: Paint
        /// Point labels: one point. Line labels: the line's pixels.
        var points: [PixelPoint]
        var isLine: Bool
    }

    /// Gathers the labels of one symbol layer.
    mutating func collect(_ layer: StyleLayer, _ src: LoadedSource) {
        guard let fonts = text.fonts else { return }
        let zoom = context.zoom
        let ratio = context.pixelRatio
        let layerIndex = layerCount
        layerCount += 1
        let fieldProp = layer.property(.textField).resolved(atZoom: zoom)
        let fontProp = layer.property(.textFont).resolved(atZoom: zoom)
        let size = ResolvedProperty(layer, .textSize, zoom: zoom)
        let color = ResolvedProperty(layer, .textColor, zoom: zoom)
        let haloColor = ResolvedProperty(layer, .textHaloColor, zoom: zoom)
        let haloWidth = ResolvedProperty(layer, .textHaloWidth, zoom: zoom)
        let opacity = ResolvedProperty(layer, .textOpacity, zoom: zoom)
        let maxWidth = ResolvedProperty(layer, .textMaxWidth, zoom: zoom)
        let letterSpacing = ResolvedProperty(layer, .textLetterSpacing, zoom: zoom)
        let lineHeight = ResolvedProperty(layer, .textLineHeight, zoom: zoom)
        let padding = ResolvedProperty(layer, .textPadding, zoom: zoom)
        let maxAngle = ResolvedProperty(layer, .textMaxAngle, zoom: zoom)
        let spacing = ResolvedProperty(layer, .symbolSpacing, zoom: zoom)
        let sortKeySet = layer.layout[.symbolSortKey] != nil
        let sortKey = ResolvedProperty(layer, .symbolSortKey, zoom: zoom)
        let transform = layer.property(.textTransform).resolved(atZoom: zoom)
        let anchorProp = layer.property(.textAnchor).resolved(atZoom: zoom)
        let offsetProp = layer.property(.textOffset).resolved(atZoom: zoom)
        let placement = layer.property(.symbolPlacement).keyword(SymbolPlacement.self, atZoom: zoom)
        let allowOverlap = layer.property(.textAllowOverlap).bool(atZoom: zoom)
        var faceCache: [[String]: FreeTypeFace] = [:]

        FeatureWalker.walk(layer, src, zoom: zoom, types: [.point, .lineString, .polygon], evaluate: { f, _ -> (text: String, paint: Paint, sortKey: Double)? in
            var label = fieldProp.textField(atZoom: zoom, feature: f)
            label = transform.keyword(TextTransform.self, atZoom: zoom, feature: f).apply(label)
            label = label.trimmingWhitespace
            guard !label.isEmpty else { return nil }
            let stack = fontProp.stringArray(atZoom: zoom, feature: f)
            let face: FreeTypeFace
            if let cached = faceCache[stack] { face = cached } else {
                face = fonts.face(forStyleFontStack: stack)
                faceCache[stack] = face
            }
            let px = size.number(zoom, f) * ratio
            guard px >= 1 else { return nil }
            let o = opacity.number(zoom, f)
            let c = color.color(zoom, f).withOpacity(o)
            guard c.alpha > 0 else { return nil }
            let hc = haloColor.color(zoom, f).withOpacity(o)
            let hw = min(haloWidth.number(zoom, f) * ratio, px / 4)
            let off = offsetProp.numberArray(atZoom: zoom, feature: f)
            let paint = Paint(
                face: face, sizePixels: px, color: c, haloColor: hc.alpha > 0 && hw > 0 ? hc : nil, haloWidth: hw,
                anchor: anchorProp.keyword(TextAnchor.self, atZoom: zoom, feature: f),
                offset: PixelPoint(x: (off.first ?? 0) * px, y: (off.count > 1 ? off[1] : 0) * px),
                maxWidth: maxWidth.number(zoom, f) * px,
                letterSpacing: letterSpacing.number(zoom, f),
                lineHeight: lineHeight.number(zoom, f),
                padding: padding.number(zoom, f) * ratio,
                allowOverlap: allowOverlap,
                maxAngle: maxAngle.number(zoom, f) * .pi / 180,
                spacing: max(spacing.number(zoom, f), 1) * ratio,
                placement: placement)
            return (label, paint, sortKeySet ? sortKey.number(zoom, f) : 0)
        }, emit: { g, value, tile in
            guard g.partCount > 0 else { return }
            let (label, paint, key) = value
            if placement == .point {
                // One anchor per feature: the point itself, or a polygon's/line's middle.
                let anchor: PixelPoint
                let first = g.part(0)
                switch g.type {
                case .point:
                    guard let p = first.first else { return }
                    anchor = p
                case .lineString:
                    let pts = Array(first)
                    guard let p = pts.first else { return }
                    anchor = LineGeometry.point(at: LineGeometry.length(pts) / 2, on: pts)?.point ?? p
                case .polygon:
                    var lo = PixelPoint(x: .infinity, y: .infinity), hi = PixelPoint(x: -.infinity, y: -.infinity)
                    for q in first {
                        lo = PixelPoint(x: min(lo.x, q.x), y: min(lo.y, q.y)); hi = PixelPoint(x: max(hi.x, q.x), y: max(hi.y, q.y))
                    }
                    anchor = PixelPoint(x: (lo.x + hi.x) / 2, y: (lo.y + hi.y) / 2)
                }
                guard tile.clips.contains(where: { anchor.x >= $0.minX && anchor.x < $0.maxX && anchor.y >= $0.minY && anchor.y < $0.maxY })
                else { return }
                candidates.append(Candidate(layer: layerIndex, sortKey: key, sequence: candidates.count, text: label,
                                            paint: paint, points: [anchor], isLine: false))
            } else {
                guard g.type != .point else { return }
                for part in 0..<g.partCount {
                    var path = Path()
                    let pts = g.part(part)
                    guard let first = pts.first else { continue }
                    path.move(to: first)
                    for p in pts.dropFirst() { path.line(to: p) }
                    for clip in tile.clips {
                        let clipped = LineClipper.clip(path, to: clip).path
                        for contour in clipped.contours where contour.count >= 2 {
                            candidates.append(Candidate(layer: layerIndex, sortKey: key, sequence: candidates.count, text: label,
                                                        paint: paint, points: Array(clipped.points(of: contour)), isLine: true))
                        }
                    }
                }
            }
        })
    }

    /// Places every candidate in priority order and draws those that fit.
    mutating func placeAndDraw() {
        guard let fonts = text.fonts else { return }
        let order = candidates.indices.sorted { a, b in
            let x = candidates[a], y = candidates[b]
            if x.layer != y.layer { return x.layer > y.layer }
            if x.sortKey != y.sortKey { return x.sortKey < y.sortKey }
            return x.sequence < y.sequence
        }
        let bounds = context.canvasRect
        var placedLineAnchors: [String: [PixelPoint]] = [:]
        var draws: [(layer: Int, seq: Int, action: () -> Void)] = []
        let renderer = text.renderer
        let canvas = context.canvas
        for i in order {
            let c = candidates[i]
            let p = c.paint
            if c.isLine {
                let layout = TextLayout(c.text, face: p.face, fonts: fonts,
                                        options: TextLayoutOptions(sizePixels: p.sizePixels, lineHeight: p.lineHeight,
                                                                   letterSpacing: p.letterSpacing))
                guard layout.lines.count == 1, let placed = placeAlongLine(c, layout, bounds: bounds,
                                                                         previous: placedLineAnchors[c.text] ?? []) else { continue }
                placedLineAnchors[c.text, default: []].append(placed.anchor)
                if !p.allowOverlap {
                    let owner = labels.newOwner()
                    for b in placed.boxes { labels.insert(b, owner: owner) }
                }
                let paint = TextPaint(color: p.color, haloColor: p.haloColor, haloWidth: p.haloWidth)
                let glyphs = placed.glyphs
                draws.append((c.layer, c.sequence, {
                    // Halos of every glyph first, then the glyphs, so no halo covers a letter.
                    if let hc = paint.haloColor {
                        for g in glyphs {
                            renderer.drawGlyph(g.glyph, sizePixels: p.sizePixels, on: canvas, at: g.origin, rotation: g.rotation,
                                               paint: TextPaint(color: hc, haloColor: hc, haloWidth: paint.haloWidth))
                        }
                    }
                    for g in glyphs {
                        renderer.drawGlyph(g.glyph, sizePixels: p.sizePixels, on: canvas, at: g.origin, rotation: g.rotation,
                                           paint: TextPaint(color: p.color))
                    }
                }))
            } else {
                let layout = TextLayout(c.text, face: p.face, fonts: fonts,
                                        options: TextLayoutOptions(sizePixels: p.sizePixels, maxWidth: p.maxWidth,
                                                                   lineHeight: p.lineHeight, alignment: .center,
                                                                   letterSpacing: p.letterSpacing))
                let at = c.points[0] + p.offset
                let box = renderer.measure(layout, at: at, anchor: p.anchor, haloWidth: p.haloWidth)
                let ink = box.inkBounds ?? box.frame
                let hit = ink.insetBy(-p.padding)
                guard ink.minX >= bounds.minX, ink.maxX <= bounds.maxX, ink.minY >= bounds.minY, ink.maxY <= bounds.maxY else { continue }
                if !p.allowOverlap {
                    guard !labels.collides(hit) else { continue }
                    labels.insert(hit)
                }
                let paint = TextPaint(color: p.color, haloColor: p.haloColor, haloWidth: p.haloWidth)
                draws.append((c.layer, c.sequence, { renderer.draw(layout, on: canvas, at: at, anchor: p.anchor, paint: paint) }))
            }
        }
        // Draw in style order so later layers' labels sit on top.
        draws.sort { $0.layer != $1.layer ? $0.layer < $1.layer : $0.seq < $1.seq }
        for d in draws { d.action() }
    }

    struct PlacedGlyph {
        var glyph: PositionedGlyph
        var origin: PixelPoint
        var rotation: Double
    }

    /// Tries anchors along the line (its middle first, then every `spacing` pixels) and
    /// returns the first where the text fits: inside the image, bends no sharper than
    /// `text-max-angle` between neighbouring glyphs, and collides with nothing.
    func placeAlongLine(_ c: Candidate, _ layout: TextLayout, bounds: PixelRect, previous: [PixelPoint])
        -> (anchor: PixelPoint, glyphs: [PlacedGlyph], boxes: [PixelRect])? {
        let p = c.paint
        var pts = c.points
        let total = LineGeometry.length(pts)
        let labelLength = layout.width
        guard total > labelLength + p.sizePixels else { return nil }
        // Keep text upright: run left to right.
        if let f = pts.first, let l = pts.last, l.x < f.x { pts.reverse() }
        var anchors: [Double] = [total / 2]
        if c.paint.placement == .line {
            var d = total / 2 - p.spacing
            while d > labelLength / 2 { anchors.append(d); d -= p.spacing }
            d = total / 2 + p.spacing
            while d < total - labelLength / 2 { anchors.append(d); d += p.spacing }
        }
        let renderer = text.renderer
        for center in anchors {
            guard let mid = LineGeometry.point(at: center, on: pts) else { continue }
            if previous.contains(where: { ($0 - mid.point).length < p.spacing }) { continue }
            var placed: [PlacedGlyph] = []
            var boxes: [PixelRect] = []
            var lastAngle: Double?
            var ok = true
            let start = center - labelLength / 2
            // Baseline offset so the text's x-height straddles the line.
            let drop = p.sizePixels * 0.35
            for g in layout.glyphs {
                let along = start + g.origin.x + g.advance / 2
                guard let at = LineGeometry.point(at: along, on: pts) else { ok = false; break }
                if let la = lastAngle {
                    var d = abs(at.angle - la)
                    if d > .pi { d = 2 * .pi - d }
                    if d > p.maxAngle { ok = false; break }
                }
                lastAngle = at.angle
                let tx = cos(at.angle), ty = sin(at.angle)
                let origin = PixelPoint(x: at.point.x - tx * g.advance / 2 - ty * drop,
                                        y: at.point.y - ty * g.advance / 2 + tx * drop)
                if let ink = renderer.drawGlyph(g, sizePixels: p.sizePixels, on: nil, at: origin, rotation: at.angle,
                                                paint: TextPaint(color: p.color, haloColor: p.haloColor, haloWidth: p.haloWidth)) {
                    guard ink.minX >= bounds.minX, ink.maxX <= bounds.maxX, ink.minY >= bounds.minY, ink.maxY <= bounds.maxY else { ok = false; break }
                    let hit = ink.insetBy(-p.padding / 2)
                    if !p.allowOverlap && labels.collides(hit) { ok = false; break }
                    boxes.append(hit)
                }
                placed.append(PlacedGlyph(glyph: g, origin: origin, rotation: at.angle))
            }
            if ok && !placed.isEmpty { return (mid.point, placed, boxes) }
        }
        return nil
    }
}

/// Distances and positions along a polyline in pixels.
enum LineGeometry {
    static func length(_ pts: [PixelPoint]) -> Double {
        var total = 0.0
        for i in 1..<max(pts.count, 1) { total += (pts[i] - pts[i - 1]).length }
        return total
    }

    /// The point `distance` pixels along the line and the direction there (radians, y down).
    static func point(at distance: Double, on pts: [PixelPoint]) -> (point: PixelPoint, angle: Double)? {
        guard pts.count >= 2, distance >= 0 else { return nil }
        var remaining = distance
        for i in 1..<pts.count {
            let a = pts[i - 1], b = pts[i]
            let seg = (b - a).length
            if seg <= 0 { continue }
            if remaining <= seg {
                let t = remaining / seg
                return (PixelPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), atan2(b.y - a.y, b.x - a.x))
            }
            remaining -= seg
        }
        return nil
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
