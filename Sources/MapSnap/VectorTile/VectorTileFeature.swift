/// A feature of a decoded vector-tile layer: id, type, tags, and geometry still encoded.
///
/// Cheap to create (a reference and an index); property lookups do not allocate.
struct VectorTileFeature: Sendable {
    let storage: VectorTileLayerStorage
    /// Position of the feature in its layer's `features`.
    let index: Int

    private var record: VectorTileLayerStorage.FeatureRecord { storage.records[index] }

    var geometryType: GeometryType { record.type }

    var featureID: UInt64? { record.id }

    /// The box around the feature's points in tile units (see `TileBox`).
    var bounds: TileBox { record.bounds }

    /// The value tagged with `key`, or nil when the feature lacks it.
    ///
    /// Scans the feature's own few tags comparing key strings: for the handful of tags a
    /// feature carries this beats hashing `key` into the layer's key table, and style
    /// filters call it for every feature of every layer.
    func value(forKey key: String) -> FeatureValue? {
        let r = record
        var i = r.tagStart
        while i + 1 < r.tagEnd {
            if storage.keys[Int(storage.tags[i])] == key { return storage.values[Int(storage.tags[i + 1])] }
            i += 2
        }
        return nil
    }

    /// The value tagged with the key at `keyIndex` (from `VectorTileLayer.keyIndex(for:)`).
    func value(atKeyIndex keyIndex: Int) -> FeatureValue? {
        guard let k = UInt32(exactly: keyIndex) else { return nil }
        return value(forKeyIndex: k)
    }

    private func value(forKeyIndex k: UInt32) -> FeatureValue? {
        let r = record
        var i = r.tagStart
        // Tag indices were validated against the key and value tables when the layer was decoded.
        while i + 1 < r.tagEnd {
            if storage.tags[i] == k { return storage.values[Int(storage.tags[i + 1])] }
            i += 2
        }
        return nil
    }

    /// All properties as (key, value) pairs in tag order.
    var properties: [(key: String, value: FeatureValue)] {
        let r = record
        var result: [(key: String, value: FeatureValue)] = []
        var i = r.tagStart
        while i + 1 < r.tagEnd {
            result.append((storage.keys[Int(storage.tags[i])], storage.values[Int(storage.tags[i + 1])]))
            i += 2
        }
        return result
    }

    /// Decodes the geometry into `geometry`, replacing its contents but keeping its storage.
    func decodeGeometry(into geometry: inout TileGeometry) throws(MVTDecodingError) {
        let r = record
        do {
            try GeometryDecoder.decode(storage.bytes, range: r.geometry, as: r.type, into: &geometry)
        } catch {
            throw .geometry(layer: storage.name, feature: index, error)
        }
    }
}
