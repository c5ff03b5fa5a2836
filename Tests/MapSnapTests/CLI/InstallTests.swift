import Foundation
import Testing
@testable import MapSnap

/// scripts/install.sh and scripts/package.sh with the test build's binary (`--binary`): the
/// installed command, the unpacked tarball and the unpacked .deb each render the demo from
/// `/` with no MAPSNAP_RESOURCES and no checkout in reach (an installed binary never reads
/// one), and say how to install when their resources are missing.
@Suite(.serialized) struct InstallTests {
    /// One install and one packaging for the whole suite (copying ~70 MB of data is the cost).
    struct Staged: Sendable {
        var root: String
        var prefix: String
        var deb: String
        var tarball: String
    }

    static let staged: Result<Staged, CLIRunnerError> = {
        guard let binary = CLIRunner.executable else { return .failure(CLIRunnerError("mapsnap not built")) }
        // One folder per checkout outside it (an install inside the checkout's .build would be
        // allowed to read the checkout), emptied at each run: at most one copy is left behind.
        let repo = TestPaths.repositoryRoot
        let tag = String(UInt32(truncatingIfNeeded: repo.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }), radix: 16)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mapsnap-install-tests-\(tag)").path
        CLIRunner.cleanUp(root)
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let prefix = root + "/prefix"
        do {
            let install = try run(repo + "/scripts/install.sh", ["--binary", binary, "--prefix", prefix], in: repo)
            guard install.exitCode == 0 else { return .failure(CLIRunnerError("install.sh failed: \(install)")) }
            let package = try run(repo + "/scripts/package.sh", ["--binary", binary, "--out", root + "/packages", "--fast"], in: repo)
            guard package.exitCode == 0 else { return .failure(CLIRunnerError("package.sh failed: \(package)")) }
            let files = package.stdout.split(separator: "\n").map(String.init)
            guard let deb = files.first(where: { $0.hasSuffix(".deb") }), let tarball = files.first(where: { $0.hasSuffix(".tar.gz") }) else {
                return .failure(CLIRunnerError("package.sh named no .deb and .tar.gz: \(package)"))
            }
            return .success(Staged(root: root, prefix: prefix, deb: deb, tarball: tarball))
        } catch {
            return .failure(CLIRunnerError("\(error)"))
        }
    }()

    /// The tests that use `staged`; the last of them to finish removes it (a filtered run that
    /// skips some leaves one copy, which the next run's staging removes).
    static let stagedUsers = 4
    static let stagedUsersDone = Locked(0)

    static func doneWithStaged() {
        guard stagedUsersDone.withLock({ $0 += 1; return $0 }) == stagedUsers, case .success(let done) = staged else { return }
        CLIRunner.cleanUp(done.root)
        if case .success(let demo) = demo { CLIRunner.cleanUp((demo.spec as NSString).deletingLastPathComponent) }
    }

    struct Run: CustomStringConvertible {
        var exitCode: Int32
        var stdout: String
        var stderr: String
        var description: String { "exit \(exitCode)\nstderr: \(stderr)\nstdout: \(stdout.prefix(2_000))" }
    }

    /// Runs `executable` in `directory` with the test's environment minus MAPSNAP_RESOURCES
    /// (and no data directory or cache of the developer's), outputs captured through files.
    static func run(_ executable: String, _ arguments: [String], in directory: String = "/") throws -> Run {
        let scratch = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(scratch) }
        let outPath = scratch + "/stdout", errPath = scratch + "/stderr"
        FileManager.default.createFile(atPath: outPath, contents: nil)
        FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["MAPSNAP_RESOURCES"] = nil
        env["MAPSNAP_DATA"] = "/nonexistent/mapsnap-test-data"
        env["MAPSNAP_CACHE_DIR"] = scratch + "/cache"
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Run(exitCode: process.terminationStatus,
                   stdout: String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self),
                   stderr: String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self))
    }

    /// The demo spec copied out of the checkout, the expected image rendered by the test build
    /// in the checkout: an installed copy must draw the same bytes.
    static let demo: Result<(spec: String, expected: [UInt8]), CLIRunnerError> = {
        let dir = TestPaths.temporaryDirectory()
        let spec = dir + "/walk.json"
        do {
            try FileManager.default.copyItem(atPath: TestPaths.repositoryRoot + "/examples/helsinki-walk.json", toPath: spec)
            let r = try CLIRunner.run(["render", "--spec", spec, "-o", dir + "/expected.png"], in: dir)
            guard r.exitCode == 0, let png = FileManager.default.contents(atPath: dir + "/expected.png") else {
                return .failure(CLIRunnerError("the checkout's render failed: \(r)"))
            }
            return .success((spec, [UInt8](png)))
        } catch {
            return .failure(CLIRunnerError("\(error)"))
        }
    }()

    /// Renders the demo and `--center Helsinki` with `binary` from `/`, expecting the demo's
    /// bytes and a map of Helsinki.
    func rendersTheDemo(with binary: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let demo = try Self.demo.get()
        let out = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(out) }
        let r = try Self.run(binary, ["render", "--spec", demo.spec, "-o", out + "/walk.png"])
        #expect(r.exitCode == 0, "\(r)", sourceLocation: sourceLocation)
        let png = FileManager.default.contents(atPath: out + "/walk.png").map { [UInt8]($0) }
        #expect(png == demo.expected, "\(binary) drew the demo differently from the checkout's build", sourceLocation: sourceLocation)
        let city = try Self.run(binary, ["render", "--center", "Helsinki", "--zoom", "12", "--size", "160x120", "-o", out + "/city.png"])
        #expect(city.exitCode == 0, "\(city)", sourceLocation: sourceLocation)
        let image = CLIRunner.decodePNG(atPath: out + "/city.png", sourceLocation: sourceLocation)
        #expect(image?.width == 160 && image?.height == 120, sourceLocation: sourceLocation)
    }

    @Test func theInstalledCommandRendersFromRootWithoutTheCheckout() throws {
        defer { Self.doneWithStaged() }
        let staged = try Self.staged.get()
        try rendersTheDemo(with: staged.prefix + "/bin/mapsnap")
        for file in ["share/mapsnap/Styles/normal.json", "share/mapsnap/Fonts/NotoSans-Regular.ttf", "share/mapsnap/Data/LICENSES.md",
                     "share/mapsnap/Data/tilemaker/process.lua", "share/mapsnap/Data/helsinki.places", "share/doc/mapsnap/LICENSE",
                     "share/man/man1/mapsnap.1.gz", "share/bash-completion/completions/mapsnap",
                     "share/zsh/vendor-completions/_mapsnap", "share/fish/vendor_completions.d/mapsnap.fish"] {
            #expect(FileManager.default.fileExists(atPath: staged.prefix + "/" + file), "install.sh did not install \(file)")
        }
    }

    @Test func theTarballRendersWhereverItIsUnpackedAndMoved() throws {
        defer { Self.doneWithStaged() }
        let staged = try Self.staged.get()
        let first = staged.root + "/unpacked", moved = staged.root + "/moved/elsewhere"
        try FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: true)
        let tar = try Self.run("/usr/bin/env", ["tar", "-xzf", staged.tarball, "-C", first])
        #expect(tar.exitCode == 0, "\(tar)")
        #expect(Set(CLIRunner.listing(first)) == ["bin", "share"])
        try FileManager.default.createDirectory(atPath: staged.root + "/moved", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: first, toPath: moved)
        try rendersTheDemo(with: moved + "/bin/mapsnap")
        // Through a symbolic link elsewhere on PATH, as `ln -s …/bin/mapsnap ~/bin/` would make.
        try FileManager.default.createDirectory(atPath: staged.root + "/links", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: staged.root + "/links/mapsnap", withDestinationPath: moved + "/bin/mapsnap")
        let version = try Self.run(staged.root + "/links/mapsnap", ["--version"])
        #expect(version.stdout.contains("resources \(moved)/share/mapsnap"), "\(version)")
    }

    @Test func theDebianPackageNamesRealPackagesAndRendersUnpacked() throws {
        defer { Self.doneWithStaged() }
        let staged = try Self.staged.get()
        let info = try Self.run("/usr/bin/env", ["dpkg-deb", "-f", staged.deb, "Package", "Version", "Architecture", "Depends"])
        #expect(info.exitCode == 0, "\(info)")
        let fields = Dictionary(info.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }, uniquingKeysWith: { a, _ in a })
        #expect(fields["Package"] == "mapsnap")
        #expect(fields["Version"] == MapSnapBuildInfo.version)
        let arch = try Self.run("/usr/bin/env", ["dpkg", "--print-architecture"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(fields["Architecture"] == arch)
        let depends = (fields["Depends"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let names = depends.map { String($0.split(separator: " ").first ?? "") }
        // The libraries the binary loads, and the three it opens on first use (invisible to ldd).
        for needed in ["libc6", "libpng16-16", "libcurl4", "libmicrohttpd12", "libharfbuzz0b"] {
            #expect(names.contains(needed), "Depends lacks \(needed): \(depends)")
        }
        for name in names {
            let installed = try Self.run("/usr/bin/env", ["dpkg-query", "-W", "-f=${Status}", name])
            #expect(installed.stdout.contains("install ok installed"), "Depends names \(name), which is not an installed package here")
        }
        let root = staged.root + "/debroot"
        let x = try Self.run("/usr/bin/env", ["dpkg-deb", "-x", staged.deb, root])
        #expect(x.exitCode == 0, "\(x)")
        #expect(FileManager.default.fileExists(atPath: root + "/usr/share/doc/mapsnap/copyright"))
        try rendersTheDemo(with: root + "/usr/bin/mapsnap")
    }

    @Test func aBinaryWithoutItsResourcesSaysHowToInstallThem() throws {
        guard let binary = CLIRunner.executable else { throw CLIRunnerError("mapsnap not built") }
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: binary, toPath: dir + "/bin/mapsnap")
        let r = try Self.run(dir + "/bin/mapsnap", ["render", "--center", "60.17,24.94", "--zoom", "12", "-o", dir + "/out.png"])
        #expect(r.exitCode == 3, "\(r)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r)")
        #expect(r.stderr.contains("scripts/install.sh") && r.stderr.contains("MAPSNAP_RESOURCES"), "\(r)")
        #expect(r.stderr.components(separatedBy: dir + "/share/mapsnap/").count == 2, "each folder once: \(r)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    }

    @Test func theInstalledVersionNamesItsCommitAndTheLibrariesOfThisMachine() throws {
        defer { Self.doneWithStaged() }
        let staged = try Self.staged.get()
        let r = try Self.run(staged.prefix + "/bin/mapsnap", ["--version"])
        #expect(r.exitCode == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        if let head = try? Self.run("/usr/bin/env", ["git", "-C", TestPaths.repositoryRoot, "rev-parse", "HEAD"]), head.exitCode == 0 {
            let commit = head.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(lines.first?.hasPrefix("mapsnap \(MapSnapBuildInfo.version) (commit \(commit)") == true, "\(r)")
        }
        // The test build links the Debian libraries: each must report its package's version.
        for (library, package) in [("libpng", "libpng-dev"), ("SQLite", "libsqlite3-dev"), ("FreeType", "libfreetype-dev"),
                                   ("zlib", "zlib1g-dev"), ("libwebp", "libwebp-dev"), ("Expat", "libexpat1-dev"),
                                   ("HarfBuzz", "libharfbuzz-dev"), ("FriBiDi", "libfribidi-dev")] {
            let query = try Self.run("/usr/bin/env", ["dpkg-query", "-W", "-f=${Version}", package])
            guard query.exitCode == 0 else { continue }
            let upstream = Self.upstreamVersion(query.stdout)
            let line = lines.first { $0.hasPrefix(library + " ") }
            // A library whose running version cannot be asked (FriBiDi) says it is its header's,
            // and so does one loaded on first use (HarfBuzz) until --version --all loads it.
            #expect(line == "\(library) \(upstream)" || line == "\(library) \(upstream) (from its header at build time)"
                    || line == "\(library) \(upstream) (from its header at build time; loaded on first use: --version --all asks it)",
                    "\(library): --version says \(line ?? "nothing"), \(package) is \(query.stdout)")
        }
    }

    /// `1:1.2.13.dfsg-1` → `1.2.13`, `2.12.1+dfsg-5+deb12u4` → `2.12.1`: no epoch, Debian
    /// revision or repackaging suffix.
    static func upstreamVersion(_ debian: String) -> String {
        var v = Substring(debian.trimmingCharacters(in: .whitespacesAndNewlines))
        if let colon = v.firstIndex(of: ":") { v = v[v.index(after: colon)...] }
        if let end = v.firstIndex(where: { $0 == "-" || $0 == "+" || $0 == "~" }) { v = v[..<end] }
        if v.hasSuffix(".dfsg") { v = v.dropLast(5) }
        return String(v)
    }

    @Test func upstreamVersionsDropEpochRevisionAndRepackaging() {
        #expect(Self.upstreamVersion("1:1.2.13.dfsg-1") == "1.2.13")
        #expect(Self.upstreamVersion("2.12.1+dfsg-5+deb12u4") == "2.12.1")
        #expect(Self.upstreamVersion("3.40.1-2+deb12u2\n") == "3.40.1")
        #expect(Self.upstreamVersion("1.6.39") == "1.6.39")
    }
}
