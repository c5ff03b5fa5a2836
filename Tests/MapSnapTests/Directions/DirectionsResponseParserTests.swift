import Foundation
import Testing
@testable import MapSnap

/// The one parser over every engine's answer: real Valhalla answers, and the documented
/// shapes of OSRM, Mapbox, GraphHopper and Google (Fixtures/directions/README.md).
@Suite struct DirectionsResponseParserTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("directions/" + name))))
    }

    static func parse(_ name: String) throws -> DirectionsResponse {
        try DirectionsResponseParser(origin: name).parse(try fixture(name))
    }

    /// The Valhalla answer read independently with JSONSerialization, to compare against.
    static func rawValhallaTrip(_ name: String) throws -> [String: Any] {
        let root = try JSONSerialization.jsonObject(with: Data(try fixture(name))) as? [String: Any]
        return try #require(root?["trip"] as? [String: Any])
    }

    @Test func valhallaWalkWithAlternates() throws {
        let r = try Self.parse("valhalla-walk-alternates.json")
        #expect(r.format == .valhalla)
        #expect(r.transportType == .walk)
        #expect(r.routes.count == 3)
        let trip = try Self.rawValhallaTrip("valhalla-walk-alternates.json")
        let summary = try #require(trip["summary"] as? [String: Any])
        #expect(r.routes[0].distance == (summary["length"] as? Double ?? -1) * 1000)
        #expect(r.routes[0].expectedTravelTime == summary["time"] as? Double)
        let legs = try #require(trip["legs"] as? [[String: Any]])
        let shape = try EncodedPolyline.decode(try #require(legs[0]["shape"] as? String), precision: 6)
        #expect(r.routes[0].polyline == shape)
        let maneuvers = try #require(legs[0]["maneuvers"] as? [[String: Any]])
        #expect(r.routes[0].steps.count == maneuvers.count)
        #expect(r.routes[0].steps[1].instructions == maneuvers[1]["instruction"] as? String)
        #expect(r.routes[0].steps[1].location == shape[maneuvers[1]["begin_shape_index"] as? Int ?? -1])
        #expect(r.routes[0].polyline.first.map { abs($0.latitude - 60.171) < 0.001 } == true)
        #expect(r.routes[1].polyline != r.routes[0].polyline)
    }

    @Test func valhallaMilesAndLegsJoined() throws {
        let r = try Self.parse("valhalla-bike-waypoint-miles.json")
        #expect(r.transportType == .bike)
        let trip = try Self.rawValhallaTrip("valhalla-bike-waypoint-miles.json")
        let miles = try #require((trip["summary"] as? [String: Any])?["length"] as? Double)
        #expect(abs(r.routes[0].distance - miles * 1609.344) < 1e-6)
        let legs = try #require(trip["legs"] as? [[String: Any]])
        #expect(legs.count == 2)
        let a = try EncodedPolyline.decode(legs[0]["shape"] as? String ?? "", precision: 6)
        let b = try EncodedPolyline.decode(legs[1]["shape"] as? String ?? "", precision: 6)
        // The shared point where the second leg starts is kept once.
        #expect(r.routes[0].polyline.count == a.count + b.count - 1)
    }

    @Test func osrmPolylinePrecisionToldFromWaypointsAndGeoJSONAlternate() throws {
        let r = try Self.parse("osrm-route.json")
        #expect(r.format == .osrm)
        #expect(r.routes.count == 2)
        #expect(r.routes[0].polyline == [LatLng(38.5, -120.2), LatLng(40.7, -120.95), LatLng(43.252, -126.453)])
        #expect(r.routes[0].distance == 1234.5 && r.routes[0].expectedTravelTime == 321.4)
        #expect(r.routes[0].name == "Main Street, Second Street")
        #expect(r.routes[0].steps.map(\.instructions) == ["Head north on Main Street", "Turn left onto Second Street", "Arrive at your destination"])
        #expect(r.routes[0].steps[1].location == LatLng(40.7, -120.95))
        #expect(r.routes[1].polyline.count == 3)
    }

    @Test func mapboxToldFromOSRMByContent() throws {
        let r = try Self.parse("mapbox-directions.json")
        #expect(r.format == .mapbox)
        #expect(r.routes[0].steps[1].instructions == "Turn right onto Pohjoisesplanadi.")
        #expect(r.routes[0].distance == 820.4)
    }

    @Test func graphHopperMillisecondsAndIntervals() throws {
        let r = try Self.parse("graphhopper-route.json")
        #expect(r.format == .graphHopper)
        #expect(r.routes[0].expectedTravelTime == 370.962)
        #expect(r.routes[0].distance == 1791.011)
        #expect(r.routes[0].steps[1].location == LatLng(40.7, -120.95))
        #expect(r.routes[0].steps[1].expectedTravelTime == 180.685)
        #expect(r.routes[0].name == "Lindenschmitstraße, Maxhofstraße")
    }

    @Test func googleLegsSummedStepsInPlainText() throws {
        let r = try Self.parse("google-directions.json")
        #expect(r.format == .google)
        #expect(r.routes[0].distance == 1313 && r.routes[0].expectedTravelTime == 1080)
        #expect(r.routes[0].steps[0].instructions == "Head north on Main St")
        #expect(r.routes[0].steps[1].instructions == "Turn left onto Pine St. Destination will be on the right")
        #expect(r.routes[0].polyline == [LatLng(38.5, -120.2), LatLng(40.7, -120.95), LatLng(43.252, -126.453)])
        #expect(r.routes[0].name == "Main St")
    }

    @Test(arguments: [
        ("valhalla-no-route.json", "No suitable edges near location (error_code 171)"),
        ("osrm-no-route.json", "Impossible route between points (code NoRoute)"),
        ("graphhopper-no-route.json", "Connection between locations not found"),
        ("google-zero-results.json", "ZERO_RESULTS"),
    ])
    func noRouteCarriesTheEnginesReason(file: String, reason: String) throws {
        #expect(throws: DirectionsError.noRoute(origin: file, reason: reason)) { try Self.parse(file) }
        #expect(DirectionsError.noRoute(origin: file, reason: reason).isInputError)
    }

    @Test func tooManyPointsIsAClearError() throws {
        let parser = DirectionsResponseParser(origin: "walk.json", maximumPointCount: 10)
        let bytes = try Self.fixture("valhalla-walk-alternates.json")
        do throws(DirectionsError) {
            _ = try parser.parse(bytes)
            Issue.record("parsed")
        } catch {
            guard case .tooLarge(_, "route points", let count, 10, false) = error else { Issue.record("got \(error)"); return }
            #expect(count > 10)
            #expect(error.description.hasPrefix("walk.json: the answer has"))
        }
    }

    @Test(arguments: [
        ("[1, 2]", "expected a JSON object"),
        ("{\"type\": \"FeatureCollection\"}", "not an answer of Valhalla, OSRM, GraphHopper, Google or Mapbox Directions (keys: type)"),
        ("{\"code\": \"Ok\", \"routes\": [{\"geometry\": \"_p~iF~ps|U_ulLnnqC\", \"duration\": 3}]}", "at routes[0].distance: missing"),
        ("{\"trip\": {\"legs\": [{\"shape\": \"\\u00ff\", \"maneuvers\": []}], \"summary\": {\"length\": 1, \"time\": 2}}}", "at trip.legs[0].shape: broken encoded polyline"),
        ("{\"paths\": [{\"points\": \"_p~iF~ps|U\", \"distance\": -1, \"time\": 1}]}", "at paths[0].distance: expected a number ≥ 0"),
        ("{\"status\": \"OK\", \"routes\": [{\"legs\": [{\"distance\": {\"value\": 1}, \"duration\": {\"value\": 1}, \"steps\": []}]}]}", "at routes[0].overview_polyline: missing"),
        ("not json", "not JSON"),
    ])
    func brokenAnswersNameTheKeyPath(text: String, expected: String) {
        do {
            _ = try DirectionsResponseParser(origin: "a.json").parse(Array(text.utf8))
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
            #expect(error.isInputError)
        }
    }

    @Test func travelSummaryText() {
        #expect(TravelSummary.text(seconds: 1080, meters: 4213, units: .metric) == "18 min · 4.2 km")
        #expect(TravelSummary.text(seconds: 3900, meters: 62_400, units: .metric) == "1 h 5 min · 62 km")
        #expect(TravelSummary.text(seconds: 20, meters: 850, units: .metric) == "1 min · 850 m")
        #expect(TravelSummary.text(seconds: 720, meters: 1000, units: .imperial) == "12 min · 0.6 mi")
        #expect(TravelSummary.distance(100, units: .imperial) == "330 ft")
    }

    @Test func routerURLsPerEngine() throws {
        let request = DirectionsRequest(source: LatLng(60.171, 24.9414), destination: LatLng(60.1675, 24.9525),
                                        transportType: .walk, alternateCount: 2)
        let valhalla = try #require(Router("http://127.0.0.1:8002/"))
        #expect(valhalla.engine == .valhalla)
        let v = try valhalla.url(for: request).get()
        #expect(v.hasPrefix("http://127.0.0.1:8002/route?json=%7B%22locations%22"))
        #expect(v.contains("pedestrian") && v.contains("%22alternates%22%3A2"))
        let osrm = try #require(Router("osrm+http://router.example/"))
        #expect(try osrm.url(for: request).get()
            == "http://router.example/route/v1/walking/24.9414,60.171;24.9525,60.1675?overview=full&geometries=polyline6&steps=true&alternatives=2")
        let gh = try #require(Router("http://localhost:8989?key=SECRET"))
        #expect(gh.engine == .graphHopper)
        #expect(try gh.url(for: request).get().hasPrefix("http://localhost:8989/route?key=SECRET&point=60.171,24.9414&point=60.1675,24.9525&profile=foot"))
        #expect(Router("ftp://x") == nil && Router("bogus+http://x") == nil)
        var transit = request
        transit.transportType = .transit
        #expect(throws: DirectionsError.self) { try osrm.url(for: transit).get() }
    }

    @Test func staticMapsURLDirectionsParameters() throws {
        let url = try StaticMapsURL(parsing: "https://maps.example/staticmap?size=400x300&origin=60.171,24.9414&destination=60.1675,24.9525"
            + "&waypoints=via:60.169,24.944%7C60.168,24.95&mode=walking&alternatives=true&avoid=tolls|ferries")
        #expect(url.directions.origin == LatLng(60.171, 24.9414))
        #expect(url.directions.destination == LatLng(60.1675, 24.9525))
        #expect(url.directions.waypoints == [LatLng(60.169, 24.944), LatLng(60.168, 24.95)])
        #expect(url.directions.transportType == .walk)
        #expect(url.directions.alternateCount == 2)
        #expect(url.directions.avoid == [.tolls, .ferries])
        #expect(url.warnings.isEmpty)
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsURL(parsing: "x?origin=1,2&mode=flying") }
    }

    @Test func markerSnippetAndOpacity() throws {
        let m = try StaticMapsSyntax.parseMarkers("title:Kauppatori|snippet:Market square|opacity:0.5|60.1675,24.9525", origin: "--marker")
        #expect(m[0].snippet == "Market square" && m[0].opacity == 0.5)
        #expect(throws: StaticMapsSyntaxError.self) { try StaticMapsSyntax.parseMarkers("opacity:1.5|60,24", origin: "--marker") }
    }
}
