import Foundation
import Testing
@testable import MapSnap

@Suite struct FreeTypeFaceTests {
    @Test func metricsOfNotoSans() throws {
        let face = try #require(TextFixtures.fonts).regular
        #expect(face.familyName == "Noto Sans")
        #expect(face.unitsPerEm == 1000)
        // hhea ascender/descender of Noto Sans Regular (fontTools: 1069 / -293).
        #expect(face.ascender == 1069)
        #expect(face.descender == 293)
    }

    @Test func letterAHasInkAndSpaceHasOnlyAnAdvance() throws {
        let face = try #require(TextFixtures.fonts).regular
        let a = try #require(face.glyphIndex(for: "A"))
        let bitmap = face.rasterize(GlyphRasterSpec(glyph: a, sizePixels: 16))
        #expect(!bitmap.isEmpty)
        #expect(bitmap.coverage.contains(255))
        // A cap at 16 px stands about 11 px tall on the baseline.
        #expect((10...13).contains(bitmap.top))

        let space = try #require(face.glyphIndex(for: " "))
        #expect(face.rasterize(GlyphRasterSpec(glyph: space, sizePixels: 16)).isEmpty)
        #expect(face.advance(of: space) == 260)
    }

    // Pair values read with fontTools 4.x from GPOS lookup 2 (the 'kern' feature's
    // PairPos lookup) of the bundled NotoSans-Regular.ttf and NotoSans-Bold.ttf: shaping the
    // pair gives the first glyph its advance plus the pair's value.
    @Test(arguments: [("A", "V", -40), ("V", "A", -40), ("T", "o", -70), ("T", "y", -20),
                      ("L", "T", -20), ("W", "a", -20), ("A", "A", 0), ("H", "H", 0)])
    func shapingAppliesGPOSPairKerning(left: Character, right: Character, expected: Int) throws {
        let fonts = try #require(TextFixtures.fonts)
        for face in [fonts.regular, fonts.bold] {
            let l = try #require(face.glyphIndex(for: left.unicodeScalars.first!))
            let r = try #require(face.glyphIndex(for: right.unicodeScalars.first!))
            let text = (String(left) + String(right)).unicodeScalars.map(\.value)
            let shaped = face.shape(text, range: 0..<2, rightToLeft: false, script: 0x4C61_746E /* Latn */)
            #expect(shaped.map(\.glyph) == [l, r])
            #expect(shaped.first.map { Int($0.xAdvance) } == face.advance(of: l) + expected, "\(left)\(right) in \(face.styleName)")
        }
    }

    @Test func subpixelOffsetsMoveInkWithoutChangingTheGlyph() throws {
        let face = try #require(TextFixtures.fonts).regular
        let l = try #require(face.glyphIndex(for: "l"))
        var bitmaps: [GlyphBitmap] = []
        for step in 0..<GlyphRasterSpec.subpixelSteps {
            let sub = PixelPoint(x: Double(step) / Double(GlyphRasterSpec.subpixelSteps), y: 0)
            bitmaps.append(face.rasterize(GlyphRasterSpec(glyph: l, sizePixels: 20, subpixel: sub)))
        }
        #expect(Set(bitmaps).count == bitmaps.count)
        // Total coverage (ink area) is the same at every offset, within rounding.
        let areas = bitmaps.map { $0.coverage.reduce(0) { $0 + Int($1) } }
        #expect(areas.max()! - areas.min()! < areas.max()! / 50)
    }

    @Test func rotationTurnsAnUprightStrokeOnItsSide() throws {
        let face = try #require(TextFixtures.fonts).regular
        let l = try #require(face.glyphIndex(for: "l"))
        let upright = try #require(TextFixtures.coverageBox(face.rasterize(GlyphRasterSpec(glyph: l, sizePixels: 32))))
        let turned = try #require(TextFixtures.coverageBox(
            face.rasterize(GlyphRasterSpec(glyph: l, sizePixels: 32, rotation: Double.pi / 2))))
        #expect(upright.height > 3 * upright.width)
        #expect(turned.width > 3 * turned.height)
        // Clockwise on screen: the stroke that rose above the baseline now runs right of the pen.
        #expect(turned.minX >= -1 && turned.maxX > 15)
    }

    @Test(arguments: [1.0, 2.0, 3.5])
    func haloDilatesTheGlyphByItsRadius(radius: Double) throws {
        let face = try #require(TextFixtures.fonts).regular
        let o = try #require(face.glyphIndex(for: "o"))
        let plain = try #require(TextFixtures.coverageBox(face.rasterize(GlyphRasterSpec(glyph: o, sizePixels: 24))))
        let halo = face.rasterize(GlyphRasterSpec(glyph: o, sizePixels: 24, haloRadius: radius))
        let haloBox = try #require(TextFixtures.coverageBox(halo))
        for grow in [plain.minX - haloBox.minX, haloBox.maxX - plain.maxX, plain.minY - haloBox.minY, haloBox.maxY - plain.maxY] {
            #expect(abs(grow - radius) <= 1.0, "grew \(grow) for radius \(radius)")
        }
        // The counter of the "o" is filled by the dilation's union with the glyph, not left
        // as a hole: the halo is solid at the glyph's centre row wherever the glyph has ink.
        let plainBitmap = face.rasterize(GlyphRasterSpec(glyph: o, sizePixels: 24))
        #expect(halo.coverage.filter { $0 == 255 }.count > plainBitmap.coverage.filter { $0 == 255 }.count)
    }

    @Test func outOfRangeGlyphAndHugeSizeDoNotTrap() throws {
        let face = try #require(TextFixtures.fonts).regular
        #expect(face.rasterize(GlyphRasterSpec(glyph: UInt32(face.glyphCount) + 5, sizePixels: 16)).isEmpty)
        #expect(face.advance(of: 0xFFFF_FFFF) == 0)
        let spec = GlyphRasterSpec(glyph: 1, sizePixels: .infinity, haloRadius: 1e9)
        #expect(spec.size64 == 16 * 64)
        #expect(spec.haloRadius64 == Int32(GlyphRasterSpec.maxHaloPixels * 64))
        #expect(GlyphRasterSpec(glyph: 1, sizePixels: 5000).size64 == Int32(GlyphRasterSpec.maxSizePixels * 64))
    }

    @Test(arguments: [(0.0, 0, 0), (0.99, 1, 0), (0.5, 0, 2), (-0.25, -1, 3), (3.3, 3, 1), (7.9, 8, 0)])
    func subpixelSplit(value: Double, pixel: Int, step: UInt8) {
        let s = GlyphRasterSpec.split(value)
        #expect(s.pixel == pixel && s.step == step)
    }

    @Test func rotationBucketsWrapAround() {
        #expect(GlyphRasterSpec(glyph: 1, sizePixels: 10, rotation: 2 * Double.pi).rotationStep == 0)
        #expect(GlyphRasterSpec(glyph: 1, sizePixels: 10, rotation: -Double.pi / 2).rotationStep == 540)
        #expect(GlyphRasterSpec(glyph: 1, sizePixels: 10, rotation: .nan).rotationStep == 0)
    }
}

@Suite struct FreeTypeFaceLoadingTests {
    @Test func missingFileIsUnreadable() {
        #expect {
            _ = try FreeTypeFace(path: "/nonexistent/font.ttf")
        } throws: { error in
            guard case FontError.unreadableFile(let path, _) = error else { return false }
            return path == "/nonexistent/font.ttf"
        }
    }

    @Test func directoryIsUnreadable() {
        #expect(throws: FontError.unreadableFile(path: "/tmp", reason: "is a directory, not a regular file")) {
            _ = try FreeTypeFace(path: "/tmp")
        }
    }

    static let corruptInputs: [(String, [UInt8])] = [
        ("empty", []),
        ("text", Array("not a font at all".utf8)),
        ("zeros", [UInt8](repeating: 0, count: 4096)),
        ("truncated header", Array((TextFixtures.fontBytes("NotoSans-Regular.ttf") ?? []).prefix(12))),
    ]

    @Test(arguments: corruptInputs)
    func corruptBytesAreRejectedWithTheirName(name: String, bytes: [UInt8]) {
        #expect {
            _ = try FreeTypeFace(bytes: bytes, path: "corrupt-\(name).ttf")
        } throws: { error in
            guard case FontError.invalidFont(let path, let code, _) = error else { return false }
            return path == "corrupt-\(name).ttf" && code != 0
        }
    }

    /// A font cut short after its table directory loads or fails, but never traps; if it
    /// loads, every operation on it stays safe.
    @Test(arguments: [2_000, 50_000, 200_000, 400_000])
    func truncatedFontNeverTraps(length: Int) throws {
        let bytes = try #require(TextFixtures.fontBytes("NotoSans-Regular.ttf"))
        guard let face = try? FreeTypeFace(bytes: Array(bytes.prefix(length)), path: "truncated.ttf") else { return }
        for scalar in "AVo東".unicodeScalars {
            let g = face.glyphIndex(for: scalar) ?? 0
            _ = face.advance(of: g)
            _ = face.shape([scalar.value, scalar.value], range: 0..<2, rightToLeft: false, script: 0x4C61_746E)
            _ = face.rasterize(GlyphRasterSpec(glyph: g, sizePixels: 16, haloRadius: 1))
        }
    }
}
