/// One decoded layer of a vector tile: keys, values and an index of its features.
///
/// Tags of all features live in one flat array and geometry stays as byte ranges into the
/// tile, so decoding a layer allocates a handful of arrays regardless of feature count
/// (plus one string per key and string value).
struct VectorTileLayer: Sendable {
    let storage: VectorTileLayerStorage

    init(bytes: [UInt8], header: VectorTile.LayerHeader) throws(MVTDecodingError) {
        storage = try VectorTileLayerStorage(bytes: bytes, header: header)
    }

    var name: String { storage.name }
    var version: Int { storage.version }
    /// Size of the tile square in tile units.
    var extent: Int { storage.extent }
    /// The layer's key table.
    var keys: [String] { storage.keys }
    /// The layer's value table.
    var values: [FeatureValue] { storage.values }
    /// Features whose geometry type is UNKNOWN (0) or undefined; the spec lets decoders skip them.
    var skippedFeatureCount: Int { storage.skippedFeatureCount }

    /// The features, in tile order (skipped features excluded).
    var features: Features { Features(storage: storage) }

    /// The index of `key` in the key table, for repeated lookups with `value(atKeyIndex:)`.
    func keyIndex(for key: String) -> Int? { storage.keyIndex[key].map(Int.init) }

    /// A random-access view of a layer's features.
    struct Features: RandomAccessCollection, Sendable {
        let storage: VectorTileLayerStorage
        var startIndex: Int { 0 }
        var endIndex: Int { storage.records.count }
        subscript(position: Int) -> VectorTileFeature {
            VectorTileFeature(storage: storage, index: position)
        }
    }
}

/// Immutable decoded layer data shared by the layer and its features.
final class VectorTileLayerStorage: Sendable {
    struct FeatureRecord: Sendable {
        var id: UInt64?
        var type: GeometryType
        /// Range in `tags` of this feature's (key, value) index pairs.
        var tagStart: Int
        var tagEnd: Int
        var geometry: Range<Int>
        /// The box around the geometry's points, in tile units (`TileBox.everything` when
        /// the geometry could not be scanned: decoding it reports why).
        var bounds: TileBox
    }

    let bytes: [UInt8]
    let name: String
    let version: Int
    let extent: Int
    let keys: [String]
    let keyIndex: [String: UInt32]
    let values: [FeatureValue]
    let tags: [UInt32]
    let records: [FeatureRecord]
    let skippedFeatureCount: Int
    /// `distinctValueIndices` results by key index, found on first use.
    private let distinctValues = Locked<[UInt32: [UInt32]]>([:])

    /// The distinct value indices the layer's features carry with key index `key`, in
    /// first-seen order: one pass over the tags (integer work only) the first time a key is
    /// asked for, remembered for every later caller (style filters bind to them per layer).
    func distinctValueIndices(forKey key: UInt32) -> [UInt32] {
        if let known = distinctValues.withLock({ $0[key] }) { return known }
        var seen = Array(repeating: false, count: values.count)
        var found: [UInt32] = []
        var i = 0
        // Tag indices were validated against the key and value tables when the layer was decoded.
        while i + 1 < tags.count {
            let v = Int(tags[i + 1])
            if tags[i] == key, v < seen.count, !seen[v] {
                seen[v] = true
                found.append(tags[i + 1])
            }
            i += 2
        }
        distinctValues.withLock { $0[key] = found }
        return found
    }

    init(bytes: [UInt8], header: VectorTile.LayerHeader) throws(MVTDecodingError) {
        self.bytes = bytes
        name = header.name
        version = header.version
        extent = header.extent
        var keys: [String] = []
        var values: [FeatureValue] = []
        var featureRanges: [Range<Int>] = []
        var reader = ProtobufReader(bytes: bytes, range: header.byteRange)
        // Protobuf reads are wrapped into MVTDecodingError.protobuf: one typed error, no catch-all.
        let pb = MVTDecodingError.protobuf
        while !reader.isAtEnd {
            let key = try readingProtobuf(pb) { () throws(ProtobufError) in try reader.readFieldKey() }
            switch (key.number, key.wireType) {
            case (2, .lengthDelimited): featureRanges.append(try readingProtobuf(pb) { () throws(ProtobufError) in try reader.readLengthDelimited() })
            case (3, .lengthDelimited): keys.append(try readingProtobuf(pb) { () throws(ProtobufError) in try reader.readString() })
            case (4, .lengthDelimited):
                let range = try readingProtobuf(pb) { () throws(ProtobufError) in try reader.readLengthDelimited() }
                let read = try readingProtobuf(pb) { () throws(ProtobufError) in try Self.readValue(bytes, range: range) }
                guard let value = read else {
                    throw MVTDecodingError.emptyValue(layer: header.name, valueIndex: values.count)
                }
                values.append(value)
            default: try readingProtobuf(pb) { () throws(ProtobufError) in try reader.skip(key.wireType) }
            }
        }
        var index: [String: UInt32] = [:]
        index.reserveCapacity(keys.count)
        // First occurrence wins if a (malformed) layer repeats a key.
        for (i, k) in keys.enumerated() where index[k] == nil { index[k] = UInt32(i) }
        self.keys = keys
        self.keyIndex = index
        self.values = values

        var tags: [UInt32] = []
        var records: [FeatureRecord] = []
        records.reserveCapacity(featureRanges.count)
        var skipped = 0
        for (featureIndex, range) in featureRanges.enumerated() {
            var f = ProtobufReader(bytes: bytes, range: range)
            var id: UInt64?
            var rawType: UInt64 = 0
            var geometry = range.upperBound..<range.upperBound
            let tagStart = tags.count
            while !f.isAtEnd {
                let key = try readingProtobuf(pb) { () throws(ProtobufError) in try f.readFieldKey() }
                switch (key.number, key.wireType) {
                case (1, .varint): id = try readingProtobuf(pb) { () throws(ProtobufError) in try f.readVarint() }
                case (2, .lengthDelimited):
                    var t = f.subReader(try readingProtobuf(pb) { () throws(ProtobufError) in try f.readLengthDelimited() })
                    while !t.isAtEnd { tags.append(try readingProtobuf(pb) { () throws(ProtobufError) in try t.readVarint32() }) }
                case (3, .varint): rawType = try readingProtobuf(pb) { () throws(ProtobufError) in try f.readVarint() }
                case (4, .lengthDelimited): geometry = try readingProtobuf(pb) { () throws(ProtobufError) in try f.readLengthDelimited() }
                default: try readingProtobuf(pb) { () throws(ProtobufError) in try f.skip(key.wireType) }
                }
            }
            let tagCount = tags.count - tagStart
            guard tagCount % 2 == 0 else {
                throw MVTDecodingError.oddTagCount(layer: header.name, feature: featureIndex, count: tagCount)
            }
            var i = tagStart
            while i < tags.count {
                guard Int(tags[i]) < keys.count else {
                    throw MVTDecodingError.keyIndexOutOfRange(layer: header.name, feature: featureIndex, index: tags[i], keyCount: keys.count)
                }
                guard Int(tags[i + 1]) < values.count else {
                    throw MVTDecodingError.valueIndexOutOfRange(layer: header.name, feature: featureIndex, index: tags[i + 1], valueCount: values.count)
                }
                i += 2
            }
            let type: GeometryType
            switch rawType {
            case 1: type = .point
            case 2: type = .lineString
            case 3: type = .polygon
            default:
                tags.removeSubrange(tagStart...)
                skipped += 1
                continue
            }
            records.append(FeatureRecord(id: id, type: type, tagStart: tagStart, tagEnd: tags.count, geometry: geometry,
                                         bounds: TileBox.scanning(bytes, geometry)))
        }
        self.tags = tags
        self.records = records
        self.skippedFeatureCount = skipped
    }

    /// Reads a `Value` message; nil when it holds none of the seven types. If several are
    /// present the last one wins, as protobuf's merge semantics would have it.
    private static func readValue(_ bytes: [UInt8], range: Range<Int>) throws(ProtobufError) -> FeatureValue? {
        var reader = ProtobufReader(bytes: bytes, range: range)
        var value: FeatureValue?
        while !reader.isAtEnd {
            let key = try reader.readFieldKey()
            switch (key.number, key.wireType) {
            case (1, .lengthDelimited): value = .string(try reader.readString())
            case (2, .fixed32): value = .number(Double(Float(bitPattern: try reader.readFixed32())))
            case (3, .fixed64): value = .number(Double(bitPattern: try reader.readFixed64()))
            case (4, .varint): value = .number(Double(Int64(bitPattern: try reader.readVarint())))
            case (5, .varint): value = .number(Double(try reader.readVarint()))
            case (6, .varint): value = .number(Double(try reader.readSignedVarint()))
            case (7, .varint): value = .bool(try reader.readVarint() != 0)
            default: try reader.skip(key.wireType)
            }
        }
        return value
    }
}

/// An axis-aligned box in tile units, from a quick pass over a feature's encoded geometry,
/// so that renders skip features far from the image without decoding them.
struct TileBox: Sendable, Equatable {
    var minX, minY, maxX, maxY: Int64

    /// The box of a geometry that could not be scanned: it touches everything.
    static let everything = TileBox(minX: .min, minY: .min, maxX: .max, maxY: .max)

    /// Whether the box reaches the rectangle (tile units, bounds included).
    @inline(__always)
    func intersects(minX x0: Double, minY y0: Double, maxX x1: Double, maxY y1: Double) -> Bool {
        Double(maxX) >= x0 && Double(minX) <= x1 && Double(maxY) >= y0 && Double(minY) <= y1
    }

    /// The box around every MoveTo/LineTo point of the geometry commands in `range`; a
    /// command other than those and ClosePath, a truncated varint or no point at all give
    /// `everything` (the decoder then says what is wrong). Validates nothing else.
    static func scanning(_ bytes: [UInt8], _ range: Range<Int>) -> TileBox {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return .everything }
        return bytes.withUnsafeBufferPointer { b -> TileBox in
            var i = range.lowerBound
            let end = range.upperBound
            @inline(__always) func varint() -> UInt64? {
                var value: UInt64 = 0, shift: UInt64 = 0
                while i < end, shift < 64 {
                    let byte = b[i]
                    i += 1
                    value |= UInt64(byte & 0x7f) << shift
                    if byte < 0x80 { return value }
                    shift += 7
                }
                return nil
            }
            var x: Int64 = 0, y: Int64 = 0
            var box = TileBox(minX: .max, minY: .max, maxX: .min, maxY: .min)
            while i < end {
                guard let command = varint() else { return .everything }
                let id = command & 7
                if id == 7 { continue }
                guard id == 1 || id == 2 else { return .everything }
                var count = command >> 3
                while count > 0 {
                    guard let dx = varint(), let dy = varint() else { return .everything }
                    // Zigzag; wrapping like the decoder's running sums.
                    x &+= Int64(bitPattern: (dx >> 1) ^ (0 &- (dx & 1)))
                    y &+= Int64(bitPattern: (dy >> 1) ^ (0 &- (dy & 1)))
                    box.minX = min(box.minX, x); box.maxX = max(box.maxX, x)
                    box.minY = min(box.minY, y); box.maxY = max(box.maxY, y)
                    count -= 1
                }
            }
            // Points past Int32 are an error the decoder reports: never culled.
            let range = Int64(Int32.min)...Int64(Int32.max)
            guard box.minX <= box.maxX, range.contains(box.minX), range.contains(box.maxX),
                  range.contains(box.minY), range.contains(box.maxY) else { return .everything }
            return box
        }
    }
}
