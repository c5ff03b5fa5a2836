import Foundation
import Testing
@testable import MapSnap
@testable import mapsnap

/// What of `deploy/` can be checked without Docker or Kubernetes: the configurations load,
/// and every probe and health-check path they name is answered 200 by the server.
@Suite struct DeployFilesTests {
    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: TestPaths.repositoryRoot + "/deploy/" + relative, encoding: .utf8)
    }

    @Test func shippedConfigurationsLoad() throws {
        var fromFile = ServerConfiguration()
        try fromFile.load(path: TestPaths.repositoryRoot + "/deploy/server.json")
        #expect(fromFile.styles.keys.sorted() == ["hybrid", "normal", "satellite", "terrain"])
        // The ConfigMap's server.json: the indented block after "server.json: |".
        let manifest = try Self.text("kubernetes/mapsnap.yaml")
        let block = try #require(manifest.components(separatedBy: "server.json: |\n").dropFirst().first?
            .components(separatedBy: "\n---").first)
        var fromConfigMap = ServerConfiguration()
        try fromConfigMap.apply(bytes: Array(block.utf8), source: "ConfigMap", baseDirectory: nil)
        #expect(fromConfigMap.defaultStyle == "normal")
    }

    @Test func probeAndHealthCheckPathsAreServed() throws {
        let manifest = try Self.text("kubernetes/mapsnap.yaml")
        let dockerfile = try Self.text("Dockerfile")
        var paths = manifest.components(separatedBy: "httpGet: {path: ").dropFirst().compactMap { $0.split(separator: ",").first.map(String.init) }
        paths += dockerfile.components(separatedBy: "http://127.0.0.1:8080").dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
        paths += [manifest.components(separatedBy: "prometheus.io/path: ").dropFirst().first?.split(separator: "\n").first.map(String.init) ?? "?"]
        #expect(Set(paths) == ["/health", "/ready", "/metrics"])
        let server = try TestServer()
        defer { server.stop() }
        for path in paths {
            #expect(try server.get(path).status == 200, "\(path)")
        }
    }

    @Test func imageInstallsEveryLibraryTheBuildNeeds() throws {
        // scripts/setup.sh is the one list of build packages; the image's build stage must
        // install each of them (a library added to the package but not to the image breaks
        // `docker build` only, which CI cannot run).
        let setup = try String(contentsOfFile: TestPaths.repositoryRoot + "/scripts/setup.sh", encoding: .utf8)
        let list = try #require(setup.components(separatedBy: "packages=(").dropFirst().first?.components(separatedBy: ")").first)
        let packages = list.split(separator: " ").map(String.init)
        #expect(packages.contains("libcurl4-openssl-dev"))
        let buildStage = try #require(try Self.text("Dockerfile").components(separatedBy: "\nFROM ").dropFirst().first)
        for package in packages {
            #expect(buildStage.contains(" \(package)"), "deploy/Dockerfile's build stage does not install \(package)")
        }
    }

    /// A library opened on first use (each `dlopen("SONAME"` of a shim) is invisible to ldd, so
    /// the runtime stage must name its package itself, as scripts/package.sh's Depends does:
    /// the package that owns the SONAME here (dpkg), e.g. libharfbuzz.so.0 → libharfbuzz0b.
    @Test func imageRuntimeInstallsEveryLibraryOpenedOnFirstUse() throws {
        let sources = TestPaths.repositoryRoot + "/Sources"
        var sonames: [String] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() where target.hasPrefix("C") {
            guard let shim = try? String(contentsOfFile: "\(sources)/\(target)/shim.h", encoding: .utf8) else { continue }
            sonames += shim.components(separatedBy: "dlopen(\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        }
        #expect(Set(sonames).isSuperset(of: ["libcurl.so.4", "libmicrohttpd.so.12", "libharfbuzz.so.0"]), "\(sonames)")
        let runtimeStage = try #require(try Self.text("Dockerfile").components(separatedBy: "\nFROM ").dropFirst(2).first)
        for soname in sonames {
            guard let package = Self.debianPackage(owning: soname) else { continue }   // not a Debian machine
            #expect(runtimeStage.contains(" \(package) "), "deploy/Dockerfile's runtime stage does not install \(package) (\(soname))")
        }
    }

    /// The Debian package that installs `soname` on this machine, by ldconfig's cache and dpkg.
    static func debianPackage(owning soname: String) -> String? {
        func output(_ arguments: [String]) -> String? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
        }
        // "\tlibharfbuzz.so.0 (libc6,x86-64) => /lib/x86_64-linux-gnu/libharfbuzz.so.0"
        guard let cache = output(["ldconfig", "-p"]) ?? output(["/sbin/ldconfig", "-p"]),
              let line = cache.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") }),
              let path = line.components(separatedBy: "=> ").last?.trimmingCharacters(in: .whitespaces) else { return nil }
        for candidate in [path, path.hasPrefix("/lib/") ? "/usr" + path : path] {
            if let owner = output(["dpkg", "-S", candidate])?.split(separator: ":").first { return String(owner) }
        }
        return nil
    }

    @Test func imageArgumentsAreValidServeFlags() throws {
        // The flags the Dockerfile and the Deployment pass must parse (no typo reaches a cluster).
        let dockerfile = try Self.text("Dockerfile")
        let cmd = try #require(dockerfile.components(separatedBy: "CMD [").last?.components(separatedBy: "]").first)
        let manifest = try Self.text("kubernetes/mapsnap.yaml")
        let args = try #require(manifest.components(separatedBy: "args: [").dropFirst().first?.components(separatedBy: "]").first)
        for list in [cmd, args] {
            let flags = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            #expect(flags.first == "serve")
            #expect(throws: Never.self, "\(flags)") { try ServeCommand.options.parse(ArraySlice(flags.dropFirst())) }
        }
    }
}
