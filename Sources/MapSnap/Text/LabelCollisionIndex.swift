import Foundation

/// Axis-aligned boxes already taken by labels, in image pixels, for the whole image (not
/// per tile), so a label placed from one tile blocks its duplicate from the next.
///
/// A uniform grid of buckets keeps `collides` and `insert` O(boxes in the touched cells)
/// instead of O(all boxes). Line labels insert one small box per glyph.
///
/// Besides boxes, the index holds the areas of routes drawn above the labels
/// (`block(obstacleLine:style:)`): a base-map label there would be half hidden under the route
/// ("uuvikatu" for Kluuvikatu), so it collides and goes elsewhere along its line, or is
/// left out. Those areas are a coarse mask of `obstacleCellSize`-pixel cells, rasterized
/// with the stroker, so a million-point route costs one stroke, not a box per segment.
final class LabelCollisionIndex {
    private let cellSize: Double
    private let columns: Int
    private let rows: Int
    private var cells: [[Int]]
    private let width: Int
    private let height: Int
    /// Cells covered by blocking strokes, row-major, `obstacleColumns` wide; empty until
    /// the first `block`.
    private var obstacles: [Bool] = []
    private var obstacleColumns: Int { Int((Double(width) / Self.obstacleCellSize).rounded(.up)) }
    private var obstacleRows: Int { Int((Double(height) / Self.obstacleCellSize).rounded(.up)) }
    /// Side of an obstacle cell in pixels: a cell touched by a stroke at all is blocked, so
    /// labels keep up to this much farther from a route than its drawn edge.
    static let obstacleCellSize = 2.0
    private(set) var boxes: [PixelRect] = []
    /// Which label each box belongs to (a line label's glyph boxes share one owner); for
    /// checks that labels do not overlap each other.
    private(set) var owners: [Int] = []
    private var nextOwner = 0

    /// A fresh owner id for a label made of several boxes.
    func newOwner() -> Int {
        nextOwner += 1
        return nextOwner
    }

    init(width: Int, height: Int, cellSize: Double = 64) {
        self.cellSize = cellSize
        self.width = max(width, 0)
        self.height = max(height, 0)
        // Labels may hang outside the image; keep one ring of cells around it.
        columns = max(1, Int((Double(width) / cellSize).rounded(.up)) + 2)
        rows = max(1, Int((Double(height) / cellSize).rounded(.up)) + 2)
        cells = Array(repeating: [], count: columns * rows)
    }

    private func cellRange(_ r: PixelRect) -> (ClosedRange<Int>, ClosedRange<Int>) {
        // Clamped as Doubles before converting: a finite but far-off box (1e300) must not trap.
        func clamp(_ v: Double, _ n: Int) -> Int { Int(min(max(floor(v / cellSize) + 1, 0), Double(n - 1))) }
        return (clamp(r.minX, columns)...clamp(r.maxX, columns), clamp(r.minY, rows)...clamp(r.maxY, rows))
    }

    /// True when `rect` overlaps any inserted box or blocked stroke area.
    func collides(_ rect: PixelRect) -> Bool {
        guard rect.minX.isFinite, rect.maxX.isFinite, rect.minY.isFinite, rect.maxY.isFinite else { return true }
        let (xs, ys) = cellRange(rect)
        for y in ys {
            for x in xs {
                for i in cells[y * columns + x] where boxes[i].intersects(rect) { return true }
            }
        }
        return hitsObstacle(rect)
    }

    /// Image pixels to obstacle-mask cells: lines given to `block` are in these units.
    static let obstacleScale = 1 / obstacleCellSize

    /// Marks the area a stroke of `line` covers as taken (dashes ignored: a dashed route
    /// hides a label as well as a solid one). `line` and `style.width` are in mask cells:
    /// image pixels times `obstacleScale`.
    func block(obstacleLine line: Path, style: StrokeStyle) {
        let columns = obstacleColumns, rows = obstacleRows
        guard columns > 0, rows > 0, style.width.isFinite, style.width > 0 else { return }
        var coarse = style
        coarse.dash = []
        guard let outline = Canvas.strokeOutline(line, style: coarse, width: columns, height: rows) else { return }
        if obstacles.isEmpty { obstacles = [Bool](repeating: false, count: columns * rows) }
        Rasterizer.withPooled { $0.rasterize(outline, width: columns, height: rows, rule: .nonZero) { y, x0, coverage in
            for (i, c) in coverage.enumerated() where c > 0 { obstacles[y * columns + x0 + i] = true }
        } }
    }

    private func hitsObstacle(_ rect: PixelRect) -> Bool {
        guard !obstacles.isEmpty else { return false }
        let columns = obstacleColumns, rows = obstacleRows
        // Clamped as Doubles first: a far-off rect must not overflow Int.
        func cell(_ v: Double, _ n: Int) -> Int { Int(min(max(floor(v / Self.obstacleCellSize), -1), Double(n))) }
        let x0 = max(0, cell(rect.minX, columns)), x1 = min(columns - 1, cell(rect.maxX, columns))
        let y0 = max(0, cell(rect.minY, rows)), y1 = min(rows - 1, cell(rect.maxY, rows))
        guard x0 <= x1, y0 <= y1 else { return false }
        for y in y0...y1 {
            for x in x0...x1 where obstacles[y * columns + x] { return true }
        }
        return false
    }

    /// True when any of `rects` collides.
    func collides(any rects: [PixelRect]) -> Bool { rects.contains { collides($0) } }

    func insert(_ rect: PixelRect, owner: Int? = nil) {
        guard rect.minX.isFinite, rect.maxX.isFinite, rect.minY.isFinite, rect.maxY.isFinite else { return }
        let (xs, ys) = cellRange(rect)
        let index = boxes.count
        boxes.append(rect)
        owners.append(owner ?? newOwner())
        for y in ys {
            for x in xs { cells[y * columns + x].append(index) }
        }
    }
}
