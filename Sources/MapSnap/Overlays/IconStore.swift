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

    /// Reads and decodes an icon file, mapping every failure to `OverlayError.unreadableIcon`.
    static func sharedDecode(_ path: String) throws(OverlayError) -> Canvas {
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attrs[.size] as? NSNumber else {
            throw OverlayError.unreadableIcon(path: path, reason: "no such file")
        }
        guard size.intValue <= maximumFileBytes else {
            throw OverlayError.unreadableIcon(path: path, reason: "file is larger than \(maximumFileBytes >> 20) MB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OverlayError.unreadableIcon(path: path, reason: "cannot read file")
        }
        do {
            return try PNGCodec.decode([UInt8](data), origin: path, maxPixelCount: maximumSide * maximumSide)
        } catch {
            throw OverlayError.unreadableIcon(path: path, reason: error.description)
        }
    }
}
