/// One decoded `raster-dem` tile: elevations in metres, row-major, y down, one per tile pixel.
///
/// Invariant: `elevations.count == side * side`, `side ≥ 1` (DEM tiles are square; the
/// decoder refuses others).
struct DEMTile: Sendable {
    let side: Int
    let elevations: [Float]

    struct NotSquare: Error, CustomStringConvertible {
        let width: Int, height: Int
        var description: String { "DEM tile is \(width)×\(height) pixels; raster-dem tiles must be square" }
    }

    init(side: Int, elevations: [Float]) {
        precondition(side >= 1 && elevations.count == side * side)
        self.side = side
        self.elevations = elevations
    }

    /// Decodes a tile image (already size-capped by `RasterTileDecoder`). Transparent pixels
    /// carry no data and read as 0 m; others are un-premultiplied first, so a DEM PNG with a
    /// (pointless) alpha channel still decodes where it is opaque.
    init(decoding image: Canvas, encoding: DEMEncoding) throws {
        guard image.width == image.height, image.width >= 1 else {
            throw NotSquare(width: image.width, height: image.height)
        }
        let n = image.width * image.height
        var out = [Float](repeating: 0, count: n)
        image.pixels.withUnsafeBufferPointer { px in
            guard px.count >= n * 4 else { return }
            for i in 0..<n {
                let a = px[i * 4 + 3]
                if a == 255 {
                    out[i] = encoding.elevation(red: px[i * 4], green: px[i * 4 + 1], blue: px[i * 4 + 2])
                } else if a > 0 {
                    func un(_ v: UInt8) -> UInt8 { UInt8(min(255, (UInt32(v) * 255 + UInt32(a) / 2) / UInt32(a))) }
                    out[i] = encoding.elevation(red: un(px[i * 4]), green: un(px[i * 4 + 1]), blue: un(px[i * 4 + 2]))
                }
            }
        }
        self.init(side: image.width, elevations: out)
    }

    /// The elevation at a pixel, clamped into the tile.
    func elevation(x: Int, y: Int) -> Float {
        let cx = min(max(x, 0), side - 1), cy = min(max(y, 0), side - 1)
        return elevations[cy * side + cx]
    }
}
