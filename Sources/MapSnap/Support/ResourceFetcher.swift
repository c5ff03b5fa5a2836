import Foundation

/// Where the resources a render names besides tiles come from: style files, TileJSON,
/// sprite sheets, marker icons.
///
/// A fetcher turns a location as it was written (a path relative to the style file, an
/// absolute path, a `file://` URL, or an `http(s)://` URL) into bytes. Callers never look at
/// the scheme themselves: `LocalResourceFetcher` reads files, and the HTTP-backed fetcher of
/// `Tiles/HTTP` reads files the same way and URLs through the tile transfer layer.
protocol ResourceFetching: Sendable {
    /// The bytes at `location`, at most `limit` of them, checked to be of `kind`; nil when
    /// nothing is there (a missing file, a 404), so callers can try an alternative
    /// (`@2x` → `1x`).
    func fetch(_ location: String, kind: ResourceKind, limit: Int) throws(ResourceError) -> [UInt8]?
}

extension ResourceFetching {
    /// `fetch(_:kind:limit:)` of any bytes.
    func fetch(_ location: String, limit: Int) throws(ResourceError) -> [UInt8]? {
        try fetch(location, kind: .bytes, limit: limit)
    }
}

/// What a caller expects a resource to be. Fetchers check it on the first bytes before
/// anything is used or cached, so an HTML error page (a quota notice, a login form) is
/// refused with a message saying what came instead.
enum ResourceKind: Sendable, Hashable {
    /// JSON: a style, TileJSON, a sprite index.
    case json
    /// A PNG image: a sprite sheet.
    case png
    /// A PNG or JPEG image: a marker icon.
    case image
    /// Anything (byte ranges of an archive).
    case bytes

    /// Why `bytes` are not of this kind, or nil when they are.
    func rejection(of bytes: [UInt8]) -> String? {
        let isPNG = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let isJPEG = bytes.starts(with: [0xFF, 0xD8, 0xFF])
        switch self {
        case .json:
            let blanks: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]
            let first = bytes.prefix(1024).first { !blanks.contains($0) }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return nil }
            return "expected JSON, got \(Self.describe(bytes))"
        case .png:
            return isPNG ? nil : "expected a PNG image, got \(Self.describe(bytes))"
        case .image:
            return isPNG || isJPEG ? nil : "expected a PNG or JPEG image, got \(Self.describe(bytes))"
        case .bytes:
            return nil
        }
    }

    /// "N bytes starting 'text…'" with anything but printable ASCII shown as dots.
    static func describe(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "an empty body" }
        let head = String(bytes.prefix(24).map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "." })
        return "\(bytes.count) bytes starting '\(head)'"
    }
}

/// Why a resource could not be had: a style, TileJSON, sprite, icon or remote archive.
/// Locations are shown as written, with credentials in URLs masked by the fetcher that
/// reports them.
public enum ResourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The location needs the network, which this fetcher does not use.
    case remote(location: String)
    /// More bytes than the caller accepts.
    case tooLarge(location: String, limit: Int)
    /// The file exists but cannot be read (permissions, a directory, an I/O error).
    case unreadable(location: String, reason: String)
    /// The bytes are not of the expected kind (an HTML page instead of JSON, …).
    case invalid(location: String, reason: String)
    /// The server could not be reached or failed (after the transfer layer's retries), or
    /// answered with an error status; `reason` says which.
    case network(location: String, reason: String)
    /// Offline mode, and the cache does not hold it.
    case notCached(location: String)
    /// A location a resource may not point at (a local file named by a remote style).
    case refused(location: String, reason: String)

    /// True for failures that may pass (the network, an offline cache miss), as opposed to
    /// what the resource is or where it points: a render may go on without it, and nothing
    /// prepared without it is kept.
    public var isTransient: Bool {
        switch self {
        case .network, .notCached: return true
        default: return false
        }
    }

    /// The message without the location it starts with, for errors that name it themselves.
    var reason: String {
        let text = description
        let prefix = location + ": "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }

    /// The file or URL the error is about.
    public var location: String {
        switch self {
        case .remote(let l), .tooLarge(let l, _), .unreadable(let l, _), .invalid(let l, _), .network(let l, _),
             .notCached(let l), .refused(let l, _):
            return l
        }
    }

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case .remote(let l): return "\(l): remote resources are not fetched"
        case .tooLarge(let l, let limit): return "\(l): larger than the limit of \(limit) bytes"
        case .unreadable(let l, let reason): return "\(l): \(reason)"
        case .invalid(let l, let reason): return "\(l): \(reason)"
        case .network(_, let reason): return reason
        case .notCached(let l): return "\(l): not in the cache, and offline mode forbids the network"
        case .refused(let l, let reason): return "\(l): \(reason)"
        }
    }
}

/// How locations written in a resource resolve: against the folder of a local file, or the
/// URL of a remote one (`sprite: "sprites/bright"` in `https://host/styles/style.json` is
/// `https://host/styles/sprites/bright`).
enum ResourceLocation {
    /// True for `http://` and `https://` locations.
    static func isRemote(_ location: String) -> Bool {
        let lower = location.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// `location` made absolute against `base` (a folder, a URL, or nil: left as written).
    /// What a remote document names must be remote too: a web page's style has no business
    /// reading this machine's files, so a local path or `file://` URL named by it is refused.
    static func resolve(_ location: String, against base: String?) throws(ResourceError) -> String {
        guard let base, isRemote(base) else {
            guard let base, !base.isEmpty, !isRemote(location), !location.contains("://"), !location.hasPrefix("/") else {
                return location
            }
            return (base as NSString).appendingPathComponent(location)
        }
        if isRemote(location) { return location }
        if location.contains("://") || location.lowercased().hasPrefix("file:") {
            throw .refused(location: location, reason: "a remote style or TileJSON may only name http(s) resources")
        }
        return join(location, base)
    }

    /// RFC 3986 reference resolution of a relative `location` (`//host/p`, `/p`, `p`,
    /// `../p`, with any query) against the http(s) URL `base`. Written out rather than left to
    /// `URL(string:relativeTo:)`, which refuses the `{z}` of tile templates.
    private static func join(_ location: String, _ base: String) -> String {
        let schemeEnd = base.range(of: "://")?.upperBound ?? base.startIndex
        let scheme = String(base[..<schemeEnd])
        let rest = base[schemeEnd...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let origin = scheme + rest[..<authorityEnd]
        if location.hasPrefix("//") { return String(scheme.dropLast(2)) + location }
        let (path, query) = split(location)
        let joined: String
        if path.hasPrefix("/") {
            joined = path
        } else {
            let basePath = split(String(rest[authorityEnd...])).path
            let folder = basePath.lastIndex(of: "/").map { String(basePath[...$0]) } ?? "/"
            joined = path.isEmpty ? basePath : folder + path
        }
        var segments: [Substring] = []
        let parts = joined.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (i, segment) in parts.enumerated() {
            let isLast = i == parts.count - 1
            switch segment {
            case ".": if isLast { segments.append("") }
            case "..":
                if !segments.isEmpty { segments.removeLast() }
                if isLast { segments.append("") }
            default: segments.append(segment)
            }
        }
        return origin + "/" + segments.joined(separator: "/") + query
    }

    /// A URL's path and its query (with `?`), the fragment dropped.
    private static func split(_ text: String) -> (path: String, query: String) {
        let noFragment = text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
        guard let q = noFragment.firstIndex(of: "?") else { return (noFragment, "") }
        return (String(noFragment[..<q]), String(noFragment[q...]))
    }
}

/// Reads resources from the local file system: absolute paths, `file://` URLs, and paths
/// relative to `baseDirectory` (the style file's folder). `http(s)://` locations throw
/// `.remote`: fetching them is the network layer's job.
struct LocalResourceFetcher: ResourceFetching {
    /// Relative locations are resolved against this folder; nil leaves them relative to
    /// the working directory.
    var baseDirectory: String?

    /// The file path a location stands for, or nil for a remote URL.
    func path(for location: String) -> String? {
        let lower = location.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return nil }
        var path = location
        if lower.hasPrefix("file://") {
            path = String(location.dropFirst("file://".count))
            // file://localhost/abs and file:///abs both mean /abs.
            if path.hasPrefix("localhost/") { path.removeFirst("localhost".count) }
            path = path.removingPercentEncoding ?? path
        }
        if !path.hasPrefix("/"), let dir = baseDirectory, !dir.isEmpty {
            path = (dir as NSString).appendingPathComponent(path)
        }
        return path
    }

    func fetch(_ location: String, kind: ResourceKind, limit: Int) throws(ResourceError) -> [UInt8]? {
        guard let path = path(for: location) else { throw .remote(location: location) }
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: limit)
        } catch .notFound {
            return nil
        } catch .tooLarge {
            throw .tooLarge(location: location, limit: limit)
        } catch {
            throw .unreadable(location: location, reason: error.reason)
        }
        if let reason = kind.rejection(of: bytes) { throw .invalid(location: location, reason: reason) }
        return bytes
    }
}
