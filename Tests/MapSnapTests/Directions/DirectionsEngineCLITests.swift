import Foundation
import Testing
@testable import MapSnap

/// `mapsnap render --from … --to …` against a real Valhalla engine (see `ValhallaEngine`):
/// walk, drive and bike, waypoints and alternates, the drawn route on the engine's shape,
/// `--steps-out` carrying the engine's numbers, and every failure with nothing written.
@Suite(.serialized, .disabled(if: ValhallaEngine.skipped, "\(ValhallaEngine.skipVariable)=1"))
final class DirectionsEngineCLITests {
    let engine: ValhallaEngine

    init() throws { engine = try ValhallaEngine() }
    deinit { engine.stop() }

    static let from = "60.1710,24.9414", to = "60.1675,24.9525", via = "60.1690,24.9440"
    static let env = ["MAPSNAP_DATA": "/nonexistent/mapsnap-test-data"]

    /// Renders, then checks the image against the engine's own answer to the same question:
    /// `--steps-out` has its distance and time, and the route colour lies on its shape.
    func check(mode: String, costing: String, via: [String] = [], alternates: Int = 0, routeColor: Color) throws {
        var args = ["render", "--from", Self.from, "--to", Self.to, "--mode", mode, "--router", engine.url, "--size", "500x400",
                    "--style", TestPaths.plainStyle, "--attribution", "none", "--no-scale-bar", "-o", "r.png", "--steps-out", "s.json"]
        for v in via { args += ["--via", v] }
        if alternates > 0 { args += ["--alternatives", "\(alternates)"] }
        let result = try CLIRunner.run(args, environment: Self.env)
        defer { CLIRunner.cleanUp(result.directory) }
        #expect(result.exitCode == 0, "\(result)")
        let stops = ([Self.from] + via + [Self.to]).map { p -> String in
            let c = p.split(separator: ",")
            return "{\"lat\":\(c[0]),\"lon\":\(c[1]),\"type\":\"break\"}"
        }
        let raw = try engine.rawRoute("{\"locations\":[\(stops.joined(separator: ","))],\"costing\":\"\(costing)\""
            + (alternates > 0 ? ",\"alternates\":\(alternates)" : "") + ",\"units\":\"kilometers\"}")
        let trip = try #require(raw["trip"] as? [String: Any])
        let summary = try #require(trip["summary"] as? [String: Any])
        let steps = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.directory + "/s.json"))) as? [String: Any])
        let routes = try #require(steps["routes"] as? [[String: Any]])
        #expect(routes.count == 1 + ((raw["alternates"] as? [Any])?.count ?? 0))
        #expect(routes[0]["distanceMeters"] as? Double == (summary["length"] as? Double).map { $0 * 1000 })
        #expect(routes[0]["durationSeconds"] as? Double == summary["time"] as? Double)
        let legs = try #require(trip["legs"] as? [[String: Any]])
        #expect(legs.count == via.count + 1)
        let maneuvers = legs.flatMap { $0["maneuvers"] as? [[String: Any]] ?? [] }
        let written = try #require(routes[0]["steps"] as? [[String: Any]])
        #expect(written.count == maneuvers.count)
        #expect(written.map { $0["instruction"] as? String } == maneuvers.map { $0["instruction"] as? String })
        // The drawn line follows the engine's shape: sample its points in the image.
        let camera = try #require(steps["camera"] as? [String: Any])
        let center = try #require(camera["center"] as? [Double])
        let view = Camera(center: LatLng(center[0], center[1]), zoom: try #require(camera["zoom"] as? Double), width: 500, height: 400)
        let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: result.directory + "/r.png"))), origin: "r.png").image
        var near = 0, total = 0
        for leg in legs {
            let shape = try EncodedPolyline.decode(try #require(leg["shape"] as? String), precision: 6)
            for (a, b) in zip(shape, shape.dropFirst()) {
                let p = view.point(for: LatLng((a.latitude + b.latitude) / 2, (a.longitude + b.longitude) / 2))
                total += 1
                if Self.hasColor(image, near: p, color: routeColor) { near += 1 }
            }
        }
        #expect(total > 5)
        #expect(Double(near) >= Double(total) * 0.8, "\(near) of \(total) shape points have the route colour near them")
    }

    /// A pixel within 4 px of `p` close to `color` (the walk's dots leave gaps, the pins cover some).
    static func hasColor(_ image: MapImage, near p: PixelPoint, color: Color) -> Bool {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = Int(p.x) + dx, y = Int(p.y) + dy
                guard x >= 0, y >= 0, x < image.width, y < image.height else { continue }
                let c = image.color(atX: x, y: y)
                if abs(Int(c.red) - Int(color.red)) + abs(Int(c.green) - Int(color.green)) + abs(Int(c.blue) - Int(color.blue)) < 60 {
                    return true
                }
            }
        }
        return false
    }

    @Test func walkFollowsTheEnginesShapeWithAlternates() throws {
        try check(mode: "walk", costing: "pedestrian", alternates: 2, routeColor: RouteDrawing.Palette.walk)
    }

    @Test func driveFollowsTheEnginesShape() throws {
        try check(mode: "drive", costing: "auto", routeColor: RouteDrawing.Palette.drive)
    }

    @Test func bikeWithAWaypoint() throws {
        try check(mode: "bike", costing: "bicycle", via: [Self.via], routeColor: RouteDrawing.Palette.bike)
    }

    @Test func impossibleRouteExits2WithTheEnginesReasonAndWritesNothing() throws {
        let result = try CLIRunner.run(["render", "--from", Self.from, "--to", "48.85,2.35", "--router", engine.url,
                                        "-o", "r.png", "--steps-out", "s.json"], environment: Self.env)
        defer { CLIRunner.cleanUp(result.directory) }
        #expect(result.exitCode == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("Valhalla at \(engine.url): no route: No suitable edges near location"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: result.directory).isEmpty)
    }

    /// Valhalla's multimodal costing needs GTFS data the test tiles do not have: the engine's
    /// own answer ("unconnected regions") is replaced by the cause, in one line, exit 2.
    @Test func transitWithoutTransitDataExits2SayingWhy() throws {
        let result = try CLIRunner.run(["render", "--from", Self.from, "--to", Self.to, "--mode", "transit", "--router", engine.url,
                                        "-o", "r.png"], environment: Self.env)
        defer { CLIRunner.cleanUp(result.directory) }
        #expect(result.exitCode == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("Valhalla at \(engine.url): no transit route: the engine has no public-transport data"), "\(result)")
        #expect(result.stderr.contains("GTFS"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: result.directory).isEmpty)
    }

    @Test func stoppedServiceExits3NamingTheRouter() throws {
        let url = engine.url
        engine.stop()
        let result = try CLIRunner.run(["render", "--from", Self.from, "--to", Self.to, "--router", url, "--timeout", "2",
                                        "-o", "r.png"], environment: Self.env)
        defer { CLIRunner.cleanUp(result.directory) }
        #expect(result.exitCode == 3)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("router Valhalla at \(url): unreachable"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: result.directory).isEmpty)
    }

    @Test func answerOverThePointLimitIsAClearError() throws {
        var service = DirectionsService(router: try #require(Router(engine.url)))
        service.maximumPointCount = 5
        let request = DirectionsRequest(source: LatLng(60.171, 24.9414), destination: LatLng(60.1675, 24.9525), transportType: .walk)
        #expect(throws: DirectionsError.self) { try service.calculate(request) }
        do throws(DirectionsError) {
            _ = try service.calculate(request)
        } catch {
            #expect(error.description.contains("route points, more than the limit of 5"), "\(error)")
            #expect(!error.isInputError)
        }
    }
}
