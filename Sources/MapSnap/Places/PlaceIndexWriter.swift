/// Writes a place index (`PlaceIndexFormat`) from entries. The output depends only on the
/// entries' content, not their order: entries, keys and strings are sorted, so one
/// extract always gives the same bytes.
package struct PlaceIndexWriter {
    package var entries: [PlaceIndexEntry] = []
    /// The region's main city (`Helsinki`), shown by `data list`-like tools.
    package var mainCity: String = ""
    /// Other names of the entries' cities (`Helsingfors` → `Helsinki`): a query's
    /// `, Helsingfors` qualifier means entries of Helsinki.
    package var cityAliases: [String: String] = [:]

    package init() {}

    /// The index file's bytes.
    package func encode() -> [UInt8] {
        typealias F = PlaceIndexFormat
        let sorted = entries.sorted(by: Self.precedes)
        var pool: [UInt8] = []
        var refs: [String: UInt32] = [:]
        func ref(_ s: String) -> UInt32 {
            if s.isEmpty { return F.noString }
            if let r = refs[s] { return r }
            var bytes = Array(s.utf8)
            if bytes.count > Int(UInt16.max) {
                bytes = Array(String(decoding: bytes.prefix(Int(UInt16.max) - 4), as: UTF8.self).utf8)
            }
            let r = UInt32(pool.count)
            pool.append(UInt8(bytes.count & 0xFF))
            pool.append(UInt8(bytes.count >> 8))
            pool.append(contentsOf: bytes)
            refs[s] = r
            return r
        }
        // Keys first (sorted), so the pool's order follows the key order; then the rest.
        struct Key { var text: String; var bytes: [UInt8]; var type: F.KeyType; var importance: UInt8; var entry: Int }
        var keys: [Key] = []
        for (i, e) in sorted.enumerated() {
            for (text, type) in Self.keys(for: e) {
                keys.append(Key(text: text, bytes: Array(text.utf8), type: type, importance: e.importance, entry: i))
            }
        }
        keys.sort { a, b in
            if a.bytes != b.bytes { return a.bytes.lexicographicallyPrecedes(b.bytes) }
            if a.type != b.type { return a.type.rawValue < b.type.rawValue }
            if a.importance != b.importance { return a.importance > b.importance }
            return a.entry < b.entry
        }
        // Identical (key, entry) pairs are kept once.
        var unique: [Key] = []
        for k in keys where !(unique.last.map { $0.bytes == k.bytes && $0.entry == k.entry } ?? false) { unique.append(k) }
        let keyRefs = unique.map { ref($0.text) }
        var entryRefs: [(UInt32, UInt32, UInt32)] = []
        for e in sorted { entryRefs.append((ref(e.name), ref(e.city), ref(e.postcode))) }
        let mainRef = ref(mainCity)
        var aliases: [String: String] = [:]
        for (alias, city) in cityAliases {
            let key = Gazetteer.fold(alias)
            guard !key.isEmpty, key != Gazetteer.fold(city) else { continue }
            // One city per alias, the same whichever order the dictionary gives.
            if let other = aliases[key], !other.utf8.lexicographicallyPrecedes(city.utf8) { continue }
            aliases[key] = city
        }
        let aliasRefs = aliases.keys.sorted().map { (ref($0), ref(aliases[$0] ?? "")) }

        var out: [UInt8] = []
        out.reserveCapacity(F.headerSize + sorted.count * F.entrySize + unique.count * F.keySize + pool.count + 8)
        func u32(_ v: UInt32) { for i in 0..<4 { out.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }
        func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
        func degrees(_ d: Double) -> Int32 { Int32(clamping: Int64((d * 1e7).rounded())) }
        out.append(contentsOf: F.magic)
        u32(UInt32(F.version))
        u32(UInt32(sorted.count))
        u32(UInt32(unique.count))
        u32(UInt32(pool.count))
        u32(mainRef)
        u32(UInt32(aliasRefs.count))
        let lats: [Double] = sorted.map { $0.coordinate.latitude }
        let lons: [Double] = sorted.map { $0.coordinate.longitude }
        i32(degrees(lats.min() ?? 0))
        i32(degrees(lons.min() ?? 0))
        i32(degrees(lats.max() ?? 0))
        i32(degrees(lons.max() ?? 0))
        while out.count < F.headerSize { out.append(0) }
        for (e, r) in zip(sorted, entryRefs) {
            i32(degrees(e.coordinate.latitude))
            i32(degrees(e.coordinate.longitude))
            u32(r.0)
            u32(r.1)
            u32(r.2)
            out.append(contentsOf: [e.kind.rawValue, e.importance, 0, 0])
        }
        for (k, r) in zip(unique, keyRefs) {
            u32(r); u32(UInt32(k.entry))
            out.append(contentsOf: [k.type.rawValue, k.importance, 0, 0])
        }
        for (alias, city) in aliasRefs {
            u32(alias)
            u32(city)
        }
        out.append(contentsOf: pool)
        let crc = Gzip.crc32(out[...])
        u32(crc)
        return out
    }

    /// A total order on entries by content (kind, name, city, position, importance).
    static func precedes(_ a: PlaceIndexEntry, _ b: PlaceIndexEntry) -> Bool {
        if a.kind != b.kind { return a.kind < b.kind }
        if a.name != b.name { return a.name.utf8.lexicographicallyPrecedes(b.name.utf8) }
        if a.city != b.city { return a.city.utf8.lexicographicallyPrecedes(b.city.utf8) }
        if a.coordinate.latitude != b.coordinate.latitude { return a.coordinate.latitude < b.coordinate.latitude }
        if a.coordinate.longitude != b.coordinate.longitude { return a.coordinate.longitude < b.coordinate.longitude }
        if a.importance != b.importance { return a.importance < b.importance }
        if a.postcode != b.postcode { return a.postcode.utf8.lexicographicallyPrecedes(b.postcode.utf8) }
        return a.alternateNames.joined(separator: "\u{1}").utf8.lexicographicallyPrecedes(b.alternateNames.joined(separator: "\u{1}").utf8)
    }

    /// The keys an entry is found by: an address by `street number` (folded, the number
    /// normalized); anything else by each of its names, whole, and by the words after each
    /// of the name's first words (3+ letters), so `Tuomiokirkko` finds `Helsingin tuomiokirkko`.
    static func keys(for e: PlaceIndexEntry) -> [(String, PlaceIndexFormat.KeyType)] {
        if e.kind == .address {
            let street = Gazetteer.fold(e.street), number = PlaceIndexEntry.normalizedHouseNumber(e.houseNumber)
            guard !street.isEmpty, !number.isEmpty else { return [] }
            return [("\(street) \(number)", .whole)]
        }
        var out: [(String, PlaceIndexFormat.KeyType)] = []
        var seen = Set<String>()
        for name in [e.name] + e.alternateNames {
            let key = Gazetteer.fold(name)
            guard !key.isEmpty, seen.insert(key).inserted else { continue }
            out.append((key, .whole))
        }
        var trailing = Set<String>()
        for (key, _) in out {
            var rest = Substring(key)
            while let space = rest.firstIndex(of: " ") {
                rest = rest[rest.index(after: space)...]
                if rest.count >= 3, !seen.contains(String(rest)) { trailing.insert(String(rest)) }
            }
        }
        return out + trailing.sorted().map { ($0, .trailingWords) }
    }
}
