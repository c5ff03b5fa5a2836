/// How a `raster-dem` tile packs an elevation into a pixel's red, green and blue bytes.
public enum DEMEncoding: String, Sendable, CaseIterable {
    /// Mapbox Terrain-RGB: `-10000 + (R·65536 + G·256 + B) · 0.1` metres (MapLibre's default).
    case mapbox
    /// Mapzen/AWS Terrarium: `R·256 + G + B/256 - 32768` metres.
    case terrarium

    /// The elevation in metres encoded by one pixel.
    func elevation(red: UInt8, green: UInt8, blue: UInt8) -> Float {
        switch self {
        case .mapbox:
            let v = Int(red) << 16 | Int(green) << 8 | Int(blue)
            return Float(-10000 + Double(v) * 0.1)
        case .terrarium:
            return Float(Double(red) * 256 + Double(green) + Double(blue) / 256 - 32768)
        }
    }
}
