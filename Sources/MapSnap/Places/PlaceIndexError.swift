/// Why a place index file (`NAME.places`) could not be used. Cases name the file and what
/// is wrong with it, so a damaged or foreign file is reported instead of trusted.
public enum PlaceIndexError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file does not start with the `MSPLACES` magic.
    case notAPlaceIndex(path: String)
    /// The file is a place index of a format version this mapsnap does not read.
    case unsupportedVersion(path: String, version: Int)
    /// The file's sections do not fit its length, or its checksum does not match.
    case corrupt(path: String, detail: String)

    /// One line naming the file and what is wrong with it.
    public var description: String {
        switch self {
        case .unreadable(let p, let r): return "\(p): cannot read the place index: \(r)"
        case .notAPlaceIndex(let p): return "\(p): not a mapsnap place index (no MSPLACES header)"
        case .unsupportedVersion(let p, let v):
            return "\(p): place index version \(v) is not supported (rebuild it with 'mapsnap data build')"
        case .corrupt(let p, let d): return "\(p): damaged place index: \(d) (rebuild it with 'mapsnap data build')"
        }
    }
}
