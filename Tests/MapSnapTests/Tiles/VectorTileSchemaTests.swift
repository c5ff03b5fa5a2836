import Foundation
import Testing
@testable import MapSnap

/// Telling OpenMapTiles from Protomaps tiles by their layer names (and Protomaps' schema
/// version by its field names), from metadata or from one tile.
@Suite struct VectorTileSchemaTests {
    static let protomaps = TestPaths.fixture("helsinki-protomaps.pmtiles")
    static let protomapsV2 = TestPaths.fixture("helsinki-protomaps-v2.pmtiles")
    static let openMapTiles = TestPaths.repositoryRoot + "/Data/helsinki.mbtiles"

    @Test(arguments: [
        // OpenMapTiles as tilemaker and OpenMapTiles write it.
        (["place", "boundary", "poi", "transportation", "transportation_name", "building", "water", "landuse", "landcover"],
         [String](), VectorTileSchema?.some(.openMapTiles)),
        // Protomaps v4 (docs.protomaps.com/basemaps/layers).
        (["boundaries", "buildings", "earth", "landcover", "landuse", "places", "pois", "roads", "transit", "water"],
         ["kind", "kind_detail", "min_zoom"], .protomaps),
        // Protomaps v3 (2023): v4's layers, `pmap:` fields.
        (["boundaries", "buildings", "earth", "landuse", "natural", "places", "pois", "roads", "transit", "water"],
         ["pmap:kind", "pmap:min_zoom", "name"], .protomapsLegacy),
        // Protomaps version 2 (2021): its own layers say so without fields.
        (["earth", "natural", "physical_line", "physical_point", "roads", "water"], [], .protomapsLegacy),
        // Layers both families have decide nothing; neither do unknown ones.
        (["water", "landuse", "landcover"], [], nil),
        (["contours", "hillshade"], [], nil),
        ([], [], nil),
        // A tie (one layer each) is not a guess.
        (["roads", "transportation"], [], nil),
    ] as [([String], [String], VectorTileSchema?)])
    func identifiesByLayerNames(layers: [String], fields: [String], expected: VectorTileSchema?) {
        #expect(VectorTileSchema.identify(layers: layers, fields: fields) == expected)
    }

    @Test func identifiesTheFixturesFromTheirMetadata() throws {
        #expect(VectorTileSchema.identify(try TileSources.open(Self.openMapTiles)) == .openMapTiles)
        #expect(VectorTileSchema.identify(try TileSources.open(Self.protomaps)) == .protomaps)
        #expect(VectorTileSchema.identify(try TileSources.open(Self.protomapsV2)) == .protomapsLegacy)
    }

    /// Without `vector_layers`, the tile under the metadata's centre at its minimum zoom
    /// tells: a directory holding only one z14 tile of each fixture.
    @Test(arguments: [(protomaps, VectorTileSchema.protomaps), (protomapsV2, .protomapsLegacy),
                      (openMapTiles, .openMapTiles)])
    func identifiesAnUndescribedDirectoryByOneTile(fixture: String, expected: VectorTileSchema) throws {
        let original = try TileSources.open(fixture)
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bounds = try #require(original.metadata.bounds)
        let json = """
        {"minzoom": 14, "maxzoom": 14, "bounds": [\(bounds.southWest.longitude), \(bounds.southWest.latitude), \
        \(bounds.northEast.longitude), \(bounds.northEast.latitude)]}
        """
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/metadata.json"))
        var meta = original.metadata
        meta.minZoom = 14
        meta.center = nil
        let probe = try #require(VectorTileSchema.probeTile(meta))
        let tile = try #require(try original.tileData(for: probe))
        try FileManager.default.createDirectory(atPath: "\(dir)/14/\(probe.x)", withIntermediateDirectories: true)
        try Data(tile).write(to: URL(fileURLWithPath: "\(dir)/14/\(probe.x)/\(probe.y).pbf"))

        let directory = try TileSources.open(dir)
        #expect(directory.metadata.vectorLayers.isEmpty)
        #expect(VectorTileSchema.identify(directory) == expected)
    }

    /// A probe that finds no tile, a raster source and an HTTP template without a layer
    /// list (no extent either: no tile to expect) are not guessed at.
    @Test func unknownSourcesStayUnidentified() throws {
        let empty = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: empty) }
        try FileManager.default.createDirectory(atPath: empty + "/3/4", withIntermediateDirectories: true)
        try Data([0x1A, 0x00]).write(to: URL(fileURLWithPath: empty + "/3/4/2.pbf"))
        #expect(VectorTileSchema.identify(try TileSources.open(empty)) == nil)

        let raster = try TileSources.open(TestPaths.fixture("helsinki-raster-z12-13"))
        #expect(VectorTileSchema.identify(raster) == nil)

        let http = try HTTPTileSource(template: "http://127.0.0.1:9/{z}/{x}/{y}.pbf")
        #expect(VectorTileSchema.identify(http) == nil)
    }

    @Test func probeTileIsUnderTheCentreAtTheMinimumZoom() throws {
        var meta = TileSourceMetadata(format: .mvt, minZoom: 14, maxZoom: 14)
        meta.center = LatLng(latitude: 60.1699, longitude: 24.9450)
        #expect(VectorTileSchema.probeTile(meta) == TileID(z: 14, x: 9327, y: 4742))
        meta.center = nil
        meta.bounds = .init(southWest: LatLng(latitude: -10, longitude: -10), northEast: LatLng(latitude: 10, longitude: 10))
        #expect(VectorTileSchema.probeTile(meta) == TileID(z: 14, x: 8192, y: 8192))
        meta.minZoom = 0
        #expect(VectorTileSchema.probeTile(meta) == TileID(z: 0, x: 0, y: 0))
    }
}
