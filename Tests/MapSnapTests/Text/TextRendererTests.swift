import Foundation
import Testing
@testable import MapSnap

@Suite struct TextRendererTests {
    let paint = TextPaint(color: Color(rgb: 0x202020), haloColor: .white, haloWidth: 2)

    func layout(_ text: String, size: Double = 16) throws -> TextLayout {
        let fonts = try #require(TextFixtures.fonts)
        return TextLayout(text, face: fonts.regular, fonts: fonts, options: TextLayoutOptions(sizePixels: size))
    }

    @Test(arguments: ["Hello", "Hi", "Helsinki Central", "東京", "Wa To"])
    func measureEqualsTheDrawnBoxAndThePixels(text: String) throws {
        let renderer = TextRenderer(cache: GlyphCache())
        let l = try layout(text)
        let at = PixelPoint(x: 100.3, y: 40.6)
        for haloWidth in [0.0, 2.0] {
            let p = TextPaint(color: .black, haloColor: .white, haloWidth: haloWidth)
            let measured = renderer.measure(l, at: at, anchor: .center, haloWidth: haloWidth)
            let canvas = Canvas(width: 200, height: 80)
            let drawn = renderer.draw(l, on: canvas, at: at, anchor: .center, paint: p)
            #expect(measured == drawn)
            let ink = try #require(drawn.inkBounds)
            // The returned ink box is tight: equal to the box of the pixels actually touched.
            #expect(TextFixtures.inkBox(canvas) == ink)
        }
    }

    @Test func helloMeasuresWiderThanHi() throws {
        let renderer = TextRenderer(cache: GlyphCache())
        let hello = renderer.measure(try layout("Hello"), at: PixelPoint(x: 0, y: 0))
        let hi = renderer.measure(try layout("Hi"), at: PixelPoint(x: 0, y: 0))
        #expect(hello.frame.width > hi.frame.width)
        #expect(try #require(hello.inkBounds).width > #require(hi.inkBounds).width)
    }

    @Test(arguments: TextAnchor.allCases)
    func anchorsPlaceTheFrame(anchor: TextAnchor) throws {
        let l = try layout("Anchor")
        let box = TextRenderer(cache: GlyphCache()).measure(l, at: PixelPoint(x: 50, y: 50), anchor: anchor)
        let f = anchor.fraction
        #expect(abs(box.frame.minX + f.x * l.width - 50) < 1e-9)
        #expect(abs(box.frame.minY + f.y * l.height - 50) < 1e-9)
        #expect(abs(box.frame.width - l.width) < 1e-9 && abs(box.frame.height - l.height) < 1e-9)
        #expect(TextAnchor(rawValue: anchor.rawValue) == anchor)
    }

    @Test func haloExtendsTheInkByAboutItsWidth() throws {
        let renderer = TextRenderer(cache: GlyphCache())
        let l = try layout("Halo", size: 20)
        let at = PixelPoint(x: 60, y: 30)
        for width in [1.0, 2.0, 4.0] {
            let plain = try #require(renderer.measure(l, at: at).inkBounds)
            let haloed = try #require(renderer.measure(l, at: at, haloWidth: width).inkBounds)
            for grow in [plain.minX - haloed.minX, haloed.maxX - plain.maxX, plain.minY - haloed.minY, haloed.maxY - plain.maxY] {
                #expect(abs(grow - width) <= 1, "halo \(width) grew the ink by \(grow)")
            }
        }
    }

    @Test func haloIsDrawnUnderEveryGlyph() throws {
        // With an opaque halo, a glyph's solid core keeps the text colour even where the next
        // glyph's halo overlaps it: the darkest pixel is the pure text colour.
        let renderer = TextRenderer(cache: GlyphCache())
        let canvas = Canvas(width: 120, height: 40, fill: Color(rgb: 0x808080))
        let text = Color(rgb: 0x102030)
        renderer.draw(try layout("Mill", size: 24), on: canvas, at: PixelPoint(x: 60, y: 20),
                      paint: TextPaint(color: text, haloColor: .white, haloWidth: 3))
        var textPixels = 0
        for y in 0..<canvas.height { for x in 0..<canvas.width where canvas.color(atX: x, y: y) == text { textPixels += 1 } }
        #expect(textPixels > 40)
    }

    @Test func cjkRendersInkThroughTheFallback() throws {
        let renderer = TextRenderer(cache: GlyphCache())
        let canvas = Canvas(width: 100, height: 40)
        let box = renderer.draw(try layout("東京", size: 20), on: canvas, at: PixelPoint(x: 50, y: 20), paint: TextPaint())
        let ink = try #require(box.inkBounds)
        #expect(ink.width > 30 && ink.height > 14)
        #expect(canvas.pixels.contains(255))
    }

    @Test func sameTextTwiceGivesIdenticalBytesColdOrWarm() throws {
        let l = try layout("Determinism AV 東京", size: 15)
        func render(_ cache: GlyphCache) -> [UInt8] {
            let canvas = Canvas(width: 220, height: 40, fill: Color(rgb: 0xEEEEDD))
            TextRenderer(cache: cache).draw(l, on: canvas, at: PixelPoint(x: 110.37, y: 20.2), paint: paint)
            return canvas.pixels
        }
        let cache = GlyphCache()
        let cold = render(cache)
        #expect(cache.count > 0)
        let warm = render(cache)
        let fresh = render(GlyphCache())
        let tiny = render(GlyphCache(maxEntries: 2, maxBytes: 600))
        #expect(cold == warm)
        #expect(cold == fresh)
        #expect(cold == tiny)
    }

    @Test func rotatedGlyphsFollowTheirAngle() throws {
        let renderer = TextRenderer(cache: GlyphCache())
        let l = try layout("l", size: 30)
        let glyph = try #require(l.glyphs.first)
        let upright = try #require(renderer.drawGlyph(glyph, sizePixels: 30, on: nil, at: PixelPoint(x: 50, y: 50), paint: TextPaint()))
        let turned = try #require(renderer.drawGlyph(glyph, sizePixels: 30, on: nil, at: PixelPoint(x: 50, y: 50),
                                                     rotation: Double.pi / 2, paint: TextPaint()))
        #expect(upright.height > 2 * upright.width)
        #expect(turned.width > 2 * turned.height)
        // Clockwise: the ascender now points right of the pen and the stroke's left side
        // bearing puts it just below the pen's row.
        #expect(turned.minX >= 48 && turned.midY > 50 && turned.midY < 58)
    }
}

private extension PixelRect {
    var midY: Double { (minY + maxY) / 2 }
}

@Suite struct TextRendererConcurrencyTests {
    @Test func parallelRendersMatchASerialRender() throws {
        let fonts = try #require(TextFixtures.fonts)
        let texts = ["Oslo", "Helsinki", "東京", "Αθήνα", "Москва", "AV To Wa"]
        @Sendable func render(_ text: String, _ cache: GlyphCache) -> [UInt8] {
            let canvas = Canvas(width: 120, height: 30)
            let layout = TextLayout(text, face: fonts.bold, fonts: fonts, options: TextLayoutOptions(sizePixels: 14))
            TextRenderer(cache: cache).draw(layout, on: canvas, at: PixelPoint(x: 60.6, y: 15),
                                            paint: TextPaint(color: .black, haloColor: .white, haloWidth: 1.5))
            return canvas.pixels
        }
        let serial = texts.map { render($0, GlyphCache()) }
        let shared = GlyphCache(maxEntries: 16)
        let results = ResultBox(count: texts.count * 4)
        DispatchQueue.concurrentPerform(iterations: texts.count * 4) { i in
            results.set(i, render(texts[i % texts.count], shared))
        }
        for i in 0..<texts.count * 4 { #expect(results.get(i) == serial[i % texts.count]) }
    }
}

/// Lock-protected slots for results produced on several threads.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [[UInt8]]
    init(count: Int) { slots = Array(repeating: [], count: count) }
    func set(_ i: Int, _ v: [UInt8]) { lock.lock(); slots[i] = v; lock.unlock() }
    func get(_ i: Int) -> [UInt8] { lock.lock(); defer { lock.unlock() }; return slots[i] }
}
