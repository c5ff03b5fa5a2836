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
