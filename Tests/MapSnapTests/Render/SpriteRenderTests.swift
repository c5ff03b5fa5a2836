import Foundation
import Testing
@testable import MapSnap

/// Sprites in rendered maps: patterns, icons, the sprite override and the missing-layer
/// warning, over the fixture Helsinki tiles with the test sprite sheet.
@Suite struct SpriteRenderTests {
    static let tiles = TestPaths.fixture("helsinki-openmaptiles.mbtiles")
    static let spriteBase = TestPaths.fixture("sprites/test")
    static let blue = Color(red: 0, green: 0, blue: 255)
    static let red = Color(red: 255, green: 0, blue: 0)
    static let green = Color(red: 0, green: 128, blue: 0)

    /// Writes a style with `layers` (after a white background) into a fresh folder beside a
    /// copy of the test sprite (`sprites/test`), and returns its path.
    static func style(_ layers: String, sprite: String? = "sprites/test") throws -> String {
        let dir = TestPaths.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/sprites", withIntermediateDirectories: true)
        for f in ["test.json", "test.png", "test@2x.json", "test@2x.png"] {
            try FileManager.default.copyItem(atPath: TestPaths.fixture("sprites/" + f), toPath: dir + "/sprites/" + f)
        }
        let spriteKey = sprite.map { "\"sprite\": \"\($0)\"," } ?? ""
        let json = """
        {"version": 8, "name": "sprite test", \(spriteKey)
         "sources": {"omt": {"type": "vector", "url": "https://example.com/tiles.json"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}\(layers.isEmpty ? "" : ", " + layers)]}
        """
        let path = dir + "/style.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let city = LatLng(60.1699, 24.9450)
    /// Töölönlahti bay fills the top right.
    static let bay = LatLng(60.1760, 24.9390)

    static func render(_ style: String, scale: Double = 1, center: LatLng = city, zoom: Double = 16, sprite: String? = nil,
                       offlineCache: String? = nil) throws -> MapSnapshot {
        var o = MapSnapshotOptions(width: 360, height: 260, scale: scale, center: center, zoom: zoom,
                                   style: style, source: tiles, attribution: "", showsScaleBar: false)
        o.sprite = sprite
        if let offlineCache {
            o.http.offline = true
            o.http.cacheDirectory = offlineCache
        }
        return try MapSnapshotter(options: o, renderer: MapRenderer()).render()
    }

    static func count(_ canvas: MapImage, _ color: Color) -> Int {
        var n = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where canvas.color(atX: x, y: y) == color { n += 1 }
        }
        return n
    }

    static let waterPattern = ##"{"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-pattern": "stripes", "fill-color": "#000000"}}"##

    @Test func fillPatternDrawsTheSpriteImagePinnedToTheMap() throws {
        let snap = try Self.render(Self.style(Self.waterPattern), center: Self.bay, zoom: 15)
        #expect(snap.warnings.isEmpty, "\(snap.warnings)")
        let c = snap.image
        // Stripes: two rows blue, two rows white, inside the water; never the fill colour.
        #expect(Self.count(c, Self.blue) > 2_000)
        #expect(Self.count(c, .black) == 0)
        var checked = 0
        for y in 0..<(c.height - 4) {
            for x in 0..<c.width where c.color(atX: x, y: y) == Self.blue && c.color(atX: x, y: y + 4) == Self.blue {
                #expect(c.color(atX: x, y: y + 2) == .white, "\(x),\(y)")
                checked += 1
                if checked > 200 { return }
            }
        }
        #expect(checked > 0)
    }

    @Test func aPatternTheSpriteLacksDrawsNothing() throws {
        let layer = ##"{"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-pattern": "no-such-image"}}"##
        let c = try Self.render(Self.style(layer)).image
        #expect(Self.count(c, .white) == c.width * c.height)
    }

    /// A remote sprite that cannot be had now (offline, not cached) costs its icons, not the map.
    @Test func anUnavailableRemoteSpriteWarnsOnceAndPatternsAreLeftOutNotBlack() throws {
        let style = try Self.style(Self.waterPattern, sprite: "https://example.com/styles/sprite")
        let cache = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let snap = try Self.render(style, offlineCache: cache)
        #expect(snap.warnings == ["sprite https://example.com/styles/sprite.json: not in the cache, and offline mode forbids the network; icons and patterns are left out"])
        #expect(Self.count(snap.image, .white) == snap.image.width * snap.image.height)
        // The override points the same style at a local copy.
        let fixed = try Self.render(style, center: Self.bay, zoom: 15, sprite: Self.spriteBase)
        #expect(fixed.warnings.isEmpty, "\(fixed.warnings)")
        #expect(Self.count(fixed.image, Self.blue) > 2_000)
    }

    @Test func aMissingLocalSpriteWarns() throws {
        let snap = try Self.render(Self.style(Self.waterPattern, sprite: "nowhere/sprite"))
        #expect(snap.warnings.count == 1)
        #expect(snap.warnings.first?.hasPrefix("sprite nowhere/sprite: no ") == true, "\(snap.warnings)")
    }

    @Test func aMalformedSpriteIsAnError() throws {
        let style = try Self.style(Self.waterPattern)
        let dir = (style as NSString).deletingLastPathComponent
        try Data("{\"square\": {\"x\": 0}}".utf8).write(to: URL(fileURLWithPath: dir + "/sprites/test.json"))
        #expect(throws: RenderError.self) { try Self.render(style) }
    }

    /// An entry claiming 0.001 image pixels per CSS pixel would make an 8×8 image a
    /// 8000-pixel repeat: it is left out, not allocated.
    @Test func absurdPixelRatiosAreBounded() throws {
        let style = try Self.style(##"{"id": "bg2", "type": "background", "paint": {"background-pattern": "square"}}"##)
        let dir = (style as NSString).deletingLastPathComponent
        try Data(#"{"square": {"x": 0, "y": 0, "width": 8, "height": 8, "pixelRatio": 0.001}}"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/sprites/test.json"))
        let c = try Self.render(style).image
        #expect(Self.count(c, .white) == c.width * c.height)
    }

    @Test func linePatternAndBackgroundPattern() throws {
        let bg = try Self.render(Self.style(##"{"id": "bg2", "type": "background", "paint": {"background-pattern": "checker"}}"##)).image
        #expect(Self.count(bg, .black) == bg.width * bg.height / 2)
        let roads = ##"{"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation", "paint": {"line-pattern": "stripes", "line-width": 8, "line-color": "#ff0000"}}"##
        let c = try Self.render(Self.style(roads)).image
        #expect(Self.count(c, Self.blue) > 500)
        #expect(Self.count(c, Self.red) == 0)
    }

    static let squares = ##"{"id": "icons", "type": "symbol", "source": "omt", "source-layer": "poi", "layout": {"icon-image": "square", "icon-allow-overlap": ALLOW}}"##

    @Test func iconsAreDrawnAndCollide() throws {
        let apart = try Self.render(Self.style(Self.squares.replacingOccurrences(of: "ALLOW", with: "false")))
        #expect(apart.warnings.isEmpty, "\(apart.warnings)")
        let n = Self.count(apart.image, Self.red)
        // Whole 8×8 squares (drawn on whole pixels), a good number of them.
        #expect(n >= 64 * 10 && n % 64 == 0, "\(n)")
        let overlapping = try Self.render(Self.style(Self.squares.replacingOccurrences(of: "ALLOW", with: "true")))
        // Allowed to overlap, more icons are drawn (their union covers more).
        #expect(Self.count(overlapping.image, Self.red) > n)
    }

    @Test func sdfIconsTakeTheIconColour() throws {
        let layer = ##"{"id": "icons", "type": "symbol", "source": "omt", "source-layer": "poi", "layout": {"icon-image": "square"}, "paint": {"icon-color": "#0000ff"}}"##
        let style = try Self.style(layer)
        let dir = (style as NSString).deletingLastPathComponent
        // The same square, marked as a distance field (alpha 255: all inside the shape).
        try Data(#"{"square": {"x": 0, "y": 0, "width": 8, "height": 8, "sdf": true}}"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/sprites/test.json"))
        let c = try Self.render(style).image
        #expect(Self.count(c, Self.red) == 0)
        #expect(Self.count(c, Self.blue) >= 64 * 10)
    }

    /// `icon-translate` moves the icon by CSS pixels (× scale), `icon-offset` by icon pixels.
    @Test func translateAndOffsetMoveTheIcon() throws {
        func firstRedColumn(_ paint: String, _ layout: String = "") throws -> Int? {
            let layer = ##"{"id": "icons", "type": "symbol", "source": "omt", "source-layer": "place", "filter": ["==", "name:latin", "Kluuvi"], "layout": {"icon-image": "square", "icon-allow-overlap": true LAYOUT}, "paint": {PAINT}}"##
            let c = try Self.render(Self.style(layer.replacingOccurrences(of: "PAINT", with: paint)
                .replacingOccurrences(of: "LAYOUT", with: layout)), scale: 2).image
            for x in 0..<c.width { for y in 0..<c.height where c.color(atX: x, y: y) == Self.red { return x } }
            return nil
        }
        let base = try #require(try firstRedColumn(""))
        #expect(try firstRedColumn(#""icon-translate": [5, 0]"#) == base + 10)
        #expect(try firstRedColumn("", #", "icon-offset": [3, 0], "icon-size": 2"#) == base - 8 + 12)  // twice as wide (16 → 32 device px), then 3 × 2 × 2 to the right
    }

    /// The arrow (ink 11×6 in its 12×8 image) turned a quarter clockwise stands about 6
    /// wide and 11 tall, pointing down.
    @Test func iconRotateTurnsClockwise() throws {
        func inkBox(_ rotate: Int) throws -> (w: Int, h: Int, tipBelow: Bool) {
            let layer = ##"{"id": "a", "type": "symbol", "source": "omt", "source-layer": "place", "filter": ["==", "name:latin", "Kluuvi"], "layout": {"icon-image": "arrow", "icon-rotate": ROT}}"##
            let c = try Self.render(Self.style(layer.replacingOccurrences(of: "ROT", with: "\(rotate)"))).image
            var xs: [Int] = [], ys: [Int] = []
            for y in 0..<c.height { for x in 0..<c.width where c.color(atX: x, y: y).red < 150 { xs.append(x); ys.append(y) } }
            let (x0, x1, y0, y1) = (xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0)
            // The head is the wide end: count dark pixels in the first and last rows of the box.
            let top = xs.indices.filter { ys[$0] <= y0 + 1 }.count, bottom = xs.indices.filter { ys[$0] >= y1 - 1 }.count
            return (x1 - x0 + 1, y1 - y0 + 1, bottom < top)
        }
        let flat = try inkBox(0)
        #expect(flat.w == 11 && flat.h == 6 && !flat.tipBelow)
        let turned = try inkBox(90)
        #expect((5...7).contains(turned.w) && (10...12).contains(turned.h), "\(turned)")
        // Pointing down: the narrow tip is at the bottom.
        #expect(turned.tipBelow)
    }

    @Test func iconImageExpressionsAndSize() throws {
        let layer = ##"{"id": "icons", "type": "symbol", "source": "omt", "source-layer": "poi", "layout": {"icon-image": ["case", ["has", "class"], "square", "arrow"], "icon-size": 2}}"##
        let c = try Self.render(Self.style(layer)).image
        // icon-size 2 at scale 1: 16×16 squares from the 1x sheet, resampled; solid inside.
        #expect(Self.count(c, Self.red) >= 256)
    }

    @Test func iconsAndTextShareOneCollisionIndex() throws {
        let labels = ##"{"id": "labels", "type": "symbol", "source": "omt", "source-layer": "poi", "layout": {"text-field": "{name:latin}", "text-size": 12}, "paint": {"text-color": "#0000ff"}}"##
        let bigIcons = ##"{"id": "icons", "type": "symbol", "source": "omt", "source-layer": "transportation_name", "layout": {"icon-image": "square", "icon-size": 4, "symbol-placement": "line", "symbol-spacing": 60}}"##
        let alone = Self.count(try Self.render(Self.style(labels)).image, Self.blue)
        let crowded = try Self.render(Self.style(labels + ", " + bigIcons)).image
        // Icons of the later layer are placed first; labels then keep clear of them.
        #expect(Self.count(crowded, Self.red) > 0)
        #expect(Self.count(crowded, Self.blue) < alone, "\(alone)")
    }

    @Test func highDensitySheetAtScaleTwo() throws {
        let layer = ##"{"id": "icons", "type": "symbol", "source": "omt", "source-layer": "poi", "layout": {"icon-image": "checker", "icon-size": 4}}"##
        let style = try Self.style(layer)
        // @2x pixels are 2×2 blocks of the 1x ones; at scale 2 and icon-size 4 each checker
        // square is 8 device pixels of pure black or white.
        let c = try Self.render(style, scale: 2).image
        #expect(Self.count(c, .black) >= 4 * 64)
        var sheet = SpriteSheet()
        var warnings: [String] = []
        let loaded = try Style.load(path: style)
        sheet = try SpriteLoader.load(loaded, override: nil, pixelRatio: 2, fetcher: LocalResourceFetcher(baseDirectory: (style as NSString).deletingLastPathComponent),
                                      overrideFetcher: LocalResourceFetcher(), warnings: &warnings)
        #expect(sheet.image(named: "checker")?.pixelRatio == 2)
        sheet = try SpriteLoader.load(loaded, override: nil, pixelRatio: 1.5, fetcher: LocalResourceFetcher(baseDirectory: (style as NSString).deletingLastPathComponent),
                                      overrideFetcher: LocalResourceFetcher(), warnings: &warnings)
        #expect(sheet.image(named: "checker")?.pixelRatio == 1)
        #expect(warnings.isEmpty)
    }

    @Test func onlyAHighDensitySheetIsEnough() throws {
        let style = try Self.style("")
        let dir = (style as NSString).deletingLastPathComponent
        try FileManager.default.removeItem(atPath: dir + "/sprites/test.png")
        var warnings: [String] = []
        let sheet = try SpriteLoader.load(Style.load(path: style), override: nil, pixelRatio: 1,
                                          fetcher: LocalResourceFetcher(baseDirectory: dir), overrideFetcher: LocalResourceFetcher(),
                                          warnings: &warnings)
        #expect(sheet.image(named: "square")?.pixelRatio == 2)
        #expect(sheet.image(named: "square")?.width == 8)
        #expect(warnings.isEmpty)
    }

    @Test func spriteLocationsKeepTheirQuery() {
        #expect(SpriteLoader.location("https://x/sprite?key=k", "@2x", ".json") == "https://x/sprite@2x.json?key=k")
        #expect(SpriteLoader.location("sprites/a", "", ".png") == "sprites/a.png")
    }

    @Test func arrowsAlongLinesTurnWithTheLine() throws {
        let layer = ##"{"id": "oneway", "type": "symbol", "source": "omt", "source-layer": "transportation", "layout": {"icon-image": "arrow", "symbol-placement": "line", "symbol-spacing": 80, "icon-allow-overlap": true}}"##
        let snap = try Self.render(Self.style(layer))
        let grey = Color(red: 40, green: 40, blue: 40)
        #expect(Self.count(snap.image, grey) > 100)
        // Turned arrows are resampled: there are partly covered (grey-white) pixels too.
        var blended = 0
        for y in 0..<snap.image.height {
            for x in 0..<snap.image.width {
                let p = snap.image.color(atX: x, y: y)
                if p.red == p.green, p.green == p.blue, p.red > 60, p.red < 220 { blended += 1 }
            }
        }
        #expect(blended > 50)
    }

    @Test func iconTextFitStretchesTheShieldAroundTheText() throws {
        let layer = ##"{"id": "shields", "type": "symbol", "source": "omt", "source-layer": "transportation_name", "layout": {"text-field": "{name:latin}", "text-size": 11, "text-rotation-alignment": "viewport", "symbol-placement": "line", "icon-image": "shield", "icon-text-fit": "both", "icon-text-fit-padding": [2, 4, 2, 4]}, "paint": {"text-color": "#ffffff"}}"##
        let c = try Self.render(Self.style(layer)).image
        // The 10-px shield is stretched far wider than itself to hold a street name.
        var widest = 0
        for y in 0..<c.height {
            var run = 0
            for x in 0..<c.width {
                let p = c.color(atX: x, y: y)
                run = p.green > 100 && p.red < 60 && p.blue < 60 ? run + 1 : 0
                widest = max(widest, run)
            }
        }
        #expect(widest > 40, "\(widest)")
    }

    @Test func rendersAreDeterministic() throws {
        let style = try Self.style(Self.waterPattern + ", " + Self.squares.replacingOccurrences(of: "ALLOW", with: "false"))
        let a = try Self.render(style).pngData(), b = try Self.render(style).pngData()
        let same = a == b
        #expect(same)
    }

    @Test func layersTheDataLacksAreNamedOnce() throws {
        let layers = """
        {"id": "earth", "type": "fill", "source": "omt", "source-layer": "earth", "paint": {"fill-color": "#eeeeee"}},
        {"id": "roads", "type": "line", "source": "omt", "source-layer": "roads"},
        {"id": "roads2", "type": "line", "source": "omt", "source-layer": "roads"},
        {"id": "water", "type": "fill", "source": "omt", "source-layer": "water"}
        """
        let snap = try Self.render(Self.style(layers, sprite: nil))
        #expect(snap.warnings == [
            ##"style "style.json": source "omt" has no layers earth, roads (the data has: place, boundary, poi, housenumber, waterway, transportation, transportation_name, building, water, water_name, aeroway, aerodrome_label, … (16 in all)); layers reading them draw nothing"##,
        ])
    }
}
