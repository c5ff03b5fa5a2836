import MapSnapTesting
import Foundation
@testable import MapSnap

/// A "country" archive for the extract tests, and a range server for it.
///
/// The archive covers 24–26°E, 59.7–60.7°N at z0–14 (about 11,000 tiles) in PMTiles v3 with
/// leaf directories of 64 entries (about 170 leaves, so lookups nest root → leaf as in real
/// planet builds): the real Protomaps tiles of central Helsinki where the fixture has them,
/// a sea south of 60°N whose tiles all share one stored blob (run-length entries and
/// deduplication, as the ocean in real archives), and elsewhere synthetic land tiles, each
/// unique — a motorway across the tile from a seeded point on its top edge to one on its
/// bottom edge (a tile missing or out of place shows on a map) and a seeded filler of
/// 100–1,500 letters in a layer no style draws, so that tile sizes are realistic.
enum ExtractFixtures {
    static let west = 24.0, south = 59.7, east = 26.0, north = 60.7
    /// Tiles south of this latitude (by their centre) are sea.
    static let coast = 60.0
    static let maxZoom = 14

    /// The archive's bytes and path (built once per test process).
    static let country: (bytes: [UInt8], path: String) = {
        do {
            let real = try PMTilesSource(path: TestPaths.fixture("helsinki-protomaps.pmtiles"))
            var realTiles: [TileID: [UInt8]] = [:]
            try real.forEachStoredTile { tile, bytes in realTiles[tile] = bytes }
            var writer = PMTilesWriter(format: .mvt, tileCompression: .gzip, metadata: real.metadata)
            writer.metadata.name = "synthetic Uusimaa with central Helsinki"
            writer.metadata.bounds = .init(southWest: LatLng(latitude: south, longitude: west), northEast: LatLng(latitude: north, longitude: east))
            writer.forcedLeafSize = 64
            let sea = try Gzip.compress(seaTile())
            let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
            var generator = SeededGenerator(seed: 27)
            for z in 0...maxZoom {
                for tile in tiles(atZoom: z) {
                    if let bytes = realTiles[tile] {
                        try writer.add(tile, data: bytes)
                    } else if latitude(ofRow: Double(tile.y) + 0.5, zoom: z) < coast {
                        try writer.add(tile, data: sea)
                    } else {
                        let filler = (0..<(100 + Int(generator.next() % 1400))).map { _ in letters[Int(generator.next() % 26)] }
                        let from = (Int(generator.next() % 4097), 0), to = (Int(generator.next() % 4097), 4096)
                        try writer.add(tile, data: try Gzip.compress(landTile(from: from, to: to, filler: filler)))
                    }
                }
            }
            let bytes = try writer.archive()
            let path = try TileFixtures.temporaryDirectory() + "/country.pmtiles"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return (bytes, path)
        } catch {
            fatalError("cannot build the extract fixture: \(error)")
        }
    }()

    /// The tiles of zoom `z` whose squares overlap the country's box.
    static func tiles(atZoom z: Int) -> [TileID] {
        let n = Double(1 << z)
        let x0 = Int(((west + 180) / 360 * n).rounded(.down)), x1 = Int(((east + 180) / 360 * n).rounded(.up)) - 1
        let y0 = Int((row(ofLatitude: north) * n).rounded(.down)), y1 = Int((row(ofLatitude: south) * n).rounded(.up)) - 1
        var out: [TileID] = []
        for x in x0...x1 { for y in y0...y1 { if let t = TileID(z: z, x: x, y: y) { out.append(t) } } }
        return out
    }

    /// Web Mercator y (0 at the top, 1 at the bottom) of a latitude, written out here rather
    /// than taken from the library so the expected tile sets do not share its code.
    static func row(ofLatitude latitude: Double) -> Double {
        let phi = latitude * .pi / 180
        return (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2
    }

    /// The latitude of fractional row `y` at zoom `z`.
    static func latitude(ofRow y: Double, zoom z: Int) -> Double {
        let n = Double.pi * (1 - 2 * y / Double(1 << z))
        return atan(sinh(n)) * 180 / .pi
    }

    /// Whether `tile`'s square overlaps the box (open intervals: sharing an edge is not enough),
    /// in longitude/latitude (the mapping to tiles is monotonic).
    static func tile(_ tile: TileID, overlapsWest w: Double, south s: Double, east e: Double, north n: Double) -> Bool {
        let count = Double(1 << tile.z)
        let tileWest = Double(tile.x) / count * 360 - 180, tileEast = Double(tile.x + 1) / count * 360 - 180
        let tileNorth = latitude(ofRow: Double(tile.y), zoom: tile.z), tileSouth = latitude(ofRow: Double(tile.y + 1), zoom: tile.z)
        return tileWest < e && tileEast > w && tileSouth < n && tileNorth > s
    }

    /// A land tile: a motorway (Protomaps `roads`, kind `highway`) from `from` to `to` in tile
    /// units (0…4096), so that a tile missing or misplaced shows on a map, and a layer no
    /// style draws whose one point carries `filler` letters (realistic sizes).
    static func landTile(from: (Int, Int), to: (Int, Int), filler: [UInt8]) -> [UInt8] {
        let road = layer("roads", key: "kind", value: Array("highway".utf8), type: 2,
                         geometry: [9, zigzag(from.0), zigzag(from.1), 10, zigzag(to.0 - from.0), zigzag(to.1 - from.1)])
        let extra = layer("synthetic", key: "filler", value: filler, type: 1, geometry: [9, 50, 50])
        var tile = ProtobufWriter()
        tile.writeBytes(3, road)
        tile.writeBytes(3, extra)
        return tile.bytes
    }

    /// A sea tile: Protomaps `water` covering the whole tile.
    static func seaTile() -> [UInt8] {
        let square: [UInt32] = [9, 0, 0, 26, zigzag(4096), 0, 0, zigzag(4096), zigzag(-4096), 0, 15]
        var tile = ProtobufWriter()
        tile.writeBytes(3, layer("water", key: "kind", value: Array("ocean".utf8), type: 3, geometry: square))
        return tile.bytes
    }

    static func zigzag(_ v: Int) -> UInt32 { UInt32(truncatingIfNeeded: (v << 1) ^ (v >> 63)) }

    /// One layer (version 2, extent 4096) with one feature of `type` and one string property.
    static func layer(_ name: String, key: String, value: [UInt8], type: UInt64, geometry: [UInt32]) -> [UInt8] {
        var packed = ProtobufWriter()
        for g in geometry { packed.writeVarint(UInt64(g)) }
        var feature = ProtobufWriter()
        feature.writeBytes(2, [0, 0])                                    // tags: key 0, value 0
        feature.writeKey(3, .varint); feature.writeVarint(type)
        feature.writeBytes(4, packed.bytes)
        var stringValue = ProtobufWriter()
        stringValue.writeBytes(1, value)
        var layer = ProtobufWriter()
        layer.writeKey(15, .varint); layer.writeVarint(2)
        layer.writeString(1, name)
        layer.writeBytes(2, feature.bytes)
        layer.writeString(3, key)
        layer.writeBytes(4, stringValue.bytes)
        layer.writeKey(5, .varint); layer.writeVarint(4096)
        return layer.bytes
    }

    /// Every stored tile of the PMTiles archive at `path`, as stored.
    static func storedTiles(_ path: String) throws -> [TileID: [UInt8]] {
        var out: [TileID: [UInt8]] = [:]
        try PMTilesSource(path: path).forEachStoredTile { tile, bytes in out[tile] = bytes }
        return out
    }
}

/// Serves one archive at `/country.pmtiles` on 127.0.0.1 as object stores do: byte ranges
/// (`206` with `Content-Range`), an `ETag`, and knobs to change the archive or slow its tile
/// data down mid-extract.
final class ArchiveServer: @unchecked Sendable {
    private let lock = NSLock()
    private var archive: [UInt8]
    private var etag = "\"v1\""
    private var replacement: (afterRequests: Int, bytes: [UInt8], etag: String)?
    private var slowFrom: UInt64?
    /// The header naming the version: `ETag`, or `Last-Modified` (the tag is then its value).
    private let versionHeader: String
    private(set) var server: LocalHTTPServer!

    init(archive: [UInt8], versionHeader: String = "ETag") throws {
        self.archive = archive
        self.versionHeader = versionHeader
        server = try LocalHTTPServer { [unowned self] request, number in self.respond(to: request, number: number) }
    }

    var url: String { server.baseURL + "/country.pmtiles" }

    /// From request `n` on, serve `bytes` with entity tag `etag` (the archive was re-uploaded).
    func replace(afterRequests n: Int, with bytes: [UInt8], etag: String) {
        lock.withLock { replacement = (n, bytes, etag) }
    }

    /// Ranges starting at or after `offset` trickle out at about 20 kB/s.
    func slowDown(from offset: UInt64) { lock.withLock { slowFrom = offset } }

    /// The ranges asked for, in arrival order (clamped to the archive).
    var requestedRanges: [ClosedRange<Int>] {
        let size = lock.withLock { archive.count }
        return server.receivedRequests.compactMap { $0.headers["range"].flatMap { TestSite.range($0, size: size) } }
    }

    /// Bytes sent in answer to the ranges asked for.
    var bytesServed: Int { requestedRanges.reduce(0) { $0 + $1.count } }

    private func respond(to request: LocalHTTPServer.Request, number: Int) -> LocalHTTPServer.Response {
        let (body, tag, slow) = lock.withLock { () -> ([UInt8], String, UInt64?) in
            if let r = replacement, number > r.afterRequests { return (r.bytes, r.etag, slowFrom) }
            return (archive, etag, slowFrom)
        }
        guard request.path.split(separator: "?").first == "/country.pmtiles" else { return .status(404) }
        guard let header = request.headers["range"], let range = TestSite.range(header, size: body.count) else {
            return LocalHTTPServer.Response(status: 200, headers: [(versionHeader, tag)], body: body)
        }
        var response = LocalHTTPServer.Response(status: 206, headers: [("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(body.count)"),
                                                                       (versionHeader, tag), ("Content-Type", "application/octet-stream")],
                                                body: Array(body[range]))
        if let slow, UInt64(range.lowerBound) >= slow { response.behaviour = .trickle(bytesPerTick: 1024, interval: 0.05) }
        return response
    }

    func stop() { server.stop() }
}
