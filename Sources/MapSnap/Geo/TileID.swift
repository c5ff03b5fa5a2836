/// A tile address in the XYZ scheme (y = 0 at the top, as in OSM and MVT URLs).
///
/// Invariant when produced by mapsnap: 0 ≤ z ≤ 30, 0 ≤ x, y < 2^z. Use `init?(z:x:y:)` for
/// untrusted values.
package struct TileID: Hashable, Sendable, Comparable, CustomStringConvertible {
    package let z: Int
    package let x: Int
    package let y: Int

    /// Returns nil unless 0 ≤ z ≤ 30 and x, y lie within the zoom level's grid.
    package init?(z: Int, x: Int, y: Int) {
        guard (0...30).contains(z) else { return nil }
        let n = 1 << z
        guard (0..<n).contains(x), (0..<n).contains(y) else { return nil }
        self.z = z
        self.x = x
        self.y = y
    }

    /// Number of tiles along one side at this zoom.
    package var gridSize: Int { 1 << z }

    /// The TMS row (y = 0 at the bottom), as stored in MBTiles.
    package var tmsY: Int { (1 << z) - 1 - y }

    /// The ancestor at zoom `z` (≤ self.z).
    package func ancestor(atZoom zoom: Int) -> TileID {
        precondition(zoom >= 0 && zoom <= z)
        let d = z - zoom
        return TileID(unchecked: zoom, x >> d, y >> d)
    }

    init(unchecked z: Int, _ x: Int, _ y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    package static func < (a: TileID, b: TileID) -> Bool {
        (a.z, a.y, a.x) < (b.z, b.y, b.x)
    }

    package var description: String { "\(z)/\(x)/\(y)" }
}
