import Testing
@testable import MapSnap

@Suite struct CanvasPatternTests {
    /// 2×2: black at (0,0) and (1,1), white elsewhere.
    static func checker() -> Canvas {
        let c = Canvas(width: 2, height: 2, fill: .white)
        c.pixels.replaceSubrange(0..<4, with: [0, 0, 0, 255])
        c.pixels.replaceSubrange(12..<16, with: [0, 0, 0, 255])
        return c
    }

    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Path {
        var p = Path()
        p.addRect(PixelRect(x: x, y: y, width: w, height: h))
        return p
    }

    @Test func patternRepeatsFromItsOrigin() {
        let canvas = Canvas(width: 6, height: 4, fill: .clear)
        canvas.fill(Self.rect(0, 0, 6, 4), pattern: Self.checker(), originX: 0, originY: 0)
        for y in 0..<4 {
            for x in 0..<6 {
                #expect(canvas.color(atX: x, y: y) == ((x + y) % 2 == 0 ? .black : .white), "\(x),\(y)")
            }
        }
        // Moving the origin by one pixel swaps the phase; by a whole repeat, nothing changes.
        let shifted = Canvas(width: 6, height: 4), whole = Canvas(width: 6, height: 4)
        shifted.fill(Self.rect(0, 0, 6, 4), pattern: Self.checker(), originX: 1, originY: 0)
        whole.fill(Self.rect(0, 0, 6, 4), pattern: Self.checker(), originX: -1_000_000, originY: 2_000_002)
        #expect(shifted.color(atX: 0, y: 0) == .white)
        #expect(whole.pixels == canvas.pixels)
    }

    @Test func onlyCoveredPixelsChangeAndCoverageScales() {
        let canvas = Canvas(width: 4, height: 1, fill: .white)
        let black = Canvas(width: 1, height: 1, fill: .black)
        // Covers pixel 1 fully and half of pixel 2.
        canvas.fill(Self.rect(1, 0, 1.5, 1), pattern: black, originX: 0, originY: 0)
        #expect(canvas.color(atX: 0, y: 0) == .white)
        #expect(canvas.color(atX: 1, y: 0) == .black)
        let half = canvas.color(atX: 2, y: 0)
        #expect((127...128).contains(Int(half.red)) && half.alpha == 255)
        #expect(canvas.color(atX: 3, y: 0) == .white)
    }

    @Test func opacityAndTransparentPatternPixels() {
        let canvas = Canvas(width: 2, height: 1, fill: .white)
        let pattern = Canvas(width: 2, height: 1)  // (0): black, (1): transparent
        pattern.pixels.replaceSubrange(0..<4, with: [0, 0, 0, 255])
        canvas.fill(Self.rect(0, 0, 2, 1), pattern: pattern, originX: 0, originY: 0, opacity: 0.5)
        let grey = canvas.color(atX: 0, y: 0)
        #expect((127...128).contains(grey.red) && grey.red == grey.green && grey.green == grey.blue && grey.alpha == 255)
        #expect(canvas.color(atX: 1, y: 0) == .white)
        // Zero opacity draws nothing.
        let untouched = Canvas(width: 2, height: 1, fill: .white)
        untouched.fill(Self.rect(0, 0, 2, 1), pattern: pattern, originX: 0, originY: 0, opacity: 0)
        #expect(untouched.pixels == Canvas(width: 2, height: 1, fill: .white).pixels)
    }

    @Test func strokeWithAPatternCoversTheStrokeOnly() {
        let canvas = Canvas(width: 10, height: 10, fill: .white)
        var line = Path()
        line.move(to: PixelPoint(x: 0, y: 5))
        line.line(to: PixelPoint(x: 10, y: 5))
        canvas.stroke(line, style: StrokeStyle(width: 2), pattern: Self.checker(), originX: 0, originY: 0)
        #expect(canvas.color(atX: 4, y: 4) == .black)
        #expect(canvas.color(atX: 5, y: 4) == .white)
        #expect(canvas.color(atX: 5, y: 5) == .black)
        #expect(canvas.color(atX: 5, y: 2) == .white)
        #expect(canvas.color(atX: 4, y: 2) == .white)  // off the stroke: untouched, not patterned
    }

    /// A 4×2 image: left half red, right half blue.
    static func halves() -> Canvas {
        let c = Canvas(width: 4, height: 2)
        for y in 0..<2 {
            for x in 0..<4 {
                let i = (y * 4 + x) * 4
                c.pixels.replaceSubrange(i..<i + 4, with: x < 2 ? [255, 0, 0, 255] : [0, 0, 255, 255])
            }
        }
        return c
    }

    @Test func rotatedImageTurnsClockwise() {
        let canvas = Canvas(width: 10, height: 10, fill: .white)
        // A quarter turn clockwise: the image's left (red) half ends up on top.
        canvas.draw(Self.halves(), center: PixelPoint(x: 5, y: 5), width: 4, height: 2, rotation: .pi / 2)
        #expect(canvas.color(atX: 5, y: 3) == Color(red: 255, green: 0, blue: 0))
        #expect(canvas.color(atX: 4, y: 6) == Color(red: 0, green: 0, blue: 255))
        // Outside the turned 2×4 box nothing changes.
        #expect(canvas.color(atX: 2, y: 5) == .white)
        #expect(canvas.color(atX: 5, y: 0) == .white)
    }

    @Test func unrotatedImageAtItsSizeIsCopiedExactly() {
        let canvas = Canvas(width: 8, height: 6)
        canvas.draw(Self.halves(), center: PixelPoint(x: 4, y: 3), width: 4, height: 2, rotation: 0)
        for y in 2..<4 {
            for x in 2..<6 {
                #expect(canvas.color(atX: x, y: y) == (x < 4 ? Color(red: 255, green: 0, blue: 0) : Color(red: 0, green: 0, blue: 255)))
            }
        }
        #expect(canvas.color(atX: 1, y: 3).alpha == 0)
        #expect(canvas.color(atX: 4, y: 1).alpha == 0)
    }

    @Test func degenerateRotatedDrawsAreIgnored() {
        let clean = Canvas(width: 4, height: 4, fill: .white)
        for (w, h, r) in [(0.0, 2.0, 1.0), (2, 2, Double.nan), (Double.infinity, 2, 0), (2, -1, 0)] {
            clean.draw(Self.halves(), center: PixelPoint(x: 2, y: 2), width: w, height: h, rotation: r)
        }
        clean.draw(Self.halves(), center: PixelPoint(x: .nan, y: 2), width: 2, height: 2, rotation: 1)
        // Finite centres beyond Int's range (found by fuzzing: they trapped converting bounds).
        for far in [1e300, -1e300, Double.greatestFiniteMagnitude] {
            clean.draw(Self.halves(), center: PixelPoint(x: far, y: 2), width: 2, height: 2, rotation: 1)
            clean.draw(Self.halves(), center: PixelPoint(x: 2, y: far), width: 2, height: 2, rotation: 0.5)
        }
        clean.draw(Self.halves(), center: PixelPoint(x: 2, y: 2), width: 2, height: 2, rotation: 1, opacity: 0)
        #expect(clean.pixels == Canvas(width: 4, height: 4, fill: .white).pixels)
    }
}

@Suite struct SignedDistanceFieldTests {
    /// A 1×6 field: alpha falling from inside (255) to far outside (0).
    static let field: Canvas = {
        let c = Canvas(width: 6, height: 1)
        for (i, a) in [255, 224, 192, 160, 100, 0].enumerated() { c.pixels[i * 4 + 3] = UInt8(a) }
        return c
    }()

    @Test func insideIsTheColourOutsideIsClearTheEdgeIsHalf() {
        let out = SignedDistanceField.colorize(Self.field, color: Color(rgb: 0x336699), gamma: 0.05)
        #expect(out.color(atX: 0, y: 0) == Color(rgb: 0x336699))
        #expect(out.color(atX: 1, y: 0) == Color(rgb: 0x336699))
        let edge = out.color(atX: 2, y: 0)
        // 192 is a hair above 0.75: just over half covered.
        #expect((128...140).contains(Int(edge.alpha)), "\(edge)")
        #expect(out.color(atX: 3, y: 0).alpha == 0)
        #expect(out.color(atX: 5, y: 0).alpha == 0)
    }

    @Test func haloWidensTheShapeInItsOwnColour() {
        // A halo 2 field pixels wide reaches alpha 0.75 − 2/8 = 0.5 (127.5).
        let out = SignedDistanceField.colorize(Self.field, color: .black, haloColor: .white, haloWidth: 2, gamma: 0.02)
        #expect(out.color(atX: 0, y: 0) == .black)
        #expect(out.color(atX: 3, y: 0) == .white)   // 160: outside the shape, inside the halo
        #expect(out.color(atX: 4, y: 0).alpha == 0)  // 100: outside both
        // No halo colour: no halo.
        let plain = SignedDistanceField.colorize(Self.field, color: .black, haloColor: nil, haloWidth: 2, gamma: 0.02)
        #expect(plain.color(atX: 3, y: 0).alpha == 0)
    }
}
