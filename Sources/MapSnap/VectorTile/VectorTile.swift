import Foundation

/// A decoded Mapbox Vector Tile (MVT 2.1), decoded lazily.
///
/// `init` walks only the top-level layer messages and reads each layer's name, version and
/// extent. `layer(named:)` decodes one layer's keys, values and feature index; feature
/// geometry stays a byte range until `VectorTileFeature.decodeGeometry(into:)` is called.
/// A renderer asks for a layer once, filters features by their properties, and decodes
/// geometry only for features that pass.
///
/// The bytes must be uncompressed (tile sources inflate gzip tiles before returning them).
public struct VectorTile: Sendable {
    /// Name, version, extent and byte range of one layer, read without decoding the layer.
    public struct LayerHeader: Sendable, Equatable {
        public let name: String
        public let version: Int
        /// Size of the tile square in tile units (4096 by default).
        public let extent: Int
        /// Byte range of the layer message within the tile.
        public let byteRange: Range<Int>
    }

    /// The tile bytes (shared, not copied, by every layer decoded from them).
    public let bytes: [UInt8]
    /// Every layer in tile order, including duplicates of a name (the spec forbids them;
    /// `layer(named:)` returns the first).
    public let layerHeaders: [LayerHeader]
    private let cache = LayerCache()

    /// Largest extent accepted: the spec suggests 4096; anything beyond 2^16 is nonsense
    /// that would only serve to overflow downstream scaling.
    public static let maxExtent = 1 << 16

    /// Reads the layer headers of `bytes`. Throws `MVTDecodingError` for broken framing,
    /// a missing layer name, an unsupported version or an absurd extent.
    public init(bytes: [UInt8]) throws(MVTDecodingError) {
        self.bytes = bytes
        var headers: [LayerHeader] = []
        var reader = ProtobufReader(bytes: bytes)
        var layerRanges: [Range<Int>] = []
        do throws(ProtobufError) {
            while !reader.isAtEnd {
                let key = try reader.readFieldKey()
                if key.number == 3 && key.wireType == .lengthDelimited {
                    layerRanges.append(try reader.readLengthDelimited())
                } else {
                    try reader.skip(key.wireType)
                }
            }
        } catch {
            throw .protobuf(error)
        }
        for range in layerRanges {
            headers.append(try Self.readHeader(bytes, range: range, index: headers.count))
        }
        self.layerHeaders = headers
    }

    private static func readHeader(_ bytes: [UInt8], range: Range<Int>, index: Int) throws(MVTDecodingError) -> LayerHeader {
        var reader = ProtobufReader(bytes: bytes, range: range)
        var name: String?
        var version: UInt64 = 1
        var extent: UInt64 = 4096
        do throws(ProtobufError) {
            while !reader.isAtEnd {
                let key = try reader.readFieldKey()
                switch (key.number, key.wireType) {
                case (1, .lengthDelimited): name = try reader.readString()
                case (15, .varint): version = try reader.readVarint()
                case (5, .varint): extent = try reader.readVarint()
                default: try reader.skip(key.wireType)
                }
            }
        } catch {
            throw .protobuf(error)
        }
        guard let name else { throw MVTDecodingError.missingLayerName(layerIndex: index) }
        guard version == 1 || version == 2 else { throw MVTDecodingError.unsupportedVersion(layer: name, version: version) }
        guard extent > 0 && extent <= UInt64(maxExtent) else { throw MVTDecodingError.invalidExtent(layer: name, extent: extent) }
        return LayerHeader(name: name, version: Int(version), extent: Int(extent), byteRange: range)
    }

    /// The layer names in tile order.
    public var layerNames: [String] { layerHeaders.map(\.name) }

    /// Decodes the first layer called `name`, or returns nil when the tile has none.
    ///
    /// The decoded layer is cached in this tile (and its copies), so the many style layers
    /// that draw from one source layer decode it once. Safe to call from several threads.
    public func layer(named name: String) throws(MVTDecodingError) -> VectorTileLayer? {
        if let cached = cache.layer(named: name) { return cached }
        guard let header = layerHeaders.first(where: { $0.name == name }) else { return nil }
        let layer = try VectorTileLayer(bytes: bytes, header: header)
        cache.store(layer, named: name)
        return layer
    }

    /// Decodes every layer, in tile order.
    public func decodeAllLayers() throws(MVTDecodingError) -> [VectorTileLayer] {
        var result: [VectorTileLayer] = []
        result.reserveCapacity(layerHeaders.count)
        for header in layerHeaders { result.append(try VectorTileLayer(bytes: bytes, header: header)) }
        return result
    }
}

/// Decoded layers of one tile by name. Decoding is deterministic, so whichever thread
/// stores first, every reader sees an identical layer.
private final class LayerCache: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var layers: [String: VectorTileLayer] = [:]

    func layer(named name: String) -> VectorTileLayer? {
        lock.lock()
        defer { lock.unlock() }
        return layers[name]
    }

    func store(_ layer: VectorTileLayer, named name: String) {
        lock.lock()
        defer { lock.unlock() }
        if layers[name] == nil { layers[name] = layer }
    }
}
