import Foundation
import Testing
@testable import MapSnap

/// `--basemap NAME` through the built binary, against loopback stand-ins of the providers
/// (`BasemapStandIns`, their URLs given by `MAPSNAP_BASEMAP_<NAME>_URL`): the policy's
/// User-Agent, `--offline` from the cache, the refusals of `batch` and `data extract`, and
/// the one-line errors.
@Suite struct BasemapCLITests {
    static let camera = ["--center", "60.1699,24.9384", "--zoom", "14", "--size", "300x200", "--cache-dir", "cache"]

    @Test func osmSendsTheUserAgentWithTheContactThenRendersOfflineWithoutARequest() throws {
        let server = try BasemapStandIns.openStreetMap()
        defer { server.stop() }
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let env = BasemapStandIns.environment(openStreetMap: server)
        let online = try CLIRunner.run(["render", "--basemap", "osm", "--contact", "ops@example.org", "-o", "a.png"] + Self.camera,
                                       in: dir, environment: env)
        #expect(online.exitCode == 0 && online.stderr.isEmpty, "\(online)")
        let asked = server.requestCount
        #expect(asked > 0)
        #expect(server.receivedRequests.allSatisfy {
            $0.headers["user-agent"] == "mapsnap/0.1.0 (+offline static map renderer; contact: ops@example.org)"
        })
        let offline = try CLIRunner.run(["render", "--basemap", "osm", "--contact", "ops@example.org", "--offline", "-o", "b.png"] + Self.camera,
                                        in: dir, environment: env)
        #expect(offline.exitCode == 0 && offline.stderr.isEmpty, "\(offline)")
        #expect(server.requestCount == asked)
        #expect(FileManager.default.contents(atPath: dir + "/a.png") == FileManager.default.contents(atPath: dir + "/b.png"))
        // Without a contact: the same map, and a warning saying how to give one.
        let anonymous = try CLIRunner.run(["render", "--basemap", "osm", "-o", "c.png"] + Self.camera,
                                          in: dir, environment: env.merging(["MAPSNAP_CONTACT": ""]) { $1 })
        #expect(anonymous.exitCode == 0)
        #expect(anonymous.stderr == "mapsnap: warning: --basemap osm: OpenStreetMap's tile policy asks for a way to reach you: give --contact EMAIL (or set MAPSNAP_CONTACT); it is sent in the User-Agent\n")
    }

    @Test func eachOpenFreeMapStyleAndProtomapsRenderFromTheirStandIns() throws {
        let (_, free) = try BasemapStandIns.openFreeMap()
        defer { free.stop() }
        let (_, proto) = try BasemapStandIns.protomaps()
        defer { proto.stop() }
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let env = BasemapStandIns.environment(openFreeMap: free, protomaps: proto)
        var outputs: [Data] = []
        for name in ["liberty", "positron", "bright", "protomaps"] {
            // The Protomaps fixture covers less: a view inside it.
            let camera = name == "protomaps" ? ["--center", "60.1715,24.944", "--zoom", "15", "--size", "300x200", "--cache-dir", "cache"] : Self.camera
            let r = try CLIRunner.run(["render", "--basemap", name, "-o", "\(name).png"] + camera, in: dir, environment: env)
            #expect(r.exitCode == 0 && r.stderr.isEmpty, "\(name): \(r)")
            outputs.append(FileManager.default.contents(atPath: dir + "/\(name).png") ?? Data())
        }
        #expect(Set(outputs).count == 4, "four different maps")
    }

    @Test func unknownNamesAndConflictsAreOneLineExitTwo() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let typo = try CLIRunner.run(["render", "--basemap", "libery", "-o", "x.png"] + Self.camera, in: dir)
        #expect(typo.exitCode == 2)
        #expect(typo.stderr == "mapsnap: error: --basemap: no base map named 'libery' (did you mean 'liberty'?); known: liberty, positron, bright, osm, protomaps\n")
        let both = try CLIRunner.run(["render", "--basemap", "osm", "--style", "terrain", "-o", "x.png"] + Self.camera, in: dir)
        #expect(both.exitCode == 2 && both.stderr.hasPrefix("mapsnap: error: --basemap and --style both choose the base map"), "\(both)")
        #expect(CLIRunner.listing(dir).filter { $0.hasSuffix(".png") }.isEmpty)
    }

    @Test func batchRefusesOpenStreetMapJobsWithoutARequest() throws {
        let server = try BasemapStandIns.openStreetMap()
        defer { server.stop() }
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try CLIRunner.write("""
        {"center": "60.17,24.94", "zoom": 14, "basemap": "osm", "output": "a.png"}
        {"center": "60.17,24.94", "zoom": 14, "source": "https://tile.openstreetmap.org/{z}/{x}/{y}.png", "output": "b.png"}
        """, to: dir + "/jobs.jsonl")
        let r = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "--jobs", "1"], in: dir,
                                  environment: BasemapStandIns.environment(openStreetMap: server))
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderr.contains("jobs.jsonl:1: basemap osm: 127.0.0.1:\(server.port) serves OpenStreetMap's tiles for interactive viewing only"), "\(r.stderr)")
        #expect(r.stderr.contains("jobs.jsonl:2: https://tile.openstreetmap.org/{z}/{x}/{y}.png: tile.openstreetmap.org serves OpenStreetMap's tiles"), "\(r.stderr)")
        #expect(r.stderr.contains("prohibits bulk downloading"))
        #expect(server.requestCount == 0)
        #expect(CLIRunner.listing(dir + "/out").isEmpty)
    }

    @Test func dataExtractRefusesOpenStreetMapsTileServer() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["data", "extract", "https://tile.openstreetmap.org/{z}/{x}/{y}.png", "--bbox", "24.9,60.1,25.0,60.2",
                                   "-o", "x.pmtiles"], in: dir)
        #expect(r.exitCode == 2)
        #expect(r.stderr.hasPrefix("mapsnap: error: data extract https://tile.openstreetmap.org/{z}/{x}/{y}.png: tile.openstreetmap.org serves OpenStreetMap's tiles for interactive viewing only"), "\(r.stderr)")
        #expect(r.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.pmtiles"))
    }
}
