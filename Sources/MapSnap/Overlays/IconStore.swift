import Foundation

/// Decodes marker icon PNGs once per render and keeps them by path.
final class IconStore: Sendable {
    /// Decoded icons by path; a miss decodes while holding the lock, so each file is read once.
    private let images = Locked<[String: Canvas]>([:])
    /// Icons larger than this per side are refused: they are markers, not maps.
    static let maximumSide = 1024
    static let maximumFileBytes = 16 << 20

    func image(at path: String) throws(OverlayError) -> Canvas {
        try images.withLock { images -> Result<Canvas, OverlayError> in
            if let img = images[path] { return .success(img) }
            let decoded = Result { () throws(OverlayError) -> Canvas in try IconStore.sharedDecode(path) }
            if case .success(let img) = decoded { images[path] = img }
            return decoded
        }.get()
    }

    /// Reads and decodes an icon file, mapping every failure to an `OverlayError`.
    static func sharedDecode(_ path: String) throws(OverlayError) -> Canvas {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: maximumFileBytes)
        } catch {
            throw OverlayError.unreadableIcon(path: path, reason: error.reason)
        }
        do {
            return try PNGCodec.decode(bytes, origin: path, maxPixelCount: maximumSide * maximumSide)
        } catch {
            throw OverlayError.invalidIcon(path: path, error)
        }
    }
}
