#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Axis-aligned boxes already taken by labels, in image pixels, for the whole image (not
/// per tile), so a label placed from one tile blocks its duplicate from the next.
///
/// A uniform grid of buckets keeps `collides` and `insert` O(boxes in the touched cells)
/// instead of O(all boxes). Line labels insert one small box per glyph.
final class LabelCollisionIndex {
    private let cellSize: Double
    private let columns: Int
    private let rows: Int
    private var cells: [[Int]]
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
        // Labels may hang outside the image; keep one ring of cells around it.
        columns = max(1, Int((Double(width) / cellSize).rounded(.up)) + 2)
        rows = max(1, Int((Double(height) / cellSize).rounded(.up)) + 2)
        cells = Array(repeating: [], count: columns * rows)
    }

    private func cellRange(_ r: PixelRect) -> (ClosedRange<Int>, ClosedRange<Int>) {
        func clampX(_ v: Double) -> Int { max(0, min(columns - 1, Int(floor(v / cellSize)) + 1)) }
        func clampY(_ v: Double) -> Int { max(0, min(rows - 1, Int(floor(v / cellSize)) + 1)) }
        return (clampX(r.minX)...clampX(r.maxX), clampY(r.minY)...clampY(r.maxY))
    }

    /// True when `rect` overlaps any inserted box.
    func collides(_ rect: PixelRect) -> Bool {
        guard rect.minX.isFinite, rect.maxX.isFinite, rect.minY.isFinite, rect.maxY.isFinite else { return true }
        let (xs, ys) = cellRange(rect)
        for y in ys {
            for x in xs {
                for i in cells[y * columns + x] where boxes[i].intersects(rect) { return true }
            }
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
