/// The outcome of `ImageComparator.compare`: how many pixels differ and by how much.
public struct ImageDifference: Sendable {
    /// Width of both images in pixels.
    public let width: Int
    /// Height of both images in pixels.
    public let height: Int
    /// Pixels above the threshold that are not forgiven as anti-aliasing.
    public let differingPixelCount: Int
    /// Pixels above the threshold forgiven as anti-aliasing (0 with `includeAntiAliasing`).
    public let antiAliasedPixelCount: Int
    /// The largest colour distance of any pixel on the threshold's 0…1 scale
    /// (`sqrt(delta / 35215)`): the smallest threshold at which every pixel matches.
    public let maxDelta: Double
    /// Differences in red, forgiven anti-aliasing in yellow, over a faded grey copy of the
    /// expected image; `nil` unless requested.
    public let diffImage: MapImage?

    init(width: Int, height: Int, differingPixelCount: Int, antiAliasedPixelCount: Int,
         maxDelta: Double, diffImage: MapImage?) {
        self.width = width
        self.height = height
        self.differingPixelCount = differingPixelCount
        self.antiAliasedPixelCount = antiAliasedPixelCount
        self.maxDelta = maxDelta
        self.diffImage = diffImage
    }

    /// Share of differing pixels, 0…100.
    public var differingPercentage: Double {
        width * height == 0 ? 0 : Double(differingPixelCount) * 100 / Double(width * height)
    }

    /// True when no pixel differs beyond the threshold.
    public var isMatch: Bool { differingPixelCount == 0 }

    /// True when the differences stay within `tolerance`.
    public func isWithin(_ tolerance: DiffTolerance) -> Bool {
        switch tolerance {
        case .pixels(let n): return differingPixelCount <= n
        case .percent(let p): return differingPercentage <= p
        }
    }

    /// One line: `12 differing pixels (0.0300%), max delta 0.2450` (+ anti-aliasing count).
    public var summary: String {
        var s = "\(differingPixelCount) differing pixel\(differingPixelCount == 1 ? "" : "s") (\(Self.format(differingPercentage, 4))%), max delta \(Self.format(maxDelta, 4))"
        if antiAliasedPixelCount > 0 { s += ", \(antiAliasedPixelCount) anti-aliased ignored" }
        return s
    }

    /// Fixed-point formatting without Foundation, so output is locale-independent.
    static func format(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return "\(v)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let n = Int((abs(v) * scale).rounded())
        let whole = n / Int(scale), frac = n % Int(scale)
        var f = String(frac)
        while f.count < digits { f = "0" + f }
        return (v < 0 && n != 0 ? "-" : "") + "\(whole)" + (digits > 0 ? "." + f : "")
    }
}
