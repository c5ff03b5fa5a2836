/// Iterates the features of one style layer across all loaded tiles, in tile order then
/// feature order (deterministic), decoding geometry into one reused buffer.
enum FeatureWalker {
    /// Calls `body` for each feature that passes the layer's filter and has the wanted
    /// geometry type, with its geometry and the tile-to-pixel transform.
    static func walk(_ layer: StyleLayer, _ source: LoadedSource, zoom: Double, types: Set<GeometryType>,
                     _ body: (VectorTileFeature, TileGeometry, TileTransform, DrawTile) -> Void) {
        guard let sourceLayer = layer.sourceLayer else { return }
        var geometry = TileGeometry()
        // Drawn tiles that share a decoded tile share its bound filter.
        var filters: [Int: CompiledFilter] = [:]
        for tile in source.drawTiles {
            guard case .vector(let vt) = source.payloads[tile.payload] else { continue }
            let found: VectorTileLayer?
            do {
                found = try vt.layer(named: sourceLayer)
            } catch {
                source.report(tile.sourceTile, "layer \"\(sourceLayer)\": \(error)")
                continue
            }
            guard let l = found else { continue }
            let transform = TileTransform(rect: tile.sourceRect, extent: l.extent)
            let filter = filters[tile.payload] ?? CompiledFilter(layer, tileLayer: TileLayerIndex(l), zoom: zoom, geometryTypes: types)
            filters[tile.payload] = filter
            for feature in l.features {
                guard filter.matches(feature) else { continue }
                geometry.removeAll()
                do {
                    try feature.decodeGeometry(into: &geometry)
                } catch {
                    // One bad feature does not spoil the tile; the tile gets one warning.
                    source.report(tile.sourceTile, "\(error)")
                    continue
                }
                body(feature, geometry, transform, tile)
            }
        }
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

    mutating func slot(_ key: Key) -> Int {
        if let i = index[key] { return i }
        index[key] = keys.count
        keys.append(key)
        paths.append(Path())
        return keys.count - 1
    }

    mutating func append(_ key: Key, _ body: (inout Path) -> Void) {
        let i = slot(key)
        body(&paths[i])
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

    func number(_ zoom: Double, _ f: VectorTileFeature, default d: Double) -> Double {
        let v = value.dependsOnFeature ? value.number(atZoom: zoom, feature: f) : value.number(atZoom: zoom)
        guard let v, v.isFinite else { return d }
        return v
    }
}
