import Foundation
import Testing

/// HarfBuzz is opened on first shaping, not at start: linked, it and what it pulls in (GLib,
/// graphite2, PCRE2, libstdc++…) cost every process milliseconds of dynamic linking, and most
/// commands never shape. The dynamic loader itself says what it maps (`LD_DEBUG=files`, one
/// `file=NAME` line per object, linked or opened), so these tests ask it, not mapsnap.
@Suite struct OnDemandLibraryTests {
    /// The shared objects the loader mapped while `arguments` ran, by file name.
    static func mappedLibraries(_ arguments: [String], in directory: String? = nil,
                                environment: [String: String] = [:]) throws -> (CLIResult, [String]) {
        var env = environment
        env["LD_DEBUG"] = "files"
        let r = try CLIRunner.run(arguments, in: directory, environment: env)
        // "     12345:\tfile=libpng16.so.16 [0];  needed by /…/mapsnap [0]"
        let names = r.stderrLines.compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " && $0 != "\t" })
        }
        return (r, names)
    }

    /// The last: a map of raster tiles with no attribution and no scale bar has no text.
    @Test(arguments: [["--version"], ["--help"], ["completions", "bash"], ["data", "list"],
                      ["info", TestPaths.fixture("helsinki-openmaptiles.mbtiles")],
                      ["render", "--size", "64x64", "--center", "60.17,24.94", "--zoom", "13",
                       "--source", TestPaths.fixture("helsinki-raster-z12-13"), "--attribution", "none", "--no-scale-bar",
                       "-o", "out.png"]])
    func commandsThatDrawNoTextDoNotMapHarfBuzz(arguments: [String]) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let (r, mapped) = try Self.mappedLibraries(arguments, in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(mapped.contains { $0.hasPrefix("libc.so") }, "LD_DEBUG listing not read: \(r.stderr.prefix(2_000))")
        #expect(!mapped.contains { $0.hasPrefix("libharfbuzz") || $0.hasPrefix("libglib") || $0.hasPrefix("libgraphite2") },
                "\(arguments.joined(separator: " ")) mapped \(mapped)")
    }

    /// The other side: text to draw opens HarfBuzz, by its SONAME (a machine that only runs
    /// mapsnap has no -dev package's `libharfbuzz.so`).
    @Test func aRenderWithTextOpensHarfBuzzByItsSONAME() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let (r, mapped) = try Self.mappedLibraries(["render", "--size", "64x64", "--center", "60.17,24.94", "--zoom", "3",
                                                    "--caption", "Hi", "-o", dir + "/out.png"], in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(mapped.contains("libharfbuzz.so.0"), "\(mapped)")
    }

    /// Without HarfBuzz (simulated: a debug build opens the file named by
    /// MAPSNAP_DEBUG_HARFBUZZ_SONAME instead; a release build ignores it) the map is still
    /// written, its text unshaped, with one warning naming the file and the Debian package.
    @Test func withoutHarfBuzzTheRenderSaysWhichPackageToInstall() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let missing = ["MAPSNAP_DEBUG_HARFBUZZ_SONAME": "libharfbuzz-not-installed.so.0"]
        let r = try CLIRunner.run(["render", "--size", "64x64", "--center", "60.17,24.94", "--zoom", "3", "--caption", "Hi",
                                   "-o", dir + "/out.png"], environment: missing)
        #expect(r.exitCode == 0, "\(r)")
        let warnings = r.stderrLines.filter { $0.contains("HarfBuzz") }
        #expect(warnings.count == 1, "\(r)")
        #expect(warnings.first?.contains("libharfbuzz-not-installed.so.0") == true, "\(r)")
        #expect(warnings.first?.contains("install the Debian package libharfbuzz0b") == true, "\(r)")
        #expect(FileManager.default.fileExists(atPath: dir + "/out.png"), "\(r)")

        let version = try CLIRunner.run(["--version", "--all"], environment: missing)
        #expect(version.exitCode == 0, "\(version)")
        #expect(version.stdoutText.split(separator: "\n").contains("HarfBuzz (not available)"), "\(version)")
        // Without --all nothing is loaded: the header's version is all there is to say.
        let plain = try CLIRunner.run(["--version"], environment: missing)
        #expect(plain.stdoutText.split(separator: "\n").contains {
            $0.hasPrefix("HarfBuzz ") && $0.hasSuffix("(from its header at build time; loaded on first use: --version --all asks it)")
        }, "\(plain)")
    }
}
