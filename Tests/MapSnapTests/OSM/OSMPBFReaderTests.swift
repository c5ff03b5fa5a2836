import Foundation
import Testing
@testable import MapSnap

/// The `.osm.pbf` reader against the Helsinki extract (expected values from `osmium
/// fileinfo -e` of osmium-tool 1.15, an independent reader), the writer by round trip, and a
/// corpus of damaged files, each expecting its typed error.
@Suite struct OSMPBFReaderTests {
    static let helsinki = TestPaths.fixture("osm/helsinki.osm.pbf")

    @Test func readsTheHelsinkiExtract() throws {
        let reader = try OSMPBFReader(path: Self.helsinki)
        // osmium fileinfo: bounding box (24.9351762,60.164155,24.9534145,60.179113).
        let b = try #require(reader.header.bounds)
        #expect(abs(b.southWest.longitude - 24.9351762) < 1e-7 && abs(b.southWest.latitude - 60.164155) < 1e-7)
        #expect(abs(b.northEast.longitude - 24.9534145) < 1e-7 && abs(b.northEast.latitude - 60.179113) < 1e-7)
        var nodes = 0, ways = 0, relations = 0
        var address: OSMNode?
        try reader.scan(nodes: { n in
            nodes += 1
            if n.id == 319515045 { address = n }
        }, ways: { _ in ways += 1 }, relations: { _ in relations += 1 })
        // osmium fileinfo -e: 24260 nodes, 5130 ways, 620 relations.
        #expect(nodes == 24260 && ways == 5130 && relations == 620)
        // osmium getid n319515045: lat 60.1686722, lon 24.9419347, addr Aleksanterinkatu 52.
        let a = try #require(address)
        #expect(abs(a.coordinate.latitude - 60.1686722) < 1e-7 && abs(a.coordinate.longitude - 24.9419347) < 1e-7)
        #expect(a.tags["addr:street"] == "Aleksanterinkatu" && a.tags["addr:housenumber"] == "52")
    }

    @Test func writerRoundTrips() throws {
        var bytes: [UInt8] = []
        var w = OSMPBFWriter(bounds: (LatLng(latitude: 60, longitude: 24), LatLng(latitude: 61, longitude: 25))) { bytes += $0 }
        // More nodes than one block holds, so several blocks are written and read.
        for i in 0..<(OSMPBFWriter.elementsPerBlock + 5) {
            let tags = i % 1000 == 0 ? OSMTags([("name", "n\(i)"), ("amenity", "cafe")]) : OSMTags()
            w.add(OSMNode(id: Int64(10 + i * 3), coordinate: LatLng(latitude: 60 + Double(i) * 1e-5, longitude: 24.5 - Double(i) * 1e-6), tags: tags))
        }
        w.add(OSMWay(id: 7, refs: [10, 13, 16, 10], tags: OSMTags([("building", "yes"), ("name", "Talo")])))
        w.add(OSMRelation(id: 9, members: [.init(type: .way, id: 7, role: "outer"), .init(type: .node, id: 13, role: "")],
                          tags: OSMTags([("type", "multipolygon")])))
        w.finish()
        let path = TestPaths.temporaryDirectory() + "/t.osm.pbf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let r = try OSMPBFReader(path: path)
        #expect(abs((r.header.bounds?.northEast.latitude ?? 0) - 61) < 1e-9)
        var nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []
        try r.scan(nodes: { nodes.append($0) }, ways: { ways.append($0) }, relations: { relations.append($0) })
        #expect(nodes.count == OSMPBFWriter.elementsPerBlock + 5)
        #expect(nodes[1000].id == 3010 && nodes[1000].tags["name"] == "n1000" && nodes[999].tags.isEmpty)
        #expect(abs(nodes[4000].coordinate.latitude - 60.04) < 1e-7 && abs(nodes[4000].coordinate.longitude - 24.496) < 1e-7)
        #expect(ways.count == 1 && ways[0].refs == [10, 13, 16, 10] && ways[0].tags["name"] == "Talo")
        #expect(relations.count == 1 && relations[0].members.map(\.id) == [7, 13] && relations[0].members[0].role == "outer")
    }

    // MARK: Corrupt input

    /// One blob: the 4-byte length, a `BlobHeader` and a `Blob`.
    static func blob(type: String, payload: [UInt8], rawSize: Int? = nil, field: Int = 1, declaredSize: Int? = nil) -> [UInt8] {
        var b = ProtobufWriter()
        if let rawSize { b.writeVarintField(2, UInt64(rawSize)) }
        b.writeBytes(field, payload)
        var h = ProtobufWriter()
        h.writeString(1, type)
        h.writeVarintField(3, UInt64(declaredSize ?? b.bytes.count))
        let n = h.bytes.count
        return [0, 0, UInt8(n >> 8), UInt8(n & 0xFF)] + h.bytes + b.bytes
    }

    static var header: [UInt8] {
        var h = ProtobufWriter()
        h.writeString(4, "OsmSchema-V0.6")
        return blob(type: "OSMHeader", payload: h.bytes)
    }

    static func expectError(_ bytes: [UInt8], _ check: (OSMPBFError) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = TestPaths.temporaryDirectory() + "/bad.osm.pbf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            let r = try OSMPBFReader(path: path)
            try r.scan(nodes: { _ in }, ways: { _ in }, relations: { _ in })
            Issue.record("no error", sourceLocation: sourceLocation)
        } catch {
            #expect(check(error), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func corruptCorpus() throws {
        // Not a PBF at all: a text file's first bytes read as a huge header length.
        try Self.expectError(Array("<?xml version='1.0'?><osm>".utf8)) { if case .headerTooLarge(0, 0, _) = $0 { return true }; return false }
        // An empty file has no header.
        try Self.expectError([]) { if case .truncated(blob: 0, _, _, _) = $0 { return true }; return false }
        // The length says 40 bytes of header; the file ends after 3.
        try Self.expectError([0, 0, 0, 40, 1, 2, 3]) { if case .truncated(0, 0, 40, 3) = $0 { return true }; return false }
        // A blob declared over 32 MiB is refused before anything is read.
        try Self.expectError(Self.blob(type: "OSMHeader", payload: [], declaredSize: 33 << 20)) {
            if case .blobTooLarge(0, 0, 33 << 20) = $0 { return true }; return false
        }
        // The first blob must be the header.
        try Self.expectError(Self.blob(type: "OSMData", payload: [])) { if case .unexpectedBlobType(0, 0, "OSMData") = $0 { return true }; return false }
        // A required feature we do not implement.
        var h = ProtobufWriter()
        h.writeString(4, "Sort.Type_then_ID")
        h.writeString(4, "LocationsOnWays-ish")
        try Self.expectError(Self.blob(type: "OSMHeader", payload: h.bytes)) { $0 == .unsupportedFeature("Sort.Type_then_ID") }
        // lzma-compressed data (field 4).
        let second = Self.header.count
        try Self.expectError(Self.header + Self.blob(type: "OSMData", payload: [1, 2, 3], field: 4)) {
            $0 == .unsupportedCompression(blob: 1, fileOffset: second, method: "lzma")
        }
        // zlib data that is not zlib.
        try Self.expectError(Self.header + Self.blob(type: "OSMData", payload: [0x78, 0x9C, 0xFF, 0xFF, 0xFF], rawSize: 10, field: 3)) {
            if case .corruptCompression(1, second, _) = $0 { return true }; return false
        }
        // A block whose string table has 1 string and a node tag pointing at string 5.
        var table = ProtobufWriter()
        table.writeString(1, "")
        var dense = ProtobufWriter()
        dense.writePacked(1, [2]); dense.writePacked(8, [0]); dense.writePacked(9, [0]); dense.writePacked(10, [5, 5, 0])
        var group = ProtobufWriter()
        group.writeBytes(2, dense.bytes)
        var block = ProtobufWriter()
        block.writeBytes(1, table.bytes)
        block.writeBytes(2, group.bytes)
        try Self.expectError(Self.header + Self.blob(type: "OSMData", payload: block.bytes)) {
            $0 == .badStringIndex(blob: 1, fileOffset: second, index: 5, tableSize: 1)
        }
        // Dense nodes with 2 ids but 1 latitude.
        var uneven = ProtobufWriter()
        uneven.writePacked(1, [2, 2]); uneven.writePacked(8, [0]); uneven.writePacked(9, [0, 0])
        var group2 = ProtobufWriter()
        group2.writeBytes(2, uneven.bytes)
        var block2 = ProtobufWriter()
        block2.writeBytes(2, group2.bytes)
        try Self.expectError(Self.header + Self.blob(type: "OSMData", payload: block2.bytes)) {
            if case .mismatchedArrays(1, second, _) = $0 { return true }; return false
        }
        // A truncated real file: cut in the middle of its second blob.
        let real = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.helsinki)))
        try Self.expectError(Array(real.prefix(real.count / 2))) { if case .truncated = $0 { return true }; return false }
        // Garbage inside a block (a key with wire type 7).
        try Self.expectError(Self.header + Self.blob(type: "OSMData", payload: [0x0F, 0x00])) {
            if case .malformed(1, second, "primitive block", _) = $0 { return true }; return false
        }
    }
}
