/// A point in image pixels (device pixels, scale already applied), origin top-left, y down.
public struct PixelPoint: Hashable, Sendable {
    /// Pixels from the left edge.
    public var x: Double
    /// Pixels from the top edge (y grows downward).
    public var y: Double

    /// A point in image pixels.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The sum, component by component.
    @inlinable public static func + (a: PixelPoint, b: PixelPoint) -> PixelPoint { PixelPoint(x: a.x + b.x, y: a.y + b.y) }
    /// The difference, component by component.
    @inlinable public static func - (a: PixelPoint, b: PixelPoint) -> PixelPoint { PixelPoint(x: a.x - b.x, y: a.y - b.y) }
    /// Both components times `s`.
    @inlinable public static func * (a: PixelPoint, s: Double) -> PixelPoint { PixelPoint(x: a.x * s, y: a.y * s) }
    /// Distance from the origin.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
}

/// An axis-aligned rectangle in image pixels.
struct PixelRect: Hashable, Sendable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    var width: Double { maxX - minX }
    var height: Double { maxY - minY }

    func intersects(_ other: PixelRect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    func contains(_ p: PixelPoint) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    func insetBy(_ d: Double) -> PixelRect {
        PixelRect(minX: minX + d, minY: minY + d, maxX: maxX - d, maxY: maxY - d)
    }

    /// The overlap, or nil when the rectangles share no area.
    func intersection(_ o: PixelRect) -> PixelRect? {
        let r = PixelRect(minX: Swift.max(minX, o.minX), minY: Swift.max(minY, o.minY),
                          maxX: Swift.min(maxX, o.maxX), maxY: Swift.min(maxY, o.maxY))
        return r.minX < r.maxX && r.minY < r.maxY ? r : nil
    }

    /// This rectangle minus `o`, as up to four disjoint rectangles (bands above and below,
    /// then left and right of the overlap).
    func subtracting(_ o: PixelRect) -> [PixelRect] {
        guard let i = intersection(o) else { return [self] }
        var out: [PixelRect] = []
        if i.minY > minY { out.append(PixelRect(minX: minX, minY: minY, maxX: maxX, maxY: i.minY)) }
        if i.maxY < maxY { out.append(PixelRect(minX: minX, minY: i.maxY, maxX: maxX, maxY: maxY)) }
        if i.minX > minX { out.append(PixelRect(minX: minX, minY: i.minY, maxX: i.minX, maxY: i.maxY)) }
        if i.maxX < maxX { out.append(PixelRect(minX: i.maxX, minY: i.minY, maxX: maxX, maxY: i.maxY)) }
        return out
    }

    func union(_ o: PixelRect) -> PixelRect {
        PixelRect(minX: Swift.min(minX, o.minX), minY: Swift.min(minY, o.minY),
                  maxX: Swift.max(maxX, o.maxX), maxY: Swift.max(maxY, o.maxY))
    }
}

extension PixelRect {
    /// The rectangle with its top-left corner at (`x`, `y`). (In an extension, so the
    /// memberwise `init(minX:minY:maxX:maxY:)` is still synthesised.)
    init(x: Double, y: Double, width: Double, height: Double) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }
}
