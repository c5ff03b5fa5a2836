import Testing
@testable import MapSnap

@Suite struct URLRedactionTests {
    /// (text, redacted)
    @Test(arguments: [
        ("https://api.mapbox.com/v4/{z}/{x}/{y}.png?access_token=pk.abc", "https://api.mapbox.com/v4/{z}/{x}/{y}.png?access_token=REDACTED"),
        ("https://api.maptiler.com/tiles/v3/{z}/{x}/{y}.pbf?key=abc&lang=fi", "https://api.maptiler.com/tiles/v3/{z}/{x}/{y}.pbf?key=REDACTED&lang=fi"),
        ("http://t.example/1/2/3.png?style=dark&apikey=x&API_KEY=y&Signature=s&token=t#frag",
         "http://t.example/1/2/3.png?style=dark&apikey=REDACTED&API_KEY=REDACTED&Signature=REDACTED&token=REDACTED#frag"),
        ("https://user:pa55@tiles.example.org/{z}/{x}/{y}.png", "https://REDACTED@tiles.example.org/{z}/{x}/{y}.png"),
        ("https://tiles.example.org/{z}/{x}/{y}.png?flag&x-amz-signature=abc", "https://tiles.example.org/{z}/{x}/{y}.png?flag&x-amz-signature=REDACTED"),
        ("https://tiles.example.org/a@b/{z}/{x}/{y}.png", "https://tiles.example.org/a@b/{z}/{x}/{y}.png"),
        ("https://tiles.example.org/{z}/{x}/{y}.png", "https://tiles.example.org/{z}/{x}/{y}.png"),
        ("world.mbtiles", "world.mbtiles"),
        ("/data/key=1/tiles", "/data/key=1/tiles"),
    ])
    func redacts(text: String, expected: String) {
        #expect(URLRedaction.redact(text) == expected)
    }

    @Test func templatesAndTheirErrorsAreRedacted() throws {
        let template = try TileURLTemplate("https://t.example/{z}/{x}/{y}.png?key=SECRET")
        #expect(template.description == "https://t.example/{z}/{x}/{y}.png?key=REDACTED")
        #expect(throws: HTTPTileSourceError.invalidTemplate(template: "https://t.example/{z}/{x}.png?key=REDACTED",
                                                           reason: "must contain {z}, {x} and {y} (or {-y}), or {quadkey}")) {
            try TileURLTemplate("https://t.example/{z}/{x}.png?key=SECRET")
        }
    }
}
