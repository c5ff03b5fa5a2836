/// The image formats mapsnap writes, named as the Google Static Maps API names them
/// (`format=`), with `webp` added.
///
/// - `png8`: a palette PNG of at most 256 colours (Google's default, and 3–4× smaller than
///   `png32` for drawn maps): exact when the image has 256 colours or fewer, otherwise
///   quantized deterministically (see `PNG8Encoder`). `png` means `png8`, as in Google's API.
/// - `png32`: lossless PNG with every colour (mapsnap's default for `-o FILE.png`).
/// - `jpg`: progressive JPEG; `jpg-baseline`: baseline (sequential) JPEG. `quality` 1–100.
/// - `webp`: lossless WebP, or lossy at `quality` when one is given.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case png8
    case png32
    case jpg
    case jpgBaseline = "jpg-baseline"
    case webp

    /// Default JPEG and lossy WebP quality.
    public static let defaultQuality = 85

    /// Parses a format name (`png`, `png8`, `png32`, `jpg`, `jpeg`, `jpg-baseline`, `webp`;
    /// any case). Throws for `gif` and unknown names, with the list of names.
    public init(name: String) throws(ImageFormatError) {
        switch name.lowercased() {
        case "png", "png8": self = .png8
        case "png32": self = .png32
        case "jpg", "jpeg": self = .jpg
        case "jpg-baseline", "jpeg-baseline": self = .jpgBaseline
        case "webp": self = .webp
        case "gif": throw .unsupported(name: name, reason: "GIF is not written (png8 is the same palette image, smaller); expected \(Self.namesText)")
        default: throw .unsupported(name: name, reason: "expected \(Self.namesText)")
        }
    }

    /// The names `init(name:)` takes, for messages that list them.
    static let namesText = "png, png8, png32, jpg, jpg-baseline or webp"

    /// The file extensions `init(fileName:)` knows, for messages that list them.
    public static let fileExtensions = ["png", "jpg", "jpeg", "webp"]

    /// The extension of a file name's last component, lowercased and without the dot; nil
    /// when it has none (`map`, `./map`, `.hidden`).
    public static func fileExtension(of fileName: String) -> String? {
        let last = fileName.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return nil }
        let ext = last[last.index(after: dot)...]
        return ext.isEmpty ? nil : ext.lowercased()
    }

    /// Why an image cannot be written to `fileName` when no format is named (`--format`, a
    /// spec's or URL's `format`): its extension is not one mapsnap writes (`.gif`, `.tiff`,
    /// `.svg`, …). nil when it is, or when the name has no extension (then PNG is written).
    public static func unwritableExtension(of fileName: String) -> ImageFormatError? {
        guard let ext = fileExtension(of: fileName), !fileExtensions.contains(ext) else { return nil }
        return .unwritableExtension(fileName: fileName, fileExtension: ext)
    }

    /// The format a file name asks for by its extension (`.png` → `png32`, `.jpg`/`.jpeg` →
    /// `jpg`, `.webp` → `webp`); nil for other names.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "png": self = .png32
        case "jpg", "jpeg": self = .jpg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The HTTP `Content-Type`.
    public var contentType: String {
        switch self {
        case .png8, .png32: return "image/png"
        case .jpg, .jpgBaseline: return "image/jpeg"
        case .webp: return "image/webp"
        }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .png8, .png32: return "png"
        case .jpg, .jpgBaseline: return "jpg"
        case .webp: return "webp"
        }
    }

    /// True for formats that take a quality (JPEG; WebP turns lossy with one).
    public var takesQuality: Bool { self == .jpg || self == .jpgBaseline || self == .webp }

    /// `canvas` in this format. `quality` (1–100) applies to JPEG and makes WebP lossy;
    /// nil means `defaultQuality` for JPEG and lossless for WebP. The bytes depend only on
    /// the pixels, the format and the quality.
    package func encode(_ canvas: Canvas, quality: Int? = nil) throws -> [UInt8] {
        switch self {
        case .png8: return try PNG8Encoder.encode(canvas)
        case .png32: return try PNGCodec.encode(canvas)
        case .jpg: return try JPEGEncoder.encode(canvas, quality: quality ?? Self.defaultQuality, progressive: true)
        case .jpgBaseline: return try JPEGEncoder.encode(canvas, quality: quality ?? Self.defaultQuality, progressive: false)
        case .webp: return try WebPEncoder.encode(canvas, quality: quality)
        }
    }
}

/// Why an output format was refused or an image could not be encoded.
public enum ImageFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A format name mapsnap does not write.
    case unsupported(name: String, reason: String)
    /// A quality outside 1…100.
    case badQuality(Int)
    /// A file name whose extension names a format mapsnap does not write (`map.gif`).
    case unwritableExtension(fileName: String, fileExtension: String)
    /// The encoder library failed (`format`: which one).
    case encodingFailed(format: String, reason: String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case let .unsupported(name, reason): return "format \"\(name)\": \(reason)"
        case let .badQuality(q): return "quality \(q): expected 1-100"
        case let .encodingFailed(format, reason): return "encoding \(format): \(reason)"
        case let .unwritableExtension(fileName, ext):
            return "\(fileName): mapsnap cannot write .\(ext) images; it writes .png, .jpg (.jpeg) and .webp, or any name with --format \(ImageFormat.namesText)"
        }
    }
}
