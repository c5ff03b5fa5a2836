extension MapImage {
    /// Decodes any PNG (see `PNGCodec.decode`) into an image; `origin` names the input in errors.
    public init(pngData bytes: [UInt8], origin: String = "PNG data") throws(PNGError) {
        self = try PNGCodec.decode(bytes, origin: origin).image
    }

    /// PNG bytes of the image: RGB when it is opaque, RGBA otherwise; the same pixels always
    /// give the same bytes.
    public func pngData() throws(PNGError) -> [UInt8] {
        try PNGCodec.encode(Canvas(self))
    }

    /// The image in `format`; `quality` (1–100) applies to JPEG and makes WebP lossy (see
    /// `ImageFormat`). The same pixels, format and quality always give the same bytes.
    public func data(format: ImageFormat, quality: Int? = nil) throws -> [UInt8] {
        try format.encode(Canvas(self), quality: quality)
    }
}
