/// Decodes the MVT 2.1 geometry command stream (spec §4.3) into a reusable `TileGeometry`.
///
/// The stream is a packed list of uint32: a command integer `(count << 3) | id` with
/// id 1 = MoveTo, 2 = LineTo, 7 = ClosePath, followed by `count` pairs of zigzag deltas
/// (none for ClosePath). The cursor starts at (0, 0) for each feature and carries across
/// parts. Validation follows the spec's per-type grammar:
///
///     Point:      MoveTo(n ≥ 1)+
///     LineString: (MoveTo(1) LineTo(n ≥ 1)*)+
///     Polygon:    (MoveTo(1) LineTo(n ≥ 1)* ClosePath(1))+
public enum GeometryDecoder {
    /// Decodes `bytes[range]` (the packed payload of a feature's `geometry` field) as `type`.
    ///
    /// `geometry` is emptied first and keeps its capacity, so decoding feature after feature
    /// into one buffer allocates only when a feature is larger than any before it.
    public static func decode(
        _ bytes: [UInt8], range: Range<Int>, as type: GeometryType, into geometry: inout TileGeometry
    ) throws(MVTGeometryError) {
        geometry.removeAll()
        geometry.type = type
        var reader = ProtobufReader(bytes: bytes, range: range)
        var index = 0
        var cx: Int64 = 0
        var cy: Int64 = 0
        // For polygons: true between a ring's MoveTo and its ClosePath.
        var ringOpen = false
        var hasMoveTo = false

        let pb = MVTGeometryError.protobuf
        while !reader.isAtEnd {
            let commandIndex = index
            let command = try readingProtobuf(pb) { () throws(ProtobufError) in try reader.readVarint32() }
            index += 1
            let id = command & 7
            let count = command >> 3
            let name: String
            switch id {
            case 1: name = "MoveTo"
            case 2: name = "LineTo"
            case 7: name = "ClosePath"
            default: throw .unknownCommand(id: id, index: commandIndex)
            }

            if id == 7 {
                guard hasMoveTo else { throw .commandBeforeMoveTo(command: name, index: commandIndex) }
                guard type == .polygon else {
                    throw .unexpectedCommand(command: name, geometryType: type, index: commandIndex)
                }
                guard count == 1 else { throw .invalidCount(command: name, count: count, index: commandIndex) }
                guard ringOpen else {
                    throw .unexpectedCommand(command: name, geometryType: type, index: commandIndex)
                }
                ringOpen = false
                continue
            }

            guard count > 0 else { throw .invalidCount(command: name, count: count, index: commandIndex) }
            // Each parameter takes at least one byte; this bounds the loop and the
            // reservation below by the input size.
            guard Int(count) * 2 <= reader.remaining else {
                throw .countExceedsData(command: name, count: count, index: commandIndex)
            }

            if id == 1 {
                switch type {
                case .point:
                    if !hasMoveTo { geometry.partStarts.append(geometry.points.count) }
                case .lineString:
                    guard count == 1 else { throw .invalidCount(command: name, count: count, index: commandIndex) }
                    geometry.partStarts.append(geometry.points.count)
                case .polygon:
                    guard count == 1 else { throw .invalidCount(command: name, count: count, index: commandIndex) }
                    guard !ringOpen else { throw .unclosedRing(part: geometry.partStarts.count - 1) }
                    geometry.partStarts.append(geometry.points.count)
                    ringOpen = true
                }
                hasMoveTo = true
            } else {
                guard hasMoveTo else { throw .commandBeforeMoveTo(command: name, index: commandIndex) }
                guard type != .point else {
                    throw .unexpectedCommand(command: name, geometryType: type, index: commandIndex)
                }
                if type == .polygon && !ringOpen {
                    throw .unexpectedCommand(command: name, geometryType: type, index: commandIndex)
                }
            }

            for _ in 0..<count {
                let dx = ProtobufReader.zigzagDecode(UInt64(try readingProtobuf(pb) { () throws(ProtobufError) in try reader.readVarint32() }))
                let dy = ProtobufReader.zigzagDecode(UInt64(try readingProtobuf(pb) { () throws(ProtobufError) in try reader.readVarint32() }))
                // |delta| < 2^31 and |cursor| < 2^31, so the sums cannot overflow Int64.
                cx += dx
                cy += dy
                guard let x = Int32(exactly: cx), let y = Int32(exactly: cy) else {
                    throw .coordinateOverflow(index: index)
                }
                geometry.points.append(TilePoint(x: x, y: y))
                index += 2
            }
        }
        if ringOpen { throw .unclosedRing(part: geometry.partStarts.count - 1) }
    }
}
