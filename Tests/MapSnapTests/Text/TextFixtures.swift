import Foundation
@testable import MapSnap

/// Shared font fixtures for the Text tests: the bundled fonts only, never system fonts.
enum TextFixtures {
    /// The repository root, from this file's location (Tests/MapSnapTests/Text/…).
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url = url.deletingLastPathComponent() }
        return url.path
    }()

    /// The bundled fonts, with system fallbacks switched off.
    static let fonts: FontLibrary? = {
        guard case .success(let dir) = FontLibrary.locateFontsDirectory() else { return nil }
        return try? FontLibrary(fontsDirectory: dir, systemFallbackPaths: [])
    }()

    /// Reads a bundled font file's bytes.
    static func fontBytes(_ file: String) -> [UInt8]? {
        FileManager.default.contents(atPath: repositoryRoot + "/Fonts/" + file).map { [UInt8]($0) }
    }

    /// The bounding box of non-transparent pixels, or nil for an empty canvas.
    static func inkBox(_ canvas: Canvas) -> PixelRect? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where canvas.pixels[(y * canvas.width + x) * 4 + 3] != 0 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard minX <= maxX else { return nil }
        return PixelRect(minX: Double(minX), minY: Double(minY), maxX: Double(maxX + 1), maxY: Double(maxY + 1))
    }

    /// Bounds of a bitmap's non-zero coverage in pen coordinates (x right, y down from baseline).
    static func coverageBox(_ b: GlyphBitmap) -> PixelRect? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in 0..<b.height {
            for x in 0..<b.width where b.coverage[y * b.width + x] != 0 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard minX <= maxX else { return nil }
        return PixelRect(minX: Double(b.left + minX), minY: Double(minY - b.top),
                         maxX: Double(b.left + maxX + 1), maxY: Double(maxY + 1 - b.top))
    }
}
