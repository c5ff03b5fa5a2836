import Foundation
import Testing
@testable import MapSnap

/// `RegionExtractor` on local archives and over HTTP range requests from a loopback server:
/// exactly the tiles of the area, byte for byte; sharing and runs kept; few reads; the same
/// bytes every time; nothing left behind by a failure, a cancellation or a changed archive.
@Suite struct RegionExtractorTests {
    /// A box across the coast: central Helsinki's real tiles, synthetic land and shared sea.
    static let box = (west: 24.80, south: 59.93, east: 25.20, north: 60.25)

    static func request(_ source: String, output: String, box b: (west: Double, south: Double, east: Double, north: Double) = box) throws(RegionExtractError) -> RegionExtractor.Request {
        let area = try ExtractArea.box(west: b.west, south: b.south, east: b.east, north: b.north)
        return RegionExtractor.Request(source: source, area: area, output: output, date: Date(timeIntervalSince1970: 1_796_256_000))
    }

    /// The country's stored tiles that overlap `box`.
    static func expectedTiles(_ b: (west: Double, south: Double, east: Double, north: Double) = box,
                              zooms: ClosedRange<Int> = 0...14) throws -> [TileID: [UInt8]] {
        try ExtractFixtures.storedTiles(ExtractFixtures.country.path).filter { tile, _ in
            zooms.contains(tile.z) && ExtractFixtures.tile(tile, overlapsWest: b.west, south: b.south, east: b.east, north: b.north)
        }
    }

    @Test func extractsExactlyTheTilesOfTheBoxByteForByte() throws {
        let out = try TileFixtures.temporaryDirectory() + "/region.pmtiles"
        let report = try RegionExtractor.run(Self.request(ExtractFixtures.country.path, output: out))
        let expected = try Self.expectedTiles()
        let got = try ExtractFixtures.storedTiles(out)
        #expect(got.count == expected.count)
        #expect(got == expected)
        #expect(report.tiles == expected.count)
        #expect(expected.keys.contains { $0.z == 14 } && expected.count > 500, "\(expected.count) tiles")

        // Shared contents stay shared: each distinct content is stored once, and the sea's
        // consecutive tiles stay runs.
        let region = try PMTilesSource(path: out)
        let distinct = Set(expected.values)
        #expect(region.header.tileContentsCount == UInt64(distinct.count))
        #expect(region.header.tileDataLength == UInt64(distinct.reduce(0) { $0 + $1.count }))
        #expect(region.header.tileEntriesCount < UInt64(expected.count))
        #expect(region.header.clustered)
        #expect(distinct.count < expected.count - 50, "the sea is shared")

        // Metadata: the source's, with the box's bounds and where the tiles came from.
        let source = try PMTilesSource(path: ExtractFixtures.country.path)
        #expect(region.metadata.attribution == source.metadata.attribution)
        #expect(region.metadata.vectorLayers == source.metadata.vectorLayers)
        #expect(region.metadata.minZoom == 0 && region.metadata.maxZoom == 14)
        let b = try #require(region.metadata.bounds)
        #expect(abs(b.southWest.longitude - 24.8) < 1e-6 && abs(b.northEast.latitude - 60.25) < 1e-6)
        #expect(region.metadata.extra["mapsnap:origin"] == "\(ExtractFixtures.country.path) (bbox 24.8,59.93,25.2,60.25, z0–14, 2026-12-03)")
    }

    @Test func readsOnlyWhatTheAreaNeeds() throws {
        let out = try TileFixtures.temporaryDirectory() + "/small.pmtiles"
        let report = try RegionExtractor.run(Self.request(ExtractFixtures.country.path, output: out,
                                                          box: (24.93, 60.16, 24.96, 60.175)))
        let size = UInt64(ExtractFixtures.country.bytes.count)
        #expect(report.bytesRead < size / 10, "\(report.bytesRead) of \(size) bytes read")
        #expect(report.tileReadBytes <= report.tileBytes * 13 / 10)
        #expect(try ExtractFixtures.storedTiles(out) == Self.expectedTiles((24.93, 60.16, 24.96, 60.175)))
    }

    @Test func theSameInputsGiveTheSameBytes() throws {
        let dir = try TileFixtures.temporaryDirectory()
        var first = try Self.request(ExtractFixtures.country.path, output: dir + "/a.pmtiles")
        first.concurrentReads = 1
        var second = try Self.request(ExtractFixtures.country.path, output: dir + "/b.pmtiles")
        second.concurrentReads = 6
        second.maxReadBytes = 10_000
        _ = try RegionExtractor.run(first)
        _ = try RegionExtractor.run(second)
        let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.pmtiles"))
        let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/b.pmtiles"))
        #expect(a == b)
    }

    @Test func zoomsOutsideTheRangeAreLeftOut() throws {
        let out = try TileFixtures.temporaryDirectory() + "/zooms.pmtiles"
        var request = try Self.request(ExtractFixtures.country.path, output: out)
        request.minZoom = 3
        request.maxZoom = 12
        let report = try RegionExtractor.run(request)
        #expect(try ExtractFixtures.storedTiles(out) == Self.expectedTiles(zooms: 3...12))
        #expect((report.minZoom, report.maxZoom) == (3, 12))
        let header = try PMTilesSource(path: out).header
        #expect((header.minZoom, header.maxZoom) == (3, 12))
        // Deeper than the source: its deepest zoom is taken.
        request.maxZoom = 18
        request.minZoom = nil
        #expect(try RegionExtractor.run(request).maxZoom == 14)
    }

    @Test func aPolygonCopiesFewerTilesThanItsBox() throws {
        let dir = try TileFixtures.temporaryDirectory()
        let triangle = [LatLng(latitude: 59.95, longitude: 24.8), LatLng(latitude: 60.25, longitude: 25.0), LatLng(latitude: 59.95, longitude: 25.2)]
        var request = try Self.request(ExtractFixtures.country.path, output: dir + "/t.pmtiles")
        request.area = try ExtractArea.polygons([[triangle]], flag: "t.geojson")
        _ = try RegionExtractor.run(request)
        let inTriangle = try ExtractFixtures.storedTiles(dir + "/t.pmtiles")
        let inBox = try Self.expectedTiles((24.8, 59.95, 25.2, 60.25))
        #expect(inTriangle.count < inBox.count * 3 / 4)
        #expect(inTriangle.allSatisfy { inBox[$0.key] == $0.value })
        // The apex and the middle of the base are in; the box's top corners are not.
        let z = 12, n = Double(1 << z)
        func tile(_ lat: Double, _ lon: Double) -> TileID {
            TileID(z: z, x: Int((lon + 180) / 360 * n), y: Int(ExtractFixtures.row(ofLatitude: lat) * n))!
        }
        #expect(inTriangle[tile(60.24, 25.0)] != nil && inTriangle[tile(59.96, 25.0)] != nil)
        #expect(inTriangle[tile(60.24, 24.81)] == nil && inTriangle[tile(60.24, 25.19)] == nil)
    }

    @Test func anMBTilesSourceIsCopiedTileByTile() throws {
        let out = try TileFixtures.temporaryDirectory() + "/omt.pmtiles"
        let b = (west: 24.935, south: 60.163, east: 24.95, north: 60.172)
        let report = try RegionExtractor.run(Self.request(TileFixtures.helsinkiMBTiles, output: out, box: b))
        var expected: [TileID: [UInt8]] = [:]
        try MBTilesSource(path: TileFixtures.helsinkiMBTiles).forEachStoredTile { tile, bytes in
            if ExtractFixtures.tile(tile, overlapsWest: b.west, south: b.south, east: b.east, north: b.north) { expected[tile] = bytes }
        }
        #expect(expected.count > 10)
        #expect(try ExtractFixtures.storedTiles(out) == expected)
        #expect(report.tiles == expected.count)
        let region = try PMTilesSource(path: out)
        #expect(region.metadata.format == .mvt)
        #expect(region.metadata.vectorLayers == (try MBTilesSource(path: TileFixtures.helsinkiMBTiles)).metadata.vectorLayers)
        #expect(region.header.tileCompression == PMTilesHeader.Compression.gzip.rawValue)
        for tile in expected.keys.prefix(5) {
            #expect(try region.tileData(for: tile) == MBTilesSource(path: TileFixtures.helsinkiMBTiles).tileData(for: tile))
        }
    }

    @Test func anAreaWithoutTilesIsAnErrorAndWritesNothing() throws {
        // Paris lies under the country's z0–z3 tiles (they cover the world), not deeper ones.
        let dir = try TileFixtures.temporaryDirectory()
        do {
            var request = try Self.request(ExtractFixtures.country.path, output: dir + "/none.pmtiles", box: (2.2, 48.8, 2.5, 48.9))
            request.minZoom = 10
            _ = try RegionExtractor.run(request)
            Issue.record("no tiles: must fail")
        } catch {
            #expect(error.description.contains("has no tiles in bbox 2.2,48.8,2.5,48.9 at zooms 10–14"), "\(error)")
            #expect(error.isInputProblem)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aCancelledExtractLeavesNothing() throws {
        let dir = try TileFixtures.temporaryDirectory()
        var request = try Self.request(ExtractFixtures.country.path, output: dir + "/c.pmtiles")
        request.maxReadBytes = 4096
        request.concurrentReads = 1
        let progressed = Locked(0)
        #expect(throws: RegionExtractError.cancelled) {
            try RegionExtractor.run(request, progress: { _ in progressed.withLock { $0 += 1 } },
                                    isCancelled: { progressed.withLock { $0 } >= 3 })
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aDryRunReadsTheDirectoriesAndWritesNothing() throws {
        let dir = try TileFixtures.temporaryDirectory()
        var request = try Self.request(ExtractFixtures.country.path, output: dir + "/d.pmtiles")
        request.dryRun = true
        let report = try RegionExtractor.run(request)
        #expect(report.output == nil)
        #expect(report.tiles == (try Self.expectedTiles()).count)
        #expect(report.tileReads > 0 && report.tileReadBytes >= report.tileBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func sourcesThatCannotBeExtractedFromAreNamed() throws {
        let dir = try TileFixtures.temporaryDirectory()
        let cases: [(String, Bool, String)] = [
            (dir + "/missing.pmtiles", true, "no such file"),   // one rule: a path the user names that is missing is input (exit 2)
            (TileFixtures.helsinkiRaster, true, "a tile directory cannot be extracted from"),
            (TestPaths.fixture("styles/plain.json"), true, "not an MBTiles, PMTiles or tile directory"),
            ("https://tiles.example/{z}/{x}/{y}.pbf", true, "a tile URL template cannot be extracted from"),
        ]
        for (source, isInput, message) in cases {
            do {
                _ = try RegionExtractor.run(Self.request(source, output: dir + "/x.pmtiles"))
                Issue.record("\(source) must fail")
            } catch {
                #expect(error.description.contains(message), "\(error)")
                #expect(error.isInputProblem == isInput, "\(error)")
            }
        }
    }

    // MARK: - Over HTTP

    static func httpRequest(_ server: ArchiveServer, output: String,
                            box b: (west: Double, south: Double, east: Double, north: Double) = box) throws(RegionExtractError) -> RegionExtractor.Request {
        var request = try Self.request(server.url, output: output, box: b)
        request.httpOptions.timeout = 10
        request.httpOptions.retryBackoff = 0.01
        return request
    }

    @Test func overHTTPOnlyTheAreaIsFetchedInFewRangeRequests() throws {
        let server = try ArchiveServer(archive: ExtractFixtures.country.bytes)
        defer { server.stop() }
        let out = try TileFixtures.temporaryDirectory() + "/remote.pmtiles"
        let report = try RegionExtractor.run(Self.httpRequest(server, output: out))
        let expected = try Self.expectedTiles()
        #expect(try ExtractFixtures.storedTiles(out) == expected)

        let source = try PMTilesSource(path: ExtractFixtures.country.path)
        let tileData = Int(source.header.tileDataOffset)...
        let ranges = server.requestedRanges
        let tileBytesMoved = ranges.filter { tileData.contains($0.lowerBound) }.reduce(0) { $0 + $1.count }
        let requests = server.server.requestCount
        let moved = server.bytesServed
        let tileBytes = Set(expected.values).reduce(0) { $0 + $1.count }
        // Recorded: requests and bytes moved against the bytes of the tiles themselves.
        print("data extract over HTTP: \(expected.count) tiles (\(tileBytes) bytes stored) in \(requests) requests, "
              + "\(moved) bytes moved (\(tileBytesMoved) of tile data: \(String(format: "%.2f", Double(tileBytesMoved) / Double(tileBytes)))×; "
              + "archive \(ExtractFixtures.country.bytes.count) bytes)")
        #expect(requests == report.reads && UInt64(moved) == report.bytesRead)
        #expect(server.server.receivedRequests.allSatisfy { $0.headers["range"] != nil })
        // The header; a few reads of leaves; and tile reads — at each zoom the area's tiles
        // lie elsewhere in the file, so about one or two per zoom (15 here), not one per tile.
        #expect(requests <= 2 * 15 + 6, "\(requests) requests for \(expected.count) tiles: \(ranges)")
        #expect(Double(tileBytesMoved) <= 1.3 * Double(tileBytes))
        #expect(moved < ExtractFixtures.country.bytes.count / 4, "cost grows with the area, not the archive")
    }

    @Test func anArchiveChangedDuringTheExtractFails() throws {
        // Re-uploaded with one tile byte changed: same size, another ETag.
        var changed = ExtractFixtures.country.bytes
        changed[changed.count - 100] ^= 0xFF
        let server = try ArchiveServer(archive: ExtractFixtures.country.bytes)
        defer { server.stop() }
        server.replace(afterRequests: 2, with: changed, etag: "\"v2\"")
        let dir = try TileFixtures.temporaryDirectory()
        do {
            _ = try RegionExtractor.run(Self.httpRequest(server, output: dir + "/changed.pmtiles"))
            Issue.record("a changed archive must fail the extract")
        } catch {
            guard case .pmtiles(.archiveChanged(_, let reason)) = error else {
                Issue.record("expected archiveChanged, got \(error)")
                return
            }
            #expect(reason == "ETag \"v1\" became ETag \"v2\"")
            #expect(!error.isInputProblem)
            #expect(error.description.contains("the archive changed on the server while it was read"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func anArchiveThatChangesSizeFailsToo() throws {
        let server = try ArchiveServer(archive: ExtractFixtures.country.bytes)
        defer { server.stop() }
        server.replace(afterRequests: 1, with: ExtractFixtures.country.bytes + [0, 0, 0], etag: "\"v1\"")
        let dir = try TileFixtures.temporaryDirectory()
        #expect(throws: RegionExtractError.self) { try RegionExtractor.run(Self.httpRequest(server, output: dir + "/grown.pmtiles")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
