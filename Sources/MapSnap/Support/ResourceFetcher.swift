import Foundation

/// Where the resources a style names besides tiles come from — sprite sheets now, and
/// whatever else a style points at by URL later (TileJSON, remote styles).
///
/// A fetcher turns a location as the style wrote it (a path relative to the style file, an
/// absolute path, a `file://` URL, or an `http(s)://` URL) into bytes. Callers never look at
/// the scheme themselves, so a fetcher that also speaks HTTP can replace the local one
/// without touching them.
protocol ResourceFetching: Sendable {
    /// The bytes at `location`, at most `limit` of them; nil when nothing is there (a missing
    /// file), so callers can try an alternative (`@2x` → `1x`).
    func fetch(_ location: String, limit: Int) throws(ResourceError) -> [UInt8]?
}

/// Why a resource could not be had.
enum ResourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The location needs the network, which this fetcher does not use.
    case remote(location: String)
    /// More bytes than the caller accepts.
    case tooLarge(location: String, limit: Int)
    /// The file exists but cannot be read (permissions, a directory, an I/O error).
    case unreadable(location: String, reason: String)

    var location: String {
        switch self {
        case .remote(let l), .tooLarge(let l, _), .unreadable(let l, _): return l
        }
    }

    var description: String {
        switch self {
        case .remote(let l): return "\(l): remote resources are not fetched"
        case .tooLarge(let l, let limit): return "\(l): larger than the limit of \(limit) bytes"
        case .unreadable(let l, let reason): return "\(l): \(reason)"
        }
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

    func fetch(_ location: String, limit: Int) throws(ResourceError) -> [UInt8]? {
        guard let path = path(for: location) else { throw .remote(location: location) }
        do {
            return try InputFile.read(path, limit: limit)
        } catch .notFound {
            return nil
        } catch .tooLarge {
            throw .tooLarge(location: location, limit: limit)
        } catch {
            throw .unreadable(location: location, reason: error.reason)
        }
    }
}
