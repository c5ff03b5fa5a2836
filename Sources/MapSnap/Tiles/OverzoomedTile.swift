/// How to draw a tile beyond a source's maximum zoom: from an ancestor tile, scaled up.
///
///     source tile (maxzoom), extent E         requested tile, dz = 1
///     ┌─────────┬─────────┐
///     │ (0,0)   │ (1,0)   │   the requested tile (x, y) covers the square of side E / 2^dz
///     ├─────────┼─────────┤   at `sourceOrigin`; a source point p maps to
///     │ (0,1)   │ (1,1)   │   (p − sourceOrigin) × 2^dz in the requested tile's units.
///     └─────────┴─────────┘
struct OverzoomedTile: Hashable, Sendable {
    /// The tile the renderer wants.
    let requested: TileID
    /// The tile to fetch: `requested` itself, or its ancestor at the source's max zoom.
    let source: TileID

    /// Resolves `requested` against a source whose deepest zoom is `maxZoom`.
    init(requested: TileID, maxZoom: Int) {
        self.requested = requested
        self.source = requested.z > maxZoom ? requested.ancestor(atZoom: max(0, maxZoom)) : requested
    }

    /// Zoom levels between source and request (0 when no over-zoom is needed).
    var zoomDelta: Int { requested.z - source.z }

    /// Factor from source tile units to requested tile units (2^zoomDelta).
    var scale: Double { Double(1 << zoomDelta) }

    /// The requested tile's square inside the source tile, in source tile units for `extent`.
    func sourceRect(extent: Int) -> SourceRect {
        let n = 1 << zoomDelta
        let side = Double(extent) / Double(n)
        let dx = requested.x - (source.x << zoomDelta)
        let dy = requested.y - (source.y << zoomDelta)
        return SourceRect(minX: Double(dx) * side, minY: Double(dy) * side, side: side)
    }

    /// A square in a source tile's units.
    struct SourceRect: Hashable, Sendable {
        var minX: Double
        var minY: Double
        var side: Double
    }
}
