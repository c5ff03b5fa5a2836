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
        // Native names, in any script (all GeoNames alternate names are indexed).
        ("München", 48.1374, 11.5755),
        ("東京", 35.6895, 139.6917),
        ("Москва", 55.7522, 37.6156),
        ("Wien", 48.2085, 16.3721),
        // "City,ST": first-level divisions by code or name, after a comma or a space.
        ("San Francisco,CA", 37.7749, -122.4194),
        ("Berkeley,CA", 37.8716, -122.2727),
        ("Boston,MA", 42.3584, -71.0598),
        ("New York, NY", 40.7143, -74.0060),
        ("San Francisco, California", 37.7749, -122.4194),
        ("San Francisco, California, USA", 37.7749, -122.4194),
        ("Paris, Texas", 33.6609, -95.5555),
        ("Toronto, ON", 43.7001, -79.4163),
        ("London, ON", 42.9834, -81.2330),
        ("Melbourne VIC", -37.8140, 144.9633),
        ("Perth, WA", -31.9522, 115.8614),    // Western Australia, not Washington (no Perth there)
        ("Vancouver, WA", 45.6387, -122.6615), // Washington, not British Columbia
        ("Washington, D.C.", 38.8951, -77.0364),
        ("Toronto, CA", 43.7001, -79.4163),    // a country code wins over California
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
        // Mexico City is also called "Mexico", and a town in the Philippines is called so
        // itself: the country still wins.
        let mexico = try #require(g.place(named: "Mexico"))
        #expect(mexico.countryCode == "MX" && mexico.population == 0)
        // A city whose own name it is wins over its country.
        #expect(try #require(g.place(named: "Singapore")).population > 1_000_000)
    }

    @Test func unknownNamesDoNotResolveToSomethingUnrelated() throws {
        let g = try #require(Self.gazetteer)
        // Tok, Alaska is too small for the table; "Tok Wah Wan" is an alternate name of To
        // Kwa Wan in Hong Kong, and word prefixes only extend a place's own name.
        #expect(g.place(named: "Tok") == nil)
        #expect(g.place(named: "Delta Junction, AK") == nil)
        #expect(g.place(named: "Springfield, Atlantis") == nil)
        #expect(g.place(named: "New York")?.name == "New York City")
    }

    @Test func everyPlaceIsFoundByItsOwnNameAsTheBuildScriptFoldedIt() throws {
        // The index keys were folded in Python; Swift folds queries. They must agree.
        let g = try #require(Self.gazetteer)
        #expect(g.places.count > 30_000)
        var missing: [String] = []
        for (row, place) in g.places.enumerated() where !g.rows(named: Gazetteer.fold(place.name)).contains(row) {
            missing.append(place.name)
        }
        #expect(missing.isEmpty, "\(missing.count) names: \(missing.prefix(10))")
    }

    @Test(arguments: [("Straße", "strasse"), ("Łódź", "lodz"), ("Ærøskøbing", "aeroskobing"), ("  New-York  ", "new york"),
                      ("ＴＯＫＹＯ", "tokyo"), ("İstanbul", "istanbul"), ("Saint-Étienne", "saint etienne")])
    func foldingSpellsOutLettersAndDropsMarks(text: String, key: String) {
        #expect(Gazetteer.fold(text) == key)
    }

    @Test func unknownNamesSuggestCloseMatches() throws {
        let g = try #require(Self.gazetteer)
        #expect(g.coordinate(forPlaceNamed: "Atlantis City Of Gold") == nil)
        #expect(g.suggestions(forPlaceNamed: "Pariss").first == "Paris")
        #expect(g.suggestions(forPlaceNamed: "Helsinky").contains("Helsinki"))
        #expect(g.suggestions(forPlaceNamed: "Münchn").first == "Munich")
        #expect(g.suggestions(forPlaceNamed: "Bostn,MA").first == "Boston")
        #expect(g.suggestions(forPlaceNamed: "Zzzzqqq").isEmpty)
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
