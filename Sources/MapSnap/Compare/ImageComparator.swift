/// Compares two images perceptually, in the manner of pixelmatch (Mapbox, ISC): a pixel
/// differs when its YIQ colour distance exceeds `threshold`, unless it looks like
/// anti-aliasing.
///
/// The algorithm, re-derived here from its two sources:
/// - Colour distance: squared YIQ difference weighted 0.5053·Y² + 0.299·I² + 0.1957·Q²
///   (Kotsarenko & Ramos, "Measuring perceived color difference using YIQ NTSC transmission
///   color space in mobile applications", 2010). pixelmatch normalises it by 35215, the
///   largest value it takes between sRGB colours (black vs. white alone gives 32857), so
///   `threshold` t means "distance above t² · 35215". Translucent pixels are blended
///   over white first; with premultiplied bytes that is exactly `p + 255 − α`.
/// - Anti-aliasing (Vysniauskas, "Anti-aliased pixel and intensity slope detector", 2009):
///   a pixel is AA when, among its 8 neighbours, at most two have its exact brightness, it
///   has both a darker and a brighter neighbour, and the darkest or the brightest of those
///   neighbours sits in a flat region (3+ identical neighbours) in *both* images — i.e. the
///   pixel is a blend between two solid areas that merely moved or re-rounded.
///
/// Cost: one pass with no allocation per pixel; the 3×3 neighbourhood tests run only for
/// pixels already above the threshold.
public struct ImageComparator: Sendable {
    /// Per-pixel tolerance, 0 … 1 (anything matches), on pixelmatch's scale. At 0 a pixel
    /// differs when any of its premultiplied RGBA bytes does; with `includeAntiAliasing` that
    /// makes the comparison byte-exact.
    public var threshold: Double
    /// Count anti-aliased pixels as differences instead of forgiving them.
    public var includeAntiAliasing: Bool
    /// Opacity (0…1) of the grey copy of the expected image under the diff marks.
    public var diffBackgroundOpacity: Double

    /// pixelmatch's normalising constant: the largest weighted YIQ distance between sRGB colours.
    public static let maximumYIQDelta = 35215.0

    /// The default `threshold`, shared by `mapsnap compare` and `MapSnapTesting`: a pixel
    /// differs when it moves by more than about 13 levels of grey (0.05² · 35215 ≈ 0.5053 · 13.2²),
    /// or by a colour change of similar weight. Invisible re-rounding passes; darkening
    /// buildings by 20 levels or greying text from #444 to #777 fails. (pixelmatch uses 0.1,
    /// which lets a 25-level shift of every pixel through.)
    public static let defaultThreshold = 0.05

    /// - Parameter threshold: clamped to 0…1; NaN means `defaultThreshold`.
    public init(threshold: Double = ImageComparator.defaultThreshold, includeAntiAliasing: Bool = false,
                diffBackgroundOpacity: Double = 0.1) {
        self.threshold = threshold.isNaN ? ImageComparator.defaultThreshold : min(max(threshold, 0), 1)
        self.includeAntiAliasing = includeAntiAliasing
        self.diffBackgroundOpacity = diffBackgroundOpacity.isNaN ? 0.1 : min(max(diffBackgroundOpacity, 0), 1)
    }

    /// Compares `actual` with `expected`.
    /// - Parameter producingDiffImage: also draw the diff image: differences in red,
    ///   forgiven anti-aliasing in yellow, over a faded grey copy of `expected`.
    /// - Throws: `ImageComparisonError.sizeMismatch` when the sizes differ.
    public func compare(actual: MapImage, expected: MapImage,
                        producingDiffImage: Bool = false) throws(ImageComparisonError) -> ImageDifference {
        guard actual.width == expected.width, actual.height == expected.height else {
            throw .sizeMismatch(actualWidth: actual.width, actualHeight: actual.height,
                                expectedWidth: expected.width, expectedHeight: expected.height)
        }
        let width = expected.width, height = expected.height
        let limit = ImageComparator.maximumYIQDelta * threshold * threshold
        let fade = diffBackgroundOpacity
        var diff = producingDiffImage ? [UInt8](repeating: 0, count: width * height * 4) : []
        var differing = 0, antiAliased = 0
        var maxDelta = 0.0

        // Identical buffers (the common passing case) skip the per-pixel colour maths.
        let identical = expected.pixels == actual.pixels
        expected.pixels.withUnsafeBufferPointer { e in
            actual.pixels.withUnsafeBufferPointer { a in
                diff.withUnsafeMutableBufferPointer { out in
                    let img1 = PixelView(bytes: e, width: width, height: height)
                    let img2 = PixelView(bytes: a, width: width, height: height)
                    for y in 0..<height {
                        for x in 0..<width {
                            let i = y * width + x
                            let delta = identical ? 0 : ImageComparator.colorDelta(img1, i, img2, i)
                            maxDelta = max(maxDelta, delta)
                            // Threshold 0 is exact: any differing byte counts, even between
                            // colours that look alike over white (transparent black and white).
                            let exceeds = limit == 0 ? !identical && img1.word(i) != img2.word(i) : delta > limit
                            if exceeds {
                                if !includeAntiAliasing
                                    && (ImageComparator.isAntiAliased(img1, x, y, other: img2)
                                        || ImageComparator.isAntiAliased(img2, x, y, other: img1)) {
                                    antiAliased += 1
                                    if producingDiffImage { ImageComparator.put(out, i, 255, 255, 0) }
                                } else {
                                    differing += 1
                                    if producingDiffImage { ImageComparator.put(out, i, 255, 0, 0) }
                                }
                            } else if producingDiffImage {
                                let v = ImageComparator.fadedGrey(img1, i, fade)
                                ImageComparator.put(out, i, v, v, v)
                            }
                        }
                    }
                }
            }
        }
        return ImageDifference(
            width: width, height: height, differingPixelCount: differing, antiAliasedPixelCount: antiAliased,
            maxDelta: (maxDelta / ImageComparator.maximumYIQDelta).squareRoot(),
            diffImage: producingDiffImage ? MapImage(width: width, height: height, pixels: diff) : nil)
    }

    /// `compare` for canvases, which the fuzz harness and tests draw their inputs on.
    func compare(actual: Canvas, expected: Canvas,
                 producingDiffImage: Bool = false) throws(ImageComparisonError) -> ImageDifference {
        try compare(actual: actual.image, expected: expected.image, producingDiffImage: producingDiffImage)
    }

    /// Read access to premultiplied RGBA pixels by index; the loops keep indices in range.
    struct PixelView {
        let bytes: UnsafeBufferPointer<UInt8>
        let width: Int
        let height: Int

        @inline(__always) func word(_ i: Int) -> UInt32 {
            let o = i * 4
            return UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24
        }

        /// Colour blended over white: straight `c` at alpha `α` gives `255 + (c − 255)·α/255`,
        /// which for premultiplied `p = c·α/255` is `p + 255 − α`.
        @inline(__always) func overWhite(_ i: Int) -> (Double, Double, Double) {
            let o = i * 4
            let lift = Double(255 - Int(bytes[o + 3]))
            return (Double(bytes[o]) + lift, Double(bytes[o + 1]) + lift, Double(bytes[o + 2]) + lift)
        }
    }

    @inline(__always) static func luma(_ c: (Double, Double, Double)) -> Double {
        c.0 * 0.29889531 + c.1 * 0.58662247 + c.2 * 0.11448223
    }

    /// Squared, weighted YIQ distance between pixel `i` of `p` and pixel `j` of `q` (≥ 0).
    @inline(__always) static func colorDelta(_ p: PixelView, _ i: Int, _ q: PixelView, _ j: Int) -> Double {
        if p.word(i) == q.word(j) { return 0 }
        let c1 = p.overWhite(i), c2 = q.overWhite(j)
        let y = luma(c1) - luma(c2)
        let dr = c1.0 - c2.0, dg = c1.1 - c2.1, db = c1.2 - c2.2
        let iDelta = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let qDelta = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        return 0.5053 * y * y + 0.299 * iDelta * iDelta + 0.1957 * qDelta * qDelta
    }

    /// Brightness difference (Y) between two pixels of the same image; 0 when identical.
    @inline(__always) static func brightnessDelta(_ p: PixelView, _ i: Int, _ j: Int) -> Double {
        if p.word(i) == p.word(j) { return 0 }
        return luma(p.overWhite(i)) - luma(p.overWhite(j))
    }

    /// The anti-aliasing test described in the type's documentation, for pixel (`x`, `y`)
    /// of `image`, with `other` the image it is compared against.
    static func isAntiAliased(_ image: PixelView, _ x: Int, _ y: Int, other: PixelView) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x2 = min(x + 1, image.width - 1), y2 = min(y + 1, image.height - 1)
        let centre = y * image.width + x
        // A pixel on the border has fewer neighbours; count the missing side as one match.
        var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        var darkest = 0.0, brightest = 0.0
        var darkX = 0, darkY = 0, brightX = 0, brightY = 0
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                let delta = brightnessDelta(image, centre, ny * image.width + nx)
                if delta == 0 {
                    equal += 1
                    if equal > 2 { return false }
                } else if delta < darkest {
                    darkest = delta; darkX = nx; darkY = ny
                } else if delta > brightest {
                    brightest = delta; brightX = nx; brightY = ny
                }
            }
        }
        if darkest == 0 || brightest == 0 { return false }
        return (hasManySiblings(image, darkX, darkY) && hasManySiblings(other, darkX, darkY))
            || (hasManySiblings(image, brightX, brightY) && hasManySiblings(other, brightX, brightY))
    }

    /// True when pixel (`x`, `y`) has 3+ neighbours with identical bytes (a flat region).
    static func hasManySiblings(_ image: PixelView, _ x: Int, _ y: Int) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x2 = min(x + 1, image.width - 1), y2 = min(y + 1, image.height - 1)
        let centre = image.word(y * image.width + x)
        var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                if image.word(ny * image.width + nx) == centre { equal += 1 }
                if equal > 2 { return true }
            }
        }
        return false
    }

    /// The expected pixel's brightness, faded towards white: `255 + fade · (Y(straight) − 255) · α/255`,
    /// which for premultiplied bytes is `255 + fade · (Y(premultiplied) − α)`.
    @inline(__always) static func fadedGrey(_ p: PixelView, _ i: Int, _ fade: Double) -> UInt8 {
        let o = i * 4
        let y = luma((Double(p.bytes[o]), Double(p.bytes[o + 1]), Double(p.bytes[o + 2])))
        let v = 255 + fade * (y - Double(p.bytes[o + 3]))
        return UInt8(min(max(v.rounded(), 0), 255))
    }

    @inline(__always) static func put(_ out: UnsafeMutableBufferPointer<UInt8>, _ i: Int,
                                      _ r: UInt8, _ g: UInt8, _ b: UInt8) {
        let o = i * 4
        out[o] = r; out[o + 1] = g; out[o + 2] = b; out[o + 3] = 255
    }
}
