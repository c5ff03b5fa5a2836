import MapSnapTesting
import Testing
@testable import MapSnap

@Suite struct EncodedPolylineTests {
    /// Google's documented example (developers.google.com, "Encoded Polyline Algorithm Format").
    static let googleExample = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
    static let googlePoints = [LatLng(38.5, -120.2), LatLng(40.7, -120.95), LatLng(43.252, -126.453)]

    @Test func decodesGoogleDocumentedExample() throws {
        #expect(try EncodedPolyline.decode(Self.googleExample, precision: 5) == Self.googlePoints)
    }

    /// The same three points at precision 6. Expected string computed independently with a
    /// 15-line Python reference encoder written from the format description (round(v·1e6),
    /// zig-zag, 5-bit groups + 63); it matches the precision-6 fixture in mapbox/polyline's tests.
    @Test func decodesPrecisionSix() throws {
        let decoded = try EncodedPolyline.decode("_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI", precision: 6)
        #expect(decoded == Self.googlePoints)
        #expect(try EncodedPolyline.encode(Self.googlePoints, precision: 6) == "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI")
    }

    @Test(arguments: [
        ([LatLng(0, 0)], 5, "??"),
        ([LatLng(52.520008, 13.404954)], 6, "ocqdcBspdqX"),
        ([LatLng(-90, 180), LatLng(90, -180)], 6, "~fdtjD_oiivI_oiivI~~ssmT"),
        ([], 5, ""),
    ])
    func encodesKnownValues(points: [LatLng], precision: Int, expected: String) throws {
        #expect(try EncodedPolyline.encode(points, precision: precision) == expected)
        #expect(try EncodedPolyline.decode(expected, precision: precision) == points)
    }

    @Test func encodesGoogleExample() throws {
        #expect(try EncodedPolyline.encode(Self.googlePoints) == Self.googleExample)
    }

    @Test(arguments: [5, 6])
    func roundTripsRandomPaths(precision: Int) throws {
        let seed: UInt64 = 0x5EED_0000 + UInt64(precision)
        print("EncodedPolylineTests.roundTripsRandomPaths seed \(seed)")
        var rng = SeededGenerator(seed: seed)
        var factor = 1.0
        for _ in 0..<precision { factor *= 10 }
        for _ in 0..<50 {
            let count = Int.random(in: 0...200, using: &rng)
            // Values on the precision grid round-trip exactly.
            let points = (0..<count).map { _ in
                LatLng(Double(Int.random(in: -90_000_000...90_000_000, using: &rng)) / 1e6,
                       Double(Int.random(in: -180_000_000...180_000_000, using: &rng)) / 1e6)
            }.map { LatLng(($0.latitude * factor).rounded() / factor, ($0.longitude * factor).rounded() / factor) }
            let decoded = try EncodedPolyline.decode(try EncodedPolyline.encode(points, precision: precision), precision: precision)
            #expect(decoded.count == points.count)
            for (a, b) in zip(decoded, points) {
                #expect(abs(a.latitude - b.latitude) < 0.5 / factor && abs(a.longitude - b.longitude) < 0.5 / factor)
            }
        }
    }

    @Test(arguments: [
        ("_p~iF~ps|U_ulLnnqC_mqNvxq`", PolylineError.truncated(offset: 22)),       // last char has 0x20 set
        ("_p~iF~ps|U _ulL", PolylineError.invalidCharacter(offset: 10, byte: 32)),   // space
        ("_p~iF~ps|U\u{7F}", PolylineError.invalidCharacter(offset: 10, byte: 127)),
        ("é", PolylineError.invalidCharacter(offset: 0, byte: 0xC3)),
        ("_p~iF", PolylineError.missingLongitude(offset: 5)),
        (String(repeating: "_", count: 12) + "?", PolylineError.overlongValue(offset: 0)),
        ("_p~iF~ps|U" + String(repeating: "_", count: 13), PolylineError.overlongValue(offset: 10)),
        // 95° latitude: 9 500 000 → zig-zag 19 000 000 → "_uybQ", then a zero longitude.
        ("_uybQ?", PolylineError.coordinateOutOfRange(index: 0, offset: 5, latitude: 95, longitude: 0)),
    ])
    func rejectsMalformedInput(text: String, expected: PolylineError) {
        #expect(throws: expected) { try EncodedPolyline.decode(text) }
    }

    @Test func errorMessagesNameTheOffset() {
        #expect(PolylineError.invalidCharacter(offset: 10, byte: 32).description.hasPrefix("offset 10: ' '"))
        #expect(PolylineError.truncated(offset: 22).description.contains("offset 22"))
    }

    @Test func rejectsUnsupportedPrecisionAndInvalidCoordinates() {
        #expect(throws: PolylineError.unsupportedPrecision(0)) { try EncodedPolyline.decode("??", precision: 0) }
        #expect(throws: PolylineError.self) { try EncodedPolyline.encode([LatLng(.nan, 0)]) }
        #expect(throws: PolylineError.self) { try EncodedPolyline.encode([LatLng(0, 181)]) }
    }

    @Test func twelveGroupValueDoesNotTrap() {
        // 11 continuation groups + a final group: 60 bits, accepted by the reader, then out of range.
        let text = String(repeating: "~", count: 11) + "^" + "?"
        #expect(throws: PolylineError.self) { try EncodedPolyline.decode(text) }
    }
}
