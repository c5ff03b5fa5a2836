import Foundation

/// Offline place-name lookup from the bundled GeoNames tables (`Data/places.tsv.gz`:
/// cities with 15,000+ people; `Data/placenames.tsv.gz`: every name of each of them;
/// `Data/countries.tsv`, `Data/admin1.tsv`): `--center Helsinki`, `--center München`,
/// `--marker "label:A|San Francisco,CA"`, `--path "Berlin|Prague|Vienna"`.
///
/// Names match case- and accent-insensitively (`fold`) on the name and every GeoNames
/// alternate name, in any script (`東京`, `Москва`). How a text is resolved, first hit wins:
///
/// 1. The whole text as a name; among equal names the most populous place. A country's
///    name resolves to the country's label point unless the most populous place of that
///    name is called so itself (`Mexico` is the country, `Singapore` the city).
/// 2. Trailing comma-separated qualifiers, each a country (code or name) or a first-level
///    division (US state, Canadian province, Australian state… by code or name):
///    `Berkeley,CA`, `Paris, Texas`, `San Francisco, California, USA`.
/// 3. A trailing word as such a qualifier: `Melbourne VIC`, `Paris France`.
/// 4. A whole-word prefix of a longer place name, not of an alternate name: `New York` →
///    `New York City` (not `Tok` → `Tok Wah Wan`, an alternate name of To Kwa Wan).
///
/// Anything else is unknown: the caller reports it with `suggestions`. Loading reads about
/// 9 MB of tables without building a dictionary: the name index stays one sorted byte
/// buffer and is binary-searched in place.
final class Gazetteer: PlaceResolving, Sendable {
    struct Place: Sendable, Hashable {
        var name: String
        var coordinate: LatLng
        var countryCode: String
        /// GeoNames first-level division code (`CA` for California, `08` for Ontario).
        var admin1Code: String
        var population: Int

        init(name: String, coordinate: LatLng, countryCode: String, admin1Code: String = "", population: Int) {
            self.name = name
            self.coordinate = coordinate
            self.countryCode = countryCode
            self.admin1Code = admin1Code
            self.population = population
        }
    }

    /// Places, most populous first (the order of `places.tsv.gz`), parsed row by row as
    /// lookups read them.
    let places: PlaceTable
    /// `placenames.tsv.gz` decompressed: lines `key<TAB>row,row,…`, sorted by the key's
    /// UTF-8 bytes; rows index `places`, most populous first.
    private let names: [UInt8]
    /// Where each line of `names` starts, plus one past the end.
    private let lineStarts: [Int32]
    /// Folded country name / ISO code → ISO alpha-2 code.
    private let countryCodes: [String: String]
    /// Folded country name → the country's name and label point.
    private let countryPoints: [String: Place]
    /// Folded division abbreviation or name → the divisions it names (`wa`: Washington and
    /// Western Australia).
    private let divisions: [String: [Division]]

    private struct Division: Hashable {
        var countryCode: String
        var admin1Code: String
    }

    /// The gazetteer of the bundled data, loaded once; nil when the data is missing.
    static let bundled: Gazetteer? = {
        guard case .success(let dir) = ResourceLocator.directory(named: "Data", probe: "placenames.tsv.gz") else { return nil }
        return try? Gazetteer(directory: dir)
    }()

    /// Largest table file read, compressed or not (small enough for `Int32` line offsets).
    static let maximumFileBytes = 64 << 20

    /// Loads `places.tsv.gz`, `placenames.tsv.gz`, `countries.tsv` and `admin1.tsv` (the last
    /// two optional) from `directory`; see `Data/README.md` for their columns.
    init(directory: String) throws {
        func read(_ name: String) throws -> [UInt8] {
            var bytes = try InputFile.read(directory + "/" + name, limit: Self.maximumFileBytes)
            if Gzip.isGzip(bytes) { bytes = try Gzip.decompress(bytes, maxOutputBytes: Self.maximumFileBytes) }
            return bytes
        }
        places = PlaceTable(try read("places.tsv.gz"))
        names = try read("placenames.tsv.gz")
        var starts: [Int32] = [0]
        starts.reserveCapacity(names.count / 16)
        Self.forEachNewline(in: names) { starts.append(Int32($0 + 1)) }
        if let last = starts.last, Int(last) < names.count { starts.append(Int32(names.count)) }
        lineStarts = starts
        var codes: [String: String] = [:], points: [String: Place] = [:]
        if let text = try? read("countries.tsv") {
            for f in Self.rows(text).dropFirst() where f.count >= 6 {
                guard let lat = Self.number(f[4]), let lon = Self.number(f[5]) else { continue }
                let code = Self.text(f[0]), name = Self.text(f[2])
                for key in [code, Self.text(f[1]), name] { codes[Self.fold(key)] = code }
                points[Self.fold(name)] = Place(name: name, coordinate: LatLng(lat, lon), countryCode: code, population: 0)
            }
        }
        countryCodes = codes
        countryPoints = points
        var divisions: [String: [Division]] = [:]
        if let text = try? read("admin1.tsv") {
            for f in Self.rows(text).dropFirst() where f.count >= 4 {
                let division = Division(countryCode: Self.text(f[0]), admin1Code: Self.text(f[1]))
                for key in Set([Self.fold(Self.text(f[2])), Self.fold(Self.text(f[3]))]) where !key.isEmpty {
                    divisions[key, default: []].append(division)
                }
            }
        }
        self.divisions = divisions
    }

    /// Tab-separated fields of each non-empty line, as byte slices: the tables are split
    /// as bytes (a `String` split walks grapheme clusters, ~10× slower on 3 MB of text), and
    /// only the fields used become strings or numbers (`text`, `number`).
    private static func rows(_ bytes: [UInt8]) -> [[ArraySlice<UInt8>]] {
        bytes.split(separator: 0x0A).map { $0.split(separator: 0x09, omittingEmptySubsequences: false) }
    }

    /// Calls `body` with the offset of every line feed in `bytes`, in order (memchr: the
    /// tables are megabytes, read at every start that resolves a place name).
    fileprivate static func forEachNewline(in bytes: [UInt8], _ body: (Int) -> Void) {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count, let hit = memchr(base + offset, 0x0A, raw.count - offset) {
                let i = base.distance(to: UnsafeRawPointer(hit))
                body(i)
                offset = i + 1
            }
        }
    }

    /// A field as text (invalid UTF-8 becomes U+FFFD, as when the file is decoded whole).
    fileprivate static func text(_ field: ArraySlice<UInt8>) -> String { String(decoding: field, as: UTF8.self) }

    /// A field as a number, or nil.
    fileprivate static func number(_ field: ArraySlice<UInt8>) -> Double? { Double(text(field)) }

    /// The rows of `places.tsv.gz` (`name, latitude, longitude, country_code, admin1_code,
    /// population, …` after a header line; empty lines skipped). Loading only finds where
    /// the rows start; a row becomes a `Place` when a lookup reads it, so resolving one name
    /// parses a few rows, not 40,000 (which cost ~40 ms of every `--center Turku`).
    struct PlaceTable: RandomAccessCollection, Sendable {
        private let bytes: [UInt8]
        /// Where each data row starts.
        private let starts: [Int32]

        init(_ bytes: [UInt8]) {
            var starts: [Int32] = []
            starts.reserveCapacity(bytes.count / 24)
            // Non-empty lines after the first (the header), as `split` would number them.
            var lineStart = 0, header = true
            func line(endingAt end: Int) {
                guard end > lineStart else { return }
                if header { header = false } else { starts.append(Int32(lineStart)) }
            }
            Gazetteer.forEachNewline(in: bytes) { i in
                line(endingAt: i)
                lineStart = i + 1
            }
            line(endingAt: bytes.count)
            self.bytes = bytes
            self.starts = starts
        }

        var startIndex: Int { 0 }
        var endIndex: Int { starts.count }

        /// Row `row`; a damaged one (too few fields, no coordinate) keeps its number but has
        /// an invalid coordinate and never matches.
        subscript(row: Int) -> Place {
            let start = Int(starts[row])
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let f = bytes[start..<end].split(separator: 0x09, omittingEmptySubsequences: false)
            guard f.count >= 6, let lat = Gazetteer.number(f[1]), let lon = Gazetteer.number(f[2]) else {
                return Place(name: "", coordinate: LatLng(.nan, .nan), countryCode: "", population: -1)
            }
            return Place(name: Gazetteer.text(f[0]), coordinate: LatLng(lat, lon), countryCode: Gazetteer.text(f[3]),
                         admin1Code: Gazetteer.text(f[4]), population: Int(Gazetteer.text(f[5])) ?? 0)
        }
    }

    // MARK: Folding

    /// Letters that neither compatibility decomposition nor lower-casing make plain, but
    /// that people type without their stroke or ligature. `scripts/worlddata/places.py`
    /// folds with the same table: both sides must make the same key.
    private static let spelledOut: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "ı": "i", "þ": "th",
    ]

    /// The lookup key of a name, as `fold_name` in `scripts/worlddata/places.py` makes it:
    /// compatibility-decomposed (NFKD), lower-cased, non-spacing marks dropped, a few letters
    /// spelled out (`spelledOut`); letters, numbers and spacing marks kept and every run of
    /// anything else one space, none at either end.
    static func fold(_ s: String) -> String {
        // Plain ASCII (most queries) needs no Unicode tables and gives the same result.
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
        var out = String.UnicodeScalarView()
        var space = false
        for scalar in s.decomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark:
                continue
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber, .spacingMark:
                if space && !out.isEmpty { out.append(" ") }
                if let spelled = spelledOut[scalar] { out.append(contentsOf: spelled.unicodeScalars) } else { out.append(scalar) }
                space = false
            default:
                space = true
            }
        }
        return String(out)
    }

    // MARK: Lookup

    /// The best match for a name, or nil (see the type's documentation for the rules).
    func place(named text: String) -> Place? { match(named: text)?.place }

    /// The best match for a name and whether it matched a whole name (rules 1–3) rather
    /// than the start of a longer one (rule 4): `PlaceResolver` weighs a prefix match below
    /// an exact match in a region's index.
    func match(named text: String) -> (place: Place, exact: Bool)? {
        let key = Self.fold(text)
        guard !key.isEmpty else { return nil }
        if let p = whole(key) { return (p, true) }
        // Comma-separated qualifiers, the longest name first: "Washington, D.C., USA" tries
        // "Washington, D.C." with USA before "Washington" with "D.C." and USA.
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count > 1 {
            for split in stride(from: parts.count - 1, through: 1, by: -1) {
                let name = Self.fold(parts[..<split].joined(separator: ","))
                guard !name.isEmpty, let filter = qualifiers(parts[split...].map { Self.fold(String($0)) }) else { continue }
                if let p = exact(name, filter) { return (p, true) }
                if let p = longerName(startingWith: name, filter) { return (p, false) }
            }
        }
        if let space = key.lastIndex(of: " ") {
            let name = String(key[..<space]), last = String(key[key.index(after: space)...])
            if let filter = qualifiers([last]) {
                if let p = exact(name, filter) { return (p, true) }
                if let p = longerName(startingWith: name, filter) { return (p, false) }
            }
        }
        return longerName(startingWith: key, nil).map { ($0, false) }
    }

    func coordinate(forPlaceNamed name: String) -> LatLng? {
        place(named: name)?.coordinate
    }

    /// A place named exactly `key`, or a country of that name.
    private func whole(_ key: String) -> Place? {
        let hits = rows(named: key)
        if let country = countryPoints[key] {
            // A country wins over a city that is only *also* called so (Mexico City's
            // alternate name "Mexico"); a city whose own name it is wins over the country.
            if let first = hits.first, Self.fold(places[first].name) == key { return places[first] }
            return country
        }
        return hits.first.map { places[$0] }
    }

    /// What qualifiers allow: a place must satisfy every one.
    private struct Filter {
        /// Per qualifier: the countries and the divisions it may mean.
        var alternatives: [(countries: Set<String>, divisions: Set<Division>)]

        func allows(_ p: Place) -> Bool {
            alternatives.allSatisfy { a in
                a.countries.contains(p.countryCode) || a.divisions.contains(Division(countryCode: p.countryCode, admin1Code: p.admin1Code))
            }
        }
    }

    /// The filter for folded qualifiers, or nil when one of them is no country or division.
    private func qualifiers(_ folded: [String]) -> Filter? {
        var filter = Filter(alternatives: [])
        for q in folded {
            let countries = countryCodes[q].map { Set([$0]) } ?? []
            let divisions = Set(self.divisions[q] ?? [])
            guard !countries.isEmpty || !divisions.isEmpty else { return nil }
            filter.alternatives.append((countries, divisions))
        }
        return filter
    }

    /// The most populous place named exactly `key` that `filter` allows.
    private func exact(_ key: String, _ filter: Filter?) -> Place? {
        for row in rows(named: key) where filter?.allows(places[row]) ?? true { return places[row] }
        return nil
    }

    /// The most populous place whose own name (not an alternate name) starts with the words
    /// of `key` and goes on ("New York" → "New York City"), that `filter` allows.
    private func longerName(startingWith key: String, _ filter: Filter?) -> Place? {
        let prefix = Array((key + " ").utf8)
        var line = lowerBound(prefix)
        var best: Place?
        var examined = 0
        while line < lineStarts.count - 1, examined < 10_000 {
            let start = Int(lineStarts[line])
            guard hasPrefix(at: start, prefix) else { break }
            let lineKey = keyString(line)
            for row in rowsOfLine(line) {
                let p = places[row]
                guard p.population > (best?.population ?? -1), filter?.allows(p) ?? true else { continue }
                if Self.fold(p.name) == lineKey { best = p }
            }
            line += 1
            examined += 1
        }
        return best
    }

    // MARK: The name index

    /// Rows named exactly `key` (folded), most populous first.
    func rows(named key: String) -> [Int] {
        let bytes = Array(key.utf8) + [0x09]
        let line = lowerBound(bytes)
        guard line < lineStarts.count - 1, hasPrefix(at: Int(lineStarts[line]), bytes) else { return [] }
        return rowsOfLine(line)
    }

    /// The first line whose bytes are not less than `bytes` (compared up to `bytes.count`;
    /// the tab after a key sorts before every character of a longer key, as in the file).
    private func lowerBound(_ bytes: [UInt8]) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if compare(at: Int(lineStarts[mid]), bytes) < 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Sign of (the line's bytes at `start`, truncated to `bytes.count`) − `bytes`.
    private func compare(at start: Int, _ bytes: [UInt8]) -> Int {
        var i = start
        for b in bytes {
            guard i < names.count, names[i] != 0x0A else { return -1 }
            if names[i] != b { return names[i] < b ? -1 : 1 }
            i += 1
        }
        return 0
    }

    private func hasPrefix(at start: Int, _ bytes: [UInt8]) -> Bool { compare(at: start, bytes) == 0 }

    /// The bytes of line `line`'s key.
    private func keyRange(_ line: Int) -> Range<Int> {
        let start = Int(lineStarts[line]), end = Int(lineStarts[line + 1])
        var i = start
        while i < end, names[i] != 0x09 { i += 1 }
        return start..<i
    }

    private func keyString(_ line: Int) -> String { String(decoding: names[keyRange(line)], as: UTF8.self) }

    /// The rows listed on line `line` (valid rows only, so a damaged file cannot trap or
    /// resolve to a broken place).
    private func rowsOfLine(_ line: Int) -> [Int] {
        let end = Int(lineStarts[line + 1])
        var out: [Int] = []
        var value = 0, digits = 0
        for i in keyRange(line).upperBound..<end {
            let b = names[i]
            if b >= 0x30 && b <= 0x39, digits < 9 {
                value = value * 10 + Int(b - 0x30)
                digits += 1
            } else if digits > 0 {
                if value < places.count, places[value].coordinate.isValid { out.append(value) }
                value = 0
                digits = 0
            }
        }
        if digits > 0, value < places.count, places[value].coordinate.isValid { out.append(value) }
        return out
    }

    // MARK: Suggestions

    /// Up to three places whose names are close to `name` (edit distance ≤ 2, same first
    /// letter), closest first, then most populous; qualifiers after a comma are left out
    /// ("Bostn,MA" → Boston). Only names with the same first letter are read: a contiguous
    /// run of the sorted index.
    func suggestions(forPlaceNamed name: String) -> [String] {
        let base = name.split(separator: ",", maxSplits: 1).first.map(String.init) ?? name
        let key = Array(Self.fold(base).unicodeScalars.map(\.value))
        guard let first = key.first, key.count >= 3, let firstScalar = Unicode.Scalar(first) else { return [] }
        let firstBytes = Array(String(firstScalar).utf8)
        var line = lowerBound(firstBytes)
        var found: [(distance: Int, population: Int, name: String)] = []
        var scalars: [UInt32] = []
        var distance = EditDistance()
        while line < lineStarts.count - 1, hasPrefix(at: Int(lineStarts[line]), firstBytes) {
            defer { line += 1 }
            let range = keyRange(line)
            // Scalars are the bytes that do not continue a UTF-8 sequence.
            var count = 0
            for i in range where names[i] & 0xC0 != 0x80 { count += 1 }
            guard abs(count - key.count) <= 2 else { continue }
            scalars.removeAll(keepingCapacity: true)
            for s in String(decoding: names[range], as: UTF8.self).unicodeScalars { scalars.append(s.value) }
            let d = distance(scalars, key, limit: 2)
            guard d <= 2, let row = rowsOfLine(line).first else { continue }
            found.append((d, places[row].population, places[row].name))
        }
        found.sort { ($0.distance, -$0.population, $0.name) < ($1.distance, -$1.population, $1.name) }
        var names: [String] = []
        for f in found where !names.contains(f.name) {
            names.append(f.name)
            if names.count == 3 { break }
        }
        return names
    }
}

/// Resolves names through `Gazetteer.bundled`, loading the tables only when a name is
/// actually looked up (renders with plain coordinates never pay for them).
public struct BundledPlaces: PlaceResolving {
    /// The bundled gazetteer (`Data/`), loaded on first use.
    public init() {}
    /// The place's coordinate, or nil when the bundled data does not know it (or is missing).
    public func coordinate(forPlaceNamed name: String) -> LatLng? { Gazetteer.bundled?.coordinate(forPlaceNamed: name) }
    /// Names of known places spelt like `name`, for a "did you mean" hint.
    public func suggestions(forPlaceNamed name: String) -> [String] { Gazetteer.bundled?.suggestions(forPlaceNamed: name) ?? [] }
}
