import Foundation

/// A place index file (`NAME.places`, `PlaceIndexFormat`) opened for lookups: the file stays
/// one byte buffer, binary-searched in place (opening a city's index costs a read and a
/// checksum, no parsing).
///
/// Queries are matched case- and accent-insensitively (`Gazetteer.fold`):
/// - an address: `Aleksanterinkatu 52`, `52 Aleksanterinkatu`, `Aleksanterinkatu 52 A`,
///   optionally qualified by city or postcode (`…, Helsinki`, `…, 00100 Helsinki`, or a
///   trailing `Helsinki` without a comma); a number the street lacks falls back to the
///   same number with a letter or range (`52` → `52a`, `52-54`);
/// - a name: a street, a point of interest or a place, by any of its names (`name`,
///   `name:xx`, `alt_name`, …), whole (`Helsingin tuomiokirkko`, `Helsinki Cathedral`),
///   by its trailing words (`Tuomiokirkko`), as the start of one (`Ateneu`), or by all the
///   query's words among its own with one or two more (`Helsinki Central Station` for
///   `Helsinki Central Railway Station`), each better than the next; among equals the more
///   important entry wins.
package final class PlaceIndex: Sendable {
    typealias F = PlaceIndexFormat

    package let path: String
    private let bytes: [UInt8]
    private let entryCount: Int, keyCount: Int
    private let entriesOffset: Int, keysOffset: Int, poolOffset: Int, poolSize: Int
    /// The region's main city (`Helsinki`), or empty.
    package let mainCity: String
    /// Folded other names of cities → the folded city (`helsingfors` → `helsinki`).
    private let cityAliases: [String: String]

    /// How well a name matched.
    package enum Quality: Int, Comparable, Sendable {
        /// Every word of the query among the name's, with a word or two more
        /// (`Helsinki Central Station` → `Helsinki Central Railway Station`).
        case words = 0
        case prefix = 1, trailingWords = 2, exact = 3
        package static func < (a: Quality, b: Quality) -> Bool { a.rawValue < b.rawValue }
    }

    /// A found entry.
    package struct Match: Sendable {
        package var name: String
        package var city: String
        package var coordinate: LatLng
        package var kind: PlaceIndexEntry.Kind
        package var importance: UInt8
        package var quality: Quality
        /// Whether the query's city or postcode qualifier was matched by this index.
        package var qualified: Bool
        /// Whether the entry is in the index's main city (which wins a tie: an unqualified
        /// `Mannerheimintie 5` is the one in the region's own city).
        package var inMainCity = false

        /// Sorts better matches first.
        func isBetter(than other: Match) -> Bool {
            (quality, importance, inMainCity ? 1 : 0) > (other.quality, other.importance, other.inMainCity ? 1 : 0)
        }
    }

    /// Opens the index at `path` (read whole; its checksum is verified).
    package convenience init(path: String) throws(PlaceIndexError) {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: F.maximumFileBytes)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        try self.init(bytes: bytes, path: path)
    }

    /// An index over `bytes` (`path` names it in errors).
    package init(bytes: [UInt8], path: String) throws(PlaceIndexError) {
        self.path = path
        guard bytes.count >= F.magic.count, Array(bytes.prefix(F.magic.count)) == F.magic else { throw .notAPlaceIndex(path: path) }
        guard bytes.count >= F.headerSize + 4 else { throw .corrupt(path: path, detail: "\(bytes.count) bytes is shorter than the header") }
        func u32(_ at: Int) -> Int { Int(Self.readU32(bytes, at)) }
        let version = u32(F.Field.version)
        guard version == F.version else { throw .unsupportedVersion(path: path, version: version) }
        let stored = Self.readU32(bytes, bytes.count - 4)
        let computed = Gzip.crc32(bytes[0..<(bytes.count - 4)])
        guard stored == computed else {
            throw .corrupt(path: path, detail: String(format: "checksum %08x, contents give %08x", stored, computed))
        }
        entryCount = u32(F.Field.entryCount)
        keyCount = u32(F.Field.keyCount)
        poolSize = u32(F.Field.stringBytes)
        let aliasCount = u32(F.Field.aliasCount)
        entriesOffset = F.headerSize
        keysOffset = entriesOffset + entryCount * F.entrySize
        let aliasesOffset = keysOffset + keyCount * F.keySize
        poolOffset = aliasesOffset + aliasCount * 8
        guard poolOffset + poolSize + 4 == bytes.count else {
            throw .corrupt(path: path, detail: "sections of \(entryCount) entries, \(keyCount) keys, \(aliasCount) aliases and \(poolSize) string bytes do not add up to the file's \(bytes.count) bytes")
        }
        self.bytes = bytes
        mainCity = Self.string(bytes, poolOffset: poolOffset, poolSize: poolSize, ref: Self.readU32(bytes, F.Field.mainCity))
        var aliases: [String: String] = [:]
        for i in 0..<aliasCount {
            let alias = Self.string(bytes, poolOffset: poolOffset, poolSize: poolSize, ref: Self.readU32(bytes, aliasesOffset + 8 * i))
            let city = Self.string(bytes, poolOffset: poolOffset, poolSize: poolSize, ref: Self.readU32(bytes, aliasesOffset + 8 * i + 4))
            if !alias.isEmpty, !city.isEmpty { aliases[alias] = Gazetteer.fold(city) }
        }
        cityAliases = aliases
    }

    /// How many entries the index holds.
    package var count: Int { entryCount }

    // MARK: Reading

    private static func readU32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard at >= 0, at + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    /// The string at `ref`, or empty for `noString` or a ref outside the pool.
    private static func string(_ bytes: [UInt8], poolOffset: Int, poolSize: Int, ref: UInt32) -> String {
        guard let range = stringRange(bytes, poolOffset: poolOffset, poolSize: poolSize, ref: ref) else { return "" }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    private static func stringRange(_ bytes: [UInt8], poolOffset: Int, poolSize: Int, ref: UInt32) -> Range<Int>? {
        guard ref != F.noString, Int(ref) + 2 <= poolSize else { return nil }
        let at = poolOffset + Int(ref)
        let length = Int(bytes[at]) | Int(bytes[at + 1]) << 8
        guard Int(ref) + 2 + length <= poolSize else { return nil }
        return (at + 2)..<(at + 2 + length)
    }

    private func string(_ ref: UInt32) -> String { Self.string(bytes, poolOffset: poolOffset, poolSize: poolSize, ref: ref) }

    /// Entry `i`'s fields.
    struct Entry {
        var coordinate: LatLng
        var name: String, city: String, postcode: String
        var kind: PlaceIndexEntry.Kind
        var importance: UInt8
    }

    func entry(_ i: Int) -> Entry? {
        guard i >= 0, i < entryCount else { return nil }
        let at = entriesOffset + i * F.entrySize
        let lat = Double(Int32(bitPattern: Self.readU32(bytes, at))) * 1e-7
        let lon = Double(Int32(bitPattern: Self.readU32(bytes, at + 4))) * 1e-7
        guard let kind = PlaceIndexEntry.Kind(rawValue: bytes[at + 20]) else { return nil }
        let coordinate = LatLng(latitude: lat, longitude: lon)
        guard coordinate.isValid else { return nil }
        return Entry(coordinate: coordinate, name: string(Self.readU32(bytes, at + 8)), city: string(Self.readU32(bytes, at + 12)),
                     postcode: string(Self.readU32(bytes, at + 16)), kind: kind, importance: bytes[at + 21])
    }

    /// Key `k`: its bytes' range, entry and type.
    private func key(_ k: Int) -> (range: Range<Int>, entry: Int, type: F.KeyType)? {
        let at = keysOffset + k * F.keySize
        guard let range = Self.stringRange(bytes, poolOffset: poolOffset, poolSize: poolSize, ref: Self.readU32(bytes, at)),
              let type = F.KeyType(rawValue: bytes[at + 8]) else { return nil }
        return (range, Int(Self.readU32(bytes, at + 4)), type)
    }

    /// Sign of (key `k`'s bytes, cut to `query.count` when `prefix`) − `query`.
    private func compareKey(_ k: Int, _ query: [UInt8], prefix: Bool) -> Int {
        guard let range = key(k)?.range else { return -1 }
        var i = range.lowerBound
        for b in query {
            guard i < range.upperBound else { return -1 }
            if bytes[i] != b { return bytes[i] < b ? -1 : 1 }
            i += 1
        }
        return prefix || i == range.upperBound ? 0 : 1
    }

    /// The first key not less than `query` (as a prefix when `prefix`).
    private func lowerBound(_ query: [UInt8], prefix: Bool) -> Int {
        var lo = 0, hi = keyCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if compareKey(mid, query, prefix: prefix) < 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Keys equal to `key` (or starting with it), at most `limit`.
    private func keys(matching key: String, prefix: Bool, limit: Int = 2_000) -> [(entry: Int, type: F.KeyType, keyText: String)] {
        let query = Array(key.utf8)
        guard !query.isEmpty else { return [] }
        var k = lowerBound(query, prefix: prefix)
        var out: [(Int, F.KeyType, String)] = []
        while k < keyCount, out.count < limit, compareKey(k, query, prefix: prefix) == 0, let found = self.key(k) {
            out.append((found.entry, found.type, String(decoding: bytes[found.range], as: UTF8.self)))
            k += 1
        }
        return out
    }

    // MARK: Search

    /// The best entry for `text`, or nil.
    package func search(_ text: String) -> Match? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        // The longest name first: "Tuomiokirkko, Helsinki" tries the whole text, then
        // "Tuomiokirkko" within Helsinki.
        for split in stride(from: parts.count, through: 1, by: -1) {
            let name = parts[..<split].joined(separator: ", ")
            let qualifiers = parts[split...].map(Gazetteer.fold).filter { !$0.isEmpty }
            if let m = searchName(name, qualifiers: qualifiers) { return m }
        }
        return nil
    }

    private func searchName(_ name: String, qualifiers: [String]) -> Match? {
        if let address = PlaceQuery.address(name) {
            let extra = address.trailing.isEmpty ? [] : [Gazetteer.fold(address.trailing)]
            if let m = searchAddress(street: address.street, number: address.number, qualifiers: qualifiers + extra) { return m }
        }
        let key = Gazetteer.fold(name)
        guard !key.isEmpty else { return nil }
        var best: Match?
        func consider(_ hits: [(entry: Int, type: F.KeyType, keyText: String)], quality: (F.KeyType) -> Quality) {
            for hit in hits {
                guard let e = entry(hit.entry), e.kind != .address, allows(e, qualifiers) else { continue }
                let m = Match(name: e.name, city: e.city, coordinate: e.coordinate, kind: e.kind, importance: e.importance,
                              quality: quality(hit.type), qualified: !qualifiers.isEmpty, inMainCity: e.city == mainCity)
                if best.map({ m.isBetter(than: $0) }) ?? true { best = m }
            }
        }
        consider(keys(matching: key, prefix: false)) { $0 == .whole ? .exact : .trailingWords }
        if best == nil, key.count >= 4 { consider(keys(matching: key, prefix: true, limit: 500)) { _ in .prefix } }
        return best ?? searchWords(key, qualifiers: qualifiers)
    }

    /// Most words a name may have beyond the query's for a `.words` match.
    static let maximumExtraWords = 2

    /// A name holding every word of the query in order, the first one first, with at most
    /// `maximumExtraWords` more (the words people leave out: `Helsinki Central Station` for
    /// OpenStreetMap's `Helsinki Central Railway Station`, `Central Station, Helsinki`). Fewer
    /// extra words win, then importance. Names are found by the query's first word, as a
    /// whole name's first word or a trailing-words key's, so a word inside a name counts too.
    private func searchWords(_ key: String, qualifiers: [String]) -> Match? {
        let words = key.split(separator: " ")
        guard words.count >= 2, words[0].count >= 3 else { return nil }
        var best: (match: Match, extra: Int)?
        for hit in keys(matching: words[0] + " ", prefix: true, limit: 2_000) {
            let names = hit.keyText.split(separator: " ")
            let extra = names.count - words.count
            guard extra > 0, extra <= Self.maximumExtraWords, Self.isSubsequence(words, of: names) else { continue }
            guard let e = entry(hit.entry), e.kind != .address, allows(e, qualifiers) else { continue }
            let m = Match(name: e.name, city: e.city, coordinate: e.coordinate, kind: e.kind, importance: e.importance,
                          quality: .words, qualified: !qualifiers.isEmpty, inMainCity: e.city == mainCity)
            if let b = best, b.extra < extra || (b.extra == extra && !m.isBetter(than: b.match)) { continue }
            best = (m, extra)
        }
        return best?.match
    }

    /// Whether `words` appear in `names` in order (not necessarily next to each other).
    static func isSubsequence(_ words: [Substring], of names: [Substring]) -> Bool {
        var i = 0
        for name in names where i < words.count && name == words[i] { i += 1 }
        return i == words.count
    }

    private func searchAddress(street: String, number: String, qualifiers: [String]) -> Match? {
        let streetKey = Gazetteer.fold(street)
        guard !streetKey.isEmpty, !number.isEmpty else { return nil }
        let exact = keys(matching: "\(streetKey) \(number)", prefix: false)
        var hits = exact
        if hits.isEmpty {
            // `52` → `52a` or `52-54`; `52b` (missing) → `52`.
            let digits = String(number.prefix { $0.isNumber })
            guard !digits.isEmpty else { return nil }
            hits = keys(matching: "\(streetKey) \(digits)", prefix: true).filter { hit in
                let rest = hit.keyText.dropFirst(streetKey.count + 1 + digits.count)
                return rest.first.map { !$0.isNumber } ?? true
            }
        }
        var best: Match?
        for hit in hits {
            guard let e = entry(hit.entry), e.kind == .address, allows(e, qualifiers) else { continue }
            let m = Match(name: e.name, city: e.city, coordinate: e.coordinate, kind: e.kind, importance: e.importance,
                          quality: .exact, qualified: !qualifiers.isEmpty, inMainCity: e.city == mainCity)
            if best.map({ m.isBetter(than: $0) }) ?? true { best = m }
        }
        return best
    }

    /// Whether entry `e` satisfies every qualifier: its city (or another name of it), its
    /// postcode, or both (`00100 Helsinki`).
    private func allows(_ e: Entry, _ qualifiers: [String]) -> Bool {
        guard !qualifiers.isEmpty else { return true }
        let city = Gazetteer.fold(e.city), postcode = Gazetteer.fold(e.postcode)
        func isCity(_ q: String) -> Bool { !city.isEmpty && (q == city || cityAliases[q] == city) }
        return qualifiers.allSatisfy { q in
            if isCity(q) || (!postcode.isEmpty && q == postcode) { return true }
            // "00100 helsinki" / "helsinki 00100"
            let words = q.split(separator: " ").map(String.init)
            guard words.count >= 2 else { return false }
            if words[0] == postcode { return isCity(words.dropFirst().joined(separator: " ")) }
            if words[words.count - 1] == postcode { return isCity(words.dropLast().joined(separator: " ")) }
            return false
        }
    }

    // MARK: Suggestions

    /// Up to `limit` names close to `text` (edit distance ≤ 2 on the folded name or address,
    /// same first letter; qualifiers after a comma left out), closest and most important first.
    package func suggestions(for text: String, limit: Int = 3) -> [String] {
        let base = text.split(separator: ",", maxSplits: 1).first.map(String.init) ?? text
        var key = Gazetteer.fold(base)
        if let a = PlaceQuery.address(base) { key = "\(Gazetteer.fold(a.street)) \(a.number)" }
        let scalars = Array(key.unicodeScalars.map(\.value))
        guard let first = key.unicodeScalars.first, scalars.count >= 3 else { return [] }
        let firstBytes = Array(String(first).utf8)
        var k = lowerBound(firstBytes, prefix: true)
        var found: [(distance: Int, importance: Int, name: String)] = []
        let limitDistance = scalars.count < 6 ? 1 : 2
        var examined = 0
        while k < keyCount, examined < 200_000, compareKey(k, firstBytes, prefix: true) == 0 {
            defer { k += 1; examined += 1 }
            guard let hit = self.key(k), hit.type == .whole else { continue }
            let candidate = String(decoding: bytes[hit.range], as: UTF8.self)
            let other = Array(candidate.unicodeScalars.map(\.value))
            guard abs(other.count - scalars.count) <= limitDistance else { continue }
            let d = EditDistance.between(candidate, key, limit: limitDistance)
            guard d <= limitDistance, let e = entry(hit.entry) else { continue }
            let shown = e.kind == .address && !e.city.isEmpty ? "\(e.name), \(e.city)" : e.name
            found.append((d, Int(e.importance), shown))
        }
        found.sort { ($0.distance, -$0.importance, $0.name) < ($1.distance, -$1.importance, $1.name) }
        var names: [String] = []
        for f in found where !names.contains(f.name) {
            names.append(f.name)
            if names.count == limit { break }
        }
        return names
    }
}
