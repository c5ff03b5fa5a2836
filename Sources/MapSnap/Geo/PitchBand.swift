/// Rows of a pitched image drawn from one north-up frame (see `Camera.pitchBands`).
struct PitchBand: Sendable {
    /// Image rows, top to bottom.
    var rows: Range<Int>
    /// The north-up frame the band's base map is drawn in.
    var camera: Camera
    /// Frame pixels → image pixels (projective).
    var toImage: PixelTransform
}
