/// Walks the features of one style layer across the loaded tiles.
///
/// Each source tile is read once per layer: its features are filtered, their geometry
/// decoded and projected to image pixels, and — for those that reach the part of the
/// image the tile supplies — their properties evaluated (`evaluate`), once, however many
/// covering tiles the source tile supplies (over-zooming a z14 tile to z16 makes it supply
/// 16). Then `emit` is called per covering tile, in tile order and then feature order —
/// exactly the order a tile-by-tile walk would give, so output does not depend on this
/// sharing — for the features whose pixel bounds touch the tile's clips.
///
/// `drawsWithin` is where the painter's drawing of a feature can leave marks at all (the
/// canvas grown by a stroke's reach): features whose bounds miss it are skipped before
/// they are filtered or decoded. A covering tile is often much larger than the image (a
/// 64-px image shows a corner of one 256-px tile), so this is most of a small render's walk.
enum FeatureWalker {
    static func walk<Value>(_ layer: StyleLayer, _ source: LoadedSource, zoom: Double, types: Set<GeometryType>,
                            drawsWithin: PixelRect? = nil,
                            evaluate: (VectorTileFeature, GeometryType) -> Value?,
                            emit: (ProjectedFeature, Value, DrawTile) -> Void) {
        guard let sourceLayer = layer.sourceLayer else { return }
        var prepared = [ProjectedTileLayer<Value>?](repeating: nil, count: source.sourceTileGroupCount)
        var geometry = TileGeometry()
        for (i, tile) in source.drawTiles.enumerated() {
            let g = source.sourceTileGroupIndex[i]
            if prepared[g] == nil {
                var visible = source.sourceTileGroupBounds[g]
                if let limit = drawsWithin {
                    visible = PixelRect(minX: max(visible.minX, limit.minX), minY: max(visible.minY, limit.minY),
                                        maxX: min(visible.maxX, limit.maxX), maxY: min(visible.maxY, limit.maxY))
                }
                // Overlap is inclusive, as in the feature tests (a hairline on the edge counts).
                prepared[g] = visible.minX <= visible.maxX && visible.minY <= visible.maxY
                    ? project(layer, sourceLayer, source, tile, group: g, within: visible, zoom: zoom, types: types,
                              geometry: &geometry, evaluate: evaluate)
                    : ProjectedTileLayer()
            }
            guard let features = prepared[g], !features.items.isEmpty else { continue }
            for item in features.items {
                let b = item.bounds
                guard tile.clips.contains(where: { b.maxX >= $0.minX && b.minX <= $0.maxX && b.maxY >= $0.minY && b.minY <= $0.maxY })
                else { continue }
                emit(ProjectedFeature(type: item.type, points: features.points, partEnds: features.partEnds,
                                      parts: item.parts, bounds: b), item.value, tile)
            }
        }
    }

    /// Filters, evaluates, decodes and projects one source tile's features for a layer.
    private static func project<Value>(_ layer: StyleLayer, _ sourceLayer: String, _ source: LoadedSource, _ tile: DrawTile,
                                       group: Int, within visible: PixelRect, zoom: Double, types: Set<GeometryType>,
                                       geometry: inout TileGeometry,
                                       evaluate: (VectorTileFeature, GeometryType) -> Value?) -> ProjectedTileLayer<Value> {
        var out = ProjectedTileLayer<Value>()
        guard case .vector(let vt) = source.payloads[tile.payload] else { return out }
        let found: VectorTileLayer?
        do {
            found = try vt.layer(named: sourceLayer)
        } catch {
            source.report(tile.sourceTile, "layer \"\(sourceLayer)\": \(error)")
            return out
        }
        guard let l = found else { return out }
        let t = TileTransform(rect: tile.sourceRect, extent: l.extent)
        let filter = CompiledFilter(layer, tileLayer: TileLayerIndex(l), zoom: zoom, geometryTypes: types)
        // The visible rectangle in tile units, one unit wider each side: a feature whose box
        // misses it cannot reach the image (the exact test on projected points follows), so
        // it is neither filtered nor decoded — most of a tile, when a small image shows a
        // corner of an over-zoomed one.
        let cull = t.scale > 0 && t.scale.isFinite
        let vx0 = (visible.minX - t.originX) / t.scale - 1, vx1 = (visible.maxX - t.originX) / t.scale + 1
        let vy0 = (visible.minY - t.originY) / t.scale - 1, vy1 = (visible.maxY - t.originY) / t.scale + 1
        // Boxes are read from the layer's records: most features of a big tile fail this test,
        // and they should cost no more than the test.
        let records = l.storage.records, storage = l.storage
        let candidates = cull ? reachingGroup(group, sourceLayer, records, source, t) : Array(records.indices)
        for index in candidates {
            if cull, !records[index].bounds.intersects(minX: vx0, minY: vy0, maxX: vx1, maxY: vy1) { continue }
            guard filter.matches(featureAt: index, of: storage) else { continue }
            let feature = l.features[index]
            geometry.removeAll()
            do {
                try feature.decodeGeometry(into: &geometry)
            } catch {
                // One bad feature does not spoil the tile; the tile gets one warning.
                source.report(tile.sourceTile, "\(error)")
                continue
            }
            let firstPoint = out.points.count, firstPart = out.partEnds.count
            var lo = PixelPoint(x: .infinity, y: .infinity), hi = PixelPoint(x: -.infinity, y: -.infinity)
            for part in 0..<geometry.partCount {
                for p in geometry.part(part) {
                    let q = t(p)
                    out.points.append(q)
                    lo = PixelPoint(x: min(lo.x, q.x), y: min(lo.y, q.y))
                    hi = PixelPoint(x: max(hi.x, q.x), y: max(hi.y, q.y))
                }
                out.partEnds.append(out.points.count)
            }
            let reaches = hi.x >= visible.minX && lo.x <= visible.maxX && hi.y >= visible.minY && lo.y <= visible.maxY
            guard reaches, let value = evaluate(feature, geometry.type) else {
                out.points.removeLast(out.points.count - firstPoint)
                out.partEnds.removeLast(out.partEnds.count - firstPart)
                continue
            }
            out.items.append(.init(type: geometry.type, parts: firstPart..<out.partEnds.count,
                                   bounds: PixelRect(minX: lo.x, minY: lo.y, maxX: hi.x, maxY: hi.y), value: value))
        }
        return out
    }
}

extension FeatureWalker {
    /// The features of a source tile group's layer whose boxes reach the group's bounds (one
    /// tile unit wider each side), in feature order: found once per render and source layer,
    /// then read by every style layer of it. Every layer's own test rectangle lies within
    /// the group's bounds, so this is a superset of what any layer keeps, and a layer tests
    /// only these — the Helsinki styles draw 55 layers from `transportation`, and testing
    /// each of a z14 tile's features for each of them was most of a view's walk.
    fileprivate static func reachingGroup(_ group: Int, _ sourceLayer: String, _ records: [VectorTileLayerStorage.FeatureRecord],
                                          _ source: LoadedSource, _ t: TileTransform) -> [Int] {
        let key = LoadedSource.GroupLayer(group: group, layer: sourceLayer)
        if let found = source.featuresReachingGroup[key] { return found }
        let b = source.sourceTileGroupBounds[group]
        let x0 = (b.minX - t.originX) / t.scale - 1, x1 = (b.maxX - t.originX) / t.scale + 1
        let y0 = (b.minY - t.originY) / t.scale - 1, y1 = (b.maxY - t.originY) / t.scale + 1
        let found = records.indices.filter { records[$0].bounds.intersects(minX: x0, minY: y0, maxX: x1, maxY: y1) }
        source.featuresReachingGroup[key] = found
        return found
    }
}

/// One source tile's features of one style layer, projected to image pixels.
private struct ProjectedTileLayer<Value> {
    struct Item {
        let type: GeometryType
        /// Indices into `partEnds`.
        let parts: Range<Int>
        /// Bounds of all parts in image pixels (inverted, min > max, when empty).
        let bounds: PixelRect
        let value: Value
    }
    /// Every part's points, back to back.
    var points: [PixelPoint] = []
    /// End index in `points` of each part; a part starts where the previous one ended.
    var partEnds: [Int] = []
    var items: [Item] = []
}

/// A feature's geometry in image pixels: parts (rings, lines or points) as slices.
struct ProjectedFeature {
    let type: GeometryType
    fileprivate let points: [PixelPoint]
    fileprivate let partEnds: [Int]
    fileprivate let parts: Range<Int>
    /// Bounds of all parts in image pixels.
    let bounds: PixelRect

    var partCount: Int { parts.count }

    /// The number of points of all parts.
    var pointCount: Int {
        guard let last = parts.last else { return 0 }
        return partEnds[last] - (parts.lowerBound == 0 ? 0 : partEnds[parts.lowerBound - 1])
    }

    /// The points of part `i` (0-based within this feature).
    func part(_ i: Int) -> ArraySlice<PixelPoint> {
        let k = parts.lowerBound + i
        let start = k == 0 ? 0 : partEnds[k - 1]
        return points[start..<partEnds[k]]
    }
}

/// Maps tile extent units to image pixels for one drawn tile.
struct TileTransform {
    let originX: Double
    let originY: Double
    let scale: Double

    init(rect: PixelRect, extent: Int) {
        originX = rect.minX
        originY = rect.minY
        scale = rect.width / Double(max(extent, 1))
    }

    @inline(__always)
    func callAsFunction(_ p: TilePoint) -> PixelPoint {
        PixelPoint(x: originX + Double(p.x) * scale, y: originY + Double(p.y) * scale)
    }
}

/// Paths grouped by paint, in order of first use, so a layer whose paint is constant
/// (the usual case) is filled or stroked in one pass — which is what makes tile seams and
/// overlapping buffers invisible.
struct PaintGroups<Key: Hashable> {
    private(set) var keys: [Key] = []
    private(set) var paths: [Path] = []
    private var index: [Key: Int] = [:]
    /// The last key looked up: consecutive features usually share their paint, and
    /// comparing is cheaper than hashing (keys hold dash arrays).
    private var last: (key: Key, slot: Int)?

    mutating func slot(_ key: Key) -> Int {
        if let last, last.key == key { return last.slot }
        let i: Int
        if let found = index[key] {
            i = found
        } else {
            i = keys.count
            index[key] = i
            keys.append(key)
            paths.append(Path())
        }
        last = (key, i)
        return i
    }

    mutating func append(_ key: Key, _ body: (inout Path) -> Void) {
        body(&paths[slot(key)])
    }

    mutating func append(slot: Int, _ body: (inout Path) -> Void) {
        body(&paths[slot])
    }
}

/// Paint properties resolved once per layer at the render's zoom; per-feature evaluation
/// only when the value really depends on the feature.
struct ResolvedProperty {
    let value: PropertyValue

    init(_ layer: StyleLayer, _ property: StyleProperty, zoom: Double) {
        value = layer.property(property).resolved(atZoom: zoom)
    }

    func color(_ zoom: Double, _ f: VectorTileFeature) -> Color {
        value.dependsOnFeature ? value.color(atZoom: zoom, feature: f) : value.color(atZoom: zoom)
    }

    /// A number, the property's style-spec default (from the property table) when the value
    /// is not one; 0 for the properties without a default (`symbol-sort-key`).
    func number(_ zoom: Double, _ f: VectorTileFeature) -> Double {
        number(zoom, f, default: 0)
    }

    /// The number every feature gets (the default when the value is not one), or nil when it
    /// varies by feature.
    func constantNumber(_ zoom: Double, default d: Double) -> Double? {
        guard !value.dependsOnFeature else { return nil }
        guard let v = value.number(atZoom: zoom), v.isFinite else { return d }
        return v
    }

    func number(_ zoom: Double, _ f: VectorTileFeature, default d: Double) -> Double {
        let v = value.dependsOnFeature ? value.number(atZoom: zoom, feature: f) : value.number(atZoom: zoom)
        guard let v, v.isFinite else { return d }
        return v
    }
}
