/// Why `mapsnap data extract` could not copy an area's tiles. Each case names the file,
/// URL or flag and says why; `isInputProblem` tells bad input (exit 2) from a runtime
/// failure (the network, the disk: exit 3).
package enum RegionExtractError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The area is unusable (`flag` names where it came from: `--bbox`, `--radius`, the file).
    case invalidArea(flag: String, reason: String)
    /// The source could not be opened: missing, unreadable, not an archive, or unreachable.
    case source(TileSourceError)
    /// The source is an archive mapsnap cannot extract from (a tile directory, a URL template).
    case unsupportedSource(path: String, reason: String)
    /// The source holds no tile in the area at the zooms asked for.
    case noTiles(path: String, area: String, zooms: String, sourceBounds: String)
    /// The zoom range asked for is unusable.
    case invalidZooms(reason: String)
    /// A PMTiles archive is malformed (or a read of it failed: `.io`, `.archiveChanged`).
    case pmtiles(PMTilesError)
    /// An MBTiles file could not be read.
    case mbtiles(MBTilesError)
    /// The output could not be written.
    case write(path: String, reason: String)
    /// The caller asked to stop.
    case cancelled

    /// True for bad input (the area, the zooms, a source that is not an archive or is
    /// corrupt); false for failures of the network, the disk, or an archive changing meanwhile.
    package var isInputProblem: Bool {
        switch self {
        case .invalidArea, .unsupportedSource, .noTiles, .invalidZooms, .mbtiles: return true
        case .write, .cancelled: return false
        case .pmtiles(let e):
            switch e {
            case .io, .archiveChanged: return false
            default: return true
            }
        case .source(let e): return e.isInputProblem
        }
    }

    /// One line naming what failed, where and why: the message the CLI prints.
    package var description: String {
        switch self {
        case .invalidArea(let flag, let reason): return "\(flag): \(reason)"
        case .source(let e): return e.description
        case .unsupportedSource(let p, let r): return "\(p): \(r)"
        case .noTiles(let p, let area, let zooms, let bounds):
            return "\(p) has no tiles in \(area) at zooms \(zooms) (its tiles cover \(bounds))"
        case .invalidZooms(let r): return r
        case .pmtiles(let e): return e.description
        case .mbtiles(let e): return e.description
        case .write(let p, let r): return "cannot write \(p): \(r)"
        case .cancelled: return "extract interrupted; nothing was written"
        }
    }
}
