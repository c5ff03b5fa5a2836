extension MapImage {
    /// Decodes any PNG (see `PNGCodec.decode`) into an image; `origin` names the input in errors.
    public init(pngData bytes: [UInt8], origin: String = "PNG data") throws(PNGError) {
        self = try PNGCodec.decode(bytes, origin: origin).image
    }

    /// PNG bytes of the image: RGB when it is opaque, RGBA otherwise; the same pixels always
    /// give the same bytes. `threads` (at least 1) bounds the threads the encoder may use;
    /// the bytes never depend on it.
    public func pngData(threads: Int = 1) throws(PNGError) -> [UInt8] {
        try PNGCodec.encode(canvas(threads: threads))
    }

    /// The image in `format`; `quality` (1–100) applies to JPEG and makes WebP lossy (see
    /// `ImageFormat`). The same pixels, format and quality always give the same bytes;
    /// `threads` (at least 1) bounds the threads the encoder may use.
    public func data(format: ImageFormat, quality: Int? = nil, threads: Int = 1) throws -> [UInt8] {
        try format.encode(canvas(threads: threads), quality: quality)
    }

    private func canvas(threads: Int) -> Canvas {
        let canvas = Canvas(self)
        canvas.maximumThreads = max(1, threads)
        return canvas
    }
}
