import MapSnapTesting
import Foundation
import Testing
@testable import MapSnap

@Suite struct VectorTileTests {
    /// Per-layer counts of tile 14/9326/4742 of the Helsinki fixture. Source: an independent
    /// stdlib-only Python walk of the protobuf (sqlite3 + gzip modules, hand-written varint
    /// reader; vertices = sum of MoveTo/LineTo counts), run while writing this test.
    static let helsinkiCentral: [(name: String, keys: Int, values: Int, features: Int, vertices: Int)] = [
        ("boundary", 2, 2, 1, 25),
        ("poi", 4, 476, 453, 453),
        ("housenumber", 1, 58, 478, 478),
        ("waterway", 3, 3, 5, 21),
        ("transportation", 4, 16, 403, 2072),
        ("transportation_name", 4, 49, 403, 2072),
        ("building", 2, 11, 93, 1413),
        ("water", 1, 1, 2, 12),
        ("water_name", 1, 1, 5, 21),
        ("landuse", 1, 5, 21, 310),
        ("landcover", 2, 2, 22, 133),
    ]

    @Test func decodesRealHelsinkiTile() throws {
        let bytes = try TileFixtures.centralTileBytes()
        #expect(bytes.count == 55041)
        let tile = try VectorTile(bytes: bytes)
        #expect(tile.layerNames == Self.helsinkiCentral.map(\.name))
        var geometry = TileGeometry()
        var totalFeatures = 0, totalVertices = 0
        for expected in Self.helsinkiCentral {
            let layer = try #require(try tile.layer(named: expected.name))
            #expect(layer.extent == 4096)
            #expect(layer.version == 2)
            #expect(layer.keys.count == expected.keys, "\(expected.name)")
            #expect(layer.values.count == expected.values, "\(expected.name)")
            #expect(layer.features.count == expected.features, "\(expected.name)")
            #expect(layer.skippedFeatureCount == 0)
            var vertices = 0
            for feature in layer.features {
                try feature.decodeGeometry(into: &geometry)
                #expect(geometry.type == feature.geometryType)
                vertices += geometry.points.count
            }
            #expect(vertices == expected.vertices, "\(expected.name)")
            totalFeatures += layer.features.count
            totalVertices += vertices
        }
        #expect(totalFeatures == 1886)
        #expect(totalVertices == 7010)
    }

    @Test func helsinkiPropertiesAndRings() throws {
        let tile = try VectorTile(bytes: try TileFixtures.centralTileBytes())
        let water = try #require(try tile.layer(named: "water"))
        // The layer's only key/value pair in the raw bytes is class = "lake" (Töölönlahti);
        // the sea (class ocean) lies in the tiles east of this one.
        #expect(water.features.allSatisfy { $0.value(forKey: "class") == .string("lake") })
        #expect(water.features.allSatisfy { $0.geometryType == .polygon })
        #expect(water.features.first?.value(forKey: "no-such-key") == nil)

        let buildings = try #require(try tile.layer(named: "building"))
        var geometry = TileGeometry()
        var polygons = ClassifiedPolygons()
        var total = 0
        for feature in buildings.features {
            try feature.decodeGeometry(into: &geometry)
            RingClassifier.classify(geometry, into: &polygons)
            // Every building has at least one exterior, and the first ring is one.
            #expect(polygons.polygonCount >= 1)
            #expect(polygons.rings.first == 0 || polygons.droppedRingCount > 0)
            total += polygons.polygonCount
        }
        #expect(total >= buildings.features.count)

        let transportation = try #require(try tile.layer(named: "transportation"))
        let classIndex = try #require(transportation.keyIndex(for: "class"))
        for feature in transportation.features {
            #expect(feature.value(atKeyIndex: classIndex) == feature.value(forKey: "class"))
        }
        #expect(try tile.layer(named: "nonexistent") == nil)
        // The second request is served from the tile's cache, not decoded again.
        #expect(try tile.layer(named: "transportation")?.storage === transportation.storage)
    }

    @Test func allSevenValueTypes() throws {
        func value(_ build: (inout ProtobufWriter) -> Void) -> [UInt8] {
            var w = ProtobufWriter()
            build(&w)
            return w.bytes
        }
        let values: [[UInt8]] = [
            MVTTestTiles.stringValue("Esplanadi"),
            value { $0.writeKey(2, .fixed32); $0.writeRaw([0x00, 0x00, 0xc0, 0x3f]) },  // float 1.5
            value { $0.writeKey(3, .fixed64); $0.writeRaw([0, 0, 0, 0, 0, 0, 0x04, 0xc0]) },  // double -2.5
            value { $0.writeVarintField(4, UInt64(bitPattern: -7)) },  // int64 -7, 10-byte varint
            value { $0.writeVarintField(5, 42) },
            value { $0.writeVarintField(6, ProtobufReader.zigzagEncode(-3)) },
            value { $0.writeVarintField(7, 1) },
        ]
        let keys = ["s", "f", "d", "i", "u", "z", "b"]
        let tags: [UInt64] = (0..<7).flatMap { [UInt64($0), UInt64($0)] }
        let bytes = MVTTestTiles.tile([MVTTestTiles.layer(
            keys: keys, values: values,
            features: [.init(id: 99, type: 1, tags: tags, geometry: [9, 50, 34])])])
        let layer = try #require(try VectorTile(bytes: bytes).layer(named: "l"))
        let feature = layer.features[0]
        #expect(feature.featureID == 99)
        #expect(feature.value(forKey: "s") == .string("Esplanadi"))
        #expect(feature.value(forKey: "f") == .number(1.5))
        #expect(feature.value(forKey: "d") == .number(-2.5))
        #expect(feature.value(forKey: "i") == .number(-7))
        #expect(feature.value(forKey: "u") == .number(42))
        #expect(feature.value(forKey: "z") == .number(-3))
        #expect(feature.value(forKey: "b") == .bool(true))
        #expect(feature.properties.map(\.key) == keys)
    }

    @Test func featureWithoutIDAndUnknownTypeSkipped() throws {
        let bytes = MVTTestTiles.tile([MVTTestTiles.layer(features: [
            .init(type: 0, geometry: [9, 2, 2]),
            .init(type: 2, geometry: [9, 2, 2, 10, 4, 4]),
        ])])
        let layer = try #require(try VectorTile(bytes: bytes).layer(named: "l"))
        #expect(layer.features.count == 1)
        #expect(layer.skippedFeatureCount == 1)
        #expect(layer.features[0].featureID == nil)
        #expect(layer.features[0].geometryType == .lineString)
    }

    @Test func defaultsApplyWhenVersionAndExtentAbsent() throws {
        let bytes = MVTTestTiles.tile([MVTTestTiles.layer(version: nil, extent: nil, features: [])])
        let header = try #require(try VectorTile(bytes: bytes).layerHeaders.first)
        #expect(header.version == 1)
        #expect(header.extent == 4096)
    }

    static let corruptTileCases: [(String, [UInt8], MVTDecodingError)] = [
        ("extent 0", MVTTestTiles.tile([MVTTestTiles.layer(extent: 0, features: [])]),
         .invalidExtent(layer: "l", extent: 0)),
        ("extent 2^16 + 1", MVTTestTiles.tile([MVTTestTiles.layer(extent: 65537, features: [])]),
         .invalidExtent(layer: "l", extent: 65537)),
        ("version 3", MVTTestTiles.tile([MVTTestTiles.layer(version: 3, features: [])]),
         .unsupportedVersion(layer: "l", version: 3)),
        ("no layer name", MVTTestTiles.tile([MVTTestTiles.layer(name: nil, features: [])]),
         .missingLayerName(layerIndex: 0)),
        ("truncated tile", Array(MVTTestTiles.tile([MVTTestTiles.layer(features: [.init(type: 1, geometry: [9, 2, 2])])]).dropLast(3)),
         .protobuf(.truncatedField(offset: 1, needed: 17, available: 14))),
        ("group wire type", [0x1b], .protobuf(.unsupportedWireType(3, offset: 0))),
    ]

    @Test(arguments: corruptTileCases.indices)
    func corruptTileHeaders(case index: Int) {
        let (name, bytes, expected) = Self.corruptTileCases[index]
        #expect(throws: expected, "\(name)") { try VectorTile(bytes: bytes) }
    }

    static let corruptLayerCases: [(String, [UInt8], MVTDecodingError)] = [
        ("key index beyond keys", MVTTestTiles.layer(keys: ["a"], values: [MVTTestTiles.stringValue("x")],
                                                      features: [.init(type: 1, tags: [1, 0], geometry: [9, 2, 2])]),
         .keyIndexOutOfRange(layer: "l", feature: 0, index: 1, keyCount: 1)),
        ("value index beyond values", MVTTestTiles.layer(keys: ["a"], values: [MVTTestTiles.stringValue("x")],
                                                          features: [.init(type: 1, tags: [0, 5], geometry: [9, 2, 2])]),
         .valueIndexOutOfRange(layer: "l", feature: 0, index: 5, valueCount: 1)),
        ("odd tag count", MVTTestTiles.layer(keys: ["a"], values: [MVTTestTiles.stringValue("x")],
                                             features: [.init(type: 1, tags: [0, 0, 0], geometry: [9, 2, 2])]),
         .oddTagCount(layer: "l", feature: 0, count: 3)),
        ("empty value", MVTTestTiles.layer(keys: ["a"], values: [[]], features: []),
         .emptyValue(layer: "l", valueIndex: 0)),
    ]

    @Test(arguments: corruptLayerCases.indices)
    func corruptLayers(case index: Int) throws {
        let (name, layerBytes, expected) = Self.corruptLayerCases[index]
        let tile = try VectorTile(bytes: MVTTestTiles.tile([layerBytes]))
        #expect(throws: expected, "\(name)") { try tile.layer(named: "l") }
    }

    @Test func mutatedRealTileNeverTraps() throws {
        let bytes = try TileFixtures.centralTileBytes()
        var geometry = TileGeometry()
        var rng = SeededGenerator(seed: 0x7111_e5)
        var decodedSome = false
        // Seeded random byte mutations: decoding must throw or succeed, never trap or hang.
        for _ in 0..<200 {
            var mutated = bytes
            for _ in 0..<(1 + rng.next() % 4) {
                mutated[Int(rng.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            guard let tile = try? VectorTile(bytes: mutated) else { continue }
            decodedSome = true
            for name in tile.layerNames {
                guard let layer = try? tile.layer(named: name) else { continue }
                for feature in layer.features { try? feature.decodeGeometry(into: &geometry) }
            }
        }
        #expect(decodedSome, "seed 0x7111e5")
    }
}

/// The quick box around a feature's encoded geometry that lets renders skip far features.
@Suite struct TileBoxTests {
    typealias T = MVTTestTiles

    static func box(_ geometry: [UInt64]) -> TileBox {
        var w = ProtobufWriter()
        for g in geometry { w.writeVarint(g) }
        return TileBox.scanning(w.bytes, 0..<w.bytes.count)
    }

    /// Running sums of zigzag deltas over MoveTo and LineTo; ClosePath adds no point.
    @Test func boxCoversEveryPoint() {
        let polygon: [UInt64] = [T.command(1, 1), T.zigzag(10), T.zigzag(20),
                                 T.command(2, 2), T.zigzag(-15), T.zigzag(0), T.zigzag(5), T.zigzag(30),
                                 T.command(7, 1)]
        #expect(Self.box(polygon) == TileBox(minX: -5, minY: 20, maxX: 10, maxY: 50))
        #expect(Self.box(polygon).intersects(minX: -100, minY: 49.5, maxX: -5, maxY: 60))
        #expect(!Self.box(polygon).intersects(minX: 10.5, minY: 0, maxX: 100, maxY: 100))
    }

    /// What the scan cannot read touches everything, so the decoder still sees it and says why.
    @Test(arguments: [[UInt64](), [T.command(4, 1), 0, 0], [T.command(1, 2), T.zigzag(1), T.zigzag(1)],
                      [T.command(7, 1)], [T.command(1, 1), UInt64(1) << 40, 0]])
    func unreadableGeometryTouchesEverything(_ geometry: [UInt64]) {
        #expect(Self.box(geometry) == .everything)
    }
}
