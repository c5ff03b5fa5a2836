import Foundation
import Testing
@testable import MapSnap

/// One latitude/longitude range check (`LatLng.isValidLatitude`/`isValidLongitude`) behind
/// every input that takes a coordinate: the edges and the values just past them are judged
/// alike by the Static Maps syntax, JSON specs (both forms), GPX and extract areas.
struct CoordinateRangeTests {
    static let cases: [(lat: Double, lon: Double, valid: Bool)] = [
        (90, 180, true), (-90, -180, true), (0, 0, true), (89.999999, 179.999999, true),
        (90.000001, 0, false), (-90.000001, 0, false), (0, 180.000001, false), (0, -180.000001, false),
    ]

    @Test func theRangeItself() {
        for v in [-90.0, 0, 90] { #expect(LatLng.isValidLatitude(v)) }
        for v in [-90.5, 90.5, .nan, .infinity, -.infinity] { #expect(!LatLng.isValidLatitude(v), "\(v)") }
        for v in [-180.0, 0, 180] { #expect(LatLng.isValidLongitude(v)) }
        for v in [-180.5, 180.5, .nan, .infinity] { #expect(!LatLng.isValidLongitude(v), "\(v)") }
        for c in Self.cases { #expect(LatLng(c.lat, c.lon).isValid == c.valid, "\(c)") }
    }

    @Test func everyInputAgrees() {
        for c in Self.cases {
            let text = "\(c.lat),\(c.lon)"
            let staticMaps = (try? StaticMapsSyntax.parseLocation(text, origin: "--center")) != nil
            let specText = (try? RenderSpec.parse(data: Data(#"{"center": "\#(text)", "zoom": 3}"#.utf8), source: "s.json")) != nil
            let specArray = (try? RenderSpec.parse(data: Data(#"{"center": [\#(c.lat), \#(c.lon)], "zoom": 3}"#.utf8), source: "s.json")) != nil
            let specPath = (try? RenderSpec.parse(data: Data(#"{"paths": [{"coordinates": [[\#(c.lat), \#(c.lon)], [0, 0]]}]}"#.utf8),
                                                  source: "s.json")) != nil
            let gpx = (try? GPX(data: Data(#"<gpx version="1.1"><wpt lat="\#(c.lat)" lon="\#(c.lon)"/></gpx>"#.utf8), source: "t.gpx")) != nil
            let area = (try? ExtractArea.polygons([[[LatLng(c.lat, c.lon), LatLng(0, 1), LatLng(1, 1), LatLng(c.lat, c.lon)]]],
                                                 flag: "--area")) != nil
            #expect([staticMaps, specText, specArray, specPath, gpx, area] == Array(repeating: c.valid, count: 6),
                    "\(text): Static Maps \(staticMaps), spec text \(specText), spec array \(specArray), spec path \(specPath), GPX \(gpx), area \(area)")
        }
    }
}
