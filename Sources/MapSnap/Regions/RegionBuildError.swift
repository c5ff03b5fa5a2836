/// Why `mapsnap data build` could not make a region from an `.osm.pbf`.
public enum RegionBuildError: Error, Equatable, Sendable, CustomStringConvertible {
    /// tilemaker is not on `PATH`.
    case tilemakerMissing
    /// A file tilemaker needs is missing: Debian's OpenMapTiles profile or mapsnap's own.
    case profileMissing(path: String)
    /// The extract could not be read.
    case badExtract(path: String, OSMPBFError)
    /// tilemaker exited with `status` (or was killed by signal `status` when `signaled`);
    /// `log` is the end of its output.
    case tilemakerFailed(status: Int32, signaled: Bool, log: String)
    /// Reading or writing a file failed.
    case io(path: String, reason: String)

    /// One line saying what failed and, for a missing tool, what to install.
    public var description: String {
        switch self {
        case .tilemakerMissing: return "data build: needs tilemaker (apt-get install tilemaker)"
        case .profileMissing(let p): return "data build: \(p) is missing (it comes with Debian's tilemaker package and with mapsnap's Data/)"
        case .badExtract(let p, let e): return "\(p): \(e)"
        case .tilemakerFailed(let s, let signaled, let log):
            return "data build: tilemaker \(signaled ? "was killed by signal \(s)" : "failed (exit status \(s))"): \(log)"
        case .io(let p, let r): return "\(p): \(r)"
        }
    }
}
