import Foundation
import Testing
@testable import MapSnap

@Suite struct TileJSONTests {
    static let url = "https://tiles.example.org/planet/tiles.json?key=SECRET"

    @Test func readsTemplatesZoomsLayersAndAttribution() throws {
        let text = """
        {"tilejson": "3.0.0", "tiles": ["{z}/{x}/{y}.pbf?key=SECRET", "https://b.example.org/{z}/{x}/{y}.pbf"],
         "minzoom": 0, "maxzoom": 14, "bounds": [24.8, 60.1, 25.1, 60.3], "attribution": "© OSM",
         "vector_layers": [{"id": "water", "fields": {"class": "String"}}, {"id": "transportation"}]}
        """
        let doc = try TileJSON(bytes: Array(text.utf8), url: Self.url)
        #expect(doc.tiles == ["https://tiles.example.org/planet/{z}/{x}/{y}.pbf?key=SECRET", "https://b.example.org/{z}/{x}/{y}.pbf"])
        #expect(doc.metadata.format == .mvt)
        #expect(doc.metadata.maxZoom == 14 && doc.metadata.minZoom == 0)
        #expect(doc.metadata.vectorLayers.map(\.id) == ["water", "transportation"])
        #expect(doc.metadata.attribution == "© OSM")
        #expect(doc.metadata.bounds != nil)
    }

    @Test func tmsRowsBecomeTheFlippedPlaceholder() throws {
        let doc = try TileJSON(bytes: Array(#"{"tiles": ["https://t.example.org/{z}/{x}/{y}.png"], "scheme": "tms"}"#.utf8), url: Self.url)
        #expect(doc.tiles == ["https://t.example.org/{z}/{x}/{-y}.png"])
        #expect(doc.metadata.maxZoom == 22)
    }

    @Test(arguments: [
        ("[1, 2]", "TileJSON is not a JSON object"),
        (#"{"tiles": []}"#, #"TileJSON has no "tiles" URL templates"#),
        (#"{"name": "x"}"#, #"TileJSON has no "tiles" URL templates"#),
        (#"{"tiles": [3]}"#, "TileJSON tiles[0] is not a string"),
        (#"{"tiles": ["file:///etc/{z}/{x}/{y}.png"]}"#, "a remote style or TileJSON may only name http(s) resources"),
    ])
    func malformedDocumentsAreNamed(text: String, reason: String) {
        do {
            _ = try TileJSON(bytes: Array(text.utf8), url: Self.url)
            Issue.record("\(text) must be refused")
        } catch {
            #expect(error.description.hasSuffix(reason), "\(error)")
            #expect(!error.description.contains("SECRET"), "\(error)")
        }
    }
}
