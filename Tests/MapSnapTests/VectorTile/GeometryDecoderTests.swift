import Testing
@testable import MapSnap

@Suite struct GeometryDecoderTests {
    func decode(_ ints: [UInt64], as type: GeometryType) throws(MVTGeometryError) -> TileGeometry {
        var w = ProtobufWriter()
        for v in ints { w.writeVarint(v) }
        var g = TileGeometry()
        try GeometryDecoder.decode(w.bytes, range: 0..<w.bytes.count, as: type, into: &g)
        return g
    }

    func points(_ g: TileGeometry, part: Int) -> [[Int32]] {
        g.part(part).map { [$0.x, $0.y] }
    }

    // The worked examples of the MVT 2.1 specification, §4.3.5.
    @Test func specExamples() throws {
        let point = try decode([9, 50, 34], as: .point)
        #expect(points(point, part: 0) == [[25, 17]])

        let multiPoint = try decode([17, 10, 14, 3, 9], as: .point)
        #expect(multiPoint.partCount == 1)
        #expect(points(multiPoint, part: 0) == [[5, 7], [3, 2]])

        let line = try decode([9, 4, 4, 18, 0, 16, 16, 0], as: .lineString)
        #expect(points(line, part: 0) == [[2, 2], [2, 10], [10, 10]])

        let multiLine = try decode([9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8], as: .lineString)
        #expect(multiLine.partCount == 2)
        #expect(points(multiLine, part: 1) == [[1, 1], [3, 5]])

        let polygon = try decode([9, 6, 12, 18, 10, 12, 24, 44, 15], as: .polygon)
        #expect(points(polygon, part: 0) == [[3, 6], [8, 12], [20, 34]])
    }

    static let multiPolygon: [UInt64] = [
        9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15,
        9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15,
        9, 4, 13, 26, 0, 8, 8, 0, 0, 7, 15,
    ]

    @Test func specMultiPolygonClassifies() throws {
        let g = try decode(Self.multiPolygon, as: .polygon)
        #expect(g.partCount == 3)
        #expect(points(g, part: 1) == [[11, 11], [20, 11], [20, 20], [11, 20]])
        #expect(points(g, part: 2) == [[13, 13], [13, 17], [17, 17], [17, 13]])
        #expect(RingClassifier.doubledSignedArea(of: g, part: 0) == 200)
        #expect(RingClassifier.doubledSignedArea(of: g, part: 2) == -32)
        var result = ClassifiedPolygons()
        RingClassifier.classify(g, into: &result)
        #expect(result.polygonCount == 2)
        #expect(Array(result.polygon(0)) == [0])
        #expect(Array(result.polygon(1)) == [1, 2])
        #expect(result.droppedRingCount == 0)
    }

    @Test func zeroAreaRingDroppedAndReversedWindingAccepted() throws {
        // Ring 0: degenerate (collinear); ring 1: counter-clockwise on screen (negative) —
        // becomes the exterior because it is the first non-degenerate ring; ring 2: positive → hole.
        let g = try decode([
            9, 0, 0, 18, 4, 0, 4, 0, 15,
            9, 0, 0, 26, 0, 20, 20, 0, 0, 19, 15,
            9, 4, 4, 26, 4, 0, 0, 4, 3, 0, 15,
        ], as: .polygon)
        var result = ClassifiedPolygons()
        RingClassifier.classify(g, into: &result)
        #expect(result.droppedRingCount == 1)
        #expect(result.polygonCount == 1)
        #expect(Array(result.polygon(0)) == [1, 2])
    }

    @Test func reusesBufferAcrossFeatures() throws {
        var w = ProtobufWriter()
        for v in Self.multiPolygon { w.writeVarint(v) }
        var g = TileGeometry()
        try GeometryDecoder.decode(w.bytes, range: 0..<w.bytes.count, as: .polygon, into: &g)
        try GeometryDecoder.decode([9, 50, 34], range: 0..<3, as: .point, into: &g)
        #expect(g.points == [TilePoint(x: 25, y: 17)])
        #expect(g.partStarts == [0])
    }

    static let invalid: [(String, [UInt64], GeometryType, MVTGeometryError)] = [
        ("LineTo before MoveTo", [10, 2, 2], .lineString, .commandBeforeMoveTo(command: "LineTo", index: 0)),
        ("ClosePath before MoveTo", [15], .polygon, .commandBeforeMoveTo(command: "ClosePath", index: 0)),
        ("LineTo count overruns data", [9, 2, 2, MVTTestTiles.command(2, 5), 2, 2], .lineString,
         .countExceedsData(command: "LineTo", count: 5, index: 3)),
        ("MoveTo count overruns data", [MVTTestTiles.command(1, 1000), 2, 2], .point,
         .countExceedsData(command: "MoveTo", count: 1000, index: 0)),
        ("ClosePath in a line", [9, 0, 0, 10, 2, 2, 15], .lineString,
         .unexpectedCommand(command: "ClosePath", geometryType: .lineString, index: 6)),
        ("LineTo in a point", [9, 0, 0, 10, 2, 2], .point,
         .unexpectedCommand(command: "LineTo", geometryType: .point, index: 3)),
        ("unknown command 3", [9, 0, 0, 11], .lineString, .unknownCommand(id: 3, index: 3)),
        ("MoveTo count 2 in a line", [17, 0, 0, 2, 2, 10, 2, 2], .lineString,
         .invalidCount(command: "MoveTo", count: 2, index: 0)),
        ("ClosePath count 2", [9, 0, 0, 18, 2, 0, 0, 2, 23], .polygon, .invalidCount(command: "ClosePath", count: 2, index: 8)),
        ("LineTo count 0", [9, 0, 0, 2], .lineString, .invalidCount(command: "LineTo", count: 0, index: 3)),
        ("ring not closed", [9, 0, 0, 18, 2, 0, 0, 2], .polygon, .unclosedRing(part: 0)),
        ("second ring while first open", [9, 0, 0, 18, 2, 0, 0, 2, 9, 0, 0], .polygon, .unclosedRing(part: 0)),
        ("coordinate overflow", [17, 0xffff_fffe, 0, 0xffff_fffe, 0], .point, .coordinateOverflow(index: 3)),
        ("parameter wider than 32 bits", [9, 1 << 33, 0], .point, .protobuf(.valueOutOfRange(1 << 33, offset: 1))),
    ]

    @Test(arguments: invalid.indices)
    func rejectsInvalidStreams(case index: Int) {
        let (name, ints, type, expected) = Self.invalid[index]
        #expect(throws: expected, "\(name)") { try decode(ints, as: type) }
    }

    @Test func errorIsWrappedWithLayerAndFeature() throws {
        let bytes = MVTTestTiles.tile([MVTTestTiles.layer(features: [
            .init(type: 2, geometry: [9, 0, 0, 10, 2, 2]),
            .init(type: 2, geometry: [10, 2, 2]),
        ])])
        let layer = try #require(try VectorTile(bytes: bytes).layer(named: "l"))
        var g = TileGeometry()
        try layer.features[0].decodeGeometry(into: &g)
        #expect(throws: MVTDecodingError.geometry(layer: "l", feature: 1, .commandBeforeMoveTo(command: "LineTo", index: 0))) {
            try layer.features[1].decodeGeometry(into: &g)
        }
    }
}
