import Foundation

extension Canvas {
    /// Fills `path` with `pattern` repeated edge to edge — style `fill-pattern`,
    /// `line-pattern` and `background-pattern`.
    ///
    /// The pattern is drawn 1:1 (callers scale it first): image pixel `(x, y)` takes pattern
    /// pixel `((x − originX) mod w, (y − originY) mod h)`, so two fills with the same origin
    /// tile seamlessly, and an origin fixed to the map keeps the pattern still under it.
    /// Each pixel composites the pattern pixel scaled by coverage × `opacity`, with the same
    /// exact integer arithmetic as solid fills.
    ///
    /// With a `mapTransform` the path is turned onto the image and the pattern stays aligned
    /// with the image (its repeat is not turned with the map).
    func fill(_ path: Path, pattern: Canvas, originX: Int, originY: Int, opacity: Double = 1,
                     rule: FillRule = .nonZero) {
        fillUntransformed(transformed(path, asAreas: true), pattern: pattern, originX: originX, originY: originY, opacity: opacity, rule: rule)
    }

    private func fillUntransformed(_ path: Path, pattern: Canvas, originX: Int, originY: Int, opacity: Double,
                                   rule: FillRule) {
        guard opacity.isFinite, opacity > 0 else { return }
        let op = UInt32((min(opacity, 1) * 255).rounded())
        guard op > 0 else { return }
        let pw = pattern.width, ph = pattern.height
        // Offsets into the pattern for x = 0 and y = 0, in 0..<pw and 0..<ph.
        let offsetX = ((-originX % pw) + pw) % pw
        let offsetY = ((-originY % ph) + ph) % ph
        let w = width
        pattern.pixels.withUnsafeBufferPointer { src in
            Rasterizer.withPooled { $0.rasterize(path, width: width, height: height, rule: rule) { y, x0, coverage in
                let py = (y + offsetY) % ph
                let prow = py * pw * 4
                var px = (x0 + offsetX) % pw
                pixels.withUnsafeMutableBufferPointer { dst in
                    var di = (y * w + x0) * 4
                    for i in 0..<coverage.count {
                        let k = Canvas.div255(UInt32(coverage[i]) * op)
                        if k > 0 {
                            let si = prow + px * 4
                            let s = Canvas.scaled((UInt32(src[si]), UInt32(src[si + 1]), UInt32(src[si + 2]),
                                                   UInt32(src[si + 3])), by: k)
                            if s.3 > 0 { Canvas.compositeOver(dst, di, s) }
                        }
                        di += 4
                        px += 1
                        if px == pw { px = 0 }
                    }
                }
            } }
        }
    }

    /// Strokes `path` like `stroke(_:style:color:)` and fills the stroke with `pattern`
    /// (see `fill(_:pattern:originX:originY:opacity:rule:)`).
    func stroke(_ path: Path, style: StrokeStyle, pattern: Canvas, originX: Int, originY: Int, opacity: Double = 1) {
        guard style.width.isFinite, style.width > 0,
              let outline = Canvas.strokeOutline(transformed(path), style: style, width: width, height: height) else { return }
        fillUntransformed(outline, pattern: pattern, originX: originX, originY: originY, opacity: opacity, rule: .nonZero)
    }

    /// Draws `image` scaled to `width` × `height` pixels, centred on `center` and rotated
    /// clockwise by `rotation` radians about it — rotated map icons (`icon-rotate`, icons
    /// along lines). Unrotated images go through `draw(_:in:opacity:)`.
    ///
    /// Each destination pixel whose centre falls inside the rotated rectangle's bounds maps
    /// its centre back into the image and samples it bilinearly with 8-bit fixed-point
    /// weights; outside the image counts as transparent, so the edges are anti-aliased. An
    /// image shrunk by more than 2× is first resampled to its drawn size (box-filtered).
    func draw(_ image: Canvas, center: PixelPoint, width w: Double, height h: Double, rotation: Double,
                     opacity: Double = 1) {
        guard w.isFinite, h.isFinite, w > 0, h > 0, w < 1e5, h < 1e5, rotation.isFinite,
              center.x.isFinite, center.y.isFinite, opacity.isFinite, opacity > 0 else { return }
        let op = UInt32((min(opacity, 1) * 255).rounded())
        guard op > 0 else { return }
        var source = image
        if Double(image.width) / w > 2 || Double(image.height) / h > 2 {
            let sw = max(1, Int(w.rounded(.up))), sh = max(1, Int(h.rounded(.up)))
            let scaled = Canvas(width: sw, height: sh)
            scaled.draw(image, in: PixelRect(x: 0, y: 0, width: Double(sw), height: Double(sh)))
            source = scaled
        }
        let sw = source.width, sh = source.height
        let cosR = cos(rotation), sinR = sin(rotation)
        // Bounds of the rotated rectangle.
        let ex = (abs(cosR) * w + abs(sinR) * h) / 2, ey = (abs(sinR) * w + abs(cosR) * h) / 2
        // Clamped to the canvas before converting: a centre far off the canvas (finite but
        // beyond Int's range) would otherwise trap.
        func column(_ v: Double, _ range: ClosedRange<Int>) -> Int {
            Int(min(max(v, Double(range.lowerBound)), Double(range.upperBound)))
        }
        let x0 = column((center.x - ex - 0.5).rounded(.up), 0...self.width)
        let x1 = column((center.x + ex - 0.5).rounded(.down) + 1, 0...self.width)
        let y0 = column((center.y - ey - 0.5).rounded(.up), 0...self.height)
        let y1 = column((center.y + ey - 0.5).rounded(.down) + 1, 0...self.height)
        guard x0 < x1, y0 < y1 else { return }
        let kx = Double(sw) / w, ky = Double(sh) / h
        let dw = self.width
        source.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in y0..<y1 {
                    let dy = Double(y) + 0.5 - center.y
                    for x in x0..<x1 {
                        let dx = Double(x) + 0.5 - center.x
                        // Undo the clockwise rotation, then map to source pixel-index space.
                        let u = (dx * cosR + dy * sinR + w / 2) * kx - 0.5
                        let v = (-dx * sinR + dy * cosR + h / 2) * ky - 0.5
                        guard u > -1, v > -1, u < Double(sw), v < Double(sh) else { continue }
                        let fu = u.rounded(.down), fv = v.rounded(.down)
                        let i0 = Int(fu), j0 = Int(fv)
                        let wx = UInt32(((u - fu) * 256).rounded()), wy = UInt32(((v - fv) * 256).rounded())
                        @inline(__always) func texel(_ i: Int, _ j: Int, _ k: Int) -> UInt32 {
                            guard i >= 0, j >= 0, i < sw, j < sh else { return 0 }
                            return UInt32(src[(j * sw + i) * 4 + k])
                        }
                        @inline(__always) func sample(_ k: Int) -> UInt32 {
                            let top = texel(i0, j0, k) * (256 - wx) + texel(i0 + 1, j0, k) * wx
                            let bottom = texel(i0, j0 + 1, k) * (256 - wx) + texel(i0 + 1, j0 + 1, k) * wx
                            return (top * (256 - wy) + bottom * wy + 32768) >> 16
                        }
                        let sa = sample(3)
                        if sa == 0 { continue }
                        var s = (sample(0), sample(1), sample(2), sa)
                        if op < 255 { s = Canvas.scaled(s, by: op) }
                        Canvas.compositeOver(dst, (y * dw + x) * 4, s)
                    }
                }
            }
        }
    }
}
