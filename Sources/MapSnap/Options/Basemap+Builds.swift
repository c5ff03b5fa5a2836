import Foundation

extension Basemap {
    /// The PMTiles archive URL with `{build}` replaced by the newest build the builds list
    /// names (a URL without `{build}` is returned as it is, and nothing is fetched). The list is
    /// fetched through the resource cache (so `--offline` uses the cached copy, and a list the
    /// server marks fresh for a day is asked once a day).
    func archiveURL(http: HTTPTileSource.Options, deadline: Deadline) throws(BasemapError) -> (url: String, warnings: [String]) {
        guard url.contains("{build}") else { return (url, []) }
        let list = buildsURL ?? Self.protomapsDefaultBuildsURL
        let fetched: HTTPResourceClient.Fetched
        do {
            fetched = try HTTPResourceClient(options: http).get(list, kind: .json, limit: 4 << 20, deadline: deadline)
        } catch {
            throw .buildsUnavailable(url: list, reason: "could not be fetched: \(error.reason)", isTransient: error.isTransient)
        }
        guard let bytes = fetched.bytes else {
            throw .buildsUnavailable(url: list, reason: "is not there (HTTP 404)", isTransient: false)
        }
        guard let build = Self.newestBuild(in: bytes) else {
            throw .buildsUnavailable(url: list, reason: "names no dated .pmtiles build", isTransient: false)
        }
        return (url.replacingOccurrences(of: "{build}", with: build), fetched.warnings)
    }

    /// The newest dated build (`20260101` of `{"key": "20260101.pmtiles"}`) in a builds list:
    /// a JSON array of objects. Keys that are not `DIGITS.pmtiles` are ignored.
    static func newestBuild(in bytes: [UInt8]) -> String? {
        guard let items = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [Any] else { return nil }
        let builds = items.compactMap { item -> String? in
            guard let key = (item as? [String: Any])?["key"] as? String, key.hasSuffix(".pmtiles") else { return nil }
            let stem = String(key.dropLast(".pmtiles".count))
            return !stem.isEmpty && stem.count <= 16 && stem.allSatisfy(\.isASCII) && stem.allSatisfy(\.isNumber) ? stem : nil
        }
        // Dates as YYYYMMDD: the newest is the largest number (a longer stem is a later format).
        return builds.max { ($0.count, $0) < ($1.count, $1) }
    }
}
