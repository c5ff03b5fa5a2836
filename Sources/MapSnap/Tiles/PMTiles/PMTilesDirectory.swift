/// PMTiles v3 tile ids: a tile's position along the Hilbert curve of its zoom, offset by the
/// number of tiles at all lower zooms, so that ids are unique across zooms and nearby tiles
/// get nearby ids (spec "Tile IDs").
///
///     z0: 0        z1: 1 2 3 4 → (0,0) (0,1) (1,1) (1,0)        z2 starts at 5
enum PMTilesTileID {
    /// The id of `tile`.
    static func id(for tile: TileID) -> UInt64 {
        // Tiles at zooms below z: (4^z − 1) / 3.
        var result: UInt64 = ((UInt64(1) << (2 * UInt64(tile.z))) - 1) / 3
        var x = UInt64(tile.x)
        var y = UInt64(tile.y)
        var s = tile.z > 0 ? UInt64(1) << UInt64(tile.z - 1) : 0
        // After Wikipedia's xy2d: take one bit of x and y per level, add the quadrant's
        // offset along the curve, then rotate/flip the remainder into the quadrant's frame.
        while s > 0 {
            let rx: UInt64 = x & s != 0 ? 1 : 0
            let ry: UInt64 = y & s != 0 ? 1 : 0
            result += s * s * ((3 * rx) ^ ry)
            x &= s - 1
            y &= s - 1
            if ry == 0 {
                if rx == 1 {
                    x = s - 1 - x
                    y = s - 1 - y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return result
    }

    /// The tile with id `id`, or nil when it lies beyond zoom 30 (outside `TileID`'s range).
    static func tile(for id: UInt64) -> TileID? {
        var base: UInt64 = 0
        for z in 0...30 {
            let count = UInt64(1) << (2 * UInt64(z))
            if id < base + count {
                var t = id - base
                var x: UInt64 = 0
                var y: UInt64 = 0
                var s: UInt64 = 1
                // Wikipedia's d2xy, the inverse of `id(for:)`.
                while s < (UInt64(1) << UInt64(z)) {
                    let rx = 1 & (t / 2)
                    let ry = 1 & (t ^ rx)
                    if ry == 0 {
                        if rx == 1 {
                            x = s - 1 - x
                            y = s - 1 - y
                        }
                        swap(&x, &y)
                    }
                    x += s * rx
                    y += s * ry
                    t /= 4
                    s <<= 1
                }
                return TileID(z: z, x: Int(x), y: Int(y))
            }
            base += count
        }
        return nil
    }
}

/// One directory entry: a run of `runLength` consecutive tile ids sharing one blob, or —
/// when `runLength` is 0 — a pointer to a leaf directory.
struct PMTilesEntry: Equatable, Sendable {
    var tileID: UInt64
    /// Offset of the blob in the tile data section (or of the leaf in the leaf section).
    var offset: UInt64
    var length: UInt32
    var runLength: UInt32
}

/// Encoding of a (decompressed) PMTiles directory: entry count, then the columns tile-id
/// deltas, run lengths, lengths, offsets — all varints. An offset of 0 after the first entry
/// means "right after the previous blob"; otherwise the stored value is offset + 1.
enum PMTilesDirectory {
    /// Why a directory's bytes are malformed.
    struct DecodingError: Error, Equatable, Sendable {
        var reason: String
    }

    /// Decodes a directory. Entries must have strictly increasing tile ids and non-zero lengths.
    static func decode(_ bytes: [UInt8]) throws(DecodingError) -> [PMTilesEntry] {
        var reader = ProtobufReader(bytes: bytes)
        do {
            let count = try reader.readVarint()
            // Each entry takes at least 4 bytes, so a larger count is a lie that would
            // otherwise make us allocate without bound.
            guard count <= UInt64(bytes.count / 4) else {
                throw DecodingError(reason: "entry count \(count) exceeds what \(bytes.count) bytes can hold")
            }
            let n = Int(count)
            var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
            var last: UInt64 = 0
            for i in 0..<n {
                let delta = try reader.readVarint()
                let (sum, overflow) = last.addingReportingOverflow(delta)
                guard !overflow, i == 0 || delta > 0 else {
                    throw DecodingError(reason: "tile ids not strictly increasing at entry \(i)")
                }
                entries[i].tileID = sum
                last = sum
            }
            for i in 0..<n { entries[i].runLength = try reader.readVarint32() }
            for i in 0..<n {
                let length = try reader.readVarint32()
                guard length > 0 else { throw DecodingError(reason: "entry \(i) has length 0") }
                entries[i].length = length
            }
            for i in 0..<n {
                let stored = try reader.readVarint()
                if stored == 0 {
                    guard i > 0 else { throw DecodingError(reason: "first entry uses the contiguous-offset marker") }
                    let (next, overflow) = entries[i - 1].offset.addingReportingOverflow(UInt64(entries[i - 1].length))
                    guard !overflow else { throw DecodingError(reason: "offset overflow at entry \(i)") }
                    entries[i].offset = next
                } else {
                    entries[i].offset = stored - 1
                }
            }
            return entries
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError(reason: "\(error)")
        }
    }

    /// Encodes entries (sorted by tile id) in the directory format.
    static func encode(_ entries: [PMTilesEntry]) -> [UInt8] {
        var w = ProtobufWriter()
        w.writeVarint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries {
            precondition(e.tileID >= last, "PMTiles directory entries must be sorted by tile id")
            w.writeVarint(e.tileID - last)
            last = e.tileID
        }
        for e in entries { w.writeVarint(UInt64(e.runLength)) }
        for e in entries { w.writeVarint(UInt64(e.length)) }
        for (i, e) in entries.enumerated() {
            // Checked addition: an end past UInt64.max (which decode rejects as a
            // contiguous offset) never equals the next offset, so it is written in full.
            if i > 0, case let (end, overflow) = entries[i - 1].offset.addingReportingOverflow(UInt64(entries[i - 1].length)),
               !overflow, e.offset == end {
                w.writeVarint(0)
            } else {
                w.writeVarint(e.offset + 1)
            }
        }
        return w.bytes
    }

    /// The entry responsible for `tileID`: the last entry whose id is ≤ `tileID`, if it is a
    /// leaf pointer or its run covers the id.
    static func find(_ tileID: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        var lo = 0
        var hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].tileID <= tileID { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return nil }
        let e = entries[lo - 1]
        if e.runLength == 0 { return e }
        return tileID - e.tileID < UInt64(e.runLength) ? e : nil
    }
}
