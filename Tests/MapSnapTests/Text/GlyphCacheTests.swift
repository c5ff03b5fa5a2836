import Testing
@testable import MapSnap

@Suite struct GlyphCacheTests {
    @Test func hitsReturnTheSameBitmapAsAMiss() throws {
        let face = try #require(TextFixtures.fonts).regular
        let cache = GlyphCache()
        let g = try #require(face.glyphIndex(for: "g"))
        let spec = GlyphRasterSpec(glyph: g, sizePixels: 18, subpixel: PixelPoint(x: 0.5, y: 0), haloRadius: 1.5)
        let miss = cache.bitmap(face, spec)
        let hit = cache.bitmap(face, spec)
        #expect(miss == hit)
        #expect(miss == face.rasterize(spec))
        #expect(cache.count == 1 && cache.byteCount == miss.byteCount)
    }

    @Test func keysSeparateEveryPixelAffectingInput() throws {
        let fonts = try #require(TextFixtures.fonts)
        let cache = GlyphCache()
        let g = try #require(fonts.regular.glyphIndex(for: "R"))
        let specs = [
            GlyphRasterSpec(glyph: g, sizePixels: 18),
            GlyphRasterSpec(glyph: g, sizePixels: 18.5),
            GlyphRasterSpec(glyph: g, sizePixels: 18, subpixel: PixelPoint(x: 0.25, y: 0)),
            GlyphRasterSpec(glyph: g, sizePixels: 18, subpixel: PixelPoint(x: 0, y: 0.5)),
            GlyphRasterSpec(glyph: g, sizePixels: 18, rotation: 0.3),
            GlyphRasterSpec(glyph: g, sizePixels: 18, haloRadius: 1),
        ]
        let bitmaps = specs.map { cache.bitmap(fonts.regular, $0) }
        _ = cache.bitmap(fonts.bold, specs[0])
        #expect(cache.count == specs.count + 1)
        #expect(Set(bitmaps).count == specs.count)
    }

    @Test(arguments: [(3, 1 << 30), (1000, 2000), (1, 1)])
    func staysWithinItsBounds(maxEntries: Int, maxBytes: Int) throws {
        let face = try #require(TextFixtures.fonts).regular
        let cache = GlyphCache(maxEntries: maxEntries, maxBytes: maxBytes)
        for (i, scalar) in "The quick brown fox jumps over the lazy dog".unicodeScalars.enumerated() {
            let g = face.glyphIndex(for: scalar) ?? 0
            let spec = GlyphRasterSpec(glyph: g, sizePixels: 20)
            let bitmap = cache.bitmap(face, spec)
            #expect(bitmap == face.rasterize(spec))
            if i % 3 == 0 { _ = cache.bitmap(face, spec) }   // mark some as recently used
            #expect(cache.count <= maxEntries)
            #expect(cache.byteCount <= maxBytes)
        }
        cache.removeAll()
        #expect(cache.count == 0 && cache.byteCount == 0)
    }
}
