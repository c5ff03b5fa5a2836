import Foundation
import Testing
@testable import MapSnap

/// Render-wide limits (issue #10): image area, tiles that all failed, the time limit.
@Suite struct RenderLimitsTests {
    @Test func areaOverTheDefaultIsRefused() {
        var o = MapSnapshotOptions(width: 30_000, height: 30_000, center: LatLng(60.17, 24.94), zoom: 12)
        o.maximumPixelSize = 65_536
        #expect(throws: RenderError.imageAreaTooLarge(pixelWidth: 30_000, pixelHeight: 30_000, limit: 8192 * 8192)) {
            try MapSnapshotter(options: o).render()
        }
        // Scale counts: 5000 × 2 per side is 100 Mpx.
        o = MapSnapshotOptions(width: 5_000, height: 5_000, scale: 2, center: LatLng(60.17, 24.94), zoom: 12)
        o.maximumPixelSize = 65_536
        #expect(throws: RenderError.imageAreaTooLarge(pixelWidth: 10_000, pixelHeight: 10_000, limit: 8192 * 8192)) {
            try MapSnapshotter(options: o).render()
        }
    }

    @Test func raisedAreaStopsAtTheHardLimit() {
        var o = MapSnapshotOptions(width: 20_000, height: 20_000, center: LatLng(60.17, 24.94), zoom: 12)
        o.maximumPixelSize = 65_536
        o.maximumPixelCount = .max
        #expect(throws: RenderError.imageAreaTooLarge(pixelWidth: 20_000, pixelHeight: 20_000, limit: 16_384 * 16_384)) {
            try MapSnapshotter(options: o).render()
        }
    }

    /// A PMTiles archive whose every tile id (z0–z15) is one run of four junk bytes.
    static func junkArchive() throws -> String {
        try HostileTiles.file(try HostileTiles.pmtiles(
            root: [PMTilesEntry(tileID: 0, offset: 0, length: 4, runLength: .max)], tileData: [0xDE, 0xAD, 0xBE, 0xEF]),
            named: "junk.pmtiles")
    }

    /// One real-looking tile far from Helsinki: every tile a Helsinki render asks for is absent.
    static func emptyArchive() throws -> String {
        try HostileTiles.file(try HostileTiles.pmtiles(
            root: [PMTilesEntry(tileID: PMTilesTileID.id(for: TileID(z: 12, x: 0, y: 0)!), offset: 0, length: 4, runLength: 1)],
            tileData: [0xDE, 0xAD, 0xBE, 0xEF]), named: "empty.pmtiles")
    }

    static func options(source: String?) -> MapSnapshotOptions {
        MapSnapshotOptions(width: 300, height: 200, center: LatLng(60.17, 24.94), zoom: 12, source: source,
                           attribution: "", showsScaleBar: false)
    }

    @Test func everyTileFailedIsReported() throws {
        let snap = try MapSnapshotter(options: Self.options(source: try Self.junkArchive()), renderer: MapRenderer()).render()
        let t = snap.baseMapTiles
        #expect(t.requested > 0 && t.failed == t.requested && t.loaded == 0 && t.absent == 0, "\(t)")
        #expect(t.nothingLoaded)
        #expect(snap.warnings.filter { $0.contains("skipped") }.count == t.failed)
    }

    /// Tiles a source simply does not have are not failures: the embedded world data is
    /// drawn in their place, and the source is named in a warning.
    @Test func absentTilesAreNotFailures() throws {
        let archive = try Self.emptyArchive()
        let snap = try MapSnapshotter(options: Self.options(source: archive), renderer: MapRenderer()).render()
        let t = snap.baseMapTiles
        #expect(t.requested > 0 && t.absent > 0 && t.loaded == t.requested - t.absent && t.failed == 0, "\(t)")
        #expect(!t.nothingLoaded)
        #expect(snap.warnings.contains { $0.hasPrefix("--source \(archive): no tile for this view") }, "\(snap.warnings)")
    }

    @Test func embeddedDataLoads() throws {
        let snap = try MapSnapshotter(options: Self.options(source: nil)).render()
        #expect(snap.baseMapTiles.loaded > 0 && snap.baseMapTiles.failed == 0, "\(snap.baseMapTiles)")
        #expect(!snap.baseMapTiles.nothingLoaded)
    }

    /// One broken tile of four: a warning, not a failed map.
    @Test func oneBrokenTileOfFour() throws {
        let (style, dir) = try TileSeamTests.makeFixture()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data([0x1A, 0x40, 0x0A]).write(to: URL(fileURLWithPath: "\(dir)/tiles/1/1/1.pbf"))
        let o = MapSnapshotOptions(width: 300, height: 200, center: LatLng(4, -7), zoom: 1.37, style: style, attribution: "")
        let t = try MapSnapshotter(options: o, renderer: MapRenderer()).render().baseMapTiles
        #expect(t == TileLoadStatistics(requested: 4, loaded: 3, absent: 0, failed: 1))
        #expect(!t.nothingLoaded)
    }

    /// A `tiles` view that never ends is stopped by the render's time limit: its tiles fail
    /// with a warning that says so, and the render returns.
    @Test func timeLimitStopsAnEndlessMBTiles() throws {
        let path = try HostileTiles.mbtiles(MBTilesLimitsTests.endlessView)
        var o = Self.options(source: path)
        o.renderTimeout = 0.05
        let snap = try MapSnapshotter(options: o, renderer: MapRenderer()).render()
        let t = snap.baseMapTiles
        #expect(t.requested > 0 && t.failed == t.requested, "\(t)")
        #expect(snap.warnings.contains { $0.contains("time limit") }, "\(snap.warnings)")
    }
}
