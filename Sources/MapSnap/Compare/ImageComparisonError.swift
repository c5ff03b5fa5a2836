/// Why two images could not be compared at all.
public enum ImageComparisonError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The images have different dimensions; nothing pixel-wise is meaningful.
    case sizeMismatch(actualWidth: Int, actualHeight: Int, expectedWidth: Int, expectedHeight: Int)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case let .sizeMismatch(aw, ah, ew, eh):
            return "size mismatch: actual is \(aw)×\(ah), expected is \(ew)×\(eh)"
        }
    }
}
