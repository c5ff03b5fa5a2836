import Foundation
import Testing
@testable import MapSnap

/// PMTiles archives read over HTTP range requests from `LocalHTTPServer` on 127.0.0.1: the
/// same tiles as the local file, the ranges cached, and offline reads from the cache.
@Suite struct PMTilesHTTPReaderTests {
    /// The fixture Helsinki tiles as a PMTiles archive, served at `/h.pmtiles`.
    static func servedArchive() throws -> (site: TestSite, local: String) {
        let local = try TileFixtures.temporaryDirectory() + "/h.pmtiles"
        _ = try PMTilesConverter.convert(mbtiles: TileFixtures.helsinkiMBTiles, to: local)
        let site = TestSite()
        try site.put("/data/h.pmtiles", file: local, type: "application/octet-stream")
        return (site, local)
    }

    @Test func readsTheSameTilesAsTheLocalFileThenOfflineFromTheCache() throws {
        let (site, localPath) = try Self.servedArchive()
        let server = try site.start()
        defer { server.stop() }
        let cache = try TileFixtures.temporaryDirectory()
        let options = try HTTPTileSourceTests.options(cacheDirectory: cache)
        let remote = try #require(try TileSources.open(server.baseURL + "/data/h.pmtiles", httpOptions: options) as? PMTilesSource)
        let local = try PMTilesSource(path: localPath)
        #expect(remote.header == local.header)
        #expect(remote.metadata == local.metadata)
        // Opening took the first 16 KiB (header, root directory) and the metadata, by range.
        let opened = server.requestCount
        #expect(opened <= 2, "\(opened)")
        #expect(server.receivedRequests.allSatisfy { $0.headers["range"]?.hasPrefix("bytes=") == true })
        #expect(server.receivedRequests.allSatisfy { $0.headers["accept-encoding"] == nil })
        var tiles: [TileID] = []
        try local.forEachStoredTile { tile, _ in tiles.append(tile) }
        #expect(tiles.count > 10)
        for tile in tiles {
            #expect(try remote.tileData(for: tile) == local.tileData(for: tile), "\(tile)")
        }
        #expect(try remote.tileData(for: TileID(z: 14, x: 0, y: 0)!) == nil)
        let fetched = server.requestCount
        #expect(fetched > opened)

        // Another process, offline: the header, directories and tiles come from the cache.
        var offline = options
        offline.offline = true
        let again = try #require(try TileSources.open("pmtiles://" + server.baseURL + "/data/h.pmtiles", httpOptions: offline) as? PMTilesSource)
        for tile in tiles {
            #expect(try again.tileData(for: tile) == local.tileData(for: tile), "\(tile)")
        }
        #expect(server.requestCount == fetched)
    }

    @Test func offlineWithoutACacheNamesTheURL() throws {
        var options = try HTTPTileSourceTests.options()
        options.offline = true
        let url = "http://127.0.0.1:9/x.pmtiles?key=SECRET"
        do {
            _ = try TileSources.open(url, httpOptions: options)
            Issue.record("nothing cached: opening must throw")
        } catch {
            #expect("\(error)" == "http://127.0.0.1:9/x.pmtiles?key=REDACTED: not in the cache, and offline mode forbids the network")
        }
    }

    @Test func leafDirectoriesAndTileDataBeyondTheHeadAreFetchedByRange() throws {
        // Zooms 0…3 (85 tiles) of 1 KiB each, leaves of 3 entries: the tile data runs well past
        // the first 16 KiB, and lookups go through leaf directories.
        let expected = Dictionary(uniqueKeysWithValues: (0..<85).compactMap { id -> (TileID, [UInt8])? in
            guard let tile = PMTilesTileID.tile(for: UInt64(id)) else { return nil }
            return (tile, (0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 3 &+ id) })
        })
        var writer = PMTilesWriter(format: .png, tileCompression: .none)
        writer.forcedLeafSize = 3
        for (tile, data) in expected.sorted(by: { $0.key < $1.key }) { try writer.add(tile, data: data) }
        let site = TestSite()
        site.put("/grid.pmtiles", try writer.archive(), type: "application/octet-stream")
        let server = try site.start()
        defer { server.stop() }
        let source = try #require(try TileSources.open(server.baseURL + "/grid.pmtiles",
                                                       httpOptions: HTTPTileSourceTests.options()) as? PMTilesSource)
        #expect(source.header.leafDirectoriesLength > 0)
        for (tile, data) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(try source.tileData(for: tile) == data, "\(tile)")
        }
    }

    @Test func anArchiveThatChangesOnTheServerIsAnErrorNotWrongTiles() throws {
        let (site, localPath) = try Self.servedArchive()
        let server = try site.start()
        defer { server.stop() }
        let source = try #require(try TileSources.open(server.baseURL + "/data/h.pmtiles",
                                                       httpOptions: HTTPTileSourceTests.options()) as? PMTilesSource)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: localPath)))
        bytes += [0, 0, 0]
        site.put("/data/h.pmtiles", bytes, type: "application/octet-stream")
        var tiles: [TileID] = []
        try PMTilesSource(path: localPath).forEachStoredTile { tile, _ in tiles.append(tile) }
        let tile = try #require(tiles.last)
        #expect(throws: PMTilesError.self) { try source.tileData(for: tile) }
    }

    @Test(arguments: [("ETag", "\"v1\"", "\"v2\""), ("Last-Modified", "Tue, 01 Dec 2026 10:00:00 GMT", "Thu, 03 Dec 2026 10:00:00 GMT")])
    func rangesOfAnotherVersionAreRefusedEvenAtTheSameSize(header: String, first: String, second: String) throws {
        // Re-uploaded with one tile byte changed: the size alone cannot tell.
        let archive = ExtractFixtures.country.bytes
        var changed = archive
        changed[changed.count - 100] ^= 0xFF
        let server = try ArchiveServer(archive: archive, versionHeader: header)
        defer { server.stop() }
        server.replace(afterRequests: 0, with: archive, etag: first)
        let source = try #require(try TileSources.open(server.url, httpOptions: HTTPTileSourceTests.options()) as? PMTilesSource)
        let tile = TileID(z: 14, x: 9326, y: 4742)!
        let before = try source.tileData(for: tile)
        #expect(before != nil)
        server.replace(afterRequests: server.server.requestCount, with: changed, etag: second)
        do {
            _ = try source.tileData(for: TileID(z: 14, x: 9330, y: 4745)!)
            Issue.record("a range of another version must throw")
        } catch {
            #expect(error as? PMTilesError == .archiveChanged(path: server.url, reason: "\(header) \(first) became \(header) \(second)"))
        }
    }

    @Test func theVersionIsTheEntityTagElseTheModificationDate() {
        var details = TileDownloader.Details(status: 206, contentType: nil, contentRange: nil)
        #expect(details.validator == nil)
        details.lastModified = "Thu, 03 Dec 2026 10:00:00 GMT"
        #expect(details.validator == "Last-Modified Thu, 03 Dec 2026 10:00:00 GMT")
        details.entityTag = "W/\"abc\""
        #expect(details.validator == "ETag W/\"abc\"")
    }

    @Test func aServerWithoutRangeSupportIsNamed() throws {
        let (site, _) = try Self.servedArchive()
        site.honoursRanges = false
        let server = try site.start()
        defer { server.stop() }
        do {
            _ = try TileSources.open(server.baseURL + "/data/h.pmtiles", httpOptions: HTTPTileSourceTests.options())
            Issue.record("a whole archive for a 16 KiB range must throw")
        } catch {
            let text = "\(error)"
            #expect(text.hasPrefix(server.baseURL + "/data/h.pmtiles: "), "\(text)")
            #expect(text.contains("the server may not support range requests") && !text.contains("\n"), "\(text)")
        }
    }
}
