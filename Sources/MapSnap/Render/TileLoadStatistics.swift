/// How the base map's tiles fared in one render: every tile the camera needed from the
/// style's sources, each source tile counted once (an over-zoomed tile drawn under four
/// image tiles is one request).
///
/// A tile the source simply does not have (`nil`: ocean in a city extract, a zoom it lacks)
/// is *absent*, not failed; a tile that exists but could not be read or decoded — or was
/// not reached before the render's time limit — *failed*, and each failure is also a line
/// in `MapSnapshot.warnings`.
public struct TileLoadStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Tiles the render asked its sources for.
    public var requested = 0
    /// Tiles that arrived and decoded.
    public var loaded = 0
    /// Tiles the sources do not have.
    public var absent = 0
    /// Tiles that exist but could not be read or decoded, or timed out.
    public var failed = 0

    init(requested: Int = 0, loaded: Int = 0, absent: Int = 0, failed: Int = 0) {
        self.requested = requested
        self.loaded = loaded
        self.absent = absent
        self.failed = failed
    }

    /// True when tiles failed and none loaded: the base map shows nothing because of errors,
    /// not because the sources have nothing there. The CLI refuses such a map (exit 3)
    /// unless told `--allow-missing-tiles`.
    public var nothingLoaded: Bool { failed > 0 && loaded == 0 }

    /// Adds another source's counts.
    static func + (a: TileLoadStatistics, b: TileLoadStatistics) -> TileLoadStatistics {
        TileLoadStatistics(requested: a.requested + b.requested, loaded: a.loaded + b.loaded,
                           absent: a.absent + b.absent, failed: a.failed + b.failed)
    }

    /// `12 base-map tiles requested: 10 loaded, 1 absent, 1 failed`, for logs.
    public var description: String {
        "\(requested) base-map tiles requested: \(loaded) loaded, \(absent) absent, \(failed) failed"
    }
}
