import Foundation
import Testing
@testable import MapSnap

/// A `StaticMapServer` on an ephemeral loopback port for one test, with its access log kept.
final class TestServer: Sendable {
    let server: StaticMapServer
    let port: Int
    private let logBox: LogBox

    init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration(listen: ListenAddress(host: "127.0.0.1", port: 0, isIPv6: false))
        configuration.renderThreads = 2
        configuration.connectionTimeoutSeconds = Int(TestEnvironment.seconds(30))
        configure(&configuration)
        let box = LogBox()
        server = StaticMapServer(configuration: configuration, version: "test", accessLog: { box.append($0) })
        port = try server.start()
        logBox = box
    }

    /// Access-log lines so far.
    var accessLog: [String] { logBox.lines }

    /// Whether a line matching `predicate` reaches the access log within a few seconds: the
    /// server writes its lines after the response is sent, on its own log thread.
    func accessLogEventually(contains predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(TestEnvironment.seconds(5))
        while Date() < deadline {
            if logBox.lines.contains(where: predicate) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return logBox.lines.contains(where: predicate)
    }

    func get(_ target: String, headers: [(String, String)] = []) throws -> HTTPTestClient.Response {
        try HTTPTestClient.request(port: port, target: target, headers: headers)
    }

    func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> HTTPTestClient.Response {
        try HTTPTestClient.request(port: port, method: method, target: target, headers: headers, body: body)
    }

    func stop() {
        server.drain(timeout: .seconds(10))
    }

    deinit { server.drain(timeout: .seconds(10)) }
}

/// Lines of an access log, appended from the server's threads.
final class LogBox: Sendable {
    private let storage = Locked<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}

/// Google Static Maps URLs used across the test suite (and the README's acceptance URL),
/// served and rendered by the CLI for byte comparison.
enum ServerFixtures {
    static let googleURLs = [
        "https://maps.googleapis.com/maps/api/staticmap?center=Helsinki&zoom=13&size=600x400&markers=color:red|label:H|Helsinki",
        "https://maps.googleapis.com/maps/api/staticmap?size=120x80&markers=color:red|60.17,24.94&path=color:0x0000ffff|weight:4|60.17,24.94|60.18,24.95",
        "https://maps.googleapis.com/maps/api/staticmap?center=60.17,24.94&zoom=15&size=600x300&markers=label:H|60.17,24.94",
        "https://maps.googleapis.com/maps/api/staticmap?size=400x400&scale=2&maptype=satellite&path=color:0x0000ff%7Cweight:5%7Cenc:_p~iF~ps%7CU_ulLnnqC_mqNvxq%60@",
        "https://maps.googleapis.com/maps/api/staticmap?size=512x256&scale=2&maptype=terrain&markers=1,1&key=abc",
        "https://maps.googleapis.com/maps/api/staticmap?size=300x200&path=weight:3|color:orange|geodesic:true|Paris|New+York&markers=size:mid|label:P|Paris",
        "https://maps.googleapis.com/maps/api/staticmap?center=60.17,24.94&zoom=14&size=200x150&format=png32",
        "https://maps.googleapis.com/maps/api/staticmap?center=60.17,24.94&zoom=14&size=200x150&format=jpg",
        "https://maps.googleapis.com/maps/api/staticmap?center=60.17,24.94&zoom=14&size=200x150&format=jpg-baseline&quality=60",
        "https://maps.googleapis.com/maps/api/staticmap?center=60.17,24.94&zoom=14&size=200x150&maptype=hybrid&format=webp",
    ]

    /// The `Content-Type` the server must send for a URL: its `format`, else png8's.
    static func contentType(_ url: String) -> String {
        if url.contains("format=jpg") { return "image/jpeg" }
        if url.contains("format=webp") { return "image/webp" }
        return "image/png"
    }

    /// A camera parameter through `serve` and `mapsnap render --url`: the same bytes for
    /// `url`, and 400 naming the parameter and its range when `good` is replaced by `bad`.
    static func expectServeMatchesRenderURL(_ url: String, replacing good: String, with bad: String,
                                            naming words: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let server = try TestServer()
        defer { server.stop() }
        let cli = try CLIRunner.run(["render", "--url", url, "-o", "-", "-q"])
        defer { CLIRunner.cleanUp(cli.directory) }
        let served = try server.get(target(url))
        #expect(cli.exitCode == 0, "\(cli)", sourceLocation: sourceLocation)
        #expect(served.status == 200, "\(served)", sourceLocation: sourceLocation)
        let same = served.body == cli.stdout
        #expect(same, "the server's image differs from mapsnap render --url", sourceLocation: sourceLocation)
        let refused = try server.get(target(url.replacingOccurrences(of: good, with: bad)))
        #expect(refused.status == 400, sourceLocation: sourceLocation)
        #expect(words.allSatisfy { refused.text.contains($0) }, "\(refused.text)", sourceLocation: sourceLocation)
    }

    /// `https://host/maps/api/staticmap?…` → `/maps/api/staticmap?…`.
    static func target(_ url: String) -> String {
        guard let range = url.range(of: "/maps/api/") else { return url }
        return String(url[range.lowerBound...])
    }
}
