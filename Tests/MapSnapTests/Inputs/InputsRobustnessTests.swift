import MapSnapTesting
import Foundation
import Testing
@testable import MapSnap

/// Mutated and hostile inputs: every parser must answer with a value or its typed error,
/// never trap, hang or allocate without bound. A trap here crashes the test process, which
/// is exactly the failure this suite exists to catch.
@Suite struct InputsRobustnessTests {
    /// Flips, inserts, deletes and truncates bytes of `seed` text.
    private static func mutations(of seed: String, count: Int, rngSeed: UInt64) -> [Data] {
        print("InputsRobustnessTests seed \(rngSeed)")
        var rng = SeededGenerator(seed: rngSeed)
        let base = Array(seed.utf8)
        let interesting: [UInt8] = Array("[]{}\",:|<>/&;!-.0123456789eE\u{7F}".utf8) + [0, 0xC3, 0xFF]
        return (0..<count).map { _ in
            var bytes = base
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                guard !bytes.isEmpty else { break }
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[i] = interesting.randomElement(using: &rng) ?? 0
                case 1: bytes.insert(interesting.randomElement(using: &rng) ?? 0, at: i)
                case 2: bytes.remove(at: i)
                default: bytes.removeSubrange(i...)
                }
            }
            return Data(bytes)
        }
    }

    /// Runs `parse` on one mutated input: it either parses or is rejected with `E` — the
    /// stage's own error, already fixed by the parser's typed `throws` — whose message names
    /// `origin` (the flag or file), so a failure that names nothing, or names the wrong
    /// thing, is caught as well as a crash.
    private static func expectParsedOrRejected<E: Error & CustomStringConvertible>(
        _ input: Data, origin: String?, _ parse: () throws(E) -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try parse()
        } catch {
            let message = error.description
            let named = origin.map { message.contains($0) } ?? !message.isEmpty
            #expect(named, "\(E.self) does not name \(origin ?? "anything"): \(message) — input \(Array(input))",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func mutatedPolylinesAndStaticMapsValues() {
        for data in Self.mutations(of: "color:0xff0000|weight:3|enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@", count: 2000, rngSeed: 11) {
            let text = String(decoding: data, as: UTF8.self)
            // A polyline error has no origin to name; it says where in the text ("offset 12").
            Self.expectParsedOrRejected(data, origin: "offset") { () throws(PolylineError) in _ = try EncodedPolyline.decode(text) }
            Self.expectParsedOrRejected(data, origin: "offset") { () throws(PolylineError) in
                _ = try EncodedPolyline.decode(text, precision: 6)
            }
            Self.expectParsedOrRejected(data, origin: "--path") { () throws(StaticMapsSyntaxError) in
                _ = try StaticMapsSyntax.parsePath(text, origin: "--path")
            }
            Self.expectParsedOrRejected(data, origin: "--marker") { () throws(StaticMapsSyntaxError) in
                _ = try StaticMapsSyntax.parseMarkers(text, origin: "--marker")
            }
            Self.expectParsedOrRejected(data, origin: nil) { () throws(StaticMapsSyntaxError) in
                _ = try StaticMapsURL(parsing: "?path=" + text + "&markers=" + text)
            }
        }
    }

    @Test func mutatedGeoJSON() throws {
        let seed = String(decoding: try InputsFixtures.data("geojson/route.geojson"), as: UTF8.self)
        for data in Self.mutations(of: seed, count: 1000, rngSeed: 12) {
            Self.expectParsedOrRejected(data, origin: "fuzz.geojson") { () throws(GeoJSONError) in
                _ = try GeoJSON(data: data, source: "fuzz.geojson")
            }
        }
    }

    @Test func mutatedGPX() throws {
        let seed = String(decoding: try InputsFixtures.data("gpx/track-1.1.gpx"), as: UTF8.self)
        for data in Self.mutations(of: seed, count: 3000, rngSeed: 13) {
            Self.expectParsedOrRejected(data, origin: "fuzz.gpx") { () throws(GPXError) in _ = try GPX(data: data, source: "fuzz.gpx") }
        }
    }

    /// `RenderSpec.parse` is untyped: the error must be one of the spec's own (its syntax's
    /// values are checked by `StaticMapsSyntax`), naming the file.
    @Test func mutatedSpecs() {
        let seed = #"{"size": "600x400", "center": [1, 2], "zoom": 3, "paths": ["1,1|2,2", {"coordinates": [[1, 1], [2, 2]], "dash": [1, 2]}], "markers": [{"lat": 1, "lon": 2, "label": "A"}], "circles": [{"center": "1,1", "radiusMeters": 5}]}"#
        for data in Self.mutations(of: seed, count: 2000, rngSeed: 14) {
            do {
                _ = try RenderSpec.parse(data: data, source: "fuzz.json", baseDirectory: "/nonexistent-dir")
            } catch let error as RenderSpecError {
                #expect(error.description.contains("fuzz.json"), "\(error) — input \(Array(data))")
            } catch let error as StaticMapsSyntaxError {
                #expect(error.description.contains("fuzz.json"), "\(error) — input \(Array(data))")
            } catch {
                Issue.record("not a spec error: \(type(of: error)): \(error) — input \(Array(data))")
            }
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deepJSON = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        #expect(throws: GeoJSONError.self) { try GeoJSON(data: deepJSON, source: "deep.geojson") }
        #expect(throws: RenderSpecError.self) { try RenderSpec.parse(data: deepJSON, source: "deep.json") }
        let deepXML = Data(("<gpx>" + String(repeating: "<a>", count: 50_000) + String(repeating: "</a>", count: 50_000) + "</gpx>").utf8)
        _ = try? GPX(data: deepXML, source: "deep.gpx")
    }

    @Test func hugeNumbersAndExtremeValues() {
        #expect(throws: GeoJSONError.self) { try GeoJSON(data: Data(#"{"type": "Point", "coordinates": [1e400, 0]}"#.utf8), source: "x") }
        #expect(throws: RenderSpecError.self) { try RenderSpec.parse(data: Data(#"{"size": {"width": 1e300, "height": 1}}"#.utf8), source: "x") }
        #expect(throws: RenderSpecError.self) { try RenderSpec.parse(data: Data(#"{"center": "1,1", "padding": -1e300}"#.utf8), source: "x") }
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsSyntax.parseSize("99999999999999999999x1", origin: "--size") }
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsSyntax.parsePath("weight:1e999|1,1", origin: "--path") }
    }
}
