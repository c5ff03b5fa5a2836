import Foundation

/// `background`: the whole canvas in one colour, or a sprite pattern.
enum BackgroundPainter {
    static func draw(_ layer: StyleLayer, _ ctx: PaintContext) {
        let opacity = layer.property(.backgroundOpacity).number(atZoom: ctx.zoom) ?? 1
        var p = Path()
        p.addRect(ctx.canvasRect)
        if layer.paint[.backgroundPattern] != nil {
            // A pattern the sprite lacks draws nothing (as in MapLibre), never a colour.
            var book = PatternBook(ctx)
            guard let pattern = book.pattern(layer.property(.backgroundPattern).string(atZoom: ctx.zoom)) else { return }
            ctx.canvas.fill(p, pattern: pattern, originX: book.originX, originY: book.originY, opacity: opacity)
            return
        }
        let color = layer.property(.backgroundColor).color(atZoom: ctx.zoom)
        ctx.canvas.fill(p, color: color.withOpacity(opacity))
    }
}

/// `fill`: polygons clipped to their tile square, accumulated per paint and filled once
/// (non-zero), then optional 1-px outlines. A `fill-pattern` layer fills with the sprite
/// image instead of its colour, and features whose pattern the sprite lacks are not drawn
/// (as in MapLibre) — never in a colour the style did not ask for.
///
/// `fill-extrusion` layers are drawn by the same painter from their own colour, opacity and
/// pattern: mapsnap's camera looks straight down, where MapLibre shows an extruded polygon
/// as its roof (MapLibre's default light brightens roofs by a few percent; not modelled).
/// Overlapping extrusions of one colour blend once, as MapLibre's depth-tested pass does.
enum FillPainter {
    struct Key: Hashable {
        /// The colour, or for a pattern fill only its opacity (in `alpha`).
        var fill: Color
        var outline: Color?
        var pattern: String?
    }

    /// The properties a fill-like layer type is drawn from.
    struct Properties {
        var color: StyleProperty
        var opacity: StyleProperty
        var outline: StyleProperty?
        var pattern: StyleProperty
        var translate: StyleProperty
        var translateAnchor: StyleProperty

        static let fill = Properties(color: .fillColor, opacity: .fillOpacity, outline: .fillOutlineColor, pattern: .fillPattern,
                                     translate: .fillTranslate, translateAnchor: .fillTranslateAnchor)
        static let fillExtrusion = Properties(color: .fillExtrusionColor, opacity: .fillExtrusionOpacity, outline: nil,
                                              pattern: .fillExtrusionPattern, translate: .fillExtrusionTranslate,
                                              translateAnchor: .fillExtrusionTranslateAnchor)
    }

    static func draw(_ layer: StyleLayer, _ src: LoadedSource, _ ctx: PaintContext, properties: Properties = .fill) {
        let zoom = ctx.zoom
        let color = ResolvedProperty(layer, properties.color, zoom: zoom)
        let opacity = ResolvedProperty(layer, properties.opacity, zoom: zoom)
        let outlineSet = properties.outline.map { layer.paint[$0] != nil } ?? false
        let outline = ResolvedProperty(layer, properties.outline ?? .fillOutlineColor, zoom: zoom)
        let patternValue: PropertyValue? = layer.paint[properties.pattern] != nil
            ? layer.property(properties.pattern).resolved(atZoom: zoom) : nil
        var book = PatternBook(ctx)
        var groups = PaintGroups<Key>()
        var outlines: [Path] = []
        var clipped: [PixelPoint] = []
        var scratch: [PixelPoint] = []
        var moved: [PixelPoint] = []
        let shift = LayerTranslate.offset(layer, properties.translate, anchor: properties.translateAnchor, ctx)
        // Where a fill can show: the canvas grown by its outline's reach (and the translate's
        // length) — and everything to its left, which the rasterizer folds into edges on
        // x = 0 whose sums are kept exactly as they were (skipping them could move a rounding).
        let outlineStyle = StrokeStyle(width: ctx.pixelRatio, cap: .butt, join: .round)
        let outlineReach = outlineStyle.reach + (shift.map { abs($0.x) + abs($0.y) } ?? 0), canvas = ctx.canvasRect
        let drawsWithin = PixelRect(minX: -.infinity, minY: canvas.minY - outlineReach,
                                    maxX: canvas.maxX + outlineReach, maxY: canvas.maxY + outlineReach)
        FeatureWalker.walk(layer, src, zoom: zoom, types: [.polygon], drawsWithin: drawsWithin, evaluate: { f, _ -> Key? in
            let o = opacity.number(zoom, f, default: 1)
            if let patternValue {
                let name = patternValue.dependsOnFeature ? patternValue.string(atZoom: zoom, feature: f) : patternValue.string(atZoom: zoom)
                guard book.pattern(name) != nil else { return nil }
                let alpha = Color.black.withOpacity(o)
                return alpha.alpha > 0 ? Key(fill: alpha, outline: nil, pattern: name) : nil
            }
            let c = color.color(zoom, f).withOpacity(o)
            let oc = outlineSet ? outline.color(zoom, f).withOpacity(o) : nil
            guard c.alpha > 0 || (oc?.alpha ?? 0) > 0 else { return nil }
            return Key(fill: c, outline: oc, pattern: nil)
        }, emit: { g, key, tile in
            // Paints are filled in the order they are first drawn.
            let slot = groups.slot(key)
            if outlines.count <= slot { outlines.append(Path()) }
            for part in 0..<g.partCount {
                var ring = g.part(part)
                if let shift {
                    // Moved, then cut by the tile's square where it now lies (MapLibre moves
                    // the tile's geometry and keeps the tile's clip).
                    moved.removeAll(keepingCapacity: true)
                    for q in ring { moved.append(q + shift) }
                    ring = moved[...]
                }
                for clip in tile.clips {
                    ring.withUnsafeBufferPointer { PolygonClipper.clip($0, to: clip, output: &clipped, scratch: &scratch) }
                    guard clipped.count >= 3 else { continue }
                    groups.append(slot: slot) { path in
                        path.move(to: clipped[0])
                        for q in clipped.dropFirst() { path.line(to: q) }
                        path.close()
                    }
                    if key.outline != nil, let first = ring.first {
                        var line = Path()
                        line.move(to: first)
                        for q in ring.dropFirst() { line.line(to: q) }
                        line.line(to: first)
                        outlines[slot].append(LineClipper.clip(line, to: clip).path)
                    }
                }
            }
        })
        // A moved layer's pattern moves with it (to the nearest pixel: repeats start on one).
        let patternShift = LayerTranslate.wholePixels(shift)
        for (i, key) in groups.keys.enumerated() {
            if let name = key.pattern, let pattern = book.pattern(name) {
                ctx.canvas.fill(groups.paths[i], pattern: pattern, originX: book.originX + patternShift.x,
                                originY: book.originY + patternShift.y, opacity: Double(key.fill.alpha) / 255, rule: .nonZero)
                continue
            }
            if key.fill.alpha > 0 { ctx.canvas.fill(groups.paths[i], color: key.fill, rule: .nonZero) }
            if let oc = key.outline, oc.alpha > 0, !outlines[i].isEmpty {
                ctx.canvas.stroke(outlines[i], style: outlineStyle, color: oc)
            }
        }
    }
}

/// `line`: lines clipped to their tile square, accumulated per paint and stroked once, so
/// the same road from two tiles' buffers is one stroke (no darker overlap, no seam).
///
/// A `line-pattern` line is its stroke filled with the sprite image, pinned to the map like
/// fill patterns (MapLibre instead runs the image along the line, scaled to its width:
/// the same repeat, not turned with the line). Features whose pattern the sprite lacks are
/// not drawn.
enum LinePainter {
    struct Key: Hashable {
        /// The colour, or for a pattern line only its opacity (in `alpha`).
        var color: Color
        var width: Double
        var dash: [Double]
        var pattern: String?
    }

    static func draw(_ layer: StyleLayer, _ src: LoadedSource, _ ctx: PaintContext) {
        let zoom = ctx.zoom
        let color = ResolvedProperty(layer, .lineColor, zoom: zoom)
        let opacity = ResolvedProperty(layer, .lineOpacity, zoom: zoom)
        let width = ResolvedProperty(layer, .lineWidth, zoom: zoom)
        let gap = ResolvedProperty(layer, .lineGapWidth, zoom: zoom)
        let dashValue = layer.property(.lineDasharray).resolved(atZoom: zoom)
        // Read once here unless it varies by feature (building the array per feature was
        // a quarter of a job's array allocations).
        let layerDashes = dashValue.dependsOnFeature ? nil : dashValue.numberArray(atZoom: zoom)
        let cap = layer.property(.lineCap).keyword(LineCap.self, atZoom: zoom)
        let join = layer.property(.lineJoin).keyword(LineJoin.self, atZoom: zoom)
        let miter = layer.property(.lineMiterLimit).number(atZoom: zoom) ?? 2
        let ratio = ctx.pixelRatio
        let patternValue: PropertyValue? = layer.paint[.linePattern] != nil ? layer.property(.linePattern).resolved(atZoom: zoom) : nil
        var book = PatternBook(ctx)
        var groups = PaintGroups<Key>()
        // Where a line can show: the canvas grown by the stroke's reach and, with a gap, by
        // the sideways offset of its two edges (`offset` moves a vertex up to 4 × d). Widths
        // that vary by feature leave it to the tiles' squares.
        let shift = LayerTranslate.offset(layer, .lineTranslate, anchor: .lineTranslateAnchor, ctx)
        var drawsWithin: PixelRect?
        if let lw = width.constantNumber(zoom, default: 1), let lg = gap.constantNumber(zoom, default: 0) {
            let w = lw * ratio, gw = max(lg * ratio, 0)
            let reach = (gw > 0 ? 2 * (gw + w) : 0) + StrokeStyle(width: w, cap: cap, join: join, miterLimit: miter).reach
                + (shift.map { abs($0.x) + abs($0.y) } ?? 0)
            if reach.isFinite { drawsWithin = ctx.canvasRect.insetBy(-reach) }
        }
        FeatureWalker.walk(layer, src, zoom: zoom, types: [.lineString, .polygon], drawsWithin: drawsWithin,
                           evaluate: { f, _ -> (key: Key, gap: Double)? in
            let w = width.number(zoom, f, default: 1) * ratio
            var pattern: String?
            var c: Color
            if let patternValue {
                let name = patternValue.dependsOnFeature ? patternValue.string(atZoom: zoom, feature: f) : patternValue.string(atZoom: zoom)
                guard book.pattern(name) != nil else { return nil }
                pattern = name
                c = Color.black.withOpacity(opacity.number(zoom, f, default: 1))
            } else {
                c = color.color(zoom, f).withOpacity(opacity.number(zoom, f, default: 1))
            }
            guard w > 0, c.alpha > 0 else { return nil }
            let gw = gap.number(zoom, f, default: 0) * ratio
            let dashes = layerDashes ?? dashValue.numberArray(atZoom: zoom, feature: f)
            // MapLibre dash lengths are in line widths.
            let dash = dashes.count >= 2 ? dashes.map { $0 * w } : []
            return (Key(color: c, width: w, dash: dash, pattern: pattern), gw)
        }, emit: { g, value, tile in
            var piece = Path()
            let closed = g.type == .polygon
            piece.reserveCapacity(g.pointCount + (closed ? g.partCount : 0))
            for part in 0..<g.partCount {
                let pts = g.part(part)
                guard let first = pts.first else { continue }
                if let shift {
                    let start = first + shift
                    piece.move(to: start)
                    for p in pts.dropFirst() { piece.line(to: p + shift) }
                    if closed { piece.line(to: start) }
                    continue
                }
                piece.move(to: first)
                for p in pts.dropFirst() { piece.line(to: p) }
                if closed { piece.line(to: first) }
            }
            let gw = value.gap, w = value.key.width
            for clip in tile.clips {
                let clipped = LineClipper.clip(piece, to: clip).path
                guard !clipped.isEmpty else { continue }
                if gw > 0 {
                    // line-gap-width: two parallel lines of width w with a gap between them,
                    // drawn as the two edges of a (gw + w)-wide band.
                    for side in [-1.0, 1.0] {
                        groups.append(value.key) { $0.append(Self.offset(clipped, by: side * (gw + w) / 2)) }
                    }
                } else {
                    groups.append(value.key) { $0.append(clipped) }
                }
            }
        })
        let patternShift = LayerTranslate.wholePixels(shift)
        for (i, key) in groups.keys.enumerated() {
            let style = StrokeStyle(width: key.width, cap: cap, join: join, miterLimit: miter, dash: key.dash)
            if let name = key.pattern, let pattern = book.pattern(name) {
                ctx.canvas.stroke(groups.paths[i], style: style, pattern: pattern, originX: book.originX + patternShift.x,
                                  originY: book.originY + patternShift.y, opacity: Double(key.color.alpha) / 255)
                continue
            }
            ctx.canvas.stroke(groups.paths[i], style: style, color: key.color)
        }
    }

    /// A path offset sideways by `d` pixels (per-vertex miter offset, clamped at sharp turns).
    static func offset(_ path: Path, by d: Double) -> Path {
        var out = Path()
        for c in path.contours {
            let pts = Array(path.points(of: c))
            guard pts.count >= 2 else { continue }
            for i in 0..<pts.count {
                let a = pts[max(0, i - 1)], b = pts[i], n = pts[min(pts.count - 1, i + 1)]
                func normal(_ p: PixelPoint, _ q: PixelPoint) -> PixelPoint {
                    let dx = q.x - p.x, dy = q.y - p.y, len = max((dx * dx + dy * dy).squareRoot(), 1e-9)
                    return PixelPoint(x: -dy / len, y: dx / len)
                }
                let n1 = i > 0 ? normal(a, b) : normal(b, n)
                let n2 = i < pts.count - 1 ? normal(b, n) : n1
                var m = PixelPoint(x: n1.x + n2.x, y: n1.y + n2.y)
                let ml = max(m.length, 1e-9)
                m = PixelPoint(x: m.x / ml, y: m.y / ml)
                let cosHalf = max(0.25, m.x * n1.x + m.y * n1.y)
                let p = PixelPoint(x: b.x + m.x * d / cosHalf, y: b.y + m.y * d / cosHalf)
                if i == 0 { out.move(to: p) } else { out.line(to: p) }
            }
        }
        return out
    }
}

/// `fill-translate`, `line-translate` and `fill-extrusion-translate` with their anchors: the
/// layer's geometry moved by a CSS-pixel offset, as a whole (the properties are zoom-driven,
/// never per feature). `map` (the default) moves it in the map's frame — on a turned map the
/// offset turns with it — and `viewport` in the image's: on a turned map the offset is turned
/// back by the heading, so the layer moves the same way on the page whatever the bearing. A
/// pitched map's bands move their geometry by the offset in each band's own pixels, as line
/// widths are (so a far band's offset shrinks with its ground).
enum LayerTranslate {
    /// The offset in the painter's pixels; nil when the layer does not move.
    static func offset(_ layer: StyleLayer, _ translate: StyleProperty, anchor: StyleProperty,
                       _ ctx: PaintContext) -> PixelPoint? {
        guard layer.paint[translate] != nil else { return nil }
        let v = layer.property(translate).numberArray(atZoom: ctx.zoom)
        guard v.count >= 2, v[0].isFinite, v[1].isFinite, v[0] != 0 || v[1] != 0 else { return nil }
        var dx = v[0] * ctx.pixelRatio, dy = v[1] * ctx.pixelRatio
        if ctx.heading.remainder(dividingBy: 360) != 0, layer.property(anchor).string(atZoom: ctx.zoom) == "viewport" {
            // An offset on the page, in the north-up frame the painters draw in: the page is
            // that frame turned by −heading, so the offset turns by +heading.
            let r = ctx.heading * .pi / 180, c = cos(r), s = sin(r)
            (dx, dy) = (dx * c - dy * s, dx * s + dy * c)
        }
        return PixelPoint(x: dx, y: dy)
    }

    /// `offset` rounded to whole pixels (zero for none), for a pattern's origin.
    static func wholePixels(_ offset: PixelPoint?) -> (x: Int, y: Int) {
        guard let offset else { return (0, 0) }
        return (Int(offset.x.rounded()), Int(offset.y.rounded()))
    }
}

/// `raster`: each source tile image drawn once into its square with bilinear resampling.
///
/// Tiles shown at their own resolution (a z17 tile at z16 @2x, a 256-px tile at an integer
/// zoom) are shifted by the same sub-pixel amount onto the pixel grid, as tile viewers do:
/// resampling them at a half-pixel offset would only blur every pixel of the imagery. All
/// tiles move together, so their seams stay where they were; overlays keep exact positions
/// (the shift is under half a pixel).
enum RasterPainter {
    static func draw(_ layer: StyleLayer, _ src: LoadedSource, _ ctx: PaintContext) {
        let zoom = ctx.zoom
        let opacity = layer.property(.rasterOpacity).number(atZoom: zoom) ?? 1
        guard opacity > 0 else { return }
        let adjust = RasterAdjustment(layer, zoom: zoom)
        struct Drawn: Hashable { let payload: Int; let copy: Int }
        var drawn = Set<Drawn>()
        var gridShift: (x: Double, y: Double)?
        for tile in src.drawTiles {
            guard drawn.insert(Drawn(payload: tile.payload, copy: tile.covering.worldCopy)).inserted,
                  case .raster(let image) = src.payloads[tile.payload] else { continue }
            let img = adjust.isIdentity ? image : adjust.apply(to: image)
            var rect = tile.sourceRect
            if abs(rect.width - Double(img.width)) < 1e-6, abs(rect.height - Double(img.height)) < 1e-6 {
                let shift = gridShift ?? (rect.minX.rounded() - rect.minX, rect.minY.rounded() - rect.minY)
                gridShift = shift
                rect = PixelRect(x: rect.minX + shift.x, y: rect.minY + shift.y, width: rect.width, height: rect.height)
            }
            ctx.canvas.draw(img, in: rect, opacity: opacity)
        }
    }
}

/// `raster-brightness-min/max`, `raster-saturation` and `raster-contrast`, applied per tile
/// pixel as MapLibre's raster shader does.
struct RasterAdjustment {
    var brightnessMin = 0.0, brightnessMax = 1.0, saturation = 0.0, contrast = 0.0

    init(_ layer: StyleLayer, zoom: Double) {
        brightnessMin = layer.property(.rasterBrightnessMin).number(atZoom: zoom) ?? 0
        brightnessMax = layer.property(.rasterBrightnessMax).number(atZoom: zoom) ?? 1
        saturation = layer.property(.rasterSaturation).number(atZoom: zoom) ?? 0
        contrast = layer.property(.rasterContrast).number(atZoom: zoom) ?? 0
    }

    var isIdentity: Bool { brightnessMin == 0 && brightnessMax == 1 && saturation == 0 && contrast == 0 }

    func apply(to image: Canvas) -> Canvas {
        let out = Canvas(width: image.width, height: image.height, premultipliedPixels: image.pixels)
        let sat = saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation
        let con = contrast > 0 ? 1 / (1 - contrast) : 1 + contrast
        out.pixels.withUnsafeMutableBufferPointer { px in
            var i = 0
            while i < px.count {
                let a = Double(px[i + 3])
                if a > 0 {
                    var r = Double(px[i]) / a, g = Double(px[i + 1]) / a, b = Double(px[i + 2]) / a
                    let avg = (r + g + b) / 3
                    r += (avg - r) * sat; g += (avg - g) * sat; b += (avg - b) * sat
                    r = (r - 0.5) * con + 0.5; g = (g - 0.5) * con + 0.5; b = (b - 0.5) * con + 0.5
                    func bright(_ v: Double) -> Double {
                        let c = min(max(v, 0), 1)
                        return brightnessMin + c * (brightnessMax - brightnessMin)
                    }
                    px[i] = UInt8((bright(r) * a).rounded())
                    px[i + 1] = UInt8((bright(g) * a).rounded())
                    px[i + 2] = UInt8((bright(b) * a).rounded())
                }
                i += 4
            }
        }
        return out
    }
}
