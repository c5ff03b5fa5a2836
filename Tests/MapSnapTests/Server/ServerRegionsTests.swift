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
