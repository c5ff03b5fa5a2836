import Foundation
@testable import MapSnap

/// Paths of the tile fixtures and scratch directories shared by the VectorTile and Tiles tests.
enum TileFixtures {
    static let fixtures: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures").path

    static var helsinkiMBTiles: String { fixtures + "/helsinki-openmaptiles.mbtiles" }
    static var helsinkiRaster: String { fixtures + "/helsinki-raster-z12-13" }

    /// The z14 tile containing Helsinki central station square (60.1699, 24.9384).
    static let centralTile = TileID(z: 14, x: 9326, y: 4742)!

    /// A fresh, empty temporary directory (unique per call).
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "mapsnap-tiles-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The decompressed central tile, taken from the MBTiles source (whose own tests check
    /// it against the stored blob).
    static func centralTileBytes() throws -> [UInt8] {
        let source = try MBTilesSource(path: helsinkiMBTiles)
        guard let bytes = try source.tileData(for: centralTile) else { throw FixtureMissing() }
        return bytes
    }

    struct FixtureMissing: Error {}
}
