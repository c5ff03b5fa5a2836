/// Why a render could not be made. Every case names what was wrong and where.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Size in points out of range (flag/key named in `origin`).
    case invalidSize(width: Int, height: Int)
    case invalidScale(Double)
    case invalidZoom(Double)
    case invalidPadding(Double)
    /// The output would exceed the pixel limit.
    case imageTooLarge(pixelWidth: Int, pixelHeight: Int, limit: Int)
    /// The output's area would exceed `maximumPixelCount` (`limit` pixels).
    case imageAreaTooLarge(pixelWidth: Int, pixelHeight: Int, limit: Int)
    /// A coordinate that is not a valid latitude/longitude; `what` says which overlay.
    case invalidCoordinate(what: String, LatLng)
    /// An overlay vertex outside `LatLng.isValidVertex` (longitudes may run one world past ±180).
    case invalidVertex(what: String, LatLng)
    /// An overlay could not be drawn (an unreadable marker icon).
    case overlay(OverlayError)
    /// The style could not be loaded.
    case style(String)
    /// A tile source could not be opened.
    case source(String)

    /// True for problems with the input (exit 2) rather than the environment (exit 3).
    public var isInputError: Bool {
        switch self {
        case .source: return false
        default: return true
        }
    }

    public var description: String {
        switch self {
        case .invalidSize(let w, let h): return "size \(w)x\(h): width and height must be at least 1"
        case .invalidScale(let s): return "scale \(s): must be between 1 and 4"
        case .invalidZoom(let z): return "zoom \(z): must be between 0 and 22"
        case .invalidPadding(let p): return "padding \(p): must be a finite number ≥ 0"
        case .imageTooLarge(let w, let h, let limit):
            return "image \(w)x\(h) px exceeds the limit of \(limit)x\(limit) px (lower --size or --scale)"
        case .imageAreaTooLarge(let w, let h, let limit):
            return "image \(w)x\(h) px has \(w * h) pixels, more than the limit of \(limit) (lower --size or --scale, or raise --max-pixels)"
        case .invalidCoordinate(let what, let c):
            return "\(what): coordinate \(c.latitude),\(c.longitude) is out of range (latitude −90…90, longitude −180…180)"
        case .invalidVertex(let what, let c):
            return "\(what): coordinate \(c.latitude),\(c.longitude) is out of range (latitude −90…90, longitude −540…540)"
        case .overlay(let e): return e.description
        case .style(let m): return m
        case .source(let m): return m
        }
    }
}
