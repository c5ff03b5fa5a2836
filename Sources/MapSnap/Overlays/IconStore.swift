import Foundation

/// Decodes marker icon PNGs once per render and keeps them by path.
final class IconStore: @unchecked Sendable {
    private var images: [String: Canvas] = [:]
    private let lock = NSLock()
    /// Icons larger than this per side are refused: they are markers, not maps.
    static let maximumSide = 1024
    static let maximumFileBytes = 16 << 20

    func image(at path: String) throws(OverlayError) -> Canvas {
        lock.lock()
        defer { lock.unlock() }
        if let img = images[path] { return img }
        let img = try IconStore.sharedDecode(path)
        images[path] = img
        return img
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
