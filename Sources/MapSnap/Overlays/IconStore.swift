import Foundation

/// Decodes marker icons once per render and keeps them by location: local PNG files, and
/// PNG or JPEG images at `http(s)` URLs (Google's `icon:https://…`) fetched through the
/// render's resource fetcher — the tiles' transfer layer, cache and offline mode — under a
/// small byte cap, since an icon is a few KiB.
final class IconStore: Sendable {
    /// Decoded icons, and the failures of icon URLs: a URL that failed while the camera was
    /// fitted is not fetched again (with its retries) to fail the drawing. A miss is decoded
    /// while holding the lock, so each location is read once.
    private let images = Locked<[String: Result<Canvas, OverlayError>]>([:])
    /// Where remote icons come from (nil: a remote icon is an error).
    private let fetcher: (any ResourceFetching)?
    /// Icons larger than this per side are refused: they are markers, not maps.
    static let maximumSide = 1024
    static let maximumFileBytes = 16 << 20
    /// A remote icon's body: Google's own limit for custom icons is 4096 pixels of area;
    /// 1 MiB holds any sensible marker image and keeps a hostile URL cheap.
    static let maximumRemoteBytes = 1 << 20

    init(fetcher: (any ResourceFetching)? = nil) {
        self.fetcher = fetcher
    }

    func image(at path: String) throws(OverlayError) -> Canvas {
        try images.withLock { images -> Result<Canvas, OverlayError> in
            if let known = images[path] { return known }
            let remote = ResourceLocation.isRemote(path)
            let result = Result { () throws(OverlayError) -> Canvas in
                remote ? try remoteImage(path) : try IconStore.sharedDecode(path)
            }
            // A URL's failure is kept too (no second fetch with its retries); a local file
            // that failed is simply read again.
            if case .success = result { images[path] = result } else if remote { images[path] = result }
            return result
        }.get()
    }

    /// Fetches and decodes an icon URL (PNG or JPEG only: the fetcher checks the first bytes
    /// before anything is cached).
    private func remoteImage(_ url: String) throws(OverlayError) -> Canvas {
        let shown = URLRedaction.redact(url)
        guard let fetcher else { throw .unreadableIcon(path: shown, reason: "icons are not fetched from the web here") }
        let fetched: [UInt8]?
        do {
            fetched = try fetcher.fetch(url, kind: .image, limit: Self.maximumRemoteBytes)
        } catch {
            throw .iconUnavailable(url: shown, error)
        }
        guard let bytes = fetched else {
            throw .unreadableIcon(path: shown, reason: "the server has no such image (HTTP 404)")
        }
        do {
            return try RasterImageDecoder.decode(bytes, origin: shown, maxPixelCount: Self.maximumSide * Self.maximumSide)
        } catch {
            throw .unreadableIcon(path: shown, reason: error.description)
        }
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
