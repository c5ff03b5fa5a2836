import Foundation
import Testing
@testable import MapSnap

/// A real Valhalla engine for the directions tests: `scripts/valhalla-setup.sh` (pyvalhalla's
/// programs and routing tiles of the Helsinki extract, cached under `.build/valhalla`), then
/// `valhalla_service` on a free loopback port with its own IPC sockets, stopped by `stop()`.
///
/// When the engine cannot be set up (no PyPI on a fresh clone) the tests FAIL: CI must route
/// for real. A developer without network sets `MAPSNAP_SKIP_ROUTING_ENGINE=1` to skip them.
final class ValhallaEngine: @unchecked Sendable {
    static let skipVariable = "MAPSNAP_SKIP_ROUTING_ENGINE"
    static var skipped: Bool { ProcessInfo.processInfo.environment[skipVariable] == "1" }

    let port: Int
    let process: Process
    let directory: String
    var url: String { "http://127.0.0.1:\(port)" }

    /// Sets up (once per checkout) and starts an engine; throws with the setup's own words.
    init() throws {
        let root = TestPaths.repositoryRoot
        let setup = Process()
        setup.executableURL = URL(fileURLWithPath: "/bin/bash")
        setup.arguments = [root + "/scripts/valhalla-setup.sh"]
        let err = Pipe()
        setup.standardError = err
        setup.standardOutput = FileHandle.nullDevice
        try setup.run()
        let message = err.fileHandleForReading.readDataToEndOfFile()
        setup.waitUntilExit()
        guard setup.terminationStatus == 0 else {
            throw CLIRunnerError("scripts/valhalla-setup.sh failed (set \(Self.skipVariable)=1 to skip routing-engine tests): "
                                 + String(decoding: message, as: UTF8.self))
        }
        let base = root + "/.build/valhalla"
        directory = TestPaths.temporaryDirectory()
        port = try Self.freePort()
        var config = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: base + "/valhalla.json"))) as? [String: Any])
        var httpd = config["httpd"] as? [String: Any] ?? [:]
        var service = httpd["service"] as? [String: Any] ?? [:]
        service["listen"] = "tcp://127.0.0.1:\(port)"
        service["loopback"] = "ipc://\(directory)/loopback"
        service["interrupt"] = "ipc://\(directory)/interrupt"
        httpd["service"] = service
        config["httpd"] = httpd
        var mjolnir = config["mjolnir"] as? [String: Any] ?? [:]
        mjolnir["tile_extract"] = ""
        config["mjolnir"] = mjolnir
        let path = directory + "/valhalla.json"
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
        process = Process()
        process.executableURL = URL(fileURLWithPath: base + "/wheel/valhalla/bin/valhalla_service")
        process.arguments = [path, "1"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // Ready when /status answers (a fraction of a second; at most 20 s).
        for _ in 0..<200 {
            if Self.get(url + "/status") != nil { return }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        stop()
        throw CLIRunnerError("valhalla_service did not start on port \(port)")
    }

    func stop() {
        if process.isRunning {
            // SIGTERM makes valhalla_service drain requests for its drain_seconds (28 by
            // default); the tests have none in flight, so after a moment it is killed.
            process.terminate()
            for _ in 0..<20 where process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The engine's own answer to a `/route` request, read without mapsnap's client.
    func rawRoute(_ json: String) throws -> [String: Any] {
        var components = URLComponents(string: url + "/route")!
        components.queryItems = [URLQueryItem(name: "json", value: json)]
        let address = try #require(components.url?.absoluteString)
        let body = try #require(Self.get(address))
        return try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    /// One plain GET through libcurl (Foundation's `Data(contentsOf:)` speaks no HTTP on
    /// Linux without FoundationNetworking); the body of any answer, nil when there is none.
    static func get(_ url: String) -> [UInt8]? {
        var options = HTTPTileSource.Options()
        options.maxRetries = 0
        options.timeout = 5
        // A gate of its own: refused connections while the service starts must not open the
        // shared circuit breaker for its port.
        let downloader = TileDownloader(options: options, gate: HostGate(), budget: .shared, keepsClientErrorBodies: true)
        guard case .body(let bytes, _, _)? = try? downloader.download(url, deadline: .none) else { return nil }
        return bytes
    }

    /// A port nobody listens on now: bind port 0, read it, close.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CLIRunnerError("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw CLIRunnerError("bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
