import Foundation

extension DataDirectory {
    /// The place index files of the folder's regions (`NAME.places`), sorted by name.
    public func placeIndexPaths() -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        return names.filter { !$0.hasPrefix(".") && ($0 as NSString).pathExtension == DataDirectory.placeIndexExtension }
            .sorted().map { (path as NSString).appendingPathComponent($0) }
    }

    /// A resolver for place names and addresses: this folder's region indexes, the bundled
    /// Helsinki index, then the bundled GeoNames gazetteer (see `PlaceResolver`).
    public func placeResolver() -> PlaceResolver {
        PlaceResolver(indexPaths: placeIndexPaths())
    }
}
