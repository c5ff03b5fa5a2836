import Foundation
import Testing
@testable import MapSnap

/// Addresses and named places through `PlaceResolver` with the bundled Helsinki index
/// (`Data/helsinki.places`, built from `Tests/MapSnapTests/Fixtures/osm/helsinki.osm.pbf`).
///
/// Expected positions come from the extract through an independent reader, never from our
/// code: pyosmium 3.6 (Debian's python3-pyosmium) with `locations=True`, run once by hand:
/// - node 319515045 `addr:street=Aleksanterinkatu addr:housenumber=52` (the entrance address
///   point of the Stockmann building): 60.1686722, 24.9419347;
/// - way 419479428 `Helsingin tuomiokirkko` (`name:en=Helsinki Cathedral`): its nodes span
///   lat 60.1701143…60.1706417, lon 24.951648…24.9527056;
/// - way 8033120 `Ateneum` (`tourism=museum`): lat 60.1697744…60.1702705, lon 24.9433519…24.9447837;
/// - ways `Eteläesplanadi` (`highway=primary`): vertex means 60.1667…60.1674, 24.9439…24.9522.
@Suite struct PlaceResolverTests {
    static let resolver = PlaceResolver(indexPaths: [])

    /// Metres between two points (equirectangular: fine over a city block).
    static func metres(_ a: LatLng, _ b: LatLng) -> Double {
        let k = cos(a.latitude * .pi / 180)
        return hypot((a.latitude - b.latitude) * 111_195, (a.longitude - b.longitude) * 111_195 * k)
    }

    @Test(arguments: ["Aleksanterinkatu 52, Helsinki", "Aleksanterinkatu 52", "52 Aleksanterinkatu", "aleksanterinkatu 52 helsinki",
                      "Aleksanterinkatu 52, 00100 Helsinki", "Aleksanterinkatu 52, Helsingfors"])
    func addressWithin15MetresOfTheOSMObject(_ query: String) throws {
        let r = try #require(Self.resolver.resolve(query), "\(query)")
        #expect(r.fromIndex)
        #expect(Self.metres(r.coordinate, LatLng(latitude: 60.1686722, longitude: 24.9419347)) < 15, "\(query) → \(r.coordinate)")
    }

    @Test(arguments: [("Helsinki Cathedral", 60.1701143, 60.1706417, 24.951648, 24.9527056),
                      ("Helsingin tuomiokirkko", 60.1701143, 60.1706417, 24.951648, 24.9527056),
                      ("Tuomiokirkko", 60.1701143, 60.1706417, 24.951648, 24.9527056),
                      ("Ateneum", 60.1697744, 60.1702705, 24.9433519, 24.9447837),
                      ("ATENEUM", 60.1697744, 60.1702705, 24.9433519, 24.9447837),
                      ("Etelaesplanadi", 60.1666, 60.1675, 24.9435, 24.9525),
                      ("Södra Esplanaden", 60.1666, 60.1675, 24.9435, 24.9525)])
    func namedPlaceLandsOnItsObject(_ query: String, _ s: Double, _ n: Double, _ w: Double, _ e: Double) throws {
        let r = try #require(Self.resolver.resolve(query), "\(query)")
        #expect(r.fromIndex)
        #expect((s...n).contains(r.coordinate.latitude) && (w...e).contains(r.coordinate.longitude), "\(query) → \(r.coordinate)")
    }

    /// A bare city name stays the GeoNames city, even where an index has a street or a place
    /// node of that name (Helsinki's `place=city` node is at 60.1674, 24.9426; GeoNames'
    /// Helsinki at 60.1695, 24.9354).
    @Test func citiesStayGazetteerCities() throws {
        let paris = try #require(Self.resolver.resolve("Paris"))
        #expect(!paris.fromIndex && abs(paris.coordinate.latitude - 48.8534) < 0.05)
        let helsinki = try #require(Self.resolver.resolve("Helsinki"))
        #expect(!helsinki.fromIndex && abs(helsinki.coordinate.longitude - 24.9354) < 0.01)
        // A street called like a city in the index: the city wins.
        var w = PlaceIndexWriter()
        w.entries = [PlaceIndexEntry(kind: .street, name: "Pariisi", alternateNames: ["Paris"], city: "Helsinki",
                                     coordinate: LatLng(latitude: 60.17, longitude: 24.94), importance: 100)]
        let path = TestPaths.temporaryDirectory() + "/paris.places"
        try Data(w.encode()).write(to: URL(fileURLWithPath: path))
        let r = PlaceResolver(indexPaths: [path], includesBundledIndex: false)
        #expect(abs((r.coordinate(forPlaceNamed: "Paris")?.latitude ?? 0) - 48.8534) < 0.05)
        // …unless the query says it means the index's city.
        #expect(abs((r.coordinate(forPlaceNamed: "Paris, Helsinki")?.latitude ?? 0) - 60.17) < 1e-6)
    }

    @Test func typoGetsDidYouMean() {
        #expect(Self.resolver.coordinate(forPlaceNamed: "Aleksanterinktu 52, Helsinki") == nil)
        #expect(Self.resolver.suggestions(forPlaceNamed: "Aleksanterinktu 52, Helsinki").first == "Aleksanterinkatu 52, Helsinki")
        #expect(Self.resolver.suggestions(forPlaceNamed: "Ateneun").contains("Ateneum"))
        // The gazetteer's suggestions still come after the index's.
        #expect(Self.resolver.suggestions(forPlaceNamed: "Helsinky").contains("Helsinki"))
    }

    /// The names of the directions acceptance command (issue 29) and their everyday variants.
    /// Expected positions from the extract through osmium-tool (Debian's `osmium-tool`, an
    /// independent reader), run once by hand: `osmium getid -r helsinki.osm.pbf ID`, then
    /// `osmium fileinfo -e -g data.bbox` (the bounds of the object's nodes):
    /// - way 122595198 `Helsingin päärautatieasema` (`building=train_station`,
    ///   `name:en=Helsinki Central Railway Station`): lat 60.1707123…60.1723593, lon 24.940307…24.9425199;
    /// - relation 2919185 `Kauppatori` (`place=square`, `name:en=Market Square`), its nodes in
    ///   the extract: lat 60.1665408…60.1677835, lon 24.9525423…24.9533973.
    @Test(arguments: [("Helsinki Central Station", 60.1707123, 60.1723593, 24.940307, 24.9425199),
                      ("helsinki central station", 60.1707123, 60.1723593, 24.940307, 24.9425199),
                      ("Helsinki Central railway station", 60.1707123, 60.1723593, 24.940307, 24.9425199),
                      ("Market Square, Helsinki", 60.1665408, 60.1677835, 24.9525423, 24.9533973),
                      ("Market Square", 60.1665408, 60.1677835, 24.9525423, 24.9533973),
                      ("Kauppatori", 60.1665408, 60.1677835, 24.9525423, 24.9533973)])
    func everydayNamesLandOnTheirObjects(_ query: String, _ s: Double, _ n: Double, _ w: Double, _ e: Double) throws {
        let r = try #require(Self.resolver.resolve(query), "\(query)")
        #expect(r.fromIndex)
        #expect((s...n).contains(r.coordinate.latitude) && (w...e).contains(r.coordinate.longitude), "\(query) → \(r.coordinate)")
    }

    /// A name with words left out finds the full name (`.words`), fewest extra words first;
    /// a query with a word no name has stays a miss. Node 418089207 is `Rautatientori`, the
    /// metro station under the station square (`name:en=Central Railway Station`, osmium:
    /// 60.1703844, 24.9398457): "Central Station, Helsinki" is it (one word more, like the
    /// railway station's trailing words, and the more important entry).
    @Test func wordsLeftOutFindTheFullName() throws {
        let index = try PlaceIndex(path: try #require(PlaceResolver.bundledIndexPath))
        let station = try #require(index.search("Helsinki Central Station"))
        #expect(station.quality == .words)
        #expect(station.name == "Helsingin päärautatieasema", "\(station.name)")
        let metro = try #require(index.search("Central Station, Helsinki"))
        #expect(metro.quality == .words && metro.qualified)
        #expect(Self.metres(metro.coordinate, LatLng(latitude: 60.1703844, longitude: 24.9398457)) < 1, "\(metro.coordinate)")
        #expect(index.search("Helsinki Central Bus Station") == nil)
        #expect(index.search("Helsinki Station Central") == nil, "the words keep their order")
        #expect(PlaceIndex.isSubsequence(["a", "c"], of: ["a", "b", "c"]))
        #expect(!PlaceIndex.isSubsequence(["c", "a"], of: ["a", "b", "c"]))
    }

    /// The bundled index is what `mapsnap data index` makes of the fixture extract, byte for
    /// byte (so Data/README.md's rebuild recipe is true).
    @Test func bundledIndexIsRebuiltExactly() throws {
        let reader = try OSMPBFReader(path: TestPaths.fixture("osm/helsinki.osm.pbf"))
        let (writer, summary) = try PlaceIndexBuilder.build(pbf: reader)
        let bundled = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.repositoryRoot + "/Data/helsinki.places")))
        #expect(writer.encode() == bundled)
        #expect(summary.addresses > 1000 && summary.streets > 50)
    }
}
