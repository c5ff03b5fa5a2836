import Foundation
import Testing
@testable import MapSnap

/// `mapsnap render` with styles, PMTiles archives and icons on a web site
/// (`TestSite` on 127.0.0.1): exit codes, one-line errors, pixels, and `--offline`.
@Suite struct RemoteSourcesCLITests {
    static func site() throws -> TestSite {
        let site = try RemoteStyleRenderTests.site()
        var pixels: [UInt8] = []
        for _ in 0..<(12 * 12) { pixels += [255, 0, 255, 255] }
        site.put("/pin.png", try PNGCodec.encode(Canvas(width: 12, height: 12, premultipliedPixels: pixels)), type: "image/png")
        return site
    }

    static let camera = ["--center", "60.1760,24.9390", "--zoom", "15", "--size", "200x150", "--attribution", "none", "--no-scale-bar"]

    @Test func aStyleURLWithAnIconRendersThenOfflineAndFailsCleanlyWhenNotCached() throws {
        let server = try Self.site().start()
        defer { server.stop() }
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let args = ["render", "--style", server.baseURL + "/styles/style.json", "--cache-dir", "cache",
                    "--marker", "anchor:center|icon:\(server.baseURL)/pin.png|60.1760,24.9390"] + Self.camera
        let online = try CLIRunner.run(args + ["-o", "a.png"], in: dir)
        #expect(online.exitCode == 0 && online.stderr.isEmpty, "\(online)")
        let image = try #require(CLIRunner.decodePNG(atPath: dir + "/a.png"))
        #expect(image.color(atX: 100, y: 75) == Color(red: 255, green: 0, blue: 255))
        var blue = 0
        for y in 0..<image.height { for x in 0..<image.width where image.color(atX: x, y: y) == Color(red: 0, green: 0, blue: 255) { blue += 1 } }
        #expect(blue > 300)

        let requests = server.requestCount
        let offline = try CLIRunner.run(args + ["--offline", "-o", "b.png"], in: dir)
        #expect(offline.exitCode == 0 && offline.stderr.isEmpty, "\(offline)")
        #expect(FileManager.default.contents(atPath: dir + "/a.png") == FileManager.default.contents(atPath: dir + "/b.png"))
        #expect(server.requestCount == requests)

        let missing = try CLIRunner.run(["render", "--style", server.baseURL + "/styles/other.json?key=SECRET", "--cache-dir", "cache",
                                         "--offline", "-o", "c.png"] + Self.camera, in: dir)
        #expect(missing.exitCode == 3)
        #expect(missing.stderr == "mapsnap: error: --style \(server.baseURL)/styles/other.json?key=REDACTED: not in the cache, and offline mode forbids the network\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/c.png"))
    }

    @Test func aBrokenStyleURLIsExitTwo() throws {
        let site = TestSite()
        site.put("/style.json", text: "<html>login</html>", type: "text/html")
        let server = try site.start()
        defer { server.stop() }
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let result = try CLIRunner.run(["render", "--style", server.baseURL + "/style.json", "--cache-dir", "cache", "-o", "x.png"] + Self.camera, in: dir)
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("mapsnap: error: --style \(server.baseURL)/style.json: the server sent an HTML page"), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func aRemotePMTilesSourceRendersAsTheLocalFile() throws {
        let (site, local) = try PMTilesHTTPReaderTests.servedArchive()
        let server = try site.start()
        defer { server.stop() }
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let remote = try CLIRunner.run(["render", "--source", server.baseURL + "/data/h.pmtiles", "--cache-dir", "cache", "-o", "r.png"] + Self.camera, in: dir)
        #expect(remote.exitCode == 0, "\(remote)")
        let file = try CLIRunner.run(["render", "--source", local, "-o", "l.png"] + Self.camera, in: dir)
        #expect(file.exitCode == 0, "\(file)")
        #expect(FileManager.default.contents(atPath: dir + "/r.png") == FileManager.default.contents(atPath: dir + "/l.png"))
    }
}
