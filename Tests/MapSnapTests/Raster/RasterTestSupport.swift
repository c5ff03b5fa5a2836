@testable import MapSnap

/// Exact per-pixel coverage of `path` on a `width`×`height` grid, row-major.
func exactCoverage(_ path: Path, width: Int, height: Int, rule: FillRule = .nonZero) -> [Double] {
    var grid = [Double](repeating: 0, count: width * height)
    Rasterizer().rasterizeExact(path, width: width, height: height, rule: rule) { y, x0, cov in
        for (i, c) in cov.enumerated() { grid[y * width + x0 + i] = c }
    }
    return grid
}

/// 8-bit coverage of `path`, row-major.
func byteCoverage(_ path: Path, width: Int, height: Int, rule: FillRule = .nonZero) -> [Int] {
    var grid = [Int](repeating: 0, count: width * height)
    Rasterizer().rasterize(path, width: width, height: height, rule: rule) { y, x0, cov in
        for (i, c) in cov.enumerated() { grid[y * width + x0 + i] = Int(c) }
    }
    return grid
}

/// Total covered area in square pixels.
func coveredArea(_ path: Path, width: Int = 256, height: Int = 256, rule: FillRule = .nonZero) -> Double {
    exactCoverage(path, width: width, height: height, rule: rule).reduce(0, +)
}

func polygon(_ pts: [(Double, Double)], closed: Bool = true) -> Path {
    var p = Path()
    for (i, q) in pts.enumerated() {
        let pt = PixelPoint(x: q.0, y: q.1)
        if i == 0 { p.move(to: pt) } else { p.line(to: pt) }
    }
    if closed { p.close() }
    return p
}

/// Shoelace area (positive) of a simple polygon.
func shoelaceArea(_ pts: [(Double, Double)]) -> Double {
    var s = 0.0
    for i in pts.indices {
        let a = pts[i], b = pts[(i + 1) % pts.count]
        s += a.0 * b.1 - b.0 * a.1
    }
    return abs(s) / 2
}
