/// Colours a signed-distance-field image — the `sdf: true` images of a MapLibre sprite,
/// whose alpha is a distance to the shape's edge rather than a coverage.
///
/// MapLibre's encoding: alpha 192 (0.75) lies on the edge, and the value falls by 1/8 per
/// image pixel outwards (rises inwards). The shape is `alpha ≥ 0.75`; a halo `w` image
/// pixels wide is `alpha ≥ 0.75 − w/8`. Each threshold is crossed with a linear ramp
/// ±`gamma` wide (in alpha units) for anti-aliasing — MapLibre uses 0.105 divided by the
/// drawn size of one image pixel. The result is a premultiplied image: the halo colour
/// under the fill colour.
enum SignedDistanceField {
    static func colorize(_ field: Canvas, color: Color, haloColor: Color? = nil, haloWidth: Double = 0,
                                gamma: Double) -> Canvas {
        let out = Canvas(width: field.width, height: field.height)
        let g = gamma.isFinite ? min(max(gamma, 1e-3), 0.5) : 0.105
        func widened(_ c: Color) -> (UInt32, UInt32, UInt32, UInt32) {
            let p = Canvas.premultiply(c)
            return (UInt32(p.0), UInt32(p.1), UInt32(p.2), UInt32(p.3))
        }
        let fill = widened(color)
        let halo = haloColor.map(widened) ?? (0, 0, 0, 0)
        let haloEdge = haloWidth.isFinite && haloWidth > 0 && halo.3 > 0 ? 0.75 - min(haloWidth, 6) / 8 : nil
        // Coverage 0…255 for a threshold, as a table over the 256 alpha values.
        func ramp(_ edge: Double) -> [UInt32] {
            (0..<256).map { a in
                let t = (Double(a) / 255 - (edge - g)) / (2 * g)
                return UInt32((min(max(t, 0), 1) * 255).rounded())
            }
        }
        let fillRamp = ramp(0.75)
        let haloRamp = haloEdge.map(ramp)
        field.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                var i = 0
                while i < src.count {
                    let a = Int(src[i + 3])
                    let fc = fillRamp[a]
                    let hc = haloRamp?[a] ?? 0
                    // The halo, then the fill over it.
                    let h = Canvas.scaled(halo, by: hc)
                    dst[i] = UInt8(h.0); dst[i + 1] = UInt8(h.1); dst[i + 2] = UInt8(h.2); dst[i + 3] = UInt8(h.3)
                    Canvas.compositeOver(dst, i, Canvas.scaled(fill, by: fc))
                    i += 4
                }
            }
        }
        return out
    }
}
