import Testing
@testable import MapSnap

/// Offline place lookup against the bundled GeoNames tables. Expected coordinates are
/// GeoNames' own (geonames.org entries for each city), to 0.05°.
@Suite struct GazetteerTests {
    static let gazetteer = Gazetteer.bundled

    @Test(arguments: [
        ("Helsinki", 60.1695, 24.9354),
        ("helsinki", 60.1695, 24.9354),
        ("Paris", 48.8534, 2.3488),
        ("Munich", 48.1374, 11.5755),
        ("MUNICH", 48.1374, 11.5755),
        ("Zürich", 47.3667, 8.55),
        ("Tokyo", 35.6895, 139.6917),
        ("New York", 40.7143, -74.0060),
        ("Paris, US", 33.6609, -95.5555),   // Paris, Texas: the biggest US Paris
        ("Paris, France", 48.8534, 2.3488),
        ("São Paulo", -23.5475, -46.6361),
    ])
    func resolves(name: String, lat: Double, lon: Double) throws {
        let g = try #require(Self.gazetteer)
        let c = try #require(g.coordinate(forPlaceNamed: name), "\(name) not found")
        #expect(abs(c.latitude - lat) < 0.05 && abs(c.longitude - lon) < 0.05, "\(name) → \(c)")
    }

    @Test func countryNameResolvesToItsLabelPoint() throws {
        let g = try #require(Self.gazetteer)
        let c = try #require(g.coordinate(forPlaceNamed: "Finland"))
        #expect(c.latitude > 59 && c.latitude < 70 && c.longitude > 20 && c.longitude < 32)
    }

    @Test func unknownNamesSuggestCloseMatches() throws {
        let g = try #require(Self.gazetteer)
        #expect(g.coordinate(forPlaceNamed: "Atlantis City Of Gold") == nil)
        #expect(g.suggestions(forPlaceNamed: "Pariss").first == "Paris")
        #expect(g.suggestions(forPlaceNamed: "Helsinky").contains("Helsinki"))
    }

    @Test func staticMapsSyntaxUsesTheGazetteerAndReportsUnknownNames() throws {
        let path = try StaticMapsSyntax.parsePath("Berlin|Prague|Vienna", origin: "--path", resolver: BundledPlaces())
        #expect(path.coordinates.count == 3)
        #expect(abs(path.coordinates[1].latitude - 50.088) < 0.05)
        #expect {
            _ = try StaticMapsSyntax.parsePath("Berlin|Pragu", origin: "--path", resolver: BundledPlaces())
        } throws: { error in
            let text = String(describing: error)
            return text.contains("no place named \"Pragu\"") && text.contains("Prague")
        }
    }
}
