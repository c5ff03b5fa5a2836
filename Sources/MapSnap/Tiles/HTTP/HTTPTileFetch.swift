/// What one `HTTPTileSource.fetch(_:deadline:)` call produced: the tile (nil when the server
/// has none) or why it could not be had, and the warnings of this call alone — so renders
/// sharing one source each report only their own.
struct HTTPTileFetch: Sendable {
    var result: Result<[UInt8]?, HTTPTileSourceError>
    /// Survived problems (a stale copy used, a 403, a cache write that failed), in the order met.
    var warnings: [HTTPTileSourceWarning]

    init(result: Result<[UInt8]?, HTTPTileSourceError>, warnings: [HTTPTileSourceWarning]) {
        self.result = result
        self.warnings = warnings
    }
}
