import Foundation
import Testing
@testable import MapSnap

/// The public entry points throw one typed error per stage, so a caller can switch on it:
/// `render()` throws `RenderError`, `RenderSpec.parse`/`load`/`parseLines` and the builder
/// throw `RenderSpecError` — a value in an embedded syntax comes back wrapped, with its own
/// evidence. (These `catch` blocks compile only because the throws are typed.)
struct TypedErrorTests {
    @Test func renderThrowsRenderError() {
        var options = MapSnapshotOptions(width: 0, height: 10)
        options.center = LatLng(0, 0)
        options.zoom = 1
        do {
            _ = try MapSnapshotter(options: options).render()
            Issue.record("a zero width rendered")
        } catch {
            #expect(error == .invalidSize(width: 0, height: 10))
        }
        do {
            _ = try MapRenderer.shared.render(options)
            Issue.record("a zero width rendered")
        } catch {
            #expect(error == .invalidSize(width: 0, height: 10))
        }
    }

    static func parse(_ json: String) throws(RenderSpecError) -> RenderSpec {
        try RenderSpec.parse(data: Data(json.utf8), source: "spec.json")
    }

    @Test func specErrorsOfEveryStageAreRenderSpecErrors() {
        let cases: [(String, RenderSpecError)] = [
            (#"{"paths": ["color:red"]}"#, .syntax(.noLocations(origin: "spec.json: paths[0]"))),
            (#"{"center": "95,10", "zoom": 3}"#,
             .syntax(.badLocation(origin: "spec.json: center", number: 1, text: "95,10", problem: .latitudeOutOfRange(95)))),
            (#"{"geojson": {"type": "Point", "coordinates": "x"}}"#,
             .geoJSON(.unexpected(source: "spec.json", keyPath: "geojson.coordinates", expected: "[lon, lat] numbers"))),
            (#"{"paths": [{"coordinates": [[1, 1]], "coordinates": 3}]}"#,
             .wrongType(source: "spec.json", keyPath: "paths[0].coordinates", expected: "an array", found: "a number")),
        ]
        for (json, expected) in cases {
            do {
                _ = try Self.parse(json)
                Issue.record("\(json) parsed")
            } catch {
                #expect(error == expected, "\(json): \(error)")
            }
        }
    }

    @Test func wrappedErrorsKeepTheirMessages() {
        let inner = StaticMapsSyntaxError.noLocations(origin: "--path")
        #expect(RenderSpecError.syntax(inner).description == inner.description)
        let gpx = GPXError.badCoordinate(source: "t.gpx", line: 3, element: "wpt", attribute: "lat", value: "x", reason: "is not a number")
        #expect(RenderSpecError.gpx(gpx).description == gpx.description)
    }

    @Test func builderMethodsThrowRenderSpecError() {
        var b = RenderSpecBuilder()
        do {
            try b.addPolyline("__ _", precision: 5, origin: "--polyline")
            Issue.record("accepted")
        } catch {
            guard case .syntax(.badPolyline(origin: "--polyline", _)) = error else {
                Issue.record("not a wrapped badPolyline: \(String(reflecting: error))")
                return
            }
        }
        do {
            try b.setBasemap("nope", origin: "--basemap")
            Issue.record("accepted")
        } catch {
            guard case .badValue(origin: "--basemap", _) = error else { Issue.record("\(error)"); return }
        }
    }
}
