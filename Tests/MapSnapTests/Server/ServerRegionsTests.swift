import Foundation
import Testing
@testable import MapSnap

/// `mapsnap serve` draws the regions of its data directory (`--data-dir`, the configuration's
/// `dataDirectory`), and a region added while it runs changes the `ETag` and the image: neither
/// a client's cached copy nor the server's response cache can keep the map without it.
@Suite struct ServerRegionsTests {
    static let target = "/staticmap?center=60.1716,24.9443&zoom=16&size=200x200"

    @Test func aRegionAddedWhileServingChangesTheMapAndItsTag() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try TestServer { $0.dataDirectory = dir }
        defer { server.stop() }
        let before = try server.get(Self.target)
        #expect(before.status == 200)
        let tag = try #require(before.headers["etag"])
        #expect(try server.get(Self.target).body == before.body)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("helsinki-protomaps.pmtiles"), toPath: dir + "/helsinki.pmtiles")
        let after = try server.get(Self.target, headers: [("If-None-Match", tag)])
        #expect(after.status == 200)
        #expect(after.headers["etag"] != tag)
        #expect(after.body != before.body)
        // The image is the region's: as the CLI draws it with the same tiles as --source.
        var o = MapSnapshotOptions(width: 200, height: 200, center: LatLng(60.1716, 24.9443), zoom: 16,
                                   source: TestPaths.fixture("helsinki-protomaps.pmtiles"))
        o.dataDirectory = ""
        let expected = try MapRenderer().render(o).data(format: .png8)
        #expect(after.body == expected)
    }

    @Test func theConfigurationNamesTheDataDirectory() throws {
        var configuration = ServerConfiguration()
        try configuration.apply(bytes: Array(#"{"dataDirectory": "regions"}"#.utf8), source: "server.json", baseDirectory: "/srv/maps")
        #expect(configuration.dataDirectory == "/srv/maps/regions")
        #expect(MapRequest.defaults(configuration).dataDirectory == "/srv/maps/regions")
    }
}

/// Issue 28, finding 10: a configured data file replaced while the server runs is read again
/// from the next request, under a new `ETag` — even when the new file has the old one's size
/// and modification time (another inode).
@Suite struct ServerDataReloadTests {
    static let target = "/staticmap?center=60.1716,24.9443&zoom=16&size=200x200&maptype=local"

    /// The map the CLI draws from `source`.
    static func expected(_ source: String) throws -> [UInt8] {
        var o = MapSnapshotOptions(width: 200, height: 200, center: LatLng(60.1716, 24.9443), zoom: 16, source: source)
        o.dataDirectory = ""
        return try MapRenderer().render(o).data(format: .png8)
    }

    /// Replaces `path` by a copy of `replacement` (a rename, as deploy tools do), keeping the
    /// old modification time.
    static func replace(_ path: String, with replacement: String) throws {
        let old = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let staged = path + ".new"
        try FileManager.default.copyItem(atPath: replacement, toPath: staged)
        if let old { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: staged) }
        #expect(rename(staged, path) == 0)
    }

    @Test func aReplacedSourceFileIsReadAgainUnderANewTag() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let source = dir + "/streets.pmtiles"
        let first = TestPaths.fixture("helsinki-protomaps.pmtiles"), second = TestPaths.fixture("helsinki-protomaps-v2.pmtiles")
        try FileManager.default.copyItem(atPath: first, toPath: source)
        let server = try TestServer {
            $0.styles["local"] = .init(style: "normal", source: source)
            $0.dataDirectory = dir + "/no-regions"
        }
        defer { server.stop() }
        let before = try server.get(Self.target)
        #expect(before.status == 200, "\(before)")
        let beforeSame = try before.body == Self.expected(first)
        #expect(beforeSame)
        let tag = try #require(before.headers["etag"])
        try Self.replace(source, with: second)
        let after = try server.get(Self.target, headers: [("If-None-Match", tag)])
        #expect(after.status == 200, "a replaced file is not confirmed by 304")
        #expect(after.headers["etag"] != tag)
        let afterSame = try after.body == Self.expected(second)
        #expect(afterSame, "the new file's map, not the old one's from a cache")
    }

    @Test func aReplacedStyleFileIsReadAgainUnderANewTag() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        func style(_ colour: String) -> String {
            #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "\#(colour)"}}]}"#
        }
        let path = dir + "/plain.json"
        try Data(style("#ff0000").utf8).write(to: URL(fileURLWithPath: path))
        try Data(style("#0000ff").utf8).write(to: URL(fileURLWithPath: dir + "/blue.json"))
        let server = try TestServer {
            $0.styles["local"] = .init(style: path)
            $0.dataDirectory = dir + "/no-regions"
        }
        defer { server.stop() }
        let target = "/staticmap?center=60.17,24.94&zoom=12&size=64x64&maptype=local&format=png32"
        let red = try server.get(target)
        #expect(red.status == 200, "\(red)")
        try Self.replace(path, with: dir + "/blue.json")
        let blue = try server.get(target, headers: [("If-None-Match", try #require(red.headers["etag"]))])
        #expect(blue.status == 200 && blue.headers["etag"] != red.headers["etag"], "\(blue.status)")
        let image = try PNGCodec.decode(blue.body, origin: "blue")
        #expect(image.color(atX: 5, y: 5) == Color(rgb: 0x0000FF), "\(image.color(atX: 5, y: 5))")
    }
}

/// The gap left by the reloads above: a local file that only a configured style file names
/// (here its `mbtiles://` source) and that is replaced while the server runs. The source was
/// opened anew under its new stamp, but the prepared style kept the old one and the tag stayed.
@Suite struct ServerStyleFileReloadTests {
    /// Writes `path`: a raster MBTiles of one z0 tile in `rgb`, renamed into place (a new inode).
    static func writeTiles(_ path: String, rgb: UInt32) throws {
        let writer = try MBTilesWriter(path: path)
        try writer.add(TileID(z: 0, x: 0, y: 0)!, data: PNGCodec.encode(Canvas(width: 256, height: 256, fill: Color(rgb: rgb))))
        try writer.finish(metadata: [("name", "colour"), ("format", "png"), ("minzoom", "0"), ("maxzoom", "0")])
    }

    @Test func aSourceNamedInsideAStyleFileIsReadAgainWhenReplaced() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Self.writeTiles(dir + "/colour.mbtiles", rgb: 0xFF0000)
        let style = #"{"version": 8, "sources": {"c": {"type": "raster", "url": "mbtiles://./colour.mbtiles", "tileSize": 256}}, "#
            + #""layers": [{"id": "c", "type": "raster", "source": "c"}]}"#
        try Data(style.utf8).write(to: URL(fileURLWithPath: dir + "/style.json"))
        let server = try TestServer {
            $0.styles["local"] = .init(style: dir + "/style.json")
            $0.dataDirectory = dir + "/no-regions"
        }
        defer { server.stop() }
        let target = "/staticmap?center=0,0&zoom=0&size=64x64&maptype=local&format=png32"
        func centre(_ response: HTTPTestClient.Response) throws -> Color {
            try PNGCodec.decode(response.body, origin: "map").color(atX: 32, y: 32)
        }
        let first = try server.get(target)
        #expect(first.status == 200, "\(first)")
        #expect(try centre(first) == Color(rgb: 0xFF0000))
        // Once the style is prepared its files are in the tag (the first map's tag lacks them);
        // from then on the tag holds still while nothing changes.
        let red = try server.get(target)
        let tag = try #require(red.headers["etag"])
        #expect(try server.get(target, headers: [("If-None-Match", tag)]).status == 304)
        try Self.writeTiles(dir + "/colour.mbtiles", rgb: 0x0000FF)
        let blue = try server.get(target, headers: [("If-None-Match", tag)])
        #expect(blue.status == 200, "a replaced file is not confirmed by 304")
        #expect(blue.headers["etag"] != tag)
        #expect(try centre(blue) == Color(rgb: 0x0000FF), "the new file's map, not the prepared style's old source")
    }

    /// The renderer alone (the CLI's `batch` and library users keep one): a kept style whose
    /// source file was replaced is prepared again.
    @Test func aRendererPreparesAStyleAgainWhenAFileItNamesIsReplaced() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Self.writeTiles(dir + "/colour.mbtiles", rgb: 0x00FF00)
        try Data(#"{"version": 8, "sources": {"c": {"type": "raster", "url": "mbtiles://colour.mbtiles"}}, "layers": [{"id": "c", "type": "raster", "source": "c"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/style.json"))
        var options = MapSnapshotOptions(width: 32, height: 32, center: LatLng(0, 0), zoom: 0, style: dir + "/style.json")
        options.dataDirectory = ""
        options.attribution = ""
        let renderer = MapRenderer()
        #expect(try renderer.render(options).image.color(atX: 16, y: 16) == Color(rgb: 0x00FF00))
        #expect(try renderer.render(options).image.color(atX: 16, y: 16) == Color(rgb: 0x00FF00))
        #expect(renderer.statistics.preparedStyleHits == 1)
        try Self.writeTiles(dir + "/colour.mbtiles", rgb: 0xFF00FF)
        #expect(try renderer.render(options).image.color(atX: 16, y: 16) == Color(rgb: 0xFF00FF))
        #expect(renderer.statistics.preparedStyleMisses == 2)
    }
}
