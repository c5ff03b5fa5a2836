import Foundation
import Testing
@testable import MapSnap

/// `mapsnap data extract` run as a process against the "country" archive, local or served on
/// 127.0.0.1: regions in the data directory that render like their source, names from
/// places and files, refusals with one line and exit 2, and nothing left behind when the
/// extract is interrupted or the archive changes under it.
@Suite struct DataExtractCommandTests {
    static let box = "24.80,59.93,25.20,60.25"
    static let camera = ["--size", "400x300", "--attribution", "none"]

    @Test func aRegionFetchedOverHTTPRendersLikeItsSource() throws {
        let server = try ArchiveServer(archive: ExtractFixtures.country.bytes)
        defer { server.stop() }
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let args = ["data", "extract", server.url, "--bbox", Self.box, "--data-dir", "data", "--name", "uusimaa"]
        let result = try CLIRunner.run(args, in: dir)
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("wrote data/uusimaa.pmtiles: 809 tiles, z0–14, ") == true, "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix("indexed 0 addresses, ") == true && lines.dropFirst().first?.hasSuffix(" in data/uusimaa.places") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("read \(server.url) in \(server.server.requestCount) requests, ") == true, "\(lines)")
        #expect(CLIRunner.listing(dir + "/data") == ["uusimaa.places", "uusimaa.pmtiles"])
        // The region's names are found in its own index (made from its tiles).
        let index = try PlaceIndex(path: dir + "/data/uusimaa.places")
        #expect(index.search("Helsinki Cathedral").map { $0.kind } == .poi)

        let list = try CLIRunner.run(["data", "list", "--data-dir", "data"], in: dir)
        #expect(list.exitCode == 0)
        #expect(list.stdoutText.contains("uusimaa"))
        #expect(list.stdoutText.contains("\(server.url) (bbox 24.8,59.93,25.2,60.25, z0–14, "), "\(list)")

        // The same map from the region as from the archive it came from: central Helsinki's
        // streets, and the synthetic land and sea further out.
        for view in [["--center", "60.1700,24.9450", "--zoom", "15"], ["--center", "60.0000,25.0000", "--zoom", "11"]] {
            let fromSource = try CLIRunner.run(["render", "--source", ExtractFixtures.country.path, "-o", "source.png"] + view + Self.camera, in: dir)
            let fromRegion = try CLIRunner.run(["render", "--source", "data/uusimaa.pmtiles", "-o", "region.png"] + view + Self.camera, in: dir)
            #expect(fromSource.exitCode == 0 && fromRegion.exitCode == 0, "\(fromSource)\n\(fromRegion)")
            let a = FileManager.default.contents(atPath: dir + "/source.png"), b = FileManager.default.contents(atPath: dir + "/region.png")
            #expect(a != nil && a == b, "\(view)")
        }

        // The region exists: a second extract under its name is refused, unless --force.
        let again = try CLIRunner.run(args, in: dir)
        #expect(again.exitCode == 2)
        #expect(again.stderr.contains("the region 'uusimaa' already exists") && again.stderr.contains("--force"), "\(again)")
        // A place index of the region it replaces describes other tiles: it goes with them.
        try Data("index of the old tiles".utf8).write(to: URL(fileURLWithPath: dir + "/data/uusimaa.places"))
        let forced = try CLIRunner.run(args + ["--force", "-q"], in: dir)
        #expect(forced.exitCode == 0 && forced.stdout.isEmpty && forced.stderr.isEmpty, "\(forced)")
        #expect(CLIRunner.listing(dir + "/data") == ["uusimaa.places", "uusimaa.pmtiles"])
        #expect(try PlaceIndex(path: dir + "/data/uusimaa.places").search("Tuomiokirkko") != nil, "the old index was replaced")
    }

    @Test func secretsInTheSourceURLAreNeitherPrintedNorRecorded() throws {
        let server = try ArchiveServer(archive: ExtractFixtures.country.bytes)
        defer { server.stop() }
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let result = try CLIRunner.run(["data", "extract", server.url + "?key=SECRET", "--bbox", "24.93,60.16,24.96,60.175",
                                        "-o", "x.pmtiles"], in: dir)
        #expect(result.exitCode == 0, "\(result)")
        #expect(!result.stdoutText.contains("SECRET") && result.stdoutText.contains("?key=REDACTED"), "\(result)")
        let origin = try PMTilesSource(path: dir + "/x.pmtiles").metadata.extra["mapsnap:origin"] ?? ""
        #expect(origin.hasPrefix(server.url + "?key=REDACTED (bbox "), "\(origin)")
    }

    @Test func aPlaceNamesTheRegionAndSetsItsArea() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let result = try CLIRunner.run(["data", "extract", ExtractFixtures.country.path, "--place", "Helsinki", "--radius", "3",
                                        "--maxzoom", "12", "--data-dir", "data"], in: dir)
        #expect(result.exitCode == 0, "\(result)")
        #expect(CLIRunner.listing(dir + "/data") == ["helsinki.places", "helsinki.pmtiles"])
        let region = try PMTilesSource(path: dir + "/data/helsinki.pmtiles")
        #expect(region.header.maxZoom == 12)
        let origin = region.metadata.extra["mapsnap:origin"] ?? ""
        #expect(origin.hasPrefix("\(ExtractFixtures.country.path) (Helsinki ±3 km, bbox 24."), "\(origin)")
        let b = try #require(region.metadata.bounds)
        // 3 km around Helsinki's centre: about 0.054° of latitude and 0.108° of longitude.
        #expect(abs((b.northEast.latitude - b.southWest.latitude) - 0.054) < 0.002)
        #expect(abs((b.northEast.longitude - b.southWest.longitude) - 0.108) < 0.004)
    }

    @Test func aRegionInTheOtherFormatIsReplacedOnlyWithForceAndOnlyOnSuccess() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/data", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TileFixtures.helsinkiMBTiles, toPath: dir + "/data/helsinki.mbtiles")
        let args = ["data", "extract", ExtractFixtures.country.path, "--bbox", Self.box, "--name", "helsinki", "--data-dir", "data"]
        let refused = try CLIRunner.run(args, in: dir)
        #expect(refused.exitCode == 2 && refused.stderr.contains("the region 'helsinki' already exists (data/helsinki.mbtiles)"), "\(refused)")
        let failed = try CLIRunner.run(args + ["--force", "--minzoom", "15"], in: dir)
        #expect(failed.exitCode == 2, "\(failed)")
        #expect(CLIRunner.listing(dir + "/data") == ["helsinki.mbtiles"], "a failed extract keeps the old region")
        let replaced = try CLIRunner.run(args + ["--force"], in: dir)
        #expect(replaced.exitCode == 0, "\(replaced)")
        #expect(CLIRunner.listing(dir + "/data") == ["helsinki.places", "helsinki.pmtiles"])
    }

    @Test func aGeoJSONPolygonTakesTheTilesItTouches() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write("""
            {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon",
             "coordinates": [[[24.8, 59.95], [25.2, 59.95], [25.0, 60.25], [24.8, 59.95]]]}}
            """, to: dir + "/Espoo Bay.geojson")
        let triangle = try CLIRunner.run(["data", "extract", ExtractFixtures.country.path, "--geojson", "Espoo Bay.geojson",
                                          "--data-dir", "data"], in: dir)
        #expect(triangle.exitCode == 0, "\(triangle)")
        #expect(CLIRunner.listing(dir + "/data") == ["espoo-bay.places", "espoo-bay.pmtiles"])
        let box = try CLIRunner.run(["data", "extract", ExtractFixtures.country.path, "--bbox", "24.8,59.95,25.2,60.25", "-o", "box.pmtiles"], in: dir)
        #expect(box.exitCode == 0, "\(box)")
        let inTriangle = try PMTilesSource(path: dir + "/data/espoo-bay.pmtiles").header.addressedTilesCount
        let inBox = try PMTilesSource(path: dir + "/box.pmtiles").header.addressedTilesCount
        #expect(inTriangle < inBox * 3 / 4, "\(inTriangle) of \(inBox)")

        try CLIRunner.write(#"{"type": "Point", "coordinates": [25, 60]}"#, to: dir + "/point.geojson")
        let point = try CLIRunner.run(["data", "extract", ExtractFixtures.country.path, "--geojson", "point.geojson", "-o", "p.pmtiles"], in: dir)
        #expect(point.exitCode == 2)
        #expect(point.stderr == "mapsnap: error: --geojson point.geojson: no Polygon or MultiPolygon in it (the area must be polygons)\n")
    }

    static let country = ExtractFixtures.country.path
    static let refusals: [([String], Int32, String)] = [
        ([], 2, "data extract: expected SOURCE"),
        ([country], 2, "data extract: give the area: --bbox W,S,E,N, --place NAME or --geojson FILE"),
        ([country, "--bbox", "1,2,3"], 2, "--bbox 1,2,3: expected W,S,E,N — four numbers in degrees"),
        ([country, "--bbox", "10,50,20,40"], 2, "--bbox: south 50 must be below north 40 (the order is W,S,E,N)"),
        ([country, "--bbox", box, "--place", "Paris"], 2, "data extract: give one area, not --bbox and --place"),
        ([country, "--bbox", box, "--radius", "3"], 2, "--radius goes with --place"),
        ([country, "--place", "Xqzzyville Unknown"], 2, "--place"),
        ([country, "--place", "Paris", "--radius", "0"], 2, "--radius: 0 km: expected a radius above 0 and at most 2000 km"),
        ([country, "--bbox", box, "--maxzoom", "31"], 2, "--maxzoom 31: expected a whole zoom from 0 to 30"),
        ([country, "--bbox", box, "--minzoom", "9", "--maxzoom", "3"], 2, "--minzoom 9 is above --maxzoom 3"),
        ([country, "--bbox", box, "--minzoom", "15"], 2, "--minzoom 15 is above the source's deepest zoom 14"),
        ([country, "--bbox", "2.2,48.8,2.5,48.9", "--minzoom", "8", "-o", "x.pmtiles"], 2, "has no tiles in bbox 2.2,48.8,2.5,48.9 at zooms 8–14"),
        ([country, "--bbox", box, "-o", "-"], 2, "-o: an archive is written in pieces and cannot go to standard output"),
        ([country, "--bbox", box, "--name", ".hidden"], 2, "--name .hidden: a region name is letters, digits"),
        ([country, "--bbox", box, "-o", "x.pmtiles", "--name", "x"], 2, "give -o FILE or --name NAME, not both"),
        (["missing.pmtiles", "--bbox", box, "-o", "x.pmtiles"], 2, "missing.pmtiles: no such file or directory"),
        ([TestPaths.plainStyle, "--bbox", box, "-o", "x.pmtiles"], 2, "not an MBTiles, PMTiles or tile directory"),
        ([country, "--bbox", box, "-o", "nodir/x.pmtiles"], 3, "cannot write nodir/x.pmtiles"),
    ]

    @Test(arguments: refusals)
    func badUsageAndInputAreRefusedWithOneLine(args: [String], code: Int32, message: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let result = try CLIRunner.run(["data", "extract"] + args + (args.contains("-o") || args.contains("--name") ? [] : ["--data-dir", "data"]), in: dir)
        #expect(result.exitCode == code, "\(result)")
        #expect(result.stderr.hasPrefix("mapsnap: error: "), "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(CLIRunner.listing(dir).allSatisfy { $0 == "data" } && CLIRunner.listing(dir + "/data").isEmpty, "\(CLIRunner.listing(dir))")
    }

    @Test func aChangedArchiveIsExitThreeAndWritesNothing() throws {
        var changed = ExtractFixtures.country.bytes
        changed[changed.count - 100] ^= 0xFF
        let server = try ArchiveServer(archive: ExtractFixtures.country.bytes)
        defer { server.stop() }
        server.replace(afterRequests: 2, with: changed, etag: "\"v2\"")
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let result = try CLIRunner.run(["data", "extract", server.url, "--bbox", Self.box, "-o", "out.pmtiles"], in: dir)
        #expect(result.exitCode == 3, "\(result)")
        #expect(result.stderr == "mapsnap: error: \(server.url): the archive changed on the server while it was read (ETag \"v1\" became ETag \"v2\")\n")
        #expect(CLIRunner.listing(dir).isEmpty)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedExtractLeavesNothing(signalNumber: Int32) throws {
        let server = try ArchiveServer(archive: ExtractFixtures.country.bytes)
        defer { server.stop() }
        let tileData = try PMTilesSource(path: ExtractFixtures.country.path).header.tileDataOffset
        server.slowDown(from: tileData)
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let executable = try #require(CLIRunner.executable)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["data", "extract", server.url, "--bbox", Self.box, "-o", "out.pmtiles"]
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        // Mid-transfer: the temporary output exists and tile data is trickling in.
        let deadline = Date().addingTimeInterval(TestEnvironment.seconds(30))
        var midTransfer = false
        while Date() < deadline {
            let temporary = CLIRunner.listing(dir).contains { $0.hasPrefix(".out.pmtiles.mapsnap-") }
            let fetchingTiles = server.requestedRanges.contains { UInt64($0.lowerBound) >= tileData }
            if temporary && fetchingTiles { midTransfer = true; break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(midTransfer, "the extract never reached its tile data: \(CLIRunner.listing(dir))")
        kill(process.processIdentifier, signalNumber)
        if finished.wait(timeout: .now() + TestEnvironment.seconds(20)) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            Issue.record("the extract did not stop on signal \(signalNumber)")
        }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 128 + signalNumber, "\(stderr)")
        #expect(stderr.hasSuffix("mapsnap: error: extract interrupted; nothing was written\n"), "\(stderr)")
        #expect(CLIRunner.listing(dir).isEmpty, "\(CLIRunner.listing(dir))")
    }
}
