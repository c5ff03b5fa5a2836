import Foundation

/// One tile needed to draw a camera's image, and where it lands.
struct CoveringTile: Sendable, Hashable {
    /// The tile (x already wrapped into 0..<2^z).
    var id: TileID
    /// Which copy of the world this instance draws (…, −1, 0, 1, …): the same tile can be
    /// needed twice on a wide low-zoom image.
    var worldCopy: Int
    /// The tile's square in image pixels (fractional at fractional zoom).
    var rect: PixelRect
}

/// The tiles at a data zoom that cover a camera's image, with horizontal world wrap.
///
/// Tiles are listed row by row, west to east, which is also a deterministic order for
/// any later per-tile work. Rows beyond the poles are omitted (there is no data there).
enum TileCover {
    /// Tiles of zoom `dataZoom` covering the image, each expanded by `bufferPixels` of
    /// image pixels on every side before testing.
    static func tiles(for camera: Camera, dataZoom: Int, bufferPixels: Double = 0) -> [CoveringTile] {
        let z = max(0, min(30, dataZoom))
        let n = 1 << z
        let s = camera.worldSize
        let r = camera.visibleWorldRect
        let pad = bufferPixels / s
        let tileWorld = 1.0 / Double(n)
        let x0 = Int(floor((r.minX - pad) / tileWorld))
        let x1 = Int(floor((r.maxX + pad) / tileWorld - 1e-12))
        let y0 = max(0, Int(floor((r.minY - pad) / tileWorld)))
        let y1 = min(n - 1, Int(floor((r.maxY + pad) / tileWorld - 1e-12)))
        guard y0 <= y1, x0 <= x1 else { return [] }
        // A wide image at low zoom can span several worlds; cap the count defensively
        // (8192 px wide at z0 is 32 copies at most).
        guard x1 - x0 < 1 << 16 else { return [] }
        var out: [CoveringTile] = []
        out.reserveCapacity((x1 - x0 + 1) * (y1 - y0 + 1))
        for ty in y0...y1 {
            for tx in x0...x1 {
                let wrapped = ((tx % n) + n) % n
                let copy = (tx - wrapped) / n
                let origin = camera.pixel(forWorld: WorldPoint(x: Double(tx) * tileWorld, y: Double(ty) * tileWorld))
                let size = tileWorld * s
                out.append(CoveringTile(id: TileID(unchecked: z, wrapped, ty), worldCopy: copy,
                                        rect: PixelRect(x: origin.x, y: origin.y, width: size, height: size)))
            }
        }
        return out
    }

    /// The integer zoom whose tiles to use for a fractional camera zoom: tiles are drawn at
    /// between 1× and 2× their native size (like MapLibre's vector rendering, floor).
    static func dataZoom(for zoom: Double, minZoom: Int = 0, maxZoom: Int = 22) -> Int {
        max(minZoom, min(maxZoom, Int(floor(zoom + 1e-9))))
    }
}
