/// Writes an `.osm.pbf` file: an `OSMHeader` blob, then `OSMData` blobs of at most
/// `elementsPerBlock` elements each (dense nodes, ways, relations; zlib-compressed), without
/// versions or timestamps. Elements must be added in the order of the format's sorted files
/// — nodes, then ways, then relations — which is the order `OSMPBFReader.scan` gives them in.
///
/// `data build` uses it to hand tilemaker a copy of an extract without references to
/// objects the extract lacks (a clipped extract keeps ways whose far nodes were cut off,
/// and tilemaker 2.2 stops on them).
package struct OSMPBFWriter {
    static let elementsPerBlock = 8_000

    /// Receives the file's bytes, blob by blob.
    private let sink: ([UInt8]) -> Void
    private var strings: [String: Int] = [:]
    private var stringList: [String] = []
    private var nodes: [OSMNode] = []
    private var ways: [OSMWay] = []
    private var relations: [OSMRelation] = []

    /// A writer whose header declares `bounds`; `sink` receives the bytes as blobs are
    /// completed (so a large file is never whole in memory).
    package init(bounds: (southWest: LatLng, northEast: LatLng)?, sink: @escaping ([UInt8]) -> Void) {
        self.sink = sink
        var header = ProtobufWriter()
        if let b = bounds {
            var box = ProtobufWriter()
            func nano(_ d: Double) -> UInt64 { ProtobufReader.zigzagEncode(Int64((d * 1e9).rounded())) }
            box.writeVarintField(1, nano(b.southWest.longitude))
            box.writeVarintField(2, nano(b.northEast.longitude))
            box.writeVarintField(3, nano(b.northEast.latitude))
            box.writeVarintField(4, nano(b.southWest.latitude))
            header.writeBytes(1, box.bytes)
        }
        header.writeString(4, "OsmSchema-V0.6")
        header.writeString(4, "DenseNodes")
        header.writeString(16, "mapsnap")
        appendBlob(type: "OSMHeader", payload: header.bytes)
    }

    package mutating func add(_ node: OSMNode) {
        if !ways.isEmpty || !relations.isEmpty { flush() }
        nodes.append(node)
        if nodes.count >= Self.elementsPerBlock { flush() }
    }

    package mutating func add(_ way: OSMWay) {
        if !nodes.isEmpty || !relations.isEmpty { flush() }
        ways.append(way)
        if ways.count >= Self.elementsPerBlock { flush() }
    }

    package mutating func add(_ relation: OSMRelation) {
        if !nodes.isEmpty || !ways.isEmpty { flush() }
        relations.append(relation)
        if relations.count >= Self.elementsPerBlock { flush() }
    }

    /// Writes the last block.
    package mutating func finish() {
        flush()
    }

    // MARK: Blocks

    private mutating func string(_ s: String) -> UInt64 {
        if let i = strings[s] { return UInt64(i) }
        let i = stringList.count
        strings[s] = i
        stringList.append(s)
        return UInt64(i)
    }

    private mutating func flush() {
        guard !nodes.isEmpty || !ways.isEmpty || !relations.isEmpty else { return }
        strings = [:]
        stringList = []
        _ = string("")  // index 0 ends dense nodes' key/value runs, so it must be unused
        var group = ProtobufWriter()
        if !nodes.isEmpty {
            var ids: [UInt64] = [], lats: [UInt64] = [], lons: [UInt64] = [], keysVals: [UInt64] = []
            var lastID: Int64 = 0, lastLat: Int64 = 0, lastLon: Int64 = 0
            for n in nodes {
                // Granularity 100 (the default): units of 1e-7 degrees.
                let lat = Int64((n.coordinate.latitude * 1e7).rounded()), lon = Int64((n.coordinate.longitude * 1e7).rounded())
                ids.append(ProtobufReader.zigzagEncode(n.id &- lastID))
                lats.append(ProtobufReader.zigzagEncode(lat &- lastLat))
                lons.append(ProtobufReader.zigzagEncode(lon &- lastLon))
                (lastID, lastLat, lastLon) = (n.id, lat, lon)
                for (k, v) in n.tags {
                    keysVals.append(string(k))
                    keysVals.append(string(v))
                }
                keysVals.append(0)
            }
            var dense = ProtobufWriter()
            dense.writePacked(1, ids)
            dense.writePacked(8, lats)
            dense.writePacked(9, lons)
            dense.writePacked(10, keysVals)
            group.writeBytes(2, dense.bytes)
        }
        for w in ways {
            var m = element(id: w.id, tags: w.tags)
            m.writePacked(8, Self.deltaCoded(w.refs))
            group.writeBytes(3, m.bytes)
        }
        for r in relations {
            var m = element(id: r.id, tags: r.tags)
            m.writePacked(8, r.members.map { string($0.role) })
            m.writePacked(9, Self.deltaCoded(r.members.map(\.id)))
            m.writePacked(10, r.members.map { UInt64($0.type.rawValue) })
            group.writeBytes(4, m.bytes)
        }
        var table = ProtobufWriter()
        for s in stringList { table.writeString(1, s) }
        var block = ProtobufWriter()
        block.writeBytes(1, table.bytes)
        block.writeBytes(2, group.bytes)
        appendBlob(type: "OSMData", payload: block.bytes)
        nodes = []
        ways = []
        relations = []
    }

    /// A `Way` or `Relation` message begun with the fields both start with: the id (1), then
    /// the tags as string-table indexes, keys (2) and values (3).
    private mutating func element(id: Int64, tags: OSMTags) -> ProtobufWriter {
        var m = ProtobufWriter()
        m.writeVarintField(1, UInt64(bitPattern: id))
        m.writePacked(2, tags.pairs.map { string($0.key) })
        m.writePacked(3, tags.pairs.map { string($0.value) })
        return m
    }

    /// `values` as OSM PBF stores way refs and relation member ids: each the zigzag-encoded
    /// difference from the one before (the first from 0).
    private static func deltaCoded(_ values: [Int64]) -> [UInt64] {
        var last: Int64 = 0
        return values.map { value in
            defer { last = value }
            return ProtobufReader.zigzagEncode(value &- last)
        }
    }

    private mutating func appendBlob(type: String, payload: [UInt8]) {
        var blob = ProtobufWriter()
        if let zlib = try? Gzip.compress(payload, container: .zlib) {
            blob.writeVarintField(2, UInt64(payload.count))
            blob.writeBytes(3, zlib)
        } else {
            blob.writeBytes(1, payload)
        }
        var header = ProtobufWriter()
        header.writeString(1, type)
        header.writeVarintField(3, UInt64(blob.bytes.count))
        let n = header.bytes.count
        sink([UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header.bytes + blob.bytes)
    }
}
