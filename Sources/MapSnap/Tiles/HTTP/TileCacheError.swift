/// Why a tile could not be written to the cache; each case names the path and the reason.
/// The fetch itself succeeded: the tile is still drawn, with a warning.
enum TileCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A folder inside the cache could not be created or opened.
    case cannotCreate(path: String, reason: String)
    /// A path inside the cache is a symbolic link; the cache never writes through one (a link
    /// planted there could make it overwrite files elsewhere).
    case symbolicLink(path: String)
    /// Writing or syncing the temporary file failed (disk full, I/O error).
    case cannotWrite(path: String, reason: String)
    /// The final rename over the entry failed (e.g. a folder has its name).
    case cannotReplace(path: String, reason: String)
    /// The cache's root folder is writable by other users (`mode`, its permission bits):
    /// they could plant tiles or styles the next render draws, so it is not used.
    case sharedDirectory(path: String, mode: UInt32)

    var description: String {
        switch self {
        case let .cannotCreate(path, reason): return "cannot create \(path): \(reason)"
        case let .symbolicLink(path): return "\(path) is a symbolic link; the tile cache does not follow links"
        case let .cannotWrite(path, reason): return "cannot write \(path): \(reason)"
        case let .cannotReplace(path, reason): return "cannot replace \(path): \(reason)"
        case let .sharedDirectory(path, mode):
            return "\(path): the cache folder is writable by other users (mode \(String(mode & 0o7777, radix: 8))), who could plant "
                + "tiles in it; not used (chmod o-w it, or give a private --cache-dir)"
        }
    }
}
