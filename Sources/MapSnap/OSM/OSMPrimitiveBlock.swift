/// One `OSMData` block: a string table and groups of elements. Coordinates are
/// `1e-9 × (offset + granularity × value)` degrees; dense nodes, way refs and relation
/// member ids are delta-coded.
struct OSMPrimitiveBlock {
    let bytes: [UInt8]
    let blob: Int
    let fileOffset: Int
    private var strings: [String] = []
    private var granularity: Int64 = 100
    private var latOffset: Int64 = 0
    private var lonOffset: Int64 = 0

    init(bytes: [UInt8], blob: Int, fileOffset: Int) {
        self.bytes = bytes
        self.blob = blob
        self.fileOffset = fileOffset
    }

    /// `PrimitiveBlock`: 1 stringtable, 2 primitivegroup (repeated), 17 granularity,
    /// 19 lat_offset, 20 lon_offset. The groups are decoded after the whole block is read,
    /// since the scalars may follow them.
    mutating func decode(nodes: ((OSMNode) -> Void)?, ways: ((OSMWay) -> Void)?,
                         relations: ((OSMRelation) -> Void)?) throws(OSMPBFError) {
        var groups: [Range<Int>] = []
        do {
            var r = ProtobufReader(bytes: bytes)
            while !r.isAtEnd {
                let key = try r.readFieldKey()
                switch (key.number, key.wireType) {
                case (1, .lengthDelimited):
                    var t = r.subReader(try r.readLengthDelimited())
                    while !t.isAtEnd {
                        let k = try t.readFieldKey()
                        if k.number == 1, k.wireType == .lengthDelimited { strings.append(try t.readString()) } else { try t.skip(k.wireType) }
                    }
                case (2, .lengthDelimited): groups.append(try r.readLengthDelimited())
                case (17, .varint): granularity = Int64(Int32(truncatingIfNeeded: try r.readVarint()))
                case (19, .varint): latOffset = Int64(bitPattern: try r.readVarint())
                case (20, .varint): lonOffset = Int64(bitPattern: try r.readVarint())
                default: try r.skip(key.wireType)
                }
            }
        } catch {
            throw .malformed(blob: blob, fileOffset: fileOffset, part: "primitive block", detail: error.description)
        }
        guard granularity > 0 else {
            throw .malformed(blob: blob, fileOffset: fileOffset, part: "primitive block", detail: "granularity \(granularity)")
        }
        for group in groups {
            do {
                var r = ProtobufReader(bytes: bytes, range: group)
                while !r.isAtEnd {
                    let key = try r.readFieldKey()
                    switch (key.number, key.wireType) {
                    case (1, .lengthDelimited) where nodes != nil:
                        if let nodes { nodes(try node(r.subReader(try r.readLengthDelimited()))) }
                    case (2, .lengthDelimited) where nodes != nil:
                        if let nodes { try denseNodes(r.subReader(try r.readLengthDelimited()), nodes) }
                    case (3, .lengthDelimited) where ways != nil:
                        if let ways { ways(try way(r.subReader(try r.readLengthDelimited()))) }
                    case (4, .lengthDelimited) where relations != nil:
                        if let relations { relations(try relation(r.subReader(try r.readLengthDelimited()))) }
                    default: try r.skip(key.wireType)
                    }
                }
            } catch let error as OSMPBFError {
                throw error
            } catch let error as ProtobufError {
                throw .malformed(blob: blob, fileOffset: fileOffset, part: "primitive group", detail: error.description)
            } catch {
                throw .malformed(blob: blob, fileOffset: fileOffset, part: "primitive group", detail: "\(error)")
            }
        }
    }

    private func string(_ index: UInt64) throws(OSMPBFError) -> String {
        guard index < UInt64(strings.count) else {
            throw .badStringIndex(blob: blob, fileOffset: fileOffset, index: Int(clamping: index), tableSize: strings.count)
        }
        return strings[Int(index)]
    }

    private func coordinate(lat: Int64, lon: Int64) -> LatLng {
        // Wrapping arithmetic: absurd values make an invalid coordinate, not a trap.
        LatLng(latitude: Double(latOffset &+ granularity &* lat) * 1e-9, longitude: Double(lonOffset &+ granularity &* lon) * 1e-9)
    }

    private func tags(keys: [UInt64], values: [UInt64], part: String) throws(OSMPBFError) -> OSMTags {
        guard keys.count == values.count else { throw .mismatchedArrays(blob: blob, fileOffset: fileOffset, part: part) }
        var pairs: [(key: String, value: String)] = []
        pairs.reserveCapacity(keys.count)
        for (k, v) in zip(keys, values) { pairs.append((try string(k), try string(v))) }
        return OSMTags(pairs)
    }

    /// `Node`: 1 id (sint64), 2 keys, 3 vals, 8 lat, 9 lon (sint64).
    private func node(_ reader: ProtobufReader) throws -> OSMNode {
        var r = reader
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        var keys: [UInt64] = [], values: [UInt64] = []
        while !r.isAtEnd {
            let key = try r.readFieldKey()
            switch (key.number, key.wireType) {
            case (1, .varint): id = try r.readSignedVarint()
            case (2, .lengthDelimited): try r.readPackedVarints(into: &keys)
            case (3, .lengthDelimited): try r.readPackedVarints(into: &values)
            case (8, .varint): lat = try r.readSignedVarint()
            case (9, .varint): lon = try r.readSignedVarint()
            default: try r.skip(key.wireType)
            }
        }
        return OSMNode(id: id, coordinate: coordinate(lat: lat, lon: lon), tags: try tags(keys: keys, values: values, part: "node tag"))
    }

    /// `DenseNodes`: 1 id, 8 lat, 9 lon (packed, delta-coded sint64), 10 keys_vals (packed
    /// string indices, each node's pairs ended by a 0).
    private func denseNodes(_ reader: ProtobufReader, _ body: (OSMNode) -> Void) throws {
        var r = reader
        var ids: [UInt64] = [], lats: [UInt64] = [], lons: [UInt64] = [], keysVals: [UInt64] = []
        while !r.isAtEnd {
            let key = try r.readFieldKey()
            switch (key.number, key.wireType) {
            case (1, .lengthDelimited): try r.readPackedVarints(into: &ids)
            case (8, .lengthDelimited): try r.readPackedVarints(into: &lats)
            case (9, .lengthDelimited): try r.readPackedVarints(into: &lons)
            case (10, .lengthDelimited): try r.readPackedVarints(into: &keysVals)
            default: try r.skip(key.wireType)
            }
        }
        guard ids.count == lats.count, ids.count == lons.count else {
            throw OSMPBFError.mismatchedArrays(blob: blob, fileOffset: fileOffset, part: "dense node id/lat/lon")
        }
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        var kv = 0
        for i in 0..<ids.count {
            id &+= ProtobufReader.zigzagDecode(ids[i])
            lat &+= ProtobufReader.zigzagDecode(lats[i])
            lon &+= ProtobufReader.zigzagDecode(lons[i])
            var pairs: [(key: String, value: String)] = []
            if !keysVals.isEmpty {
                while kv < keysVals.count, keysVals[kv] != 0 {
                    guard kv + 1 < keysVals.count else {
                        throw OSMPBFError.mismatchedArrays(blob: blob, fileOffset: fileOffset, part: "dense node keys_vals")
                    }
                    pairs.append((try string(keysVals[kv]), try string(keysVals[kv + 1])))
                    kv += 2
                }
                kv += 1  // the 0 that ends this node's pairs
            }
            body(OSMNode(id: id, coordinate: coordinate(lat: lat, lon: lon), tags: OSMTags(pairs)))
        }
    }

    /// `Way`: 1 id, 2 keys, 3 vals, 8 refs (packed, delta-coded sint64).
    private func way(_ reader: ProtobufReader) throws -> OSMWay {
        var r = reader
        var id: Int64 = 0
        var keys: [UInt64] = [], values: [UInt64] = [], deltas: [UInt64] = []
        while !r.isAtEnd {
            let key = try r.readFieldKey()
            switch (key.number, key.wireType) {
            case (1, .varint): id = Int64(bitPattern: try r.readVarint())
            case (2, .lengthDelimited): try r.readPackedVarints(into: &keys)
            case (3, .lengthDelimited): try r.readPackedVarints(into: &values)
            case (8, .lengthDelimited): try r.readPackedVarints(into: &deltas)
            default: try r.skip(key.wireType)
            }
        }
        var refs: [Int64] = []
        refs.reserveCapacity(deltas.count)
        var ref: Int64 = 0
        for d in deltas {
            ref &+= ProtobufReader.zigzagDecode(d)
            refs.append(ref)
        }
        return OSMWay(id: id, refs: refs, tags: try tags(keys: keys, values: values, part: "way tag"))
    }

    /// `Relation`: 1 id, 2 keys, 3 vals, 8 roles_sid, 9 memids (delta-coded sint64), 10 types.
    private func relation(_ reader: ProtobufReader) throws -> OSMRelation {
        var r = reader
        var id: Int64 = 0
        var keys: [UInt64] = [], values: [UInt64] = [], roles: [UInt64] = [], ids: [UInt64] = [], types: [UInt64] = []
        while !r.isAtEnd {
            let key = try r.readFieldKey()
            switch (key.number, key.wireType) {
            case (1, .varint): id = Int64(bitPattern: try r.readVarint())
            case (2, .lengthDelimited): try r.readPackedVarints(into: &keys)
            case (3, .lengthDelimited): try r.readPackedVarints(into: &values)
            case (8, .lengthDelimited): try r.readPackedVarints(into: &roles)
            case (9, .lengthDelimited): try r.readPackedVarints(into: &ids)
            case (10, .lengthDelimited): try r.readPackedVarints(into: &types)
            default: try r.skip(key.wireType)
            }
        }
        guard roles.count == ids.count, ids.count == types.count else {
            throw OSMPBFError.mismatchedArrays(blob: blob, fileOffset: fileOffset, part: "relation member")
        }
        var members: [OSMRelation.Member] = []
        members.reserveCapacity(ids.count)
        var memberID: Int64 = 0
        for i in 0..<ids.count {
            memberID &+= ProtobufReader.zigzagDecode(ids[i])
            guard let type = OSMRelation.MemberType(rawValue: UInt8(truncatingIfNeeded: min(types[i], 255))) else {
                throw OSMPBFError.malformed(blob: blob, fileOffset: fileOffset, part: "relation", detail: "member type \(types[i])")
            }
            members.append(OSMRelation.Member(type: type, id: memberID, role: try string(roles[i])))
        }
        return OSMRelation(id: id, members: members, tags: try tags(keys: keys, values: values, part: "relation tag"))
    }
}
