import Foundation
import Testing
@testable import MapSnap

/// Where a view has detail (`MapCoverage`), and the tile-by-tile fallback of `LoadedSource`:
/// synthetic sources shaped like the embedded data (a city's street tiles z0–14 within its
/// bounds from z10, world tiles z0–7 everywhere), then the real bundled data.
@Suite struct MapCoverageTests {
    /// A vector source with a tile wherever `has` says so.
    struct FakeTiles: TileSource {
        var metadata: TileSourceMetadata
        let has: @Sendable (TileID) -> Bool
        static let bytes = MVTTestTiles.tile([MVTTestTiles.layer(name: "l", features: [
            .init(type: 1, geometry: [MVTTestTiles.command(1, 1), 100, 100]),
        ])])

        init(maxZoom: Int, bounds: TileSourceMetadata.Bounds? = nil, has: @escaping @Sendable (TileID) -> Bool = { _ in true }) {
            metadata = TileSourceMetadata()
            metadata.format = .mvt
            metadata.maxZoom = maxZoom
            metadata.bounds = bounds
            self.has = has
        }

        func tileData(for tile: TileID) throws -> [UInt8]? { has(tile) ? Self.bytes : nil }
    }

    static func bounds(_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> TileSourceMetadata.Bounds {
        .init(southWest: LatLng(latitude: south, longitude: west), northEast: LatLng(latitude: north, longitude: east))
    }

    /// The bundled street data's bounds.
    static let helsinki = bounds(24.9351, 60.1641, 24.9535, 60.1792)

    static func city(_ b: TileSourceMetadata.Bounds = helsinki, has: @escaping @Sendable (TileID) -> Bool = { _ in true },
                     label: String = "the city street data") -> ResolvedSource.Candidate {
        .init(source: TileSourceRegistry.register(FakeTiles(maxZoom: 14, bounds: b, has: has)), name: "city.mbtiles",
              fromZoom: 10, bounds: b, label: label)
    }

    static let world = ResolvedSource.Candidate(source: TileSourceRegistry.register(FakeTiles(maxZoom: 7)), name: "world.mbtiles",
                                                fromZoom: 0, bounds: nil, label: "the world data")

    /// Loads `candidates` as one style source: the bundled data's (`offersRegions`) unless told.
    static func load(_ candidates: [ResolvedSource.Candidate], _ camera: Camera, offersRegions: Bool = true) -> LoadedSource {
        LoadedSource(source: ResolvedSource(id: "v", isVector: true, candidates: candidates, tileSize: 512, offersRegions: offersRegions),
                     camera: camera, dataZoom: BaseMap.vectorDataZoom(camera))
    }

    static func coverage(_ candidates: [ResolvedSource.Candidate], _ camera: Camera) -> MapCoverage {
        MapCoverage.measure([load(candidates, camera)], camera: camera)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let camera: Camera
        /// Expected detailed share of the image, within 0.01.
        let detailed: Double
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(name: "inside the city at z15", camera: Camera(center: LatLng(60.1717, 24.9443), zoom: 15, width: 300, height: 300),
             detailed: 1),
        Case(name: "Paris at z15", camera: Camera(center: LatLng(48.8566, 2.3522), zoom: 15, width: 600, height: 400), detailed: 0),
        Case(name: "Europe at z5", camera: Camera(center: LatLng(48, 10), zoom: 5, width: 600, height: 400), detailed: 1),
        Case(name: "z8 is one level of over-zoom", camera: Camera(center: LatLng(48, 10), zoom: 8.9, width: 600, height: 400), detailed: 1),
        Case(name: "z9 is two", camera: Camera(center: LatLng(48, 10), zoom: 9, width: 600, height: 400), detailed: 0),
        // The view's centre on the bounds' west edge, well inside them north to south.
        Case(name: "half over the city's bounds", camera: Camera(center: LatLng(60.1716, 24.9351), zoom: 16, width: 400, height: 200),
             detailed: 0.5),
        // Four world copies side by side, and sky beyond both poles that does not count.
        Case(name: "world copies at z0", camera: Camera(center: LatLng(0, 0), zoom: 0, width: 1024, height: 600), detailed: 1),
        Case(name: "across the antimeridian", camera: Camera(center: LatLng(-17, 180), zoom: 6, width: 600, height: 400), detailed: 1),
        Case(name: "a fraction of the map at retina scale", camera: Camera(center: LatLng(60.1716, 24.9351), zoom: 16, width: 400, height: 200,
                                                                           scale: 2), detailed: 0.5),
    ])
    func detailedShare(_ c: Case) {
        let coverage = Self.coverage([Self.city(), Self.world], c.camera)
        #expect(abs(coverage.detailedFraction - c.detailed) < 0.01, "\(c.name): \(coverage.detailedFraction)")
        #expect(coverage.lacksDetail == (1 - c.detailed >= MapCoverage.warningThreshold), "\(c.name)")
    }

    @Test func theWarningSaysWhatEndsWhereAndWhatToDo() throws {
        let paris = Camera(center: LatLng(48.8566, 2.3522), zoom: 15, width: 600, height: 400)
        let warning = try #require(Self.coverage([Self.city(), Self.world], paris).warning)
        #expect(warning == "no detailed map data for this view at zoom 15 (the world data ends at z7; the city street data covers only "
            + "24.935–24.953 E, 60.164–60.179 N): " + MapCoverage.advice)
        // Part of a view: its share, rounded.
        let edge = Camera(center: LatLng(60.1716, 24.9351), zoom: 16.5, width: 400, height: 200)
        #expect(try #require(Self.coverage([Self.city(), Self.world], edge).warning).hasPrefix("no detailed map data for 50 % of this view at zoom 16.5 ("))
        // The city is not used below z10, so it is not mentioned there.
        let z9 = Camera(center: LatLng(48, 10), zoom: 9, width: 600, height: 400)
        #expect(Self.coverage([Self.city(), Self.world], z9).warning == "no detailed map data for this view at zoom 9 (the world data ends at z7): "
            + MapCoverage.advice)
        // The user's own sources (a --source, a style file): regions would not draw there.
        let own = MapCoverage.measure([Self.load([Self.world], z9, offersRegions: false)], camera: z9)
        #expect(own.warning == "no detailed map data for this view at zoom 9 (the world data ends at z7): " + MapCoverage.ownSourcesAdvice)
    }

    /// A `--source` claims every tile, but its tiles at the edge of its area are blank
    /// beyond the bounds it declares: only within them is there detail.
    @Test func aSourceDrawnEverywhereHasDetailOnlyWithinItsDeclaredBounds() throws {
        let named = ResolvedSource.Candidate(source: TileSourceRegistry.register(FakeTiles(maxZoom: 14, bounds: Self.helsinki)),
                                             name: "x.mbtiles", fromZoom: 0, bounds: nil, label: "--source x.mbtiles", isNamedByUser: true)
        let edge = Camera(center: LatLng(60.1716, 24.9351), zoom: 16, width: 400, height: 200)
        let loaded = Self.load([named, Self.world], edge, offersRegions: false)
        #expect(loaded.drawTiles.allSatisfy { $0.candidate == 0 }, "its tiles are all there")
        let coverage = MapCoverage.measure([loaded], camera: edge)
        #expect(abs(coverage.detailedFraction - 0.5) < 0.01, "\(coverage.detailedFraction)")
        // The world data is under the --source, never asked for a tile: it explains nothing.
        #expect(coverage.warning == "no detailed map data for 50 % of this view at zoom 16 ("
            + "--source x.mbtiles covers only 24.935–24.953 E, 60.164–60.179 N): " + MapCoverage.ownSourcesAdvice)
        #expect(MapCoverage.namedSourceWarnings([loaded]).isEmpty, "it supplied tiles")
    }

    /// Bounds crossing the antimeridian (west > east) claim both sides of it, and nothing else.
    @Test func boundsAcrossTheAntimeridian() {
        let fiji = Self.city(Self.bounds(177, -19, -178, -16), label: "the islands")
        let across = Camera(center: LatLng(-17.5, 180), zoom: 12, width: 600, height: 400)
        #expect(Self.coverage([fiji, Self.world], across).detailedFraction == 1)
        // Greenwich at the same latitude is not in them (one rectangle from −178° to 177° would be).
        let greenwich = Camera(center: LatLng(-17.5, 0), zoom: 12, width: 600, height: 400)
        #expect(Self.coverage([fiji, Self.world], greenwich).detailedFraction == 0)
        // The other side of the antimeridian, in the next world copy east.
        let east = Camera(center: LatLng(-17.5, -179), zoom: 12, width: 600, height: 400)
        #expect(Self.coverage([fiji, Self.world], east).detailedFraction == 1)
    }

    /// A candidate without a tile hands its part to the next: the world data fills the
    /// city's gap, and that part counts as lacking detail.
    @Test func anAbsentTileFallsToTheNextCandidate() throws {
        let camera = Camera(center: LatLng(60.1717, 24.9443), zoom: 14, width: 200, height: 200)
        let whole = Self.load([Self.city(), Self.world], camera)
        #expect(whole.statistics.absent == 0)
        #expect(MapCoverage.measure([whole], camera: camera).detailedFraction == 1)
        // The city without its tile 14/9327/4742, which the bounds cross (the world data
        // draws the rest of that square already).
        let gappy = Self.city(has: { !($0.z == 14 && $0.x == 9327 && $0.y == 4742) })
        let loaded = Self.load([gappy, Self.world], camera)
        let gap = try #require(loaded.drawTiles.first { $0.candidate == 0 && $0.sourceTile == TileID(z: 14, x: 9327, y: 4742) })
        let own = loaded.drawTiles.filter { $0.coveringIndex == gap.coveringIndex }
        // The city's absent tile stays (drawing nothing); the world's, after it, now draws
        // the whole square: its own part and the city's.
        #expect(own.map(\.candidate) == [0, 1])
        let area = own[1].clips.reduce(0) { $0 + $1.width * $1.height }
        #expect(abs(area - gap.covering.rect.width * gap.covering.rect.height) < 1e-6)
        // Draw tiles are in cover order, then candidate order.
        let order = loaded.drawTiles.map { [$0.coveringIndex, $0.candidate] }
        #expect(order == order.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(loaded.statistics.absent == 1 && loaded.statistics.failed == 0, "\(loaded.statistics)")
        #expect(loaded.usedCandidates == [0, 1])
        let coverage = MapCoverage.measure([loaded], camera: camera)
        #expect(coverage.detailedFraction > 0.2 && coverage.detailedFraction < 0.9, "\(coverage.detailedFraction)")
    }

    /// A part handed on to a candidate that already draws another part of the same covering
    /// tile widens that draw tile instead of adding a second one.
    @Test func aHandedOnPartJoinsTheSameSourceTile() {
        let camera = Camera(center: LatLng(60.1716, 24.9351), zoom: 10, width: 300, height: 300)
        let empty = Self.city(has: { _ in false })
        let loaded = Self.load([empty, Self.world], camera)
        let world = loaded.drawTiles.filter { $0.candidate == 1 }
        #expect(Set(world.map(\.coveringIndex)).count == world.count)
        // Every covering tile is drawn whole by the world data.
        let covering = TileCover.tiles(for: camera, dataZoom: 10)
        for (i, c) in covering.enumerated() {
            let area = world.filter { $0.coveringIndex == i }.flatMap(\.clips).reduce(0) { $0 + $1.width * $1.height }
            #expect(abs(area - c.rect.width * c.rect.height) < 1e-6, "\(c.id)")
        }
    }

    /// A `--source` with no tile in the view is named with its bounds and what draws instead.
    @Test func aNamedSourceWithoutTilesIsReported() throws {
        let source = TileSourceRegistry.register(FakeTiles(maxZoom: 14, bounds: Self.helsinki, has: { _ in false }))
        let named = ResolvedSource.Candidate(source: source, name: "city.mbtiles", fromZoom: 0, bounds: nil,
                                             label: "--source city.mbtiles", isNamedByUser: true)
        let paris = Camera(center: LatLng(48.8566, 2.3522), zoom: 6, width: 300, height: 200)
        let loaded = Self.load([named, Self.world], paris)
        #expect(MapCoverage.namedSourceWarnings([loaded]) == [
            "--source city.mbtiles: no tile for this view (all \(loaded.candidateStatistics[0].requested) tiles asked for are absent); "
                + "it covers 24.935–24.953 E, 60.164–60.179 N, zoom 0–14; the world data is drawn there instead",
        ])
        // z6 is within the world data's detail: no coverage warning, only the source's.
        #expect(MapCoverage.measure([loaded], camera: paris).detailedFraction == 1)
        // Alone, with nothing beneath it.
        let alone = Self.load([named], paris)
        #expect(MapCoverage.namedSourceWarnings([alone]).first?.hasSuffix("zoom 0–14") == true)
        #expect(MapCoverage.measure([alone], camera: paris).detailedFraction == 0)
        // Bundled data and regions that have nothing here are not reported.
        #expect(MapCoverage.namedSourceWarnings([Self.load([Self.city(), Self.world], paris)]).isEmpty)
    }

    @Test func detailEndsOneZoomPastTheMaxZoomExceptForFullVectorTiles() {
        var m = TileSourceMetadata()
        m.format = .mvt
        m.maxZoom = 7
        #expect(MapCoverage.detailMaxZoom(of: m) == 8)
        m.maxZoom = 14
        #expect(MapCoverage.detailMaxZoom(of: m) == Int.max)
        m.format = .png
        #expect(MapCoverage.detailMaxZoom(of: m) == 15)
        m.maxZoom = 19
        #expect(MapCoverage.detailMaxZoom(of: m) == 20)
    }

    @Test(arguments: [
        ((24.9351, 60.1641, 24.9535, 60.1792), "24.935–24.953 E, 60.164–60.179 N"),
        ((-0.51, 51.28, 0.33, 51.69), "0.510 W–0.330 E, 51.280–51.690 N"),
        ((-74.26, -34.0, -73.7, -33.5), "74.260–73.700 W, 34.000–33.500 S"),
        ((177, -19, -178, -16), "177.000 E–178.000 W, 19.000–16.000 S"),
    ])
    func boundsRead(_ b: (Double, Double, Double, Double), _ text: String) {
        #expect(MapCoverage.describe(Self.bounds(b.0, b.1, b.2, b.3)) == text)
    }

    // MARK: The bundled data

    static func snapshot(_ center: LatLng, zoom: Double, width: Int = 300, height: Int = 300, style: String = "normal") throws -> MapSnapshot {
        try MapSnapshotter(options: MapSnapshotOptions(width: width, height: height, center: center, zoom: zoom, style: style,
                                                       attribution: "", showsScaleBar: false)).render()
    }

    @Test func parisAtZ15LacksDetailInsideHelsinkiItDoesNot() throws {
        let paris = try Self.snapshot(LatLng(48.8566, 2.3522), zoom: 15)
        #expect(paris.coverage.detailedFraction == 0)
        let warning = try #require(paris.coverage.warning)
        #expect(paris.warnings == [warning])
        #expect(warning.contains("the embedded world data ends at z12; the bundled Helsinki street data covers only 24.935–24.953 E, 60.164–60.179 N"),
                "\(warning)")
        let helsinki = try Self.snapshot(LatLng(60.1717, 24.9443), zoom: 15)
        #expect(helsinki.coverage.detailedFraction == 1 && helsinki.coverage.warning == nil && helsinki.warnings.isEmpty,
                "\(helsinki.warnings)")
        // The world at z5 is all detail, in every bundled style.
        for style in ["normal", "terrain", "hybrid"] {
            let world = try Self.snapshot(LatLng(50, 10), zoom: 5, width: 400, height: 300, style: style)
            #expect(world.coverage.detailedFraction == 1 && world.warnings.isEmpty, "\(style): \(world.warnings)")
        }
    }

    /// A style that draws no tile source asks for no data: nothing lacks.
    @Test func aPlainBackgroundLacksNothing() throws {
        let plain = try Self.snapshot(LatLng(48.8566, 2.3522), zoom: 15, style: TestPaths.plainStyle)
        #expect(plain.coverage.detailedFraction == 1 && plain.coverage.warning == nil)
    }
}

extension MapCoverageTests {
    /// Which tiles are absent decides the fallback, never which fetch finished first.
    @Test func theFallbackDoesNotDependOnThreadsOrLoadOrder() {
        let camera = Camera(center: LatLng(60.1716, 24.9351), zoom: 15, width: 900, height: 700)
        let gappy = Self.city(has: { ($0.x + $0.y) % 3 != 0 })
        func signature(threads: Int, order: ((Int) -> [Int])?) -> [String] {
            let l = LoadedSource(source: ResolvedSource(id: "v", isVector: true, candidates: [gappy, Self.world], tileSize: 512),
                                 camera: camera, dataZoom: 15, maxThreads: threads, loadOrder: order)
            return l.drawTiles.map { "\($0.coveringIndex)/\($0.candidate)/\($0.payload)/\($0.clips)" } + ["\(l.statistics)"]
        }
        let reference = signature(threads: 1, order: nil)
        #expect(reference.contains { $0.contains("/1/") } && reference.contains { $0.contains("/0/") })
        #expect(signature(threads: 4, order: nil) == reference)
        #expect(signature(threads: 4, order: { Array((0..<$0).reversed()) }) == reference)
    }
}

extension MapCoverageTests {
    /// With a bundled style of the OpenMapTiles schema, a vector `--source` draws within its
    /// declared bounds in front of the embedded data; other schemas, raster tiles and style
    /// files keep the `--source` alone, drawn everywhere.
    @Test(arguments: [
        ("normal", "helsinki-openmaptiles.mbtiles", ["--source", "the bundled Helsinki street data", "the embedded world data", "the embedded world data"], true),
        ("terrain", "helsinki-openmaptiles.mbtiles", ["--source", "the bundled Helsinki street data", "the embedded world data", "the embedded world data"], true),
        ("normal", "helsinki-protomaps.pmtiles", ["--source"], false),
        ("file", "helsinki-openmaptiles.mbtiles", ["--source"], false),
        ("normal", "helsinki-raster-z12-13", ["--source"], false),
    ])
    func whatDrawsBeneathASource(style: String, fixture: String, labels: [String], bounded: Bool) throws {
        var path = style
        if style == "file" {
            path = TestPaths.temporaryDirectory() + "/style.json"
            try Data(#"""
            {"version": 8, "sources": {"s": {"type": "vector", "url": "nowhere.mbtiles"}},
             "layers": [{"id": "water", "type": "fill", "source": "s", "source-layer": "water"}]}
            """#.utf8).write(to: URL(fileURLWithPath: path))
        }
        var o = MapSnapshotOptions(width: 100, height: 100, center: LatLng(60.17, 24.94), zoom: 12, style: path)
        o.source = TestPaths.fixture(fixture)
        let setup = try MapRenderer().preparedStyle(for: o)
        let overridden = setup.sources.values.filter { $0.candidates.first?.isNamedByUser == true }
        #expect(overridden.count == 1, "\(setup.sources.keys.sorted())")
        let source = try #require(overridden.first)
        #expect(source.candidates.map { $0.isNamedByUser ? "--source" : $0.label } == labels)
        #expect((source.candidates[0].bounds != nil) == bounded)
        #expect(source.candidates[0].label == "--source " + TestPaths.fixture(fixture))
        #expect(!source.offersRegions)
    }
}
