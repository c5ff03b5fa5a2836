import Foundation
import Testing
@testable import MapSnap

/// `mapsnap data build` with Debian's tilemaker on the Helsinki extract (one build, shared by
/// the tests that need it: about ten seconds), `data index`, and the failures.
@Suite(.serialized) struct DataBuildCLITests {
    static let extract = TestPaths.fixture("osm/helsinki.osm.pbf")

    /// The data directory of the one build, and the build's result.
    static let built: (dir: String, result: CLIResult?) = {
        let dir = TestPaths.temporaryDirectory() + "/data"
        let result = try? CLIRunner.run(["data", "build", extract, "--data-dir", dir])
        return (dir, result)
    }()

    static var hasTilemaker: Bool { RegionBuilder.findTilemaker() != nil }

    @Test(.enabled(if: hasTilemaker, "tilemaker is installed by scripts/setup.sh"))
    func buildsTilesAndIndexIntoTheDataDirectory() throws {
        let r = try #require(Self.built.result)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdoutText.contains("helsinki.pmtiles") && r.stdoutText.contains("addresses"))
        // Exactly the two files: no temporaries left.
        #expect(CLIRunner.listing(Self.built.dir).sorted() == ["helsinki.places", "helsinki.pmtiles"])
        let region = try Region(path: Self.built.dir + "/helsinki.pmtiles")
        #expect(region.schemaName == "OpenMapTiles" && region.maxZoom == 14)
        #expect(region.attribution == "© OpenStreetMap contributors")
        #expect(region.origin?.hasPrefix("helsinki.osm.pbf (built ") ?? false)
        #expect(region.placeIndexPath != nil)
        let list = try CLIRunner.run(["data", "list", "--data-dir", Self.built.dir])
        #expect(list.exitCode == 0 && list.stdoutText.contains("helsinki") && list.stdoutText.contains("yes"))
    }

    /// Street names with their `name:xx` fields in the z14 tile over Aleksanterinkatu, and the
    /// sea (`water` class `ocean`, from the coastlines) in the harbour tile.
    @Test(.enabled(if: hasTilemaker, "tilemaker is installed by scripts/setup.sh"))
    func tilesHoldNamedStreetsAndTheSea() throws {
        let source = try TileSources.open(Self.built.dir + "/helsinki.pmtiles")
        func layer(_ name: String, _ lat: Double, _ lon: Double) throws -> VectorTileLayer? {
            let w = WebMercator.project(LatLng(latitude: lat, longitude: lon))
            let t = try #require(TileID(z: 14, x: Int(w.x * 16384), y: Int(w.y * 16384)))
            let data = try #require(try source.tileData(for: t))
            return try VectorTile(bytes: try Gzip.decompressIfNeeded(data)).layer(named: name)
        }
        func string(_ v: FeatureValue?) -> String? { if case .string(let s)? = v { return s }; return nil }
        let names = try #require(try layer("transportation_name", 60.1686722, 24.9419347))
        let feature = try #require(names.features.first { string($0.value(forKey: "name")) == "Aleksanterinkatu" })
        #expect(string(feature.value(forKey: "name:sv")) == "Alexandersgatan")
        #expect(string(feature.value(forKey: "name_en")) != nil)
        let water = try #require(try layer("water", 60.1672, 24.9530))
        #expect(water.features.contains { string($0.value(forKey: "class")) == "ocean" })
    }

    /// The built region renders exactly as the bundled demo city (`Data/helsinki.mbtiles`,
    /// made from the same extract by scripts/helsinki-tiles/build.sh: Python cleaning and
    /// coastline code, an independent path), and the address pin resolves through the index.
    @Test(.enabled(if: hasTilemaker, "tilemaker is installed by scripts/setup.sh"))
    func rendersLikeTheBundledCityAndPinsAnAddress() throws {
        let dir = Self.built.dir
        let common = ["render", "--center", "60.16867,24.94193", "--zoom", "16", "--size", "400x300"]
        let built = try CLIRunner.run(common + ["--source", dir + "/helsinki.pmtiles", "-o", "built.png"])
        #expect(built.exitCode == 0, "\(built)")
        let bundled = try CLIRunner.run(common + ["--source", TestPaths.repositoryRoot + "/Data/helsinki.mbtiles", "-o", "bundled.png"],
                                        in: built.directory)
        let a = try #require(CLIRunner.decodePNG(atPath: built.directory + "/built.png"))
        let b = try #require(CLIRunner.decodePNG(atPath: built.directory + "/bundled.png"))
        #expect(a.pixels == b.pixels)
        // A background-only style over the same tiles draws none of it: the match is not empty.
        let plain = try CLIRunner.run(common + ["--source", dir + "/helsinki.pmtiles", "--style", TestPaths.plainStyle, "-o", "plain.png"],
                                      in: built.directory)
        let p = try #require(CLIRunner.decodePNG(atPath: plain.directory + "/plain.png"))
        #expect(p.pixels != a.pixels)

        let pin = try CLIRunner.run(["render", "--source", dir + "/helsinki.pmtiles", "--data-dir", dir, "--zoom", "17",
                                     "--size", "200x200", "--marker", "color:red|Aleksanterinkatu 52, Helsinki", "-o", "pin.png"],
                                    in: built.directory)
        #expect(pin.exitCode == 0, "\(pin)")
        // The same map centred on the address node's coordinate (pyosmium: 60.1686722,
        // 24.9419347) with the pin there: identical, so the address landed on the node.
        let byCoordinate = try CLIRunner.run(["render", "--source", dir + "/helsinki.pmtiles", "--zoom", "17", "--size", "200x200",
                                              "--marker", "color:red|60.1686722,24.9419347", "-o", "coord.png"], in: built.directory)
        #expect(byCoordinate.exitCode == 0)
        let x = try #require(CLIRunner.decodePNG(atPath: built.directory + "/pin.png"))
        let y = try #require(CLIRunner.decodePNG(atPath: built.directory + "/coord.png"))
        #expect(x.pixels == y.pixels)
        CLIRunner.cleanUp(built.directory)
    }

    /// The acceptance path: after `data build`, a Static Maps URL with an address and a route
    /// between two named places render with no flag but the data directory in the
    /// environment — the region's streets drawn as from `--source`, the pins where the index
    /// puts them.
    @Test(.enabled(if: hasTilemaker, "tilemaker is installed by scripts/setup.sh"))
    func theBuiltRegionServesURLsAndRoutesWithNoFlag() throws {
        let dir = Self.built.dir
        let url = "https://maps.googleapis.com/maps/api/staticmap?center=60.1690,24.9440&zoom=16&size=300x250"
            + "&markers=color:red|Aleksanterinkatu+52,+Helsinki&path=weight:4|Helsinki+Cathedral|Ateneum"
        let viaRegion = try CLIRunner.run(["render", "--url", url, "-o", "-"], environment: ["MAPSNAP_DATA": dir])
        defer { CLIRunner.cleanUp(viaRegion.directory) }
        #expect(viaRegion.exitCode == 0, "\(viaRegion)")
        #expect(viaRegion.stderr.isEmpty, "no coverage warning inside the region: \(viaRegion.stderr)")
        let viaSource = try CLIRunner.run(["render", "--url", url, "--source", dir + "/helsinki.pmtiles", "--data-dir", dir, "-o", "-"])
        defer { CLIRunner.cleanUp(viaSource.directory) }
        #expect(viaSource.exitCode == 0, "\(viaSource)")
        #expect(viaRegion.stdout == viaSource.stdout)
        let noRegion = try CLIRunner.run(["render", "--url", url, "--style", TestPaths.plainStyle, "-o", "-"], environment: ["MAPSNAP_DATA": dir])
        defer { CLIRunner.cleanUp(noRegion.directory) }
        #expect(noRegion.stdout != viaRegion.stdout)
    }

    @Test(.enabled(if: hasTilemaker, "tilemaker is installed by scripts/setup.sh"))
    func regionIndexResolvesWithoutTheBundledOne() throws {
        let r = PlaceResolver(indexPaths: DataDirectory(path: Self.built.dir).placeIndexPaths(), includesBundledIndex: false, usesGazetteer: false)
        let c = try #require(r.coordinate(forPlaceNamed: "Aleksanterinkatu 52, Helsinki"))
        #expect(PlaceResolverTests.metres(c, LatLng(latitude: 60.1686722, longitude: 24.9419347)) < 15)
    }

    @Test func withoutTilemakerSaysWhatToInstall() throws {
        let dir = TestPaths.temporaryDirectory()
        let r = try CLIRunner.run(["data", "build", Self.extract, "--data-dir", dir + "/data"], environment: ["PATH": "/nonexistent"])
        #expect(r.exitCode == 3)
        #expect(r.stderrLines == ["mapsnap: error: data build: needs tilemaker (apt-get install tilemaker)"] ||
                r.stderrLines.count == 1 && r.stderr.contains("needs tilemaker (apt-get install tilemaker)"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/data/helsinki.pmtiles"))
        CLIRunner.cleanUp(r.directory)
    }

    /// A tilemaker that fails after mapsnap wrote the index and the sea: the error quotes
    /// its output, and the data directory holds nothing (no index without its tiles; the
    /// work folder of an earlier, killed build is cleared too).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/doc/tilemaker/examples/config-openmaptiles.json"),
                   "Debian's tilemaker profile is installed by scripts/setup.sh"))
    func failingTilemakerLeavesNothing() throws {
        let dir = TestPaths.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: true)
        try CLIRunner.write("#!/bin/sh\necho 'Reading .pbf'\necho 'boom: cannot open coastline' >&2\nexit 7\n", to: dir + "/bin/tilemaker")
        // A work folder a killed build left (no process 2^22 + 1 exists: above Linux's pid_max).
        try FileManager.default.createDirectory(atPath: dir + "/data/.helsinki.build-4194305", withIntermediateDirectories: true)
        chmod(dir + "/bin/tilemaker", 0o755)
        let r = try CLIRunner.run(["data", "build", Self.extract, "--data-dir", dir + "/data"], environment: ["PATH": dir + "/bin:/usr/bin:/bin"])
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderr.contains("tilemaker failed (exit status 7)") && r.stderr.contains("boom: cannot open coastline"), "\(r)")
        #expect(CLIRunner.listing(dir + "/data").isEmpty)
        CLIRunner.cleanUp(r.directory)
    }

    @Test(.enabled(if: hasTilemaker, "tilemaker is installed by scripts/setup.sh"))
    func damagedExtractIsBadInputAndLeavesNothing() throws {
        let dir = TestPaths.temporaryDirectory()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.extract)))
        try Data(bytes.prefix(bytes.count / 3)).write(to: URL(fileURLWithPath: dir + "/cut.osm.pbf"))
        let r = try CLIRunner.run(["data", "build", dir + "/cut.osm.pbf", "--data-dir", dir + "/data"])
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderr.contains("cut.osm.pbf") && r.stderrLines.count == 1)
        #expect(CLIRunner.listing(dir + "/data").isEmpty)
        CLIRunner.cleanUp(r.directory)
    }

    @Test func missingExtractIsAMissingSource() throws {
        let build = try CLIRunner.run(["data", "build", "missing.osm.pbf", "--data-dir", "data"])
        #expect(build.exitCode == 2 && build.stderrLines == ["mapsnap: error: data build: missing.osm.pbf: no such file"], "\(build)")
        let index = try CLIRunner.run(["data", "index", "missing.osm.pbf", "-o", "x.places"], in: build.directory)
        #expect(index.exitCode == 2 && index.stderrLines == ["mapsnap: error: data index: missing.osm.pbf: no such file"], "\(index)")
        #expect(CLIRunner.listing(build.directory).isEmpty)
        CLIRunner.cleanUp(build.directory)
    }

    @Test func dataIndexWritesTheIndex() throws {
        let r = try CLIRunner.run(["data", "index", Self.extract, "-o", "h.places"])
        #expect(r.exitCode == 0, "\(r)")
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: r.directory + "/h.places")))
        let bundled = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.repositoryRoot + "/Data/helsinki.places")))
        #expect(written == bundled)
        let bad = try CLIRunner.run(["data", "index", TestPaths.plainStyle, "-o", "x.places"], in: r.directory)
        #expect(bad.exitCode == 2 && bad.stderr.contains("plain.json"))
        #expect(!FileManager.default.fileExists(atPath: r.directory + "/x.places"))
        CLIRunner.cleanUp(r.directory)
    }

    /// From vector tiles: streets, points of interest and places, no addresses; raster tiles
    /// have no names to index (exit 2, one line, nothing written).
    @Test func dataIndexReadsVectorTileArchives() throws {
        let r = try CLIRunner.run(["data", "index", TestPaths.fixture("helsinki-protomaps.pmtiles"), "-o", "t.places"])
        defer { CLIRunner.cleanUp(r.directory) }
        #expect(r.exitCode == 0 && r.stdoutText.hasPrefix("wrote t.places (0 addresses, "), "\(r)")
        #expect(try PlaceIndex(path: r.directory + "/t.places").search("Market Square") != nil)
        let raster = try CLIRunner.run(["data", "index", TestPaths.repositoryRoot + "/Data/imagery.mbtiles", "-o", "i.places"], in: r.directory)
        #expect(raster.exitCode == 2 && raster.stderr.contains("imagery.mbtiles: not vector tiles"), "\(raster)")
        #expect(raster.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: r.directory + "/i.places"))
    }
}

/// Addresses wherever a location is accepted: a Static Maps URL and a batch job, through the
/// bundled Helsinki index (no data directory needed).
@Suite struct AddressInputsCLITests {
    @Test func urlAndBatchJobsTakeAddresses() throws {
        let url = "https://maps.googleapis.com/maps/api/staticmap?size=160x120&zoom=17&markers=Aleksanterinkatu%2052%2C%20Helsinki"
        let a = try CLIRunner.run(["render", "--url", url, "-o", "a.png"])
        #expect(a.exitCode == 0, "\(a)")
        let b = try CLIRunner.run(["render", "--url", url.replacingOccurrences(of: "Aleksanterinkatu%2052%2C%20Helsinki", with: "60.1686722,24.9419347"),
                                   "-o", "b.png"], in: a.directory)
        #expect(b.exitCode == 0)
        let x = try #require(CLIRunner.decodePNG(atPath: a.directory + "/a.png"))
        let y = try #require(CLIRunner.decodePNG(atPath: a.directory + "/b.png"))
        #expect(x.pixels == y.pixels)
        try CLIRunner.write(#"{"center": "Helsinki Cathedral", "zoom": 16, "size": "120x90", "output": "c.png"}"# + "\n", to: a.directory + "/jobs.jsonl")
        try FileManager.default.createDirectory(atPath: a.directory + "/out", withIntermediateDirectories: true)
        let batch = try CLIRunner.run(["batch", "jobs.jsonl", "--out-dir", "out", "--data-dir", a.directory + "/no-regions"], in: a.directory)
        #expect(batch.exitCode == 0, "\(batch)")
        #expect(FileManager.default.fileExists(atPath: a.directory + "/out/c.png"))
        CLIRunner.cleanUp(a.directory)
    }
}
