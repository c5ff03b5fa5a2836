import Foundation

/// Offline place-name lookup from the bundled GeoNames tables (`Data/places.tsv.gz`:
/// cities with 15,000+ people; `Data/countries.tsv`): `--center Helsinki`,
/// `--marker "label:A|Paris"`, `--path "Berlin|Prague|Vienna"`.
///
/// Names match case- and accent-insensitively on the name, the ASCII name and the
/// alternate names. An optional qualifier after a comma narrows by country code or country
/// name ("Paris, US", "Paris, France"). Among equal matches the most populous wins; a
/// country name alone resolves to the country's label point.
public final class Gazetteer: PlaceResolving, @unchecked Sendable {
    public struct Place: Sendable, Hashable {
        public var name: String
        public var coordinate: LatLng
        public var countryCode: String
        public var population: Int
    }

    private var places: [Place] = []
    /// Folded name → indices into `places`, most populous first.
    private var index: [String: [Int32]] = [:]
    /// All index keys, sorted, for word-prefix lookups ("New York" → "New York City").
    private var sortedKeys: [String] = []
    /// Folded country name / ISO code → ISO alpha-2 code.
    private var countryCodes: [String: String] = [:]
    /// Folded country name → label point.
    private var countryPoints: [String: (String, LatLng)] = [:]

    /// The gazetteer of the bundled data, loaded once; nil when the data is missing.
    public static let bundled: Gazetteer? = {
        guard case .success(let dir) = ResourceLocator.directory(named: "Data", probe: "places.tsv.gz") else { return nil }
        return try? Gazetteer(placesPath: dir + "/places.tsv.gz", countriesPath: dir + "/countries.tsv")
    }()

    /// Largest table file read (the bundled places table is a few MB).
    static let maximumFileBytes = 256 << 20

    /// Loads the tables (gzip or plain TSV with a header line).
    public init(placesPath: String, countriesPath: String?) throws {
        var bytes = try InputFile.read(placesPath, limit: Self.maximumFileBytes)
        if Gzip.isGzip(bytes) { bytes = try Gzip.decompress(bytes, maxOutputBytes: 256 << 20) }
        try loadPlaces(String(decoding: bytes, as: UTF8.self), origin: placesPath)
        if let countriesPath {
            loadCountries(String(decoding: try InputFile.read(countriesPath, limit: Self.maximumFileBytes), as: UTF8.self))
        }
        sortedKeys = index.keys.sorted()
        for key in index.keys {
            index[key]?.sort { a, b in
                let pa = places[Int(a)].population, pb = places[Int(b)].population
                return pa != pb ? pa > pb : a < b
            }
        }
    }

    /// Lower-cased, accents removed, punctuation to spaces, spaces collapsed.
    static func fold(_ s: String) -> String {
        // Fast path for plain ASCII (most GeoNames alternate names): no Foundation folding.
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(s.utf8.count)
            var space = false
            for b in s.utf8 {
                let isAlnum = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                if isAlnum {
                    if space && !bytes.isEmpty { bytes.append(0x20) }
                    bytes.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
                    space = false
                } else {
                    space = true
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let f = s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var out = ""
        out.reserveCapacity(f.count)
        var space = false
        for ch in f {
            if ch.isLetter || ch.isNumber {
                if space && !out.isEmpty { out.append(" ") }
                out.append(ch)
                space = false
            } else {
                space = true
            }
        }
        return out
    }

    private func loadPlaces(_ text: String, origin: String) throws {
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            lineNumber += 1
            if lineNumber == 1 && line.hasPrefix("name\t") { continue }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count >= 8, let lat = Double(f[3]), let lon = Double(f[4]) else { continue }
            let place = Place(name: String(f[0]), coordinate: LatLng(lat, lon), countryCode: String(f[5]),
                              population: Int(f[7]) ?? 0)
            guard place.coordinate.isValid else { continue }
            let i = Int32(places.count)
            places.append(place)
            var keys = Set([Self.fold(String(f[0])), Self.fold(String(f[1]))])
            for alt in f[2].split(separator: ",") { keys.insert(Self.fold(String(alt))) }
            for k in keys where !k.isEmpty { index[k, default: []].append(i) }
        }
    }

    private func loadCountries(_ text: String) {
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count >= 6, let lat = Double(f[4]), let lon = Double(f[5]) else { continue }
            let code = String(f[0])
            countryCodes[Self.fold(code)] = code
            countryCodes[Self.fold(String(f[1]))] = code
            countryCodes[Self.fold(String(f[2]))] = code
            countryPoints[Self.fold(String(f[2]))] = (String(f[2]), LatLng(lat, lon))
        }
    }

    /// The best match for a name, or nil.
    public func place(named name: String) -> Place? {
        var query = name
        var country: String?
        if let comma = name.lastIndex(of: ",") {
            let qualifier = Self.fold(String(name[name.index(after: comma)...]))
            if let code = countryCodes[qualifier] {
                country = code
                query = String(name[..<comma])
            }
        }
        let key = Self.fold(query)
        guard !key.isEmpty else { return nil }
        if let hits = index[key] {
            for h in hits where country == nil || places[Int(h)].countryCode == country {
                return places[Int(h)]
            }
        }
        if country == nil, let (n, c) = countryPoints[key] {
            return Place(name: n, coordinate: c, countryCode: countryCodes[key] ?? "", population: 0)
        }
        // A whole-word prefix of a longer name ("New York" → "New York City"): the most
        // populous such place.
        var best: Place?
        let prefix = key + " "
        var lo = 0, hi = sortedKeys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sortedKeys[mid] < prefix { lo = mid + 1 } else { hi = mid }
        }
        var i = lo
        while i < sortedKeys.count, sortedKeys[i].hasPrefix(prefix), i - lo < 10_000 {
            for h in index[sortedKeys[i]] ?? [] where country == nil || places[Int(h)].countryCode == country {
                let p = places[Int(h)]
                if p.population > (best?.population ?? -1) { best = p }
                break
            }
            i += 1
        }
        return best
    }

    public func coordinate(forPlaceNamed name: String) -> LatLng? {
        place(named: name)?.coordinate
    }

    /// Up to three close names (edit distance ≤ 2, same first letter), most populous first.
    public func suggestions(forPlaceNamed name: String) -> [String] {
        let key = Self.fold(name)
        guard let first = key.first, key.count >= 3 else { return [] }
        var found: [(String, Int)] = []
        for (k, hits) in index where k.first == first && abs(k.count - key.count) <= 2 {
            guard Self.editDistance(k, key, limit: 2) <= 2, let best = hits.first else { continue }
            let p = places[Int(best)]
            found.append((p.name, p.population))
        }
        found.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        var names: [String] = []
        for (n, _) in found where !names.contains(n) {
            names.append(n)
            if names.count == 3 { break }
        }
        return names
    }

    /// Levenshtein distance, giving up (returning limit + 1) once every path exceeds `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        var prev = Array(0...b.count), cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            cur[0] = i
            var rowMin = cur[0]
            for j in 1...max(b.count, 1) where !b.isEmpty {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                rowMin = min(rowMin, cur[j])
            }
            if rowMin > limit { return limit + 1 }
            swap(&prev, &cur)
        }
        return a.isEmpty ? b.count : prev[b.count]
    }
}

/// Resolves names through `Gazetteer.bundled`, loading the tables only when a name is
/// actually looked up (renders with plain coordinates never pay for them).
public struct BundledPlaces: PlaceResolving {
    public init() {}
    public func coordinate(forPlaceNamed name: String) -> LatLng? { Gazetteer.bundled?.coordinate(forPlaceNamed: name) }
    public func suggestions(forPlaceNamed name: String) -> [String] { Gazetteer.bundled?.suggestions(forPlaceNamed: name) ?? [] }
}
