/// Why a font could not be found or loaded. Every case names the file or font it is about.
enum FontError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read (missing, unreadable, a directory).
    case unreadableFile(path: String, reason: String)
    /// The file is larger than `FreeTypeFace.maxFileBytes`; fonts are capped so a stray
    /// path cannot make us read gigabytes.
    case fileTooLarge(path: String, bytes: Int, limit: Int)
    /// FreeType rejected the bytes (`code` is the `FT_Error`).
    case invalidFont(path: String, freeTypeError: Int32, reason: String)
    /// The face has no outlines (a bitmap-only font); we rasterise at arbitrary sizes.
    case notScalable(path: String)
    /// The face has no Unicode character map, so text cannot be mapped to glyphs.
    case noUnicodeCharmap(path: String)
    /// No directory with the bundled fonts was found; `searched` lists the candidates tried.
    case fontsDirectoryNotFound(searched: [String])
    /// A font name that the library does not know.
    case unknownFontName(String, known: [String])
    /// A text library opened on first use (HarfBuzz) is not on this machine: `file` is what
    /// was opened, `package` the Debian package that installs it, `reason` the loader's words.
    case libraryUnavailable(library: String, file: String, package: String, reason: String)

    var description: String {
        switch self {
        case let .unreadableFile(path, reason):
            return "font \(path): cannot read file: \(reason)"
        case let .fileTooLarge(path, bytes, limit):
            return "font \(path): file is \(bytes) bytes, more than the \(limit)-byte limit"
        case let .invalidFont(path, code, reason):
            return "font \(path): FreeType error \(code) (\(reason)) while opening the face"
        case let .notScalable(path):
            return "font \(path): face has no scalable outlines"
        case let .noUnicodeCharmap(path):
            return "font \(path): face has no Unicode character map"
        case let .fontsDirectoryNotFound(searched):
            // The same one line as every other missing resource folder (ResourceLocator).
            return ResourceNotFound(folder: "Fonts", searched: searched).description
        case let .unknownFontName(name, known):
            return "unknown font \"\(name)\"; known fonts: " + known.joined(separator: ", ")
        case let .libraryUnavailable(library, file, package, reason):
            return "\(library) (\(file)) could not be loaded (\(reason)); install the Debian package \(package)"
        }
    }
}
