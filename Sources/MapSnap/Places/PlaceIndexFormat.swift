/// The layout of a place index file (`NAME.places`), version 1; `docs/place-index.md`
/// describes it for readers in other languages. Integers are little-endian.
///
/// ```
/// header    64 bytes  "MSPLACES", version, counts, main city, bounds (S, W, N, E)
/// entries   E × 24    lat, lon (Int32, 1e-7°), name, city, postcode (string refs),
///                     kind, importance, 2 reserved
/// keys      K × 12    key (string ref), entry (index), key type, importance, 2 reserved;
///                     sorted by the key's bytes, then type, importance (high first), entry
/// aliases   A × 8     a city's other name, folded, and the city (string refs), sorted
/// strings   S bytes   each a UInt16 length and that many UTF-8 bytes
/// checksum  4 bytes   CRC-32 of everything before it
/// ```
/// A string ref is the offset of the string's length in the string section; `noString`
/// stands for none.
enum PlaceIndexFormat {
    static let magic: [UInt8] = Array("MSPLACES".utf8)
    static let version = 1
    static let headerSize = 64
    static let entrySize = 24
    static let keySize = 12
    static let noString: UInt32 = .max
    /// Largest file opened (a country's addresses fit with room to spare).
    static let maximumFileBytes = 1 << 31 - 1

    /// How a key was made from its entry.
    enum KeyType: UInt8 {
        /// A whole name (or, for an address, street and house number).
        case whole = 0
        /// The words of a name after its first ones (`tuomiokirkko` of `Helsingin tuomiokirkko`).
        case trailingWords = 1
    }

    /// Header field offsets.
    enum Field {
        static let version = 8, entryCount = 12, keyCount = 16, stringBytes = 20, mainCity = 24, aliasCount = 28
        /// Bounds of the entries, Int32 1e-7°.
        static let south = 32, west = 36, north = 40, east = 44
    }
}
