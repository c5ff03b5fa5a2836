import Foundation
import Testing
@testable import MapSnap

@Suite struct LabelCollisionIndexTests {
    @Test func overlapsAreFoundAcrossGridCells() {
        let index = LabelCollisionIndex(width: 300, height: 200, cellSize: 64)
        index.insert(PixelRect(x: 60, y: 60, width: 80, height: 20))  // spans cells 0…2
        #expect(index.collides(PixelRect(x: 130, y: 70, width: 10, height: 5)))
        #expect(index.collides(PixelRect(x: 0, y: 75, width: 61, height: 2)))
        #expect(!index.collides(PixelRect(x: 141, y: 60, width: 10, height: 10)))
        #expect(!index.collides(PixelRect(x: 60, y: 81, width: 80, height: 5)))
        // Boxes hanging off the image are indexed in the border cells.
        index.insert(PixelRect(x: -30, y: -30, width: 40, height: 40))
        #expect(index.collides(PixelRect(x: -5, y: -5, width: 2, height: 2)))
        // Non-finite boxes always collide and are never inserted.
        #expect(index.collides(PixelRect(x: .nan, y: 0, width: 1, height: 1)))
    }

    /// A blocked stroke is taken where it is drawn, dashes included, and free a few pixels
    /// beside it (within one obstacle cell of its edge).
    @Test func blockedStrokesCollideWhereTheyAreDrawn() {
        let index = LabelCollisionIndex(width: 200, height: 100)
        var line = Path()
        line.move(to: PixelPoint(x: 20, y: 50))
        line.line(to: PixelPoint(x: 180, y: 50))
        #expect(!index.collides(PixelRect(x: 100, y: 49, width: 2, height: 2)))
        let k = LabelCollisionIndex.obstacleScale
        let cells = line.mapPoints { PixelPoint(x: $0.x * k, y: $0.y * k) }
        index.block(obstacleLine: cells, style: StrokeStyle(width: 8 * k, dash: [4 * k, 20 * k]))
        #expect(index.collides(PixelRect(x: 100, y: 49, width: 2, height: 2)))
        #expect(index.collides(PixelRect(x: 35, y: 45, width: 2, height: 2)))   // a dash gap
        #expect(index.collides(PixelRect(x: 60, y: 30, width: 4, height: 17)))  // reaches the edge
        #expect(!index.collides(PixelRect(x: 100, y: 58, width: 10, height: 10)))
        #expect(!index.collides(PixelRect(x: 0, y: 40, width: 14, height: 20)))  // butt cap at x 20
        #expect(!index.collides(PixelRect(x: 1e300, y: -1e300, width: 5, height: 5)))
        // Nothing to draw, nothing blocked.
        let empty = LabelCollisionIndex(width: 200, height: 100)
        empty.block(obstacleLine: cells, style: StrokeStyle(width: 0))
        empty.block(obstacleLine: cells, style: StrokeStyle(width: .nan))
        #expect(!empty.collides(PixelRect(x: 100, y: 49, width: 2, height: 2)))
    }
}

/// Base-map labels are placed once for the whole image: no two overlap, none is cut at
/// the image edge, and a label repeated by neighbouring tiles' buffers appears once.
@Suite struct SymbolPlacementTests {
    func style(_ dir: String) throws -> String {
        // One point label per tile, each exactly at the shared corner of the four z1 tiles
        // (in each tile's buffer or edge): it must be drawn once.
        let json = """
        {"version": 8, "sources": {"t": {"type": "vector", "url": "tiles"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
          {"id": "names", "type": "symbol", "source": "t", "source-layer": "names",
           "layout": {"text-field": "{name}", "text-size": 14, "text-font": ["Noto Sans Bold"]},
           "paint": {"text-color": "#000000"}}]}
        """
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/style.json"))
        return dir + "/style.json"
    }

    @Test func aLabelDuplicatedInNeighbouringTilesIsDrawnOnce() throws {
        let dir = TestPaths.temporaryDirectory()
        func zz(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
        for x in 0..<2 {
            for y in 0..<2 {
                // The corner (0°, 0°) in this tile's coordinates: (4096, 4096) for tile 0/0,
                // (0, 4096) for 1/0, … — all within extent + buffer.
                let px: Int64 = x == 0 ? 4096 : 0, py: Int64 = y == 0 ? 4096 : 0
                let tile = MVTTestTiles.tile([MVTTestTiles.layer(
                    name: "names", keys: ["name"], values: [MVTTestTiles.stringValue("Corner")],
                    features: [.init(type: 1, tags: [0, 0], geometry: [MVTTestTiles.command(1, 1), zz(px), zz(py)])])])
                try FileManager.default.createDirectory(atPath: "\(dir)/tiles/1/\(x)", withIntermediateDirectories: true)
                try Data(tile).write(to: URL(fileURLWithPath: "\(dir)/tiles/1/\(x)/\(y).pbf"))
            }
        }
        let o = MapSnapshotOptions(width: 200, height: 120, scale: 1, center: LatLng(0, 0), zoom: 1.5,
                                   style: try style(dir), attribution: "", showsScaleBar: false)
        let snap = try MapSnapshotter(options: o).render()
        // Count dark pixels: one "Corner" in 14 px bold has a few hundred; two overlapping
        // copies would double the ink's alpha (darker AA) — compare with a single copy.
        var ink = 0
        for y in 0..<snap.image.height { for x in 0..<snap.image.width where snap.image.color(atX: x, y: y).red < 128 { ink += 1 } }
        #expect(ink > 100)
        let layout = TextLayout("Corner", face: try #require(MapRenderer.shared.text.fonts?.bold), fonts: try #require(MapRenderer.shared.text.fonts),
                                options: TextLayoutOptions(sizePixels: 14))
        let single = Canvas(width: 200, height: 120, fill: .white)
        MapRenderer.shared.text.renderer.draw(layout, on: single, at: PixelPoint(x: 100, y: 60), anchor: .center, paint: TextPaint(color: .black))
        let same = snap.image.pixels == single.pixels
        #expect(same, "the label must be drawn exactly once, centred on its point")
    }

    @Test func helsinkiLabelsDoNotOverlap() throws {
        // Render the label pass and check the collision index afterwards: boxes pairwise disjoint.
        let camera = Camera(center: LatLng(60.1699, 24.9450), zoom: 16.5, width: 500, height: 350, scale: 1)
        let canvas = Canvas(width: 500, height: 350, fill: .white)
        let base = BaseMap(setup: try MapRenderer().preparedStyle(for: MapSnapshotOptions(style: "normal")), tileCache: nil)
        base.prepare(camera: camera)
        let labels = LabelCollisionIndex(width: 500, height: 350)
        base.drawLayers(camera: camera, canvas: canvas, labels: labels, pass: .labels, text: MapRenderer.shared.text)
        let boxes = labels.boxes
        #expect(boxes.count > 20)
        // Line labels insert one box per glyph (which overlap their neighbours): compare
        // boxes of different labels only.
        let owners = labels.owners
        var overlaps: [String] = []
        for i in 0..<boxes.count {
            for j in (i + 1)..<boxes.count where owners[i] != owners[j] && boxes[i].intersects(boxes[j]) {
                overlaps.append("\(boxes[i]) × \(boxes[j])")
            }
        }
        #expect(overlaps.isEmpty, "\(overlaps.prefix(5))")
        for b in boxes { #expect(b.minX >= -3 && b.maxX <= 503 && b.minY >= -3 && b.maxY <= 353) }
    }

    /// A route drawn above the labels (the default level) would hide the base-map labels
    /// under it — Kluuvikatu showed as "uuvikatu" in the Helsinki golden — so they keep
    /// clear of it; a route drawn above roads only, below the labels, leaves them alone, and
    /// so do area outlines, which only cross labels.
    @Test func baseMapLabelsKeepClearOfRoutesDrawnAboveThem() throws {
        let options = BaseMapTests().options(style: "normal")
        let camera = Camera(center: try #require(options.center), zoom: try #require(options.zoom),
                            width: options.width, height: options.height, scale: 1)
        let canvas = Canvas(width: camera.pixelWidth, height: camera.pixelHeight, fill: .white)
        func painter(_ overlays: [Overlay]) -> OverlayPainter {
            OverlayPainter(camera: camera, canvas: canvas, text: MapRenderer.shared.text, icons: IconStore(),
                           overlays: overlays.map(ProjectedOverlay.init))
        }
        func placedBoxes(_ overlays: [Overlay]) throws -> [PixelRect] {
            let base = BaseMap(setup: try MapRenderer().preparedStyle(for: MapSnapshotOptions(style: "normal")), tileCache: nil)
            base.prepare(camera: camera)
            let labels = LabelCollisionIndex(width: canvas.width, height: canvas.height)
            painter(overlays).reserveRoutes(level: .aboveLabels, labels: labels)
            base.drawLayers(camera: camera, canvas: canvas, labels: labels, pass: .labels, text: MapRenderer.shared.text)
            return labels.boxes
        }
        let route = options.overlays.filter { if case .path = $0 { return true } else { return false } }
        let routeArea = LabelCollisionIndex(width: canvas.width, height: canvas.height)
        painter(route).reserveRoutes(level: .aboveLabels, labels: routeArea)

        let unaware = try placedBoxes([])
        #expect(unaware.contains(where: routeArea.collides), "a label under the route is what this test is about")
        let placed = try placedBoxes(route)
        #expect(!placed.contains(where: routeArea.collides))
        #expect(placed.count < unaware.count && placed.count > 20)

        let belowLabels = route.map { overlay -> Overlay in
            guard case .path(var p) = overlay else { return overlay }
            p.level = .aboveRoads
            return .path(p)
        }
        #expect(try placedBoxes(belowLabels) == unaware)
        let center = try #require(options.center)
        let areas: [Overlay] = [
            .circle(CircleOverlay(center: center, radiusMeters: 80, strokeWidth: 6)),
            .polygon(PolygonOverlay(rings: [[center, LatLng(center.latitude + 0.001, center.longitude),
                                             LatLng(center.latitude, center.longitude + 0.002)]], strokeWidth: 6)),
            .path(PathOverlay(coordinates: [center, LatLng(center.latitude + 0.001, center.longitude + 0.002)],
                              width: 6, fillColor: Color(rgba: 0x4285F433))),
        ]
        #expect(try placedBoxes(areas) == unaware)
    }
}
