import Foundation

/// `hillshade`: relief shading computed from `raster-dem` elevation tiles.
///
/// Per DEM tile: slope and aspect from Horn's 3×3 kernel in true metres per pixel at each
/// row's latitude, then a MapLibre-like look rather than a bare Lambert shade — flat ground is
/// transparent; slopes get the shadow or highlight colour by how they face the light, with an
/// alpha that grows with steepness; steep slopes also get the accent colour. The result is an
/// RGBA image of the tile, drawn into the tile's square like a raster tile (so over-zoomed DEM
/// tiles are scaled the same way).
///
/// Seams: the kernel's border row and column come from the neighbouring DEM tiles when they
/// are loaded (every tile under the image is), so shading is continuous across tile borders.
/// Only beyond the loaded tiles — outside the image — are edge elevations clamped, which
/// flattens the outermost pixel ring of those tiles.
enum HillshadePainter {
    /// The layer's paint properties, evaluated at one zoom.
    struct Parameters: Equatable {
        /// Where the light comes from, degrees clockwise from north (the top of the image).
        var illuminationDirection: Double = 335
        /// 0…1: how strongly slopes shade (`hillshade-exaggeration`).
        var exaggeration: Double = 0.5
        var shadow: Color = .black
        var highlight: Color = .white
        var accent: Color = .black

        init() {}

        init(_ layer: StyleLayer, zoom: Double) {
            illuminationDirection = layer.property(.hillshadeIlluminationDirection).number(atZoom: zoom) ?? 335
            exaggeration = layer.property(.hillshadeExaggeration).number(atZoom: zoom) ?? 0.5
            shadow = layer.property(.hillshadeShadowColor).color(atZoom: zoom)
            highlight = layer.property(.hillshadeHighlightColor).color(atZoom: zoom)
            accent = layer.property(.hillshadeAccentColor).color(atZoom: zoom)
        }
    }

    static func draw(_ layer: StyleLayer, _ src: LoadedSource, _ ctx: PaintContext) {
        var params = Parameters(layer, zoom: ctx.zoom)
        // The light comes from a direction on the screen (MapLibre's default `viewport`
        // anchor): a turned map is shaded in its north-up frame with the light turned by
        // the heading, so it still falls from the image's upper left.
        params.illuminationDirection += ctx.heading
        // Loaded DEM tiles by address, for the neighbours' edge rows.
        var byTile: [TileID: DEMTile] = [:]
        for t in src.drawTiles where byTile[t.sourceTile] == nil {
            if case .dem(let d) = src.payloads[t.payload] { byTile[t.sourceTile] = d }
        }
        struct Drawn: Hashable { let payload: Int; let copy: Int }
        var drawn = Set<Drawn>()
        var shaded: [Int: Canvas] = [:]
        for tile in src.drawTiles {
            guard drawn.insert(Drawn(payload: tile.payload, copy: tile.covering.worldCopy)).inserted,
                  case .dem(let dem) = src.payloads[tile.payload] else { continue }
            let image: Canvas
            if let s = shaded[tile.payload] {
                image = s
            } else {
                let id = tile.sourceTile
                image = shade(dem, tile: id, parameters: params) { dx, dy in
                    neighbour(of: id, dx: dx, dy: dy).flatMap { byTile[$0] }
                }
                shaded[tile.payload] = image
            }
            ctx.canvas.draw(image, in: tile.sourceRect, opacity: 1)
        }
    }

    /// The tile `dx`, `dy` steps from `id` (x wraps around the world; nil past a pole).
    static func neighbour(of id: TileID, dx: Int, dy: Int) -> TileID? {
        let n = id.gridSize
        return TileID(z: id.z, x: ((id.x + dx) % n + n) % n, y: id.y + dy)
    }

    /// The hillshade image of one DEM tile (premultiplied RGBA, the DEM's size).
    /// `neighbour(dx, dy)` returns the adjacent tile in that direction when loaded; tiles of
    /// another size are ignored (clamped edges instead).
    static func shade(_ dem: DEMTile, tile: TileID, parameters p: Parameters,
                      neighbour: (Int, Int) -> DEMTile?) -> Canvas {
        let side = dem.side
        let grid = paddedElevations(dem, neighbour: neighbour)
        let stride = side + 2
        var pixels = [UInt8](repeating: 0, count: side * side * 4)

        let intensity = min(max(p.exaggeration, 0), 1)
        // Below 0.5 the whole shade fades out; above it only the slope curve steepens.
        let strength = min(1, intensity * 2)
        // Exponential easing of the slope (0…π/2) by intensity, as MapLibre's shader does, so
        // higher exaggeration makes gentle slopes darker without saturating steep ones.
        let base = 1.875 - intensity * 1.75
        let easeDenominator = pow(base, Double.pi / 2) - 1
        let eases = abs(base - 1) > 1e-6
        // Light direction in image space (x east, y down).
        let azimuth = p.illuminationDirection * .pi / 180
        let lightX = sin(azimuth), lightY = -cos(azimuth)
        // Real slopes shrink to nothing at low zoom, where one pixel spans kilometres; boost
        // them there (0.3 zoom levels per level below 15, measured in 256-px tile pixels).
        let pixelZoom = Double(tile.z) + log2(Double(side) / 256)
        let boost = pow(2, 0.3 * max(0, 15 - pixelZoom))
        let shadow = premultiplied(p.shadow), highlight = premultiplied(p.highlight), accent = premultiplied(p.accent)
        let worldTiles = Double(tile.gridSize)
        let circumference = 2 * Double.pi * WebMercator.mercatorRadiusMeters

        grid.withUnsafeBufferPointer { e in
            pixels.withUnsafeMutableBufferPointer { out in
                for y in 0..<side {
                    // Mercator pixels are square; their ground size shrinks with cos(latitude).
                    let worldY = (Double(tile.y) + (Double(y) + 0.5) / Double(side)) / worldTiles
                    let lat = atan(sinh(Double.pi * (1 - 2 * worldY)))
                    let metersPerPixel = circumference * cos(lat) / (worldTiles * Double(side))
                    let scale = boost / (8 * max(metersPerPixel, 1e-6))
                    var above = y * stride, row = above + stride, below = row + stride
                    for x in 0..<side {
                        // a b c
                        // d · f   (Horn: centre row and column weighted twice)
                        // g h i
                        let a = Double(e[above]), b = Double(e[above + 1]), c = Double(e[above + 2])
                        let d = Double(e[row]), f = Double(e[row + 2])
                        let g = Double(e[below]), h = Double(e[below + 1]), i = Double(e[below + 2])
                        above += 1; row += 1; below += 1
                        let gx = ((c + 2 * f + i) - (a + 2 * d + g)) * scale
                        let gy = ((g + 2 * h + i) - (a + 2 * b + c)) * scale
                        let steep = (gx * gx + gy * gy).squareRoot()
                        guard steep > 1e-9, steep.isFinite else { continue }
                        let slope = atan(steep)
                        let eased = eases ? (pow(base, slope) - 1) / easeDenominator * (Double.pi / 2) : slope
                        // Downhill points against the gradient; it faces the light when it points
                        // towards it: 1 fully lit … 0 facing away.
                        let facing = -(gx * lightX + gy * lightY) / steep
                        let t = (1 + facing) / 2
                        let shadeWeight = sin(eased) * strength
                        let accentWeight = (1 - cos(eased)) * strength
                        let sa = (shadow.3 + (highlight.3 - shadow.3) * t) * shadeWeight
                        let keep = 1 - sa
                        let o = (y * side + x) * 4
                        func channel(_ s: Double, _ h: Double, _ ac: Double) -> UInt8 {
                            let v = ac * accentWeight * keep + (s + (h - s) * t) * shadeWeight
                            return UInt8(min(max(v * 255, 0), 255).rounded())
                        }
                        out[o] = channel(shadow.0, highlight.0, accent.0)
                        out[o + 1] = channel(shadow.1, highlight.1, accent.1)
                        out[o + 2] = channel(shadow.2, highlight.2, accent.2)
                        let alpha = channel(shadow.3, highlight.3, accent.3)
                        // Rounding must never leave a colour channel above alpha (premultiplied).
                        out[o + 3] = max(alpha, out[o], out[o + 1], out[o + 2])
                    }
                }
            }
        }
        return Canvas(width: side, height: side, premultipliedPixels: pixels)
    }

    /// Premultiplied colour components 0…1.
    private static func premultiplied(_ c: Color) -> (Double, Double, Double, Double) {
        let a = Double(c.alpha) / 255
        return (Double(c.red) / 255 * a, Double(c.green) / 255 * a, Double(c.blue) / 255 * a, a)
    }

    /// The tile's elevations with a one-pixel border taken from its eight neighbours, or
    /// repeated from its own edge where a neighbour is missing. Row-major, `(side + 2)²`.
    static func paddedElevations(_ dem: DEMTile, neighbour: (Int, Int) -> DEMTile?) -> [Float] {
        let side = dem.side, stride = side + 2
        var grid = [Float](repeating: 0, count: stride * stride)
        func near(_ dx: Int, _ dy: Int) -> DEMTile? {
            guard let t = neighbour(dx, dy), t.side == side else { return nil }
            return t
        }
        for y in 0..<side {
            for x in 0..<side { grid[(y + 1) * stride + x + 1] = dem.elevations[y * side + x] }
        }
        let west = near(-1, 0), east = near(1, 0), north = near(0, -1), south = near(0, 1)
        for k in 0..<side {
            grid[(k + 1) * stride] = west?.elevation(x: side - 1, y: k) ?? dem.elevation(x: 0, y: k)
            grid[(k + 1) * stride + side + 1] = east?.elevation(x: 0, y: k) ?? dem.elevation(x: side - 1, y: k)
            grid[k + 1] = north?.elevation(x: k, y: side - 1) ?? dem.elevation(x: k, y: 0)
            grid[(side + 1) * stride + k + 1] = south?.elevation(x: k, y: 0) ?? dem.elevation(x: k, y: side - 1)
        }
        // Corners: the diagonal neighbour, else the adjacent border cells' clamped value.
        let last = side - 1
        grid[0] = near(-1, -1)?.elevation(x: last, y: last) ?? grid[stride]
        grid[side + 1] = near(1, -1)?.elevation(x: 0, y: last) ?? grid[stride + side + 1]
        grid[(side + 1) * stride] = near(-1, 1)?.elevation(x: last, y: 0) ?? grid[side * stride]
        grid[(side + 1) * stride + side + 1] = near(1, 1)?.elevation(x: 0, y: 0) ?? grid[side * stride + side + 1]
        return grid
    }
}
