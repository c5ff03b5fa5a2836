import Foundation

/// Places base-map labels and icons for the whole image at once (not per tile): collects
/// candidates from every symbol layer, places them in priority order against one collision
/// index — icons and text alike — then draws the survivors.
///
/// Priority follows MapLibre: layers higher in the style are placed first; within a layer,
/// `symbol-sort-key` ascending, then tile and feature order. Point labels come only from
/// the tile whose square contains the point, so neighbouring tiles' buffers do not
/// duplicate them; line labels of the same text closer than `symbol-spacing` are dropped.
/// Labels and icons must fit entirely inside the image: none is ever cut at an edge or
/// tile border.
///
/// A symbol with an icon and text places both or neither, unless one of them is optional
/// (`icon-optional`, `text-optional`); `*-allow-overlap` skips the collision check and
/// `*-ignore-placement` keeps the part out of the index. On lines, symbols whose text
/// follows the line (`text-rotation-alignment` `map`) are set glyph by glyph along it
/// (icons are then left out); the others — road shields, one-way arrows — are set upright
/// or turned with the line at anchors every `symbol-spacing` pixels.
struct SymbolPlacer {
    let context: PaintContext
    let labels: LabelCollisionIndex
    let text: TextEngine
    let sprites: SpriteSheet
    private var candidates: [Candidate] = []
    private var layerCount = 0

    init(context: PaintContext, labels: LabelCollisionIndex, text: TextEngine, sprites: SpriteSheet = SpriteSheet()) {
        self.context = context
        self.labels = labels
        self.text = text
        self.sprites = sprites
    }

    struct Paint {
        var face: FreeTypeFace
        var sizePixels: Double
        var color: Color
        var haloColor: Color?
        var haloWidth: Double
        /// Where the text may go, in the order tried: `text-anchor` and `text-offset`, or
        /// each of `text-variable-anchor` with `text-radial-offset`. The first that fits wins.
        var positions: [TextPosition]
        var maxWidth: Double?   // pixels
        var letterSpacing: Double  // ems
        var lineHeight: Double  // ems
        var padding: Double     // pixels
        var allowOverlap: Bool
        var ignorePlacement: Bool
        var optional: Bool
        var maxAngle: Double    // radians
        var spacing: Double     // pixels
        var placement: SymbolPlacement
    }

    /// One way to set point text: the anchor of its box at the point plus `offset` pixels.
    struct TextPosition {
        var anchor: TextAnchor
        var offset: PixelPoint

        /// The offset `radial` pixels away from the point in the direction the text lies
        /// when its box is anchored at `anchor` (as MapLibre reads `text-radial-offset`):
        /// straight out for sides, r/√2 along both axes for corners, none for `center`.
        static func radial(_ anchor: TextAnchor, _ radial: Double) -> PixelPoint {
            let r = max(radial, 0)
            let (fx, fy) = anchor.fraction
            // The text lies away from its anchored side: left anchor → text to the right.
            let dx = 0.5 - fx, dy = 0.5 - fy
            let corner = dx != 0 && dy != 0
            let scale = corner ? r / 2.0.squareRoot() * 2 : r * 2
            return PixelPoint(x: dx * scale, y: dy * scale)
        }
    }

    /// How a symbol's icon is drawn. Lengths in device pixels.
    struct IconPaint {
        var sprite: SpriteImage
        /// What is drawn: the sprite image, or for an SDF image, the image coloured.
        var image: Canvas
        /// Device pixels per sprite image pixel (`icon-size` × render scale / sprite ratio).
        var scale: Double
        var anchor: TextAnchor
        var offset: PixelPoint
        /// Clockwise, radians (`icon-rotate`, plus the line's direction for icons turned
        /// with a line).
        var rotation: Double
        var opacity: Double
        var padding: Double
        var allowOverlap: Bool
        var ignorePlacement: Bool
        var optional: Bool
        var textFit: IconTextFit
        /// `icon-text-fit-padding`: top, right, bottom, left.
        var fitPadding: [Double]
        /// Turned with the line it is placed on (`icon-rotation-alignment` `map`/`auto`).
        var followsLine: Bool
    }

    struct Candidate {
        var layer: Int
        var sortKey: Double
        var sequence: Int
        /// The label; empty for an icon alone.
        var text: String
        var paint: Paint
        var icon: IconPaint?
        /// Point symbols: one point. Line labels: the line's pixels.
        var points: [PixelPoint]
        var isLine: Bool
    }

    /// What one feature of a symbol layer shows, before placement: `FeatureWalker` keeps it
    /// beside the feature's geometry between `evaluate` and `emit`.
    struct FeatureSymbol {
        /// The label; empty when only the icon shows.
        var text: String
        var paint: Paint
        var icon: IconPaint?
        var sortKey: Double
    }

    /// Gathers the labels of one symbol layer.
    ///
    /// Three concerns, kept apart: `TextProperties` resolves the layer's text properties once
    /// and evaluates them per feature (what a feature shows and how); `collectPoint` and
    /// `collectLine` turn a feature's geometry into candidates (where it may go). Nothing is
    /// placed here: `placeAndDraw` places every layer's candidates together, by priority.
    mutating func collect(_ layer: StyleLayer, _ src: LoadedSource) {
        guard let fonts = text.fonts else { return }
        let zoom = context.zoom
        let ratio = context.pixelRatio
        let layerIndex = layerCount
        layerCount += 1
        let properties = TextProperties(layer, zoom: zoom, ratio: ratio)
        let icons = IconProperties(layer, zoom: zoom, placement: properties.placement)
        let sprites = self.sprites
        // Faces by font stack, looked up once per layer rather than per feature.
        var faces: [[String]: FreeTypeFace] = [:]
        let drawsWithin = properties.followsLine && !icons.isSet ? lineTextReach(properties) : nil
        FeatureWalker.walk(layer, src, zoom: zoom, types: [.point, .lineString, .polygon], drawsWithin: drawsWithin,
                           evaluate: { f, _ -> FeatureSymbol? in
            properties.symbol(for: f, icons: icons, sprites: sprites, fonts: fonts, faces: &faces)
        }, emit: { g, symbol, tile in
            guard g.partCount > 0 else { return }
            if properties.placement == .point {
                collectPoint(g, symbol, tile: tile, layer: layerIndex)
            } else {
                collectLine(g, symbol, tile: tile, layer: layerIndex, textFollowsLine: properties.followsLine)
            }
        })
    }

    /// The part of the map frame where text that follows its line can be drawn, or nil when
    /// that is not known before the features are read (the text size varies by feature).
    ///
    /// Such text is placed only where every glyph's ink is inside the image, and ink lies
    /// within a few ems of the line point it sits on (half an advance, the baseline drop, the
    /// glyph's own size): a line farther than that from the image gives no label, so it need
    /// not be walked. Point symbols and icons have offsets and are walked over the tiles'
    /// squares.
    private func lineTextReach(_ properties: TextProperties) -> PixelRect? {
        guard let textSize = properties.size.constantNumber(context.zoom, default: 16) else { return nil }
        let reach = 6 * textSize * context.pixelRatio + 4
        return reach.isFinite ? context.canvasRect.insetBy(-reach) : nil
    }

    /// Adds the candidate of a point-placed symbol: one anchor per feature — the point, a
    /// line's middle or a polygon's box centre — kept only by the tile whose square holds
    /// it, so neighbouring tiles' buffers do not duplicate it.
    ///
    /// Features come in map-frame pixels (north up); symbols are placed upright in image
    /// pixels: a turned or pitched camera carries each anchor and line across (so text along
    /// a line follows the turned line, and point text stays level), and a pitched image's
    /// band keeps the anchors in its own rows (`PaintContext.imageAnchor`).
    private mutating func collectPoint(_ g: ProjectedFeature, _ symbol: FeatureSymbol, tile: DrawTile, layer: Int) {
        guard let anchor = Self.pointAnchor(of: g) else { return }
        guard tile.clips.contains(where: { anchor.x >= $0.minX && anchor.x < $0.maxX && anchor.y >= $0.minY && anchor.y < $0.maxY })
        else { return }
        guard let at = context.imageAnchor(anchor) else { return }
        let k = context.symbolScale(atRow: at.y)
        candidates.append(Candidate(layer: layer, sortKey: symbol.sortKey, sequence: candidates.count, text: symbol.text,
                                    paint: symbol.paint.scaled(by: k), icon: symbol.icon?.scaled(by: k), points: [at],
                                    isLine: false))
    }

    /// Where a point-placed symbol of a feature sits, in map-frame pixels: the point itself,
    /// the middle of a line's first part along its length, or the centre of a polygon's
    /// outer ring's box; nil for an empty first part.
    private static func pointAnchor(of g: ProjectedFeature) -> PixelPoint? {
        let first = g.part(0)
        switch g.type {
        case .point:
            return first.first
        case .lineString:
            let pts = Array(first)
            guard let p = pts.first else { return nil }
            return LineGeometry.point(at: LineGeometry.length(pts) / 2, on: pts)?.point ?? p
        case .polygon:
            var lo = PixelPoint(x: .infinity, y: .infinity), hi = PixelPoint(x: -.infinity, y: -.infinity)
            for q in first {
                lo = PixelPoint(x: min(lo.x, q.x), y: min(lo.y, q.y)); hi = PixelPoint(x: max(hi.x, q.x), y: max(hi.y, q.y))
            }
            return PixelPoint(x: (lo.x + hi.x) / 2, y: (lo.y + hi.y) / 2)
        }
    }

    /// Adds the candidates of a symbol placed along lines (a polygon's rings count as lines;
    /// points have none): each part is clipped to the tile's squares, and each clipped piece
    /// gives either one candidate set glyph by glyph along it (text that follows the line),
    /// or one upright symbol per `symbol-spacing` (road shields, one-way arrows), its icon
    /// turned with the line when it follows it.
    private mutating func collectLine(_ g: ProjectedFeature, _ symbol: FeatureSymbol, tile: DrawTile, layer: Int,
                                      textFollowsLine: Bool) {
        guard g.type != .point else { return }
        let (label, paint, icon, key) = (symbol.text, symbol.paint, symbol.icon, symbol.sortKey)
        for part in 0..<g.partCount {
            var path = Path()
            let pts = g.part(part)
            guard let first = pts.first else { continue }
            path.move(to: first)
            for p in pts.dropFirst() { path.line(to: p) }
            for clip in tile.clips {
                let clipped = LineClipper.clip(path, to: clip).path
                // In image pixels (a pitched band's: cut at the eye, kept to its rows).
                let context = self.context
                let lines = clipped.contours.filter { $0.count >= 2 }.flatMap { context.imageLines(Array(clipped.points(of: $0))) }
                for line in lines {
                    if !label.isEmpty && textFollowsLine {
                        // A pitched image's label along a line is scaled by the perspective at
                        // the line's middle, where it is tried first.
                        let middle = LineGeometry.point(at: LineGeometry.length(line) / 2, on: line)?.point ?? line[0]
                        candidates.append(Candidate(layer: layer, sortKey: key, sequence: candidates.count, text: label,
                                                    paint: paint.scaled(by: context.symbolScale(atRow: middle.y)), icon: nil,
                                                    points: line, isLine: true))
                        continue
                    }
                    // Upright text and icons: one symbol per `symbol-spacing` of line
                    // (in image pixels: the line is already turned).
                    for at in Self.anchors(along: line, spacing: paint.spacing) {
                        let k = context.symbolScale(atRow: at.point.y)
                        var turned = icon?.scaled(by: k)
                        if let i = icon, i.followsLine { turned?.rotation = i.rotation + at.angle }
                        candidates.append(Candidate(layer: layer, sortKey: key, sequence: candidates.count, text: label,
                                                    paint: paint.scaled(by: k), icon: turned, points: [at.point], isLine: false))
                    }
                }
            }
        }
    }

    /// Evenly spaced anchors on a line, at most one per `spacing` pixels and at least one
    /// (the middle), each with the line's direction there.
    static func anchors(along line: [PixelPoint], spacing: Double) -> [(point: PixelPoint, angle: Double)] {
        let total = LineGeometry.length(line)
        guard total > 0 else { return [] }
        let n = max(1, Int(total / max(spacing, 1)))
        return (0..<n).compactMap { i in LineGeometry.point(at: (Double(i) + 0.5) * total / Double(n), on: line) }
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
        let bounds = context.imageRect
        var placedLineAnchors: [String: [PixelPoint]] = [:]
        var draws: [(layer: Int, seq: Int, action: () -> Void)] = []
        let renderer = text.renderer
        let canvas = context.canvas
        for i in order {
            let c = candidates[i]
            let p = c.paint
            if c.isLine {
                let layout = text.layout(c.text, face: p.face, fonts: fonts,
                                         options: TextLayoutOptions(sizePixels: p.sizePixels, lineHeight: p.lineHeight,
                                                                    letterSpacing: p.letterSpacing))
                guard layout.lines.count == 1, let placed = placeAlongLine(c, layout, bounds: bounds,
                                                                         previous: placedLineAnchors[c.text] ?? []) else { continue }
                placedLineAnchors[c.text, default: []].append(placed.anchor)
                if !p.ignorePlacement {
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
                placePoint(c, fonts: fonts, bounds: bounds, placedAnchors: &placedLineAnchors, draws: &draws)
            }
        }
        // Draw in style order so later layers' labels sit on top.
        draws.sort { $0.layer != $1.layer ? $0.layer < $1.layer : $0.seq < $1.seq }
        for d in draws { d.action() }
    }

    /// Places one point symbol (text, icon or both) and queues its drawing: icon first,
    /// text over it.
    private func placePoint(_ c: Candidate, fonts: FontLibrary, bounds: PixelRect, placedAnchors: inout [String: [PixelPoint]],
                            draws: inout [(layer: Int, seq: Int, action: () -> Void)]) {
        let p = c.paint
        let renderer = text.renderer
        let canvas = context.canvas
        let anchor = c.points[0]
        func inside(_ r: PixelRect) -> Bool {
            r.minX >= bounds.minX && r.maxX <= bounds.maxX && r.minY >= bounds.minY && r.maxY <= bounds.maxY
        }
        // Symbols set along a line repeat only every `symbol-spacing` for the same text and icon.
        var repeatKey: String?
        if p.placement != .point {
            let key = c.text + "\u{0}" + (c.icon.map { "\(ObjectIdentifier($0.sprite.image))" } ?? "")
            if placedAnchors[key, default: []].contains(where: { ($0 - anchor).length < p.spacing }) { return }
            repeatKey = key
        }

        var textPart: (layout: TextLayout, at: PixelPoint, anchor: TextAnchor, frame: PixelRect, hit: PixelRect, fits: Bool)?
        if !c.text.isEmpty {
            let layout = text.layout(c.text, face: p.face, fonts: fonts,
                                     options: TextLayoutOptions(sizePixels: p.sizePixels, maxWidth: p.maxWidth,
                                                                lineHeight: p.lineHeight, alignment: .center,
                                                                letterSpacing: p.letterSpacing))
            // The first position that fits, else the first (which then does not place).
            for position in p.positions {
                let at = anchor + position.offset
                let box = renderer.measure(layout, at: at, anchor: position.anchor, haloWidth: p.haloWidth)
                let ink = box.inkBounds ?? box.frame
                let hit = ink.insetBy(-p.padding)
                let fits = inside(ink) && (p.allowOverlap || !labels.collides(hit))
                if textPart == nil || fits { textPart = (layout, at, position.anchor, box.frame, hit, fits) }
                if fits { break }
            }
        }
        var iconPart: (placement: IconPlacement, hit: PixelRect, fits: Bool)?
        if let icon = c.icon {
            let placement = IconPlacement(icon, at: anchor, textFrame: textPart?.frame)
            let hit = placement.bounds.insetBy(-icon.padding)
            let fits = inside(placement.bounds) && (icon.allowOverlap || !labels.collides(hit))
            iconPart = (placement, hit, fits)
        }
        // MapLibre's rule: both parts or neither, unless one of them is optional.
        var placeText = textPart?.fits ?? false
        var placeIcon = iconPart?.fits ?? false
        if textPart != nil, let icon = c.icon {
            if !p.optional && !icon.optional {
                placeText = placeText && placeIcon
                placeIcon = placeText
            } else if !p.optional {
                placeText = placeText && placeIcon
            } else if !icon.optional {
                placeIcon = placeIcon && placeText
            }
        }
        guard placeText || placeIcon else { return }
        if let repeatKey { placedAnchors[repeatKey, default: []].append(anchor) }
        if placeIcon, let part = iconPart, let icon = c.icon {
            if !icon.ignorePlacement { labels.insert(part.hit) }
            let placement = part.placement
            draws.append((c.layer, c.sequence, { placement.draw(icon.image, on: canvas, opacity: icon.opacity) }))
        }
        if placeText, let part = textPart {
            if !p.ignorePlacement { labels.insert(part.hit) }
            let paint = TextPaint(color: p.color, haloColor: p.haloColor, haloWidth: p.haloWidth)
            draws.append((c.layer, c.sequence, { renderer.draw(part.layout, on: canvas, at: part.at, anchor: part.anchor, paint: paint) }))
        }
    }

    /// A run of neighbouring glyphs of one cluster, and its middle along the baseline
    /// (pixels from the layout's left).
    struct GlyphCluster {
        var glyphs: Range<Int>
        var middle: Double
    }

    /// The clusters of a one-line layout, left to right: glyphs sharing a character index
    /// next to each other. A cluster spans from its first glyph's pen to the last glyph's
    /// pen plus advance.
    static func clusters(of layout: TextLayout) -> [GlyphCluster] {
        var out: [GlyphCluster] = []
        var i = 0
        let glyphs = layout.glyphs
        while i < glyphs.count {
            var j = i + 1
            while j < glyphs.count, glyphs[j].characterIndex == glyphs[i].characterIndex { j += 1 }
            let left = glyphs[i].origin.x - glyphs[i].offset.x
            let right = glyphs[j - 1].origin.x - glyphs[j - 1].offset.x + glyphs[j - 1].advance
            out.append(GlyphCluster(glyphs: i..<j, middle: (left + right) / 2))
            i = j
        }
        return out
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
        let clusters = SymbolPlacer.clusters(of: layout)
        let forward = pts
        for anchor in anchors {
            guard let mid = LineGeometry.point(at: anchor, on: forward) else { continue }
            if previous.contains(where: { ($0 - mid.point).length < p.spacing }) { continue }
            // On a turned map, upright where the text sits, too: a line that runs left to
            // right overall can run right to left under the label, and is read from its
            // other end there. (North-up maps keep the whole-line rule, placement for
            // placement: their images do not change with headings.)
            var pts = forward, center = anchor
            if context.toImage != nil, let a = LineGeometry.point(at: anchor - labelLength / 2, on: forward),
               let b = LineGeometry.point(at: anchor + labelLength / 2, on: forward), b.point.x < a.point.x {
                pts.reverse()
                center = total - anchor
            }
            if LineGeometry.bendsTooSharply(pts, from: center - labelLength / 2, to: center + labelLength / 2,
                                            window: p.sizePixels * 0.6, maxAngle: p.maxAngle) { continue }
            var placed: [PlacedGlyph] = []
            var boxes: [PixelRect] = []
            var lastAngle: Double?
            var ok = true
            let start = center - labelLength / 2
            // Baseline offset so the text's x-height straddles the line.
            let drop = p.sizePixels * 0.35
            // Cluster by cluster (a ligature, a base with its marks, an Indic syllable): the
            // cluster's middle sits on the line and its glyphs keep their shaped places
            // around it, turned with the line there; `text-max-angle` holds between clusters.
            for cluster in clusters {
                let along = start + cluster.middle
                guard let at = LineGeometry.point(at: along, on: pts) else { ok = false; break }
                if let la = lastAngle {
                    var d = abs(at.angle - la)
                    if d > .pi { d = 2 * .pi - d }
                    if d > p.maxAngle { ok = false; break }
                }
                lastAngle = at.angle
                let tx = cos(at.angle), ty = sin(at.angle)
                for g in layout.glyphs[cluster.glyphs] {
                    // The glyph's place relative to the cluster's middle on the baseline
                    // (x along the line, y across it, down), rotated with the line.
                    let dx = g.origin.x - cluster.middle, dy = drop + g.offset.y
                    let origin = PixelPoint(x: at.point.x + tx * dx - ty * dy, y: at.point.y + ty * dx + tx * dy)
                    if let ink = renderer.drawGlyph(g, sizePixels: p.sizePixels, on: nil, at: origin, rotation: at.angle,
                                                    paint: TextPaint(color: p.color, haloColor: p.haloColor, haloWidth: p.haloWidth)) {
                        guard ink.minX >= bounds.minX, ink.maxX <= bounds.maxX, ink.minY >= bounds.minY, ink.maxY <= bounds.maxY else { ok = false; break }
                        let hit = ink.insetBy(-p.padding / 2)
                        if !p.allowOverlap && labels.collides(hit) { ok = false; break }
                        boxes.append(hit)
                    }
                    placed.append(PlacedGlyph(glyph: g, origin: origin, rotation: at.angle))
                }
                if !ok { break }
            }
            if ok && !placed.isEmpty { return (mid.point, placed, boxes) }
        }
        return nil
    }
}

/// The text properties of one symbol layer, resolved at the render's zoom once per layer,
/// and their evaluation for one feature: what a feature's label says and how it is painted.
///
/// Kept apart from `SymbolPlacer.collect` so that the per-feature work (run for every
/// feature of every symbol layer: the label hot path) reads as one list of properties, and
/// the geometry side — where candidates go — as another.
struct TextProperties {
    let zoom: Double
    /// Device pixels per CSS pixel.
    let ratio: Double
    let field, font, transform, anchor, offset, translate: PropertyValue
    let size, color, haloColor, haloWidth, opacity, maxWidth, letterSpacing, lineHeight, padding, maxAngle,
        spacing, sortKey, radial: ResolvedProperty
    /// `text-variable-anchor`, in the order tried; empty when unset.
    let variableAnchors: [TextAnchor]
    let placement: SymbolPlacement
    let allowOverlap, ignorePlacement, optional: Bool
    /// Whether `symbol-sort-key` and `text-radial-offset` are set (unset differs from 0).
    let hasSortKey, hasRadialOffset: Bool
    /// Text along a line follows it unless it is set upright (road shields).
    let followsLine: Bool

    init(_ layer: StyleLayer, zoom: Double, ratio: Double) {
        self.zoom = zoom
        self.ratio = ratio
        field = layer.property(.textField).resolved(atZoom: zoom)
        font = layer.property(.textFont).resolved(atZoom: zoom)
        size = ResolvedProperty(layer, .textSize, zoom: zoom)
        color = ResolvedProperty(layer, .textColor, zoom: zoom)
        haloColor = ResolvedProperty(layer, .textHaloColor, zoom: zoom)
        haloWidth = ResolvedProperty(layer, .textHaloWidth, zoom: zoom)
        opacity = ResolvedProperty(layer, .textOpacity, zoom: zoom)
        maxWidth = ResolvedProperty(layer, .textMaxWidth, zoom: zoom)
        letterSpacing = ResolvedProperty(layer, .textLetterSpacing, zoom: zoom)
        lineHeight = ResolvedProperty(layer, .textLineHeight, zoom: zoom)
        padding = ResolvedProperty(layer, .textPadding, zoom: zoom)
        maxAngle = ResolvedProperty(layer, .textMaxAngle, zoom: zoom)
        spacing = ResolvedProperty(layer, .symbolSpacing, zoom: zoom)
        hasSortKey = layer.layout[.symbolSortKey] != nil
        sortKey = ResolvedProperty(layer, .symbolSortKey, zoom: zoom)
        transform = layer.property(.textTransform).resolved(atZoom: zoom)
        anchor = layer.property(.textAnchor).resolved(atZoom: zoom)
        offset = layer.property(.textOffset).resolved(atZoom: zoom)
        hasRadialOffset = layer.layout[.textRadialOffset] != nil
        radial = ResolvedProperty(layer, .textRadialOffset, zoom: zoom)
        variableAnchors = layer.layout[.textVariableAnchor] == nil ? []
            : layer.property(.textVariableAnchor).stringArray(atZoom: zoom).compactMap(TextAnchor.init(rawValue:))
        translate = layer.property(.textTranslate).resolved(atZoom: zoom)
        placement = layer.property(.symbolPlacement).keyword(SymbolPlacement.self, atZoom: zoom)
        allowOverlap = layer.property(.textAllowOverlap).bool(atZoom: zoom)
        ignorePlacement = layer.property(.textIgnorePlacement).bool(atZoom: zoom)
        optional = layer.property(.textOptional).bool(atZoom: zoom)
        followsLine = placement != .point
            && layer.property(.textRotationAlignment).keyword(RotationAlignment.self, atZoom: zoom) != .viewport
    }

    /// What feature `f` shows, or nil when it shows nothing (no text and no icon, or text
    /// too small or transparent to see without an icon to show instead). An icon is asked
    /// for only where the text does not follow a line: such symbols leave icons out.
    func symbol(for f: VectorTileFeature, icons: IconProperties, sprites: SpriteSheet, fonts: FontLibrary,
                faces: inout [[String]: FreeTypeFace]) -> SymbolPlacer.FeatureSymbol? {
        var label = field.textField(atZoom: zoom, feature: f)
        label = transform.keyword(TextTransform.self, atZoom: zoom, feature: f).apply(label)
        label = label.trimmingWhitespace
        let icon = label.isEmpty || !followsLine ? icons.paint(f, zoom: zoom, ratio: ratio, sprites: sprites) : nil
        guard !label.isEmpty || icon != nil else { return nil }
        let stack = font.stringArray(atZoom: zoom, feature: f)
        let face: FreeTypeFace
        if let cached = faces[stack] { face = cached } else {
            face = fonts.face(forStyleFontStack: stack)
            faces[stack] = face
        }
        let px = size.number(zoom, f) * ratio
        let o = opacity.number(zoom, f)
        let c = color.color(zoom, f).withOpacity(o)
        if px < 1 || c.alpha == 0 {
            // Invisible text: the icon alone, if there is one.
            guard icon != nil else { return nil }
            label = ""
        }
        let paint = self.paint(for: f, face: face, sizePixels: px, color: c, opacity: o)
        return SymbolPlacer.FeatureSymbol(text: label, paint: paint, icon: icon, sortKey: hasSortKey ? sortKey.number(zoom, f) : 0)
    }

    /// The text paint of feature `f`, whose text is `px` device pixels tall in colour `c`
    /// (opacity `o` already applied; the halo takes it too).
    private func paint(for f: VectorTileFeature, face: FreeTypeFace, sizePixels px: Double, color c: Color,
                       opacity o: Double) -> SymbolPlacer.Paint {
        let hc = haloColor.color(zoom, f).withOpacity(o)
        let hw = min(haloWidth.number(zoom, f) * ratio, px / 4)
        return SymbolPlacer.Paint(
            face: face, sizePixels: px, color: c, haloColor: hc.alpha > 0 && hw > 0 ? hc : nil, haloWidth: hw,
            positions: positions(for: f, sizePixels: px),
            maxWidth: maxWidth.number(zoom, f) * px,
            letterSpacing: letterSpacing.number(zoom, f),
            lineHeight: lineHeight.number(zoom, f),
            padding: padding.number(zoom, f) * ratio,
            allowOverlap: allowOverlap,
            ignorePlacement: ignorePlacement,
            optional: optional,
            maxAngle: maxAngle.number(zoom, f) * .pi / 180,
            spacing: max(spacing.number(zoom, f), 1) * ratio,
            placement: placement)
    }

    /// Where feature `f`'s point text may go, in the order tried: `text-anchor` with its
    /// offset, or each of `text-variable-anchor`. Offsets are in ems (`px` pixels),
    /// `text-translate` in CSS pixels.
    private func positions(for f: VectorTileFeature, sizePixels px: Double) -> [SymbolPlacer.TextPosition] {
        let off = offset.numberArray(atZoom: zoom, feature: f)
        // text-translate: CSS pixels, not ems.
        let shift = translate.numberArray(atZoom: zoom, feature: f)
        let translation = PixelPoint(x: (shift.first ?? 0) * ratio, y: (shift.count > 1 ? shift[1] : 0) * ratio)
        // text-radial-offset (ems) wins over text-offset; with variable anchors, each
        // anchor takes it in its own direction.
        let radial = hasRadialOffset ? self.radial.number(zoom, f) * px : nil
        if variableAnchors.isEmpty {
            let textAnchor = anchor.keyword(TextAnchor.self, atZoom: zoom, feature: f)
            let textOffset = radial.map { SymbolPlacer.TextPosition.radial(textAnchor, $0) }
                ?? PixelPoint(x: (off.first ?? 0) * px, y: (off.count > 1 ? off[1] : 0) * px)
            return [SymbolPlacer.TextPosition(anchor: textAnchor, offset: textOffset + translation)]
        }
        // Without a radial offset, MapLibre takes text-offset's magnitudes, pointed
        // away from each anchor.
        let ox = abs(off.first ?? 0) * px, oy = abs(off.count > 1 ? off[1] : 0) * px
        return variableAnchors.map { a in
            let (fx, fy) = a.fraction
            let o = radial.map { SymbolPlacer.TextPosition.radial(a, $0) } ?? PixelPoint(x: (1 - 2 * fx) * ox, y: (1 - 2 * fy) * oy)
            return SymbolPlacer.TextPosition(anchor: a, offset: o + translation)
        }
    }
}

/// The icon properties of one symbol layer, resolved at the render's zoom.
struct IconProperties {
    let image, anchor, offset, fitPadding, translate: PropertyValue
    let size, rotate, opacity, padding, color, haloColor, haloWidth: ResolvedProperty
    let textFit: IconTextFit
    let allowOverlap, ignorePlacement, optional, followsLine, isSet: Bool
    /// SDF images coloured so far, per image, colours and size.
    private let colored = SDFImages()

    init(_ layer: StyleLayer, zoom: Double, placement: SymbolPlacement) {
        isSet = layer.layout[.iconImage] != nil
        color = ResolvedProperty(layer, .iconColor, zoom: zoom)
        haloColor = ResolvedProperty(layer, .iconHaloColor, zoom: zoom)
        haloWidth = ResolvedProperty(layer, .iconHaloWidth, zoom: zoom)
        image = layer.property(.iconImage).resolved(atZoom: zoom)
        size = ResolvedProperty(layer, .iconSize, zoom: zoom)
        rotate = ResolvedProperty(layer, .iconRotate, zoom: zoom)
        opacity = ResolvedProperty(layer, .iconOpacity, zoom: zoom)
        padding = ResolvedProperty(layer, .iconPadding, zoom: zoom)
        anchor = layer.property(.iconAnchor).resolved(atZoom: zoom)
        offset = layer.property(.iconOffset).resolved(atZoom: zoom)
        fitPadding = layer.property(.iconTextFitPadding).resolved(atZoom: zoom)
        translate = layer.property(.iconTranslate).resolved(atZoom: zoom)
        textFit = layer.property(.iconTextFit).keyword(IconTextFit.self, atZoom: zoom)
        allowOverlap = layer.property(.iconAllowOverlap).bool(atZoom: zoom)
        ignorePlacement = layer.property(.iconIgnorePlacement).bool(atZoom: zoom)
        optional = layer.property(.iconOptional).bool(atZoom: zoom)
        // `auto` means `map` on lines: arrows turn with the road.
        followsLine = placement != .point
            && layer.property(.iconRotationAlignment).keyword(RotationAlignment.self, atZoom: zoom) != .viewport
    }

    /// The icon of one feature, or nil when the layer has none, the name is empty, or the
    /// sprite has no such image (the text is then placed alone, as in MapLibre).
    func paint(_ f: VectorTileFeature, zoom: Double, ratio: Double, sprites: SpriteSheet) -> SymbolPlacer.IconPaint? {
        guard isSet else { return nil }
        let name = image.dependsOnFeature ? image.string(atZoom: zoom, feature: f) : image.string(atZoom: zoom)
        guard !name.isEmpty, let sprite = sprites.image(named: name) else { return nil }
        let s = size.number(zoom, f, default: 1)
        let o = opacity.number(zoom, f, default: 1)
        guard s > 0, o > 0 else { return nil }
        let off = offset.dependsOnFeature ? offset.numberArray(atZoom: zoom, feature: f) : offset.numberArray(atZoom: zoom)
        let pad = fitPadding.dependsOnFeature ? fitPadding.numberArray(atZoom: zoom, feature: f) : fitPadding.numberArray(atZoom: zoom)
        // icon-translate: CSS pixels, whatever the icon's size.
        let shift = translate.dependsOnFeature ? translate.numberArray(atZoom: zoom, feature: f) : translate.numberArray(atZoom: zoom)
        // Offsets are in icon pixels: they grow with icon-size.
        let unit = s * ratio
        let scale = s * ratio / sprite.pixelRatio
        var image = sprite.image
        if sprite.sdf {
            // Halo width is in CSS pixels; the field counts image pixels.
            image = colored.image(sprite.image, color: color.color(zoom, f), haloColor: haloColor.color(zoom, f),
                                  haloWidth: haloWidth.number(zoom, f, default: 0) * sprite.pixelRatio / s,
                                  gamma: 0.105 / max(scale, 0.01))
        }
        return SymbolPlacer.IconPaint(
            sprite: sprite, image: image, scale: scale,
            anchor: anchor.dependsOnFeature ? anchor.keyword(TextAnchor.self, atZoom: zoom, feature: f) : anchor.keyword(TextAnchor.self, atZoom: zoom),
            offset: PixelPoint(x: (off.first ?? 0) * unit + (shift.first ?? 0) * ratio,
                               y: (off.count > 1 ? off[1] : 0) * unit + (shift.count > 1 ? shift[1] : 0) * ratio),
            rotation: rotate.number(zoom, f, default: 0) * .pi / 180, opacity: o,
            padding: padding.number(zoom, f, default: 2) * ratio,
            allowOverlap: allowOverlap, ignorePlacement: ignorePlacement, optional: optional,
            textFit: textFit, fitPadding: (0..<4).map { (pad.count > $0 ? pad[$0] : 0) * ratio },
            followsLine: followsLine)
    }
}

/// SDF sprite images coloured for one layer, kept so that features sharing an image and
/// colours share the work.
final class SDFImages {
    private struct Key: Hashable {
        let image: ObjectIdentifier
        let color: Color
        let haloColor: Color
        let haloWidth: Double
        let gamma: Double
    }
    private var images: [Key: Canvas] = [:]

    func image(_ field: Canvas, color: Color, haloColor: Color, haloWidth: Double, gamma: Double) -> Canvas {
        let key = Key(image: ObjectIdentifier(field), color: color, haloColor: haloColor, haloWidth: haloWidth, gamma: gamma)
        if let hit = images[key] { return hit }
        let out = SignedDistanceField.colorize(field, color: color, haloColor: haloColor, haloWidth: haloWidth, gamma: gamma)
        images[key] = out
        return out
    }
}

/// Where one icon goes: its unrotated box, the point it turns about, and the box it
/// covers once turned (for collisions and the inside-the-image rule).
struct IconPlacement {
    /// The icon's box before rotation, device pixels.
    let rect: PixelRect
    /// Clockwise radians about `pivot`.
    let rotation: Double
    let pivot: PixelPoint
    /// What the drawn icon covers.
    let bounds: PixelRect

    /// - Parameter textFrame: the text's layout box, for `icon-text-fit`.
    init(_ icon: SymbolPlacer.IconPaint, at anchor: PixelPoint, textFrame: PixelRect?) {
        var w = Double(icon.image.width) * icon.scale
        var h = Double(icon.image.height) * icon.scale
        var r: PixelRect
        if let frame = textFrame, icon.textFit != .none {
            // Stretched around the text (plus padding) along the fitted dimensions, centred
            // on it along the others.
            let pad = icon.fitPadding
            let cx = (frame.minX + frame.maxX) / 2, cy = (frame.minY + frame.maxY) / 2
            var minX = cx - w / 2, maxX = cx + w / 2, minY = cy - h / 2, maxY = cy + h / 2
            if icon.textFit == .width || icon.textFit == .both { minX = frame.minX - pad[3]; maxX = frame.maxX + pad[1] }
            if icon.textFit == .height || icon.textFit == .both { minY = frame.minY - pad[0]; maxY = frame.maxY + pad[2] }
            w = maxX - minX
            h = maxY - minY
            r = PixelRect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        } else {
            let f = icon.anchor.fraction
            r = PixelRect(x: anchor.x + icon.offset.x - w * f.x, y: anchor.y + icon.offset.y - h * f.y, width: w, height: h)
        }
        if icon.rotation == 0 {
            // Whole pixels, so an icon drawn at its own size is copied sharp.
            r = PixelRect(x: r.minX.rounded(), y: r.minY.rounded(), width: w, height: h)
        }
        rect = r
        rotation = icon.rotation
        pivot = anchor
        if rotation == 0 {
            bounds = r
        } else {
            let c = cos(rotation), s = sin(rotation)
            let corners = [PixelPoint(x: r.minX, y: r.minY), PixelPoint(x: r.maxX, y: r.minY),
                           PixelPoint(x: r.minX, y: r.maxY), PixelPoint(x: r.maxX, y: r.maxY)].map { p -> PixelPoint in
                let dx = p.x - anchor.x, dy = p.y - anchor.y
                return PixelPoint(x: anchor.x + dx * c - dy * s, y: anchor.y + dx * s + dy * c)
            }
            bounds = PixelRect(minX: corners.map(\.x).min() ?? r.minX, minY: corners.map(\.y).min() ?? r.minY,
                               maxX: corners.map(\.x).max() ?? r.maxX, maxY: corners.map(\.y).max() ?? r.maxY)
        }
    }

    func draw(_ image: Canvas, on canvas: Canvas, opacity: Double) {
        if rotation == 0 {
            canvas.draw(image, in: rect, opacity: opacity)
            return
        }
        let cx = (rect.minX + rect.maxX) / 2 - pivot.x, cy = (rect.minY + rect.maxY) / 2 - pivot.y
        let c = cos(rotation), s = sin(rotation)
        let center = PixelPoint(x: pivot.x + cx * c - cy * s, y: pivot.y + cx * s + cy * c)
        canvas.draw(image, center: center, width: rect.width, height: rect.height, rotation: rotation, opacity: opacity)
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

    /// Whether the line turns by more than `maxAngle` (radians) within some stretch of
    /// `window` pixels between `start` and `end` pixels along it, the turns at its vertices
    /// summed. This is the test MapLibre applies to text set along a line (`text-max-angle`,
    /// with a window of 3/5 of the text size): a corner drawn as two 45° turns a pixel apart
    /// counts as the 90° it is, which comparing neighbouring glyphs alone would let pass.
    static func bendsTooSharply(_ pts: [PixelPoint], from start: Double, to end: Double, window: Double,
                                maxAngle: Double) -> Bool {
        guard pts.count >= 3 else { return false }
        var corners: [(distance: Double, turn: Double)] = []
        var along = 0.0
        var heading: Double?  // of the last segment with a length
        for i in 1..<pts.count {
            let d = pts[i] - pts[i - 1]
            let length = d.length
            guard length > 0 else { continue }
            let direction = atan2(d.y, d.x)
            // A vertex at `along` lies on the label when it is strictly inside it.
            if let h = heading, along > start, along < end {
                var turn = abs(direction - h)
                if turn > .pi { turn = 2 * .pi - turn }
                corners.append((along, turn))
                var sum = 0.0
                for c in corners.reversed() {
                    guard along - c.distance <= window else { break }
                    sum += c.turn
                }
                if sum > maxAngle { return true }
            }
            heading = direction
            along += length
            if along >= end { break }
        }
        return false
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

extension SymbolPlacer.Paint {
    /// The text `k` times as large, its pixel lengths with it (a pitched image's perspective).
    func scaled(by k: Double) -> Self {
        guard k != 1 else { return self }
        var p = self
        p.sizePixels *= k
        p.haloWidth *= k
        p.positions = positions.map { SymbolPlacer.TextPosition(anchor: $0.anchor, offset: $0.offset * k) }
        p.maxWidth = maxWidth.map { $0 * k }
        p.padding *= k
        return p
    }
}

extension SymbolPlacer.IconPaint {
    /// The icon `k` times as large, its pixel lengths with it (a pitched image's perspective).
    func scaled(by k: Double) -> Self {
        guard k != 1 else { return self }
        var i = self
        i.scale *= k
        i.offset = offset * k
        i.padding *= k
        i.fitPadding = fitPadding.map { $0 * k }
        return i
    }
}
