import Foundation
import Testing
@testable import MapSnap

/// The place index format: writer → reader round trips on hand-made entries, the query
/// forms, determinism, and damaged files (each a typed error, never a trap).
@Suite struct PlaceIndexTests {
    static let entries: [PlaceIndexEntry] = [
        PlaceIndexEntry(kind: .address, name: "Mannerheimintie 5", street: "Mannerheimintie", houseNumber: "5",
                        city: "Helsinki", postcode: "00100", coordinate: LatLng(latitude: 60.1690, longitude: 24.9400), importance: 80),
        PlaceIndexEntry(kind: .address, name: "Mannerheimintie 7 B", street: "Mannerheimintie", houseNumber: "7 B",
                        city: "Helsinki", coordinate: LatLng(latitude: 60.1700, longitude: 24.9390), importance: 80),
        PlaceIndexEntry(kind: .address, name: "Mannerheimintie 5", street: "Mannerheimintie", houseNumber: "5",
                        city: "Espoo", coordinate: LatLng(latitude: 60.2000, longitude: 24.6000), importance: 80),
        PlaceIndexEntry(kind: .poi, name: "Helsingin tuomiokirkko", alternateNames: ["Helsinki Cathedral", "Storkyrkan"],
                        city: "Helsinki", coordinate: LatLng(latitude: 60.1704, longitude: 24.9522), importance: 170),
        PlaceIndexEntry(kind: .poi, name: "Kahvila Tuomiokirkko", city: "Helsinki",
                        coordinate: LatLng(latitude: 60.1600, longitude: 24.9300), importance: 55),
        PlaceIndexEntry(kind: .street, name: "Eteläesplanadi", alternateNames: ["Södra Esplanaden"], city: "Helsinki",
                        coordinate: LatLng(latitude: 60.1670, longitude: 24.9480), importance: 100),
    ]

    static func index(_ entries: [PlaceIndexEntry] = entries) throws -> PlaceIndex {
        var w = PlaceIndexWriter()
        w.entries = entries
        w.mainCity = "Helsinki"
        w.cityAliases = ["Helsingfors": "Helsinki"]
        return try PlaceIndex(bytes: w.encode(), path: "test.places")
    }

    @Test(arguments: [
        ("Mannerheimintie 5", 60.1690, 24.9400),          // in two cities: the main city's
        ("Mannerheimintie 5, Helsinki", 60.1690, 24.9400),
        ("Mannerheimintie 5, Espoo", 60.2000, 24.6000),
        ("Mannerheimintie 5, Helsingfors", 60.1690, 24.9400),
        ("Mannerheimintie 5, 00100 Helsinki", 60.1690, 24.9400),
        ("Mannerheimintie 5 Helsinki", 60.1690, 24.9400),
        ("5 Mannerheimintie, Helsinki", 60.1690, 24.9400),
        ("mannerheimintie 7b, helsinki", 60.1700, 24.9390),
        ("Mannerheimintie 7 B", 60.1700, 24.9390),
        ("Mannerheimintie 7, Helsinki", 60.1700, 24.9390),   // 7 → 7 B
        ("Helsinki Cathedral", 60.1704, 24.9522),
        ("STORKYRKAN", 60.1704, 24.9522),
        ("Tuomiokirkko", 60.1704, 24.9522),                  // trailing word: the more important of two
        ("Etelaesplanadi", 60.1670, 24.9480),                // accents folded
        ("Södra esplanaden, Helsinki", 60.1670, 24.9480),
        ("Eteläespl", 60.1670, 24.9480),                     // prefix
    ])
    func finds(_ query: String, _ lat: Double, _ lon: Double) throws {
        let m = try #require(try Self.index().search(query), "\(query)")
        #expect(abs(m.coordinate.latitude - lat) < 1e-6 && abs(m.coordinate.longitude - lon) < 1e-6, "\(query) → \(m)")
    }

    @Test(arguments: ["Mannerheimintie 9", "Mannerheimintie 5, Turku", "Paris", "Helsinki Cathedral, Espoo", "Kahvila Tuomiokirkko, Espoo"])
    func misses(_ query: String) throws {
        #expect(try Self.index().search(query) == nil, "\(query)")
    }

    @Test func matchQualityOrdersExactBeforePartial() throws {
        let i = try Self.index()
        #expect(i.search("Kahvila Tuomiokirkko")?.quality == .exact)
        #expect(i.search("Tuomiokirkko")?.quality == .trailingWords)
        #expect(i.search("Eteläespl")?.quality == .prefix)
        #expect(i.search("Mannerheimintie 5, Helsinki")?.qualified == true)
    }

    @Test func suggestsCloseNames() throws {
        let i = try Self.index()
        #expect(Set(i.suggestions(for: "Mannerheimintei 5").prefix(2)) == ["Mannerheimintie 5, Espoo", "Mannerheimintie 5, Helsinki"])
        #expect(i.suggestions(for: "Helsinki Cathedarl").contains("Helsingin tuomiokirkko"))
        #expect(i.suggestions(for: "Xyzzy").isEmpty)
    }

    @Test func bytesDependOnContentNotOrder() throws {
        var a = PlaceIndexWriter(), b = PlaceIndexWriter()
        a.entries = Self.entries
        b.entries = Self.entries.reversed()
        a.cityAliases = ["Helsingfors": "Helsinki"]
        b.cityAliases = ["Helsingfors": "Helsinki"]
        #expect(a.encode() == b.encode())
    }

    @Test func houseNumbersNormalize() {
        #expect(PlaceIndexEntry.normalizedHouseNumber("52 A") == "52a")
        #expect(PlaceIndexEntry.normalizedHouseNumber("52a") == "52a")
        #expect(PlaceIndexEntry.normalizedHouseNumber("52–54") == "52-54")
        #expect(PlaceQuery.address("52 Aleksanterinkatu") == .init(street: "Aleksanterinkatu", number: "52", trailing: ""))
        #expect(PlaceQuery.address("Aleksanterinkatu 52 A Helsinki") == .init(street: "Aleksanterinkatu", number: "52a", trailing: "Helsinki"))
        #expect(PlaceQuery.address("Helsinki Cathedral") == nil)
    }

    // MARK: Damaged files

    static func expect(_ bytes: [UInt8], _ check: (PlaceIndexError) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try PlaceIndex(bytes: bytes, path: "x.places")
            Issue.record("opened", sourceLocation: sourceLocation)
        } catch {
            #expect(check(error), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func damagedFilesAreTypedErrors() throws {
        var w = PlaceIndexWriter()
        w.entries = Self.entries
        let good = w.encode()
        Self.expect(Array("not an index".utf8)) { $0 == .notAPlaceIndex(path: "x.places") }
        Self.expect(Array(good.prefix(30))) { if case .corrupt = $0 { return true }; return false }
        var version = good
        version[8] = 9
        Self.expect(version) { $0 == .unsupportedVersion(path: "x.places", version: 9) }
        // Every single flipped byte after the header is caught by the checksum.
        for at in stride(from: 64, to: good.count - 4, by: 97) {
            var flipped = good
            flipped[at] ^= 0x40
            Self.expect(flipped) { if case .corrupt(_, let d) = $0 { return d.contains("checksum") }; return false }
        }
        Self.expect(Array(good.dropLast(9))) { if case .corrupt = $0 { return true }; return false }
    }

    @Test func resolverSkipsADamagedIndexAndSaysSo() throws {
        let dir = TestPaths.temporaryDirectory()
        try Data("MSPLACES garbage".utf8).write(to: URL(fileURLWithPath: dir + "/broken.places"))
        var w = PlaceIndexWriter()
        w.entries = Self.entries
        try Data(w.encode()).write(to: URL(fileURLWithPath: dir + "/good.places"))
        let resolver = DataDirectory(path: dir).placeResolver()
        #expect(resolver.problems.isEmpty)  // nothing opened before a lookup
        let c = try #require(resolver.coordinate(forPlaceNamed: "Mannerheimintie 5, Espoo"))
        #expect(abs(c.latitude - 60.2) < 1e-6)
        #expect(resolver.problems.count == 1 && resolver.problems[0].contains("broken.places"))
    }
}
