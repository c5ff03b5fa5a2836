import Foundation
import Testing
@testable import MapSnap

/// The regions of a data directory under the bundled styles: used with no other option,
/// drawn exactly as the same tiles given with `--source` where they cover the view, the most
/// detailed first where they overlap, OpenMapTiles and Protomaps regions side by side, the
/// embedded world around them.
@Suite struct RegionMosaicTests {
    static let protomaps = TestPaths.fixture("helsinki-protomaps.pmtiles")
    static let openMapTiles = TestPaths.fixture("helsinki-openmaptiles.mbtiles")
    /// A view well inside both fixtures' bounds (24.9351–24.9535 E, 60.1641–60.1792 N).
    static let inside = LatLng(60.1716, 24.9443)

    /// A copy of the archive at `source` as PMTiles, its zooms cut at `maxZoom`, optionally
    /// with other bounds and credit in its metadata.
    static func region(_ source: String, at path: String, maxZoom: Int = 14,
                       bounds: TileSourceMetadata.Bounds? = nil, attribution: String? = nil) throws {
        let opened = try TileSources.open(source)
        var metadata = opened.metadata
        metadata.maxZoom = maxZoom
        if let bounds { metadata.bounds = bounds }
        if let attribution { metadata.attribution = attribution }
        var writer = PMTilesWriter(format: metadata.format, tileCompression: .gzip, metadata: metadata)
        let add: (TileID, [UInt8]) throws -> Void = { tile, stored in
            guard tile.z <= maxZoom else { return }
            try writer.add(tile, data: Gzip.isGzip(stored) ? stored : try Gzip.compress(stored))
        }
        if let m = opened as? MBTilesSource { try m.forEachStoredTile(add) } else if let p = opened as? PMTilesSource { try p.forEachStoredTile(add) }
        try writer.write(to: path)
    }

    static func options(center: LatLng = inside, zoom: Double = 16, size: Int = 300, style: String = "normal",
                        dataDirectory: String? = nil, source: String? = nil) -> MapSnapshotOptions {
        var o = MapSnapshotOptions(width: size, height: size, center: center, zoom: zoom, style: style, source: source)
        o.dataDirectory = dataDirectory ?? ""
        return o
    }

    static func png(_ o: MapSnapshotOptions, renderer: MapRenderer = MapRenderer()) throws -> [UInt8] {
        try renderer.render(o).pngData()
    }

    @Test(arguments: ["normal", "terrain", "hybrid"])
    func protomapsRegionDrawsAsItsTilesDo(style: String) throws {
        let dir = try TileFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.protomaps, toPath: dir + "/helsinki.pmtiles")
        let fromRegion = try Self.png(Self.options(style: style, dataDirectory: dir))
        let fromSource = try Self.png(Self.options(style: style, source: Self.protomaps))
        let without = try Self.png(Self.options(style: style))
        #expect(fromRegion == fromSource)
        #expect(fromRegion != without)
    }

    @Test func openMapTilesRegionDrawsAsItsTilesDo() throws {
        let dir = try TileFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.region(Self.openMapTiles, at: dir + "/helsinki.pmtiles")
        #expect(try Self.png(Self.options(dataDirectory: dir)) == (try Self.png(Self.options(source: Self.openMapTiles))))
    }

    /// Where two regions overlap, the one with the higher maximum zoom draws; at equal
    /// zooms, the one whose name sorts first.
    @Test func theMostDetailedRegionWins() throws {
        let dir = try TileFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let omt = try Self.png(Self.options(source: Self.openMapTiles))
        let pm = try Self.png(Self.options(source: Self.protomaps))
        #expect(omt != pm)
        try Self.region(Self.openMapTiles, at: dir + "/a-omt.pmtiles", maxZoom: 13)
        try FileManager.default.copyItem(atPath: Self.protomaps, toPath: dir + "/b-pm.pmtiles")
        // The z13 OpenMapTiles region sorts first but the z14 Protomaps one is more detailed.
        #expect(try Self.png(Self.options(dataDirectory: dir)) == pm)
        try FileManager.default.removeItem(atPath: dir + "/a-omt.pmtiles")
        try Self.region(Self.openMapTiles, at: dir + "/a-omt.pmtiles", maxZoom: 14)
        #expect(try Self.png(Self.options(dataDirectory: dir)) == omt)
    }

    /// A region covering part of the view: its tiles inside its bounds, the embedded world
    /// data around, its credit beside the world data's.
    @Test func regionAndWorldShareAView() throws {
        let dir = try TileFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Only the western half of the fixture's area is the region's.
        let west = TileSourceMetadata.Bounds(southWest: LatLng(60.1641, 24.9351), northEast: LatLng(60.1792, 24.9443))
        try Self.region(Self.protomaps, at: dir + "/west.pmtiles", bounds: west,
                        attribution: "<a href=\"https://example.org\">Example</a> &copy; OpenStreetMap")
        let snap = try MapRenderer().render(Self.options(zoom: 15, size: 400, dataDirectory: dir))
        let pmSnap = try MapRenderer().render(Self.options(zoom: 15, size: 400, source: Self.protomaps))
        let plain = try MapRenderer().render(Self.options(zoom: 15, size: 400))
        func differs(_ a: MapSnapshot, _ b: MapSnapshot, x: ClosedRange<Int>) -> Int {
            var n = 0
            for y in 40..<360 { for px in x where a.image.color(atX: px, y: y) != b.image.color(atX: px, y: y) { n += 1 } }
            return n
        }
        let edge = Int(snap.point(for: LatLng(60.1716, 24.9443)).x)
        // West of the edge (away from labels, which may straddle it): the region; east: not.
        #expect(differs(snap, plain, x: 20...(edge - 40)) > 1000)
        #expect(differs(snap, pmSnap, x: 20...(edge - 40)) < differs(snap, plain, x: 20...(edge - 40)) / 10)
        #expect(differs(snap, pmSnap, x: (edge + 40)...380) > 1000)
        #expect(snap.attribution.contains("Example © OpenStreetMap"))
        #expect(!snap.attribution.contains("<a"))
    }

    @Test func explicitSourceAndStyleFilesIgnoreRegions() throws {
        let dir = try TileFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.protomaps, toPath: dir + "/helsinki.pmtiles")
        var withSource = Self.options(source: Self.openMapTiles)
        let expected = try Self.png(withSource)
        withSource.dataDirectory = dir
        #expect(try Self.png(withSource) == expected)
    }

    /// A renderer that keeps its prepared styles sees a region added after its first render
    /// (a server running while `mapsnap data extract` writes one).
    @Test func aRegionAddedLaterIsUsed() throws {
        let dir = try TileFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let renderer = MapRenderer()
        let before = try Self.png(Self.options(dataDirectory: dir), renderer: renderer)
        #expect(before == (try Self.png(Self.options())))
        try FileManager.default.copyItem(atPath: Self.protomaps, toPath: dir + "/helsinki.pmtiles")
        #expect(try Self.png(Self.options(dataDirectory: dir), renderer: renderer) == (try Self.png(Self.options(source: Self.protomaps))))
    }

    @Test func anUnreadableArchiveIsAWarningNotAFailure() throws {
        let dir = try TileFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("not an archive".utf8).write(to: URL(fileURLWithPath: dir + "/broken.pmtiles"))
        let snap = try MapRenderer().render(Self.options(dataDirectory: dir))
        #expect(snap.warnings.contains { $0.contains("broken.pmtiles") && $0.contains("not used") })
        #expect(try snap.pngData() == (try Self.png(Self.options())))
    }

    /// Inside a Protomaps region the view has detail (the region's own source draws where the
    /// OpenMapTiles source has its hole); outside every region the warning still comes.
    @Test func coverageCountsRegions() throws {
        let dir = try TileFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.protomaps, toPath: dir + "/helsinki.pmtiles")
        let inside = try MapRenderer().render(Self.options(dataDirectory: dir))
        #expect(inside.coverage.detailedFraction == 1)
        #expect(!inside.coverage.lacksDetail)
        let paris = try MapRenderer().render(Self.options(center: LatLng(48.8566, 2.3522), zoom: 15, dataDirectory: dir))
        #expect(paris.coverage.lacksDetail)
        #expect(paris.coverage.warning?.contains("region helsinki covers only 24.935–24.953 E, 60.164–60.179 N") == true)
    }

    @Test func creditsAreText() {
        #expect(RegionMosaic.plainCredit("<a href=\"https://protomaps.com\">Protomaps</a> &copy; <a href=\"https://openstreetmap.org\">OpenStreetMap</a>")
                == "Protomaps © OpenStreetMap")
        #expect(RegionMosaic.plainCredit("© OpenStreetMap contributors") == "© OpenStreetMap contributors")
        #expect(RegionMosaic.plainCredit("a < b") == "a")  // an unclosed tag drops the rest, never the credit's start
    }
}
