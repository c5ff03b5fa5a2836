import Foundation

/// The `ResourceFetching` of a render: local files as `LocalResourceFetcher` reads them, and
/// `http(s)` URLs through `HTTPResourceClient` (the tiles' transfer layer, limits and cache),
/// each by the render's deadline.
///
/// Relative locations resolve against `base`: the folder of a local style, or the URL of a
/// remote one (whose relative names stay remote; see `ResourceLocation.resolve`). Warnings
/// (a stale copy used, a cache write that failed) are collected for the caller to report.
final class HTTPResourceFetcher: ResourceFetching, Sendable {
    let client: HTTPResourceClient
    let deadline: Deadline
    /// A folder or a URL that relative locations resolve against; nil: as written.
    let base: String?
    private let notes: Locked<[String]>
    private let failed: Locked<Bool>
    private let localReads: Locked<[String: String]>

    /// `allowList`: where every redirect of a fetch may lead (a server's icon hosts).
    init(options: HTTPTileSource.Options, deadline: Deadline, base: String? = nil, allowList: OriginAllowList? = nil) {
        client = HTTPResourceClient(options: options, allowList: allowList)
        self.deadline = deadline
        self.base = base
        notes = Locked([])
        failed = Locked(false)
        localReads = Locked([:])
    }

    private init(sharing other: HTTPResourceFetcher, base: String?) {
        client = other.client
        deadline = other.deadline
        self.base = base
        notes = other.notes
        failed = other.failed
        localReads = other.localReads
    }

    /// The same fetcher — same deadline, warnings and failures — resolving relative
    /// locations against `base` instead.
    func rebased(_ base: String?) -> HTTPResourceFetcher { HTTPResourceFetcher(sharing: self, base: base) }

    /// Warnings of the fetches so far, in order.
    var warnings: [String] { notes.withLock { $0 } }

    /// True once a fetch failed for a reason that may pass (the network, the deadline, an
    /// offline cache miss): what was prepared with this fetcher should not be kept for reuse.
    var hadTransientFailure: Bool { failed.withLock { $0 } }

    /// The local files asked for so far (a style's sprite sheet, say), each with its
    /// `FileStamp` ("" when absent) taken before it was read: what was prepared from them
    /// is stale once one of them changes.
    var localFiles: [String: String] { localReads.withLock { $0 } }

    func fetch(_ location: String, kind: ResourceKind, limit: Int) throws(ResourceError) -> [UInt8]? {
        let absolute = try ResourceLocation.resolve(location, against: base)
        guard ResourceLocation.isRemote(absolute) else {
            let stamp = FileStamp.of(absolute) ?? ""
            localReads.withLock { $0[absolute] = stamp }
            return try LocalResourceFetcher(baseDirectory: nil).fetch(absolute, kind: kind, limit: limit)
        }
        do {
            let fetched = try client.get(absolute, kind: kind, limit: limit, deadline: deadline)
            if !fetched.warnings.isEmpty { notes.withLock { $0 += fetched.warnings } }
            return fetched.bytes
        } catch {
            switch error {
            case .network, .notCached: failed.withLock { $0 = true }
            default: break
            }
            throw error
        }
    }
}
