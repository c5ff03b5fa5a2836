import Foundation
import Testing

/// The top level of `mapsnap`: help for every command, version, unknown commands.
@Suite struct MainCommandTests {
    /// Every flag the SPEC's command-line contract names for `render`.
    static let renderFlags = ["--size", "--scale", "--center", "--zoom", "--padding", "--style", "--source", "--path",
                              "--marker", "--visible", "--geojson", "--gpx", "--polyline", "--polyline6", "--spec",
                              "--url", "--attribution", "--no-scale-bar", "--caption", "-o"]

    @Test(arguments: [
        (["--help"], ["render", "compare", "batch", "info", "convert", "--version", "-o OUT.png"]),
        (["-h"], ["render", "compare", "batch", "info", "convert"]),
        (["help"], ["render", "compare", "batch", "info", "convert"]),
        (["render", "--help"], renderFlags + ["-q", "EXIT CODES"]),
        (["render", "-h"], renderFlags),
        (["compare", "--help"], ["ACTUAL.png", "EXPECTED.png", "--threshold", "--max-diff", "--diff", "--include-aa", "--json"]),
        (["batch", "--help"], ["JOBS.jsonl", "--out-dir", "--jobs"]),
        (["info", "--help"], ["SOURCE", ".mbtiles", ".pmtiles"]),
        (["convert", "--help"], ["IN.mbtiles", "OUT.pmtiles"]),
    ])
    func helpExitsZeroAndListsTheOptions(arguments: [String], mentions: [String]) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(arguments, in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr.isEmpty)
        let text = r.stdoutText
        #expect(text.hasPrefix("USAGE") || text.hasPrefix("mapsnap"), "\(text.prefix(80))")
        for m in mentions {
            #expect(text.contains(m), "\(arguments.joined(separator: " ")) should mention \(m)")
        }
        // Help wins over everything else on the line and writes nothing.
        #expect(CLIRunner.listing(dir).isEmpty)
    }

    /// libcurl and libmicrohttpd are loaded when a fetch or the server needs them, HarfBuzz
    /// when text is shaped, never at start: linked, they and the TLS, Kerberos and LDAP
    /// libraries behind libcurl (GLib and the rest behind HarfBuzz) cost every process ~10 ms
    /// (~4 ms) of dynamic linking. `readelf` comes with the binutils Swift links with.
    @Test func networkLibrariesAreNotLinked() throws {
        let executable = try #require(CLIRunner.executable)
        let readelf = Process()
        readelf.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        readelf.arguments = ["readelf", "-d", executable]
        let pipe = Pipe()
        readelf.standardOutput = pipe
        try readelf.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        let needed = text.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libpng") }, "\(text)") // the listing is read right
        #expect(!needed.contains { $0.contains("curl") || $0.contains("microhttpd") || $0.contains("gnutls") || $0.contains("harfbuzz") },
                "\(needed.joined(separator: "\n"))")
    }

    @Test(arguments: [["--version"], ["-V"]])
    func versionStartsWithTheVersionAndCommit(arguments: [String]) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(arguments, in: dir)
        #expect(r.exitCode == 0, "\(r)")
        let first = r.stdoutText.split(separator: "\n").first ?? ""
        let parts = first.split(separator: " ")
        #expect(parts.first == "mapsnap")
        // A dotted numeric version such as 0.1.0, then the commit: from a build folder there is
        // no install record, so it is honestly unknown.
        #expect(parts.count > 2 && parts[1].split(separator: ".").allSatisfy { Int($0) != nil } == true, "\(r.stdoutText)")
        #expect(first.contains("(commit unknown"), "\(r.stdoutText)")
    }

    /// Every library that decides pixels or bytes gets a line with a dotted version; the
    /// network libraries give their header's without being loaded, and `--all` asks them.
    @Test func versionNamesEachLibraryWithAVersion() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        func versions(_ arguments: [String]) throws -> [String: Substring] {
            let r = try CLIRunner.run(arguments, in: dir)
            #expect(r.exitCode == 0, "\(r)")
            var found: [String: Substring] = [:]
            for line in r.stdoutText.split(separator: "\n").dropFirst() {
                let words = line.split(separator: " ")
                if words.count >= 2 { found[String(words[0])] = words[1] }
            }
            return found
        }
        let plain = try versions(["--version"])
        for name in ["libpng", "libdeflate", "FreeType", "HarfBuzz", "FriBiDi", "libjpeg-turbo", "libwebp", "libcurl", "SQLite", "libmicrohttpd"] {
            let version = try #require(plain[name], "no \(name) line: \(plain)")
            #expect(version.split(separator: ".").count >= 2 && version.split(separator: ".").allSatisfy { Int($0) != nil },
                    "\(name) \(version)")
        }
        let all = try versions(["--version", "--all"])
        // The loaded libcurl and HarfBuzz are the ones Debian installed, whose major.minor their
        // headers share.
        for name in ["libcurl", "HarfBuzz"] {
            #expect(all[name]?.split(separator: ".").prefix(2) == plain[name]?.split(separator: ".").prefix(2), "\(name): \(all)")
        }
    }

    @Test(arguments: [
        ("rendr", ["'rendr'", "did you mean 'render'?"]),
        ("compar", ["did you mean 'compare'?"]),
        ("inf", ["did you mean 'info'?"]),
        ("frobnicate", ["'frobnicate'", "mapsnap --help"]),
        ("--bogus", ["'--bogus'"]),
    ])
    func unknownCommandExitsTwoWithASuggestion(command: String, mentions: [String]) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run([command, "-o", "x.png"], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1, "\(r.stderr)")
        let line = r.stderrLines.first ?? ""
        #expect(line.hasPrefix("mapsnap: error: unknown command"), "\(line)")
        for m in mentions { #expect(line.contains(m), "\(line) should mention \(m)") }
        #expect(CLIRunner.listing(dir).isEmpty)
    }

    /// No command at all: usage on stderr (not stdout, which may be a pipe into a PNG), exit 2.
    @Test func noArgumentsPrintsUsageAndExitsTwo() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run([], in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("USAGE"))
    }
}
