import Foundation

/// Resolves place names offline, from OpenStreetMap address and place indexes (`NAME.places`
/// of each region, and the bundled Helsinki index) and the bundled GeoNames gazetteer:
/// `--marker 'Aleksanterinkatu 52, Helsinki'`, `--center 'Helsinki Cathedral'`,
/// `--center Paris`.
///
/// Which answer wins, so that a street called "Paris" in one region never moves Paris:
/// 1. A house-numbered query (`Aleksanterinkatu 52`) or one whose city or postcode
///    qualifier an index knows (`Tuomiokirkko, Helsinki`) goes to the indexes first.
/// 2. Otherwise a gazetteer city whose whole name matches (`Paris`, `Paris, Texas`) wins.
/// 3. Then a whole-name match in an index (`Helsinki Cathedral`, `Ateneum`) — it also wins
///    over a gazetteer city that only starts with the text.
/// 4. Then the gazetteer's prefix match (`New York` → New York City), then an index's
///    trailing-word, prefix or words match (`Tuomiokirkko` → Helsingin tuomiokirkko,
///    `Helsinki Central Station` → Helsinki Central Railway Station).
///
/// Among indexes, the better match wins (exact before partial, then importance), then the
/// earlier index. Indexes are opened on the first lookup, not before (renders with
/// coordinates only never read them); one that cannot be opened is skipped and reported by
/// `problems`. "Did you mean" suggestions come from the indexes, then the gazetteer.
public final class PlaceResolver: PlaceResolving, Sendable {
    /// The index files, in order of preference: listed on the first lookup, so that a render
    /// naming no place neither lists the data directory nor looks for the bundled index.
    private let indexPaths: @Sendable () -> [String]
    private let usesGazetteer: Bool
    private let loaded = Locked<(indexes: [PlaceIndex], problems: [String])?>(nil)

    /// A resolver over the index files at `indexPaths` (in order of preference), then the
    /// bundled Helsinki index (`Data/helsinki.places`) when `includesBundledIndex`, then the
    /// bundled gazetteer when `usesGazetteer`.
    public convenience init(indexPaths: [String], includesBundledIndex: Bool = true, usesGazetteer: Bool = true) {
        self.init(indexPaths: { indexPaths }, includesBundledIndex: includesBundledIndex, usesGazetteer: usesGazetteer)
    }

    /// A resolver over the index files `indexPaths` lists when first asked (see above).
    init(indexPaths: @escaping @Sendable () -> [String], includesBundledIndex: Bool = true, usesGazetteer: Bool = true) {
        self.indexPaths = {
            var paths = indexPaths()
            if includesBundledIndex, let bundled = PlaceResolver.bundledIndexPath { paths.append(bundled) }
            return paths
        }
        self.usesGazetteer = usesGazetteer
    }

    /// Why the bundled place names (the gazetteer in `Data/`) are not there, or nil when they
    /// are: an unknown place then says how to install them, not only that the name is unknown.
    static var bundledPlacesMissing: ResourceNotFound? {
        guard case .failure(let missing) = ResourceLocator.directory(named: "Data", probe: "placenames.tsv.gz") else { return nil }
        return missing
    }

    /// `Data/helsinki.places`, when the bundled data is found.
    static var bundledIndexPath: String? {
        guard case .success(let dir) = ResourceLocator.directory(named: "Data", probe: "helsinki.places") else { return nil }
        return dir + "/helsinki.places"
    }

    /// Index files that could not be used (one line each, naming the file), once a lookup
    /// has opened them; empty before.
    public var problems: [String] { loaded.withLock { $0?.problems ?? [] } }

    private var indexes: [PlaceIndex] {
        loaded.withLock { state in
            if let state { return state.indexes }
            var indexes: [PlaceIndex] = [], problems: [String] = []
            for path in indexPaths() {
                do { indexes.append(try PlaceIndex(path: path)) } catch {
                    problems.append("\(error); its addresses are not used")
                }
            }
            state = (indexes, problems)
            return indexes
        }
    }

    /// The coordinate for a place name or address, or nil (see the type for the order).
    public func coordinate(forPlaceNamed name: String) -> LatLng? {
        resolve(name)?.coordinate
    }

    /// The answer for `name` and where it came from (for tests and tools).
    package func resolve(_ name: String) -> (coordinate: LatLng, fromIndex: Bool)? {
        var best: PlaceIndex.Match?
        for index in indexes {
            if let m = index.search(name), best.map({ m.isBetter(than: $0) }) ?? true { best = m }
        }
        if let m = best, m.kind == .address || m.qualified { return (m.coordinate, true) }
        let gazetteer = usesGazetteer ? Gazetteer.bundled?.match(named: name) : nil
        if let g = gazetteer, g.exact { return (g.place.coordinate, false) }
        if let m = best, m.quality == .exact { return (m.coordinate, true) }
        if let g = gazetteer { return (g.place.coordinate, false) }
        return best.map { ($0.coordinate, true) }
    }

    /// Close names for a miss: up to three from the indexes, then the gazetteer's (five at most).
    public func suggestions(forPlaceNamed name: String) -> [String] {
        var out: [String] = []
        for index in indexes {
            for s in index.suggestions(for: name, limit: 3) where !out.contains(s) { out.append(s) }
        }
        out = Array(out.prefix(3))
        if usesGazetteer {
            for s in Gazetteer.bundled?.suggestions(forPlaceNamed: name) ?? [] where !out.contains(s) { out.append(s) }
        }
        return Array(out.prefix(5))
    }
}
