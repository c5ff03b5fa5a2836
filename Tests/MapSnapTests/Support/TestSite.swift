import Foundation
@testable import MapSnap

/// A small web site for `LocalHTTPServer`: files by path, byte ranges, and vector tiles
/// served out of an MBTiles file — what remote styles, TileJSON, sprites, icons and PMTiles
/// archives are fetched from in tests.
final class TestSite: @unchecked Sendable {
    struct File {
        var body: [UInt8]
        var contentType: String
    }

    private let lock = NSLock()
    private var files: [String: File] = [:]
    private var ranges = true
    private var fails = false
    /// Answers `Range: bytes=a-b` with `206` (else the whole file with `200`).
    var honoursRanges: Bool {
        get { lock.withLock { ranges } }
        set { lock.withLock { ranges = newValue } }
    }
    /// Answers everything with `500` while set.
    var failing: Bool {
        get { lock.withLock { fails } }
        set { lock.withLock { fails = newValue } }
    }
    /// `/tiles/{z}/{x}/{y}.pbf` from this source (gzip removed), 404 for tiles it lacks.
    var tiles: (any TileSource)?

    /// Serves (or replaces) `path` (starting with `/`).
    func put(_ path: String, _ body: [UInt8], type: String) {
        lock.lock(); defer { lock.unlock() }
        files[path] = File(body: body, contentType: type)
    }

    func put(_ path: String, text: String, type: String = "application/json") {
        put(path, Array(text.utf8), type: type)
    }

    /// Serves a file from disk at `path`.
    func put(_ path: String, file: String, type: String) throws {
        put(path, [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))), type: type)
    }

    /// The sprite fixture (`sprites/test` and `@2x`) at `base` (`/styles/sprites/test`).
    func putTestSprite(at base: String) throws {
        for variant in ["", "@2x"] {
            try put(base + variant + ".json", file: TestPaths.fixture("sprites/test\(variant).json"), type: "application/json")
            try put(base + variant + ".png", file: TestPaths.fixture("sprites/test\(variant).png"), type: "image/png")
        }
    }

    func response(to request: LocalHTTPServer.Request) -> LocalHTTPServer.Response {
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.path
        if failing { return .status(500) }
        if path.hasPrefix("/tiles/"), let tiles {
            let parts = path.dropFirst("/tiles/".count).replacingOccurrences(of: ".pbf", with: "").split(separator: "/")
            guard parts.count == 3, let z = Int(parts[0]), let x = Int(parts[1]), let y = Int(parts[2]),
                  let tile = TileID(z: z, x: x, y: y), let data = try? tiles.tileData(for: tile) else { return .status(404) }
            return .ok(data, contentType: "application/x-protobuf")
        }
        guard let file = lock.withLock({ files[path] }) else { return .status(404) }
        if honoursRanges, let header = request.headers["range"], let range = Self.range(header, size: file.body.count) {
            return LocalHTTPServer.Response(status: 206, headers: [("Content-Type", file.contentType),
                                                                   ("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(file.body.count)")],
                                            body: Array(file.body[range]))
        }
        return .ok(file.body, contentType: file.contentType)
    }

    /// `bytes=a-b` within a file of `size` bytes (the end clamped, as servers do).
    static func range(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes=") else { return nil }
        let ends = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let first = Int(ends[0]), let last = Int(ends[1]), first <= last, first < size else { return nil }
        return first...min(last, size - 1)
    }

    /// A server on 127.0.0.1 serving this site.
    func start() throws -> LocalHTTPServer {
        try LocalHTTPServer { [self] request, _ in response(to: request) }
    }
}
