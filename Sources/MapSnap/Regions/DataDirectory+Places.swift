import Foundation

extension DataDirectory {
    /// The place index files of the folder's regions (`NAME.places`), sorted by name.
    public func placeIndexPaths() -> [String] {
        files(withExtensions: [DataDirectory.placeIndexExtension])
    }

    /// A resolver for place names and addresses: this folder's region indexes, the bundled
    /// Helsinki index, then the bundled GeoNames gazetteer (see `PlaceResolver`).
    public func placeResolver() -> PlaceResolver {
        let directory = self
        return PlaceResolver(indexPaths: { directory.placeIndexPaths() })
    }
}
