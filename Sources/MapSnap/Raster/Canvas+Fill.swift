extension Canvas {
    /// Source-over of one colour through a row of 8-bit coverage (0 = untouched, 255 =
    /// full), from `x0`; pixels outside the canvas are ignored. The rasterizer sends every
    /// row of a single-threaded fill through here (banded fills use `PixelRows.blend`).
    func blendCoverage(y: Int, x0: Int, coverage: UnsafeBufferPointer<UInt8>, color: Color) {
        guard y >= 0, y < height, color.alpha > 0 else { return }
        let src = Canvas.premultiply(color)
        let w = width
        pixels.withUnsafeMutableBufferPointer { px in
            PixelRows(base: px.baseAddress, width: w).blend(y: y, x0: x0, coverage: coverage, src: src)
        }
    }
}

/// The rows of a canvas's pixel buffer, for bands of one fill written from several threads
/// (each thread writes only its own rows).
struct PixelRows: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>?
    let width: Int

    /// `blend` for a run of pixels that all get `coverage` (same arithmetic, same bytes).
    func blendRun(y: Int, x0: Int, x1: Int, coverage: UInt8, src: (UInt8, UInt8, UInt8, UInt8)) {
        guard let base, coverage > 0 else { return }
        let start = max(x0, 0), end = min(x1, width)
        guard start < end else { return }
        let row = base + y * width * 4
        if coverage == 255 && src.3 == 255 {
            // Opaque and fully covered: the colour itself, four bytes at a time.
            let pattern = UInt32(src.0) | UInt32(src.1) << 8 | UInt32(src.2) << 16 | UInt32(255) << 24
            UnsafeMutableRawPointer(row + start * 4).withMemoryRebound(to: UInt32.self, capacity: end - start) { p in
                p.update(repeating: pattern.littleEndian, count: end - start)
            }
            return
        }
        let px = UnsafeMutableBufferPointer(start: row, count: width * 4)
        let cov = UInt32(coverage)
        for x in start..<end { Canvas.blendPixel(px, x * 4, src, cov) }
    }

    /// Source-over of `src` (premultiplied) through a row of coverage from `x0`, clipped to
    /// the row: `Canvas.blendCoverage` for one band of a banded fill.
    func blend(y: Int, x0: Int, coverage: UnsafeBufferPointer<UInt8>, src: (UInt8, UInt8, UInt8, UInt8)) {
        guard let base else { return }
        let start = max(x0, 0)
        let end = min(x0 + coverage.count, width)
        guard start < end else { return }
        let px = UnsafeMutableBufferPointer(start: base + y * width * 4, count: width * 4)
        for x in start..<end {
            let cov = coverage[x - x0]
            if cov != 0 { Canvas.blendPixel(px, x * 4, src, UInt32(cov)) }
        }
    }
}
