/// A finished image as a value: `width` × `height` pixels of 8-bit RGBA, row by row from the
/// top-left corner. What `MapSnapshot.image` holds and what `MapSnapTesting` compares.
///
/// The colours are premultiplied by alpha, as the renderer composites them. A rendered map
/// is opaque (every alpha is 255, since renders start on white), and for opaque pixels
/// premultiplied and straight RGBA are the same bytes; `color(atX:y:)` gives straight colours
/// either way.
public struct MapImage: Sendable, Hashable {
    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// `width * height * 4` bytes: red, green, blue and alpha of each pixel, rows top to bottom.
    public let pixels: [UInt8]

    /// Wraps premultiplied RGBA bytes; `pixels.count` must be `width * height * 4`.
    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "pixel count must match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The colour at a pixel, with straight alpha; `x` and `y` must lie inside the image.
    public func color(atX x: Int, y: Int) -> Color {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the image")
        return Color(premultipliedPixels: pixels, at: (y * width + x) * 4)
    }
}

extension Canvas {
    /// The canvas's pixels as a value. The bytes are shared until the canvas is drawn on again.
    package var image: MapImage { MapImage(width: width, height: height, pixels: pixels) }

    /// A canvas holding `image`'s pixels, to draw on or encode.
    package convenience init(_ image: MapImage) {
        self.init(width: image.width, height: image.height, premultipliedPixels: image.pixels)
    }
}

extension Color {
    /// The straight-alpha colour of the premultiplied RGBA pixel at byte `i` of `pixels`.
    init(premultipliedPixels pixels: [UInt8], at i: Int) {
        let a = pixels[i + 3]
        guard a != 0 else {
            self = .clear
            return
        }
        func un(_ v: UInt8) -> UInt8 { UInt8(Swift.min(255, (UInt32(v) * 255 + UInt32(a) / 2) / UInt32(a))) }
        self.init(red: un(pixels[i]), green: un(pixels[i + 1]), blue: un(pixels[i + 2]), alpha: a)
    }
}
