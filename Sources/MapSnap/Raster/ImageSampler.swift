/// Draws one premultiplied canvas into another under an axis-aligned scale and translation,
/// with bilinear resampling — raster map tiles and PNG marker icons go through here.
///
/// **Pixel mapping.** Destination pixel `(x, y)` is drawn when its centre `(x + ½, y + ½)`
/// lies in `rect` (half-open: `minX ≤ cx < maxX`); its source position is the centre mapped
/// linearly, `u = (cx − minX) · srcWidth / rect.width − ½`, in source pixel-index space.
///
/// **Seamless tiles.** Two tiles sharing an edge at a fractional position split the pixels on
/// that edge by the same centre rule, so every pixel is written by exactly one tile: no gap,
/// no double blend, no background showing through (which partial edge coverage would cause:
/// f + (1 − f)² < 1). Samples near a tile's edge clamp to its edge pixels instead of blending
/// with transparent black, so the edge keeps its colour.
///
/// **Downscaling.** When a tile shrinks by more than 2× per axis, bilinear alone would skip
/// source pixels and alias; the source is first box-filtered by halving (a mip chain) until
/// the remaining factor is ≤ 2. Odd sizes round up, which shifts content by at most half a
/// source pixel of the smaller level.
///
/// **Cost.** Column indices and weights are computed once per call; rows reuse them; the
/// arithmetic is 8-bit fixed point (weights 0…256), so results are identical on every machine.
enum ImageSampler {
    /// Composites `source` source-over into `destination` so that it fills `rect`.
    ///
    /// - Parameter opacity: 0…1, multiplies the source alpha.
    static func draw(_ source: Canvas, into destination: Canvas, rect: PixelRect, opacity: Double = 1) {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite,
              rect.width > 0, rect.height > 0, opacity.isFinite, opacity > 0 else { return }
        let op = UInt32((min(opacity, 1) * 255).rounded())
        guard op > 0 else { return }
        let dw = destination.width, dh = destination.height
        // Pixel-centre rule; clamp in Double before converting so huge rects cannot trap.
        func firstPixel(_ edge: Double, _ limit: Int) -> Int {
            Int(min(max((edge - 0.5).rounded(.up), 0), Double(limit)))
        }
        let x0 = firstPixel(rect.minX, dw), x1 = firstPixel(rect.maxX, dw)
        let y0 = firstPixel(rect.minY, dh), y1 = firstPixel(rect.maxY, dh)
        guard x0 < x1, y0 < y1 else { return }

        var level = MipLevel(source)
        while Double(level.width) / rect.width > 2, level.width > 1 { level = level.halved(x: true, y: false) }
        while Double(level.height) / rect.height > 2, level.height > 1 { level = level.halved(x: false, y: true) }

        let sw = level.width, sh = level.height
        let sx = Double(sw) / rect.width, sy = Double(sh) / rect.height
        // Per-column source indices and weights, shared by all rows.
        var columns = [ColumnTap](repeating: ColumnTap(i0: 0, i1: 0, w: 0), count: x1 - x0)
        for x in x0..<x1 {
            columns[x - x0] = ColumnTap(((Double(x) + 0.5 - rect.minX) * sx - 0.5), size: sw)
        }
        // Raster tiles drawn at their own resolution (the common case) sample every source
        // pixel exactly: weights 0 on consecutive columns. Such rows are copied pixel by pixel
        // (opaque) or blended without interpolation: the same bytes, a fraction of the work.
        let exactColumns = columns.allSatisfy { $0.w == 0 }
            && columns[columns.count - 1].i0 - columns[0].i0 == columns.count - 1
        level.pixels.withUnsafeBufferPointer { src in
            columns.withUnsafeBufferPointer { cols in
                destination.pixels.withUnsafeMutableBufferPointer { dst in
                    for y in y0..<y1 {
                        let tap = ColumnTap((Double(y) + 0.5 - rect.minY) * sy - 0.5, size: sh)
                        let r0 = tap.i0 * sw * 4, r1 = tap.i1 * sw * 4
                        if exactColumns && tap.w == 0 && op == 255 {
                            copyRow(from: src, at: r0 + cols[0].i0 * 4, to: dst, at: (y * dw + x0) * 4, count: cols.count)
                            continue
                        }
                        let wy = UInt32(tap.w), iwy = 256 - wy
                        var di = (y * dw + x0) * 4
                        for c in cols {
                            let wx = UInt32(c.w), iwx = 256 - wx
                            let a = r0 + c.i0 * 4, b = r0 + c.i1 * 4
                            let e = r1 + c.i0 * 4, f = r1 + c.i1 * 4
                            @inline(__always) func sample(_ k: Int) -> UInt32 {
                                let top = UInt32(src[a + k]) * iwx + UInt32(src[b + k]) * wx
                                let bottom = UInt32(src[e + k]) * iwx + UInt32(src[f + k]) * wx
                                return (top * iwy + bottom * wy + 32768) >> 16
                            }
                            let sa = sample(3)
                            if sa == 0 { di += 4; continue }
                            var s = (sample(0), sample(1), sample(2), sa)
                            if op < 255 { s = Canvas.scaled(s, by: op) }
                            if s.3 == 255 {
                                // Opaque: what `compositeOver` would compute, without the work.
                                dst[di] = UInt8(s.0); dst[di + 1] = UInt8(s.1)
                                dst[di + 2] = UInt8(s.2); dst[di + 3] = 255
                            } else {
                                Canvas.compositeOver(dst, di, s)
                            }
                            di += 4
                        }
                    }
                }
            }
        }
    }

    /// Composites `source` so that it fills `rect` of a map frame that `transform` carries
    /// onto `destination` (a turned camera's raster tiles and hillshade).
    ///
    /// The same rules as the axis-aligned draw, read through the transform: a destination
    /// pixel is drawn when its centre, carried back into the frame, lies in `rect`
    /// (half-open), so tiles sharing an edge still split its pixels with no gap and no
    /// double blend; the source position is that frame point mapped linearly and sampled
    /// bilinearly with clamp-to-edge taps and 8-bit weights; shrinking by more than 2× goes
    /// through the same mip chain. One resampling from tile to image, as north-up.
    static func draw(_ source: Canvas, into destination: Canvas, rect: PixelRect, transform: PixelTransform,
                     opacity: Double = 1) {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite,
              rect.width > 0, rect.height > 0, opacity.isFinite, opacity > 0,
              let back = transform.inverted else { return }
        let op = UInt32((min(opacity, 1) * 255).rounded())
        guard op > 0 else { return }
        let dw = destination.width, dh = destination.height
        // Destination bounds of the carried rectangle, clamped in Double before converting.
        let frameCorners = [PixelPoint(x: rect.minX, y: rect.minY), PixelPoint(x: rect.maxX, y: rect.minY),
                            PixelPoint(x: rect.minX, y: rect.maxY), PixelPoint(x: rect.maxX, y: rect.maxY)]
        // A corner behind a pitched camera's eye maps nowhere useful: search the whole
        // destination then (the per-pixel test below still decides).
        let behind = frameCorners.contains { transform.depth($0) <= 0 }
        let corners = behind ? [PixelPoint(x: 0, y: 0), PixelPoint(x: Double(dw), y: Double(dh))] : frameCorners.map(transform.apply)
        func clamped(_ v: Double, _ limit: Int) -> Int { Int(min(max(v, 0), Double(limit))) }
        let x0 = clamped((corners.map(\.x).min() ?? 0).rounded(.down) - 1, dw)
        let x1 = clamped((corners.map(\.x).max() ?? 0).rounded(.up) + 1, dw)
        let y0 = clamped((corners.map(\.y).min() ?? 0).rounded(.down) - 1, dh)
        let y1 = clamped((corners.map(\.y).max() ?? 0).rounded(.up) + 1, dh)
        guard x0 < x1, y0 < y1 else { return }

        var level = MipLevel(source)
        // A projective map shrinks each axis by its own factor (the far side of a tilted tile
        // more): the sizes the rectangle's middle lines take in the destination pick the mip.
        var shownWidth = rect.width, shownHeight = rect.height
        if !transform.isAffine, !behind {
            let mx = (rect.minX + rect.maxX) / 2, my = (rect.minY + rect.maxY) / 2
            func span(_ p: PixelPoint, _ q: PixelPoint) -> Double { (transform.apply(p) - transform.apply(q)).length }
            shownWidth = span(PixelPoint(x: rect.minX, y: my), PixelPoint(x: rect.maxX, y: my))
            shownHeight = span(PixelPoint(x: mx, y: rect.minY), PixelPoint(x: mx, y: rect.maxY))
        }
        while Double(level.width) / shownWidth > 2, level.width > 1 { level = level.halved(x: true, y: false) }
        while Double(level.height) / shownHeight > 2, level.height > 1 { level = level.halved(x: false, y: true) }
        let sw = level.width, sh = level.height
        let sx = Double(sw) / rect.width, sy = Double(sh) / rect.height
        level.pixels.withUnsafeBufferPointer { src in
            destination.pixels.withUnsafeMutableBufferPointer { dst in
                for y in y0..<y1 {
                    let cy = Double(y) + 0.5
                    for x in x0..<x1 {
                        // Computed from the pixel alone (not stepped along the row), so two
                        // tiles agree exactly on which of them owns a pixel on their edge.
                        let f = back.apply(PixelPoint(x: Double(x) + 0.5, y: cy))
                        guard f.x >= rect.minX, f.x < rect.maxX, f.y >= rect.minY, f.y < rect.maxY else { continue }
                        let tx = ColumnTap((f.x - rect.minX) * sx - 0.5, size: sw)
                        let ty = ColumnTap((f.y - rect.minY) * sy - 0.5, size: sh)
                        let wx = UInt32(tx.w), iwx = 256 - wx, wy = UInt32(ty.w), iwy = 256 - wy
                        let a = (ty.i0 * sw + tx.i0) * 4, b = (ty.i0 * sw + tx.i1) * 4
                        let e = (ty.i1 * sw + tx.i0) * 4, g = (ty.i1 * sw + tx.i1) * 4
                        @inline(__always) func sample(_ k: Int) -> UInt32 {
                            let top = UInt32(src[a + k]) * iwx + UInt32(src[b + k]) * wx
                            let bottom = UInt32(src[e + k]) * iwx + UInt32(src[g + k]) * wx
                            return (top * iwy + bottom * wy + 32768) >> 16
                        }
                        var sa = sample(3)
                        if sa == 0 { continue }
                        var sr = sample(0), sg = sample(1), sb = sample(2)
                        if op < 255 {
                            sr = Canvas.div255(sr * op); sg = Canvas.div255(sg * op)
                            sb = Canvas.div255(sb * op); sa = Canvas.div255(sa * op)
                        }
                        let di = (y * dw + x) * 4
                        if sa == 255 {
                            dst[di] = UInt8(sr); dst[di + 1] = UInt8(sg)
                            dst[di + 2] = UInt8(sb); dst[di + 3] = 255
                        } else {
                            let inv = 255 - sa
                            dst[di] = UInt8(min(255, sr + Canvas.div255(UInt32(dst[di]) * inv)))
                            dst[di + 1] = UInt8(min(255, sg + Canvas.div255(UInt32(dst[di + 1]) * inv)))
                            dst[di + 2] = UInt8(min(255, sb + Canvas.div255(UInt32(dst[di + 2]) * inv)))
                            dst[di + 3] = UInt8(min(255, sa + Canvas.div255(UInt32(dst[di + 3]) * inv)))
                        }
                    }
                }
            }
        }
    }

    /// Source-over of `count` premultiplied pixels from `src[sourceOffset…]` onto `dst[destinationOffset…]`, with no
    /// resampling: the exact-tap case of `draw`, which it must match byte for byte.
    private static func copyRow(from src: UnsafeBufferPointer<UInt8>, at sourceOffset: Int,
                                to dst: UnsafeMutableBufferPointer<UInt8>, at destinationOffset: Int, count: Int) {
        guard count > 0, let srcBase = src.baseAddress, let dstBase = dst.baseAddress,
              sourceOffset >= 0, destinationOffset >= 0, sourceOffset + count * 4 <= src.count,
              destinationOffset + count * 4 <= dst.count else { return }
        let s = srcBase + sourceOffset, d = dstBase + destinationOffset
        let destination = UnsafeMutableBufferPointer(start: d, count: count * 4)
        var j = 0
        while j < count {
            // A run of opaque pixels is one copy.
            let end = j + Canvas.opaquePrefix(UnsafeRawPointer(s + j * 4), count: count - j)
            if end > j {
                (d + j * 4).update(from: s + j * 4, count: (end - j) * 4)
                j = end
                continue
            }
            let p = s + j * 4
            if p[3] != 0 {
                Canvas.compositeOver(destination, j * 4, (UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3])))
            }
            j += 1
        }
    }
}

extension Canvas {
    /// Draws `image` scaled into `rect` with bilinear filtering (see `ImageSampler`).
    /// With a `mapTransform`, `rect` is in the map frame and the image is turned onto this
    /// canvas (`ImageSampler.draw(_:into:rect:transform:opacity:)`).
    func draw(_ image: Canvas, in rect: PixelRect, opacity: Double = 1) {
        if let t = mapTransform {
            ImageSampler.draw(image, into: self, rect: rect, transform: t, opacity: opacity)
        } else {
            ImageSampler.draw(image, into: self, rect: rect, opacity: opacity)
        }
    }
}

/// Two neighbouring source indices along one axis and the weight (0…256) of the second.
private struct ColumnTap {
    var i0: Int
    var i1: Int
    var w: Int

    init(i0: Int, i1: Int, w: Int) {
        self.i0 = i0
        self.i1 = i1
        self.w = w
    }

    /// Clamp-to-edge tap at source position `u` (pixel-index space) on an axis of `size`.
    init(_ u: Double, size: Int) {
        let clamped = min(max(u, 0), Double(size - 1))
        let i = Int(clamped)
        var w = Int(((clamped - Double(i)) * 256).rounded())
        var i0 = i
        if w == 256 { i0 += 1; w = 0 }
        i0 = min(i0, size - 1)
        self.init(i0: i0, i1: min(i0 + 1, size - 1), w: w)
    }
}

/// A premultiplied RGBA8 image used as a (possibly box-filtered) sampling source.
private struct MipLevel {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    init(_ canvas: Canvas) {
        width = canvas.width
        height = canvas.height
        pixels = canvas.pixels
    }

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Box-filters pairs of pixels along the chosen axes; an odd last pixel pairs with itself.
    func halved(x: Bool, y: Bool) -> MipLevel {
        let nw = x ? (width + 1) / 2 : width
        let nh = y ? (height + 1) / 2 : height
        var out = [UInt8](repeating: 0, count: nw * nh * 4)
        let w = width, h = height
        pixels.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { d in
                for oy in 0..<nh {
                    let ya = y ? 2 * oy : oy, yb = y ? min(2 * oy + 1, h - 1) : oy
                    for ox in 0..<nw {
                        let xa = x ? 2 * ox : ox, xb = x ? min(2 * ox + 1, w - 1) : ox
                        let p = (ya * w + xa) * 4, q = (ya * w + xb) * 4
                        let r = (yb * w + xa) * 4, t = (yb * w + xb) * 4
                        let o = (oy * nw + ox) * 4
                        for k in 0..<4 {
                            let top: UInt32 = UInt32(s[p + k]) + UInt32(s[q + k])
                            let bottom: UInt32 = UInt32(s[r + k]) + UInt32(s[t + k])
                            d[o + k] = UInt8((top + bottom + 2) >> 2)
                        }
                    }
                }
            }
        }
        return MipLevel(width: nw, height: nh, pixels: out)
    }
}
