import Foundation
import Testing
@testable import MapSnap

/// `mapsnap data list` and `data remove`, and where the data directory is: `--data-dir`,
/// then `$MAPSNAP_DATA`, then `$XDG_DATA_HOME/mapsnap`, then `~/.local/share/mapsnap`.
@Suite struct DataListRemoveCLITests {
    static let protomaps = TestPaths.fixture("helsinki-protomaps.pmtiles")
    static let openMapTiles = TestPaths.fixture("helsinki-openmaptiles.mbtiles")

    /// A data directory with a Protomaps region (and its place index) and an OpenMapTiles one.
    static func dataDirectory() throws -> String {
        let dir = TestPaths.temporaryDirectory()
        try FileManager.default.copyItem(atPath: protomaps, toPath: dir + "/helsinki-pm.pmtiles")
        try FileManager.default.copyItem(atPath: openMapTiles, toPath: dir + "/helsinki-omt.mbtiles")
        try Data("index".utf8).write(to: URL(fileURLWithPath: dir + "/helsinki-pm.places"))
        return dir
    }

    @Test func listsEveryRegion() throws {
        let dir = try Self.dataDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["data", "list", "--data-dir", dir])
        defer { CLIRunner.cleanUp(r.directory) }
        #expect(r.exitCode == 0, "\(r)")
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "data directory: \(dir)")
        let pm = try #require(lines.first { $0.hasPrefix("helsinki-pm ") })
        #expect(pm.contains("Protomaps (v4)") && pm.contains("24.9351,60.1641,24.9535,60.1792") && pm.contains("0-14") && pm.contains("yes"))
        let omt = try #require(lines.first { $0.hasPrefix("helsinki-omt ") })
        #expect(omt.contains("OpenMapTiles") && !omt.contains("yes"))
    }

    @Test func environmentNamesTheDirectory() throws {
        let dir = try Self.dataDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let viaData = try CLIRunner.run(["data", "list"], environment: ["MAPSNAP_DATA": dir])
        #expect(viaData.stdoutText.contains("helsinki-pm"), "\(viaData)")
        let xdg = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(xdg) }
        try FileManager.default.moveItem(atPath: dir, toPath: xdg + "/mapsnap")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let viaXDG = try CLIRunner.run(["data", "list"], environment: ["MAPSNAP_DATA": "", "XDG_DATA_HOME": xdg])
        #expect(viaXDG.stdoutText.contains("data directory: \(xdg)/mapsnap") && viaXDG.stdoutText.contains("helsinki-omt"), "\(viaXDG)")
        let home = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(home) }
        let viaHome = try CLIRunner.run(["data", "list"], environment: ["MAPSNAP_DATA": "", "XDG_DATA_HOME": "", "HOME": home])
        #expect(viaHome.exitCode == 0)
        #expect(viaHome.stdoutText.contains("no regions in \(home)/.local/share/mapsnap"), "\(viaHome)")
        for r in [viaData, viaXDG, viaHome] { CLIRunner.cleanUp(r.directory) }
    }

    @Test func removeDeletesTheArchiveAndItsIndex() throws {
        let dir = try Self.dataDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["data", "remove", "helsinki-pm", "--data-dir", dir])
        defer { CLIRunner.cleanUp(r.directory) }
        #expect(r.exitCode == 0, "\(r)")
        #expect(CLIRunner.listing(dir) == ["helsinki-omt.mbtiles"])
    }

    @Test func removingAnUnknownRegionSuggestsOne() throws {
        let dir = try Self.dataDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(["data", "remove", "helsinki-p", "--data-dir", dir])
        defer { CLIRunner.cleanUp(r.directory) }
        #expect(r.exitCode == 2)
        #expect(r.stderrLines == ["mapsnap: error: data remove: no region named 'helsinki-p' in \(dir) (did you mean 'helsinki-pm'?)"])
        #expect(CLIRunner.listing(dir).count == 3)
    }

    @Test func aBrokenArchiveIsListedAsAWarning() throws {
        let dir = try Self.dataDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try Data("junk".utf8).write(to: URL(fileURLWithPath: dir + "/junk.pmtiles"))
        let r = try CLIRunner.run(["data", "list", "--data-dir", dir])
        defer { CLIRunner.cleanUp(r.directory) }
        #expect(r.exitCode == 0)
        #expect(r.stderrLines.count == 1 && r.stderrLines[0].contains("junk.pmtiles"), "\(r)")
        #expect(r.stdoutText.contains("helsinki-pm"))
    }

    /// A region in the data directory draws with no flag at all (`$MAPSNAP_DATA`).
    @Test func renderUsesTheRegionsWithoutFlags() throws {
        let dir = try Self.dataDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.removeItem(atPath: dir + "/helsinki-omt.mbtiles")
        let view = ["render", "--center", "60.1716,24.9443", "--zoom", "16", "--size", "200x200", "-o", "-"]
        let withRegion = try CLIRunner.run(view, environment: ["MAPSNAP_DATA": dir])
        let fromSource = try CLIRunner.run(view + ["--source", Self.protomaps])
        let without = try CLIRunner.run(view)
        for r in [withRegion, fromSource, without] { CLIRunner.cleanUp(r.directory) }
        #expect(withRegion.exitCode == 0, "\(withRegion)")
        #expect(withRegion.stdout == fromSource.stdout)
        #expect(withRegion.stdout != without.stdout)
    }

    @Test func unknownSubcommandSuggests() throws {
        let r = try CLIRunner.run(["data", "lst"])
        defer { CLIRunner.cleanUp(r.directory) }
        #expect(r.exitCode == 2)
        #expect(r.stderrLines == ["mapsnap: error: data: unknown command 'lst' (did you mean 'list'?); see mapsnap data --help"])
    }
}
