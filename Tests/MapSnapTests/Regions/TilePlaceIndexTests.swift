import Foundation
import Testing
@testable import MapSnap

/// Place indexes made from a region's vector tiles (`data extract`, `data index X.pmtiles`),
/// checked against the index made from the OpenStreetMap extract the tiles were built from
/// (`Fixtures/osm/helsinki.osm.pbf`, by the independent `.osm.pbf` path): the tiles of both
/// schemas come from that extract, so every street, place and point of interest they name
/// is one of its objects, found where the extract has it.
@Suite struct TilePlaceIndexTests {
    static let schemas = [
        ("OpenMapTiles", TestPaths.fixture("helsinki-openmaptiles.mbtiles")),
        ("Protomaps", TestPaths.fixture("helsinki-protomaps.pmtiles")),
    ]

    static let fromExtract: [PlaceIndexEntry] = {
        guard let reader = try? OSMPBFReader(path: TestPaths.fixture("osm/helsinki.osm.pbf")),
              let built = try? PlaceIndexBuilder.build(pbf: reader) else { return [] }
        return built.0.entries
    }()

    static func fromTiles(_ path: String) throws -> (PlaceIndexWriter, PlaceIndexBuilder.Summary) {
        try PlaceIndexBuilder.build(tiles: try TileSources.open(path), path: path)
    }

    static func meters(_ a: LatLng, _ b: LatLng) -> Double {
        let k = cos(a.latitude * .pi / 180)
        return hypot((a.latitude - b.latitude) * 111_195, (a.longitude - b.longitude) * 111_195 * k)
    }

    /// Every name of the extract's entries other than addresses, folded, with where the entry
    /// is. (A square is a place in OpenStreetMap's tags and a pedestrian road in the tiles.)
    static let extractNames: [String: [LatLng]] = {
        var out: [String: [LatLng]] = [:]
        for e in fromExtract where e.kind != .address {
            for name in [e.name] + e.alternateNames { out[Gazetteer.fold(name), default: []].append(e.coordinate) }
        }
        return out
    }()

    @Test(arguments: schemas)
    func namesAreTheExtractsObjectsWhereTheExtractHasThem(schema: String, path: String) throws {
        let (writer, summary) = try Self.fromTiles(path)
        #expect(summary.addresses == 0, "house numbers without their street are not indexed")
        #expect(summary.streets > 80 && summary.pointsOfInterest > 1000 && summary.places >= 5, "\(schema): \(summary)")
        for kind in [PlaceIndexEntry.Kind.street, .poi, .place] {
            let truth = Self.extractNames
            let entries = writer.entries.filter { $0.kind == kind }
            // A street is placed on its own line, and the tiles cut lines at tile edges: the
            // two indexes may pick different points of one long street.
            let tolerance = kind == .street ? 400.0 : 60.0
            var missing: [String] = []
            for e in entries {
                let found = truth[Gazetteer.fold(e.name)]?.contains { Self.meters($0, e.coordinate) < tolerance } ?? false
                if !found { missing.append(e.name) }
            }
            #expect(Double(missing.count) <= 0.03 * Double(entries.count),
                    "\(schema) \(kind): \(missing.count) of \(entries.count) not in the extract nearby, such as \(missing.prefix(12))")
        }
    }

    /// The index file answers the queries a user types, in the languages the tiles carry
    /// (the OpenMapTiles fixture has only the local names).
    @Test(arguments: [
        (schemas[0].0, schemas[0].1, ["Tuomiokirkko", "Mannerheimintie", "Kauppatori", "Kluuvi", "Ateneum"]),
        (schemas[1].0, schemas[1].1, ["Helsinki Cathedral", "Tuomiokirkko", "Mannerheimintie", "Market Square", "Kluuvi", "Ateneum"]),
    ])
    func lookupsFindTheExtractsPlaces(schema: String, path: String, queries: [String]) throws {
        let (writer, _) = try Self.fromTiles(path)
        let index = try PlaceIndex(bytes: writer.encode(), path: path)
        let pbfIndex = try PlaceIndex(bytes: {
            var w = PlaceIndexWriter()
            w.entries = Self.fromExtract
            return w.encode()
        }(), path: "extract")
        for query in queries {
            let got = try #require(index.search(query), "\(schema): \(query)")
            let want = try #require(pbfIndex.search(query), "extract: \(query)")
            #expect(Self.meters(got.coordinate, want.coordinate) < (got.kind == .street ? 400 : 60),
                    "\(schema): \(query) → \(got.name) \(got.coordinate), extract: \(want.name) \(want.coordinate)")
        }
        #expect(index.search("Aleksanterinkatu 52") == nil, "no address index from tiles: a miss, not the street")
    }

    @Test func rasterAndUnknownArchivesAreRefused() throws {
        let raster = TestPaths.fixture("helsinki-raster-z12-13")
        #expect(throws: RegionBuildError.self) { try PlaceIndexBuilder.build(tiles: try TileSources.open(raster), path: raster) }
    }
}
