import Foundation

/// Which files an input may name: style files, tile sources, GeoJSON and GPX files, marker
/// icons and the output. Set on `RenderSpecBuilder` (and passed to `RenderSpec.parse`,
/// `StaticMapsSyntax.parseMarkers`, `StaticMapsURL`); URL templates (`http://`, `https://`)
/// and the bundled style names are not file paths and are always allowed.
///
/// Only the paths written in the input are checked: a style file's own sources resolve
/// against the style's folder unchecked, so `.insideBaseDirectory` trusts the style files
/// it lets through, and a server should use `.refused`.
public enum FilePathPolicy: Sendable, Hashable {
    /// Any path; relative ones resolve against the base directory. The user names their own
    /// files (the CLI's flags and `--spec`).
    case unrestricted
    /// Relative paths that stay inside the base directory: no absolute path, no `..` above
    /// it, no symbolic link out of it. A spec from elsewhere reads only the files beside it.
    case insideBaseDirectory
    /// No file paths at all: bundled styles, URL templates and inline data only (a server
    /// taking specs from the network).
    case refused

    /// Why a path was refused; `reason` completes "PATH: …".
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Why the path was refused, naming it.
        public var reason: String
        /// The `reason`.
        public var description: String { reason }
    }

    /// `path` resolved against `baseDirectory` (nil: the working directory), or why this
    /// policy refuses it.
    public func resolve(_ path: String, against baseDirectory: String?) throws(Refusal) -> String {
        switch self {
        case .unrestricted:
            return StaticMapsSyntax.resolvePath(path, against: baseDirectory)
        case .refused:
            throw Refusal(reason: "file paths are not allowed here")
        case .insideBaseDirectory:
            let base = baseDirectory.flatMap { $0.isEmpty ? nil : $0 } ?? "."
            guard !path.hasPrefix("/") else {
                throw Refusal(reason: "absolute paths are not allowed; name a file inside \(base)")
            }
            // Lexically first: `a/../../b` leaves the folder whatever exists on disk.
            var depth = 0
            for component in path.split(separator: "/") where component != "." {
                depth += component == ".." ? -1 : 1
                guard depth >= 0 else { throw Refusal(reason: "leads outside \(base)") }
            }
            let resolved = StaticMapsSyntax.resolvePath(path, against: base == "." ? nil : base)
            // Then on disk: a symbolic link inside the folder may point out of it. What does
            // not exist yet (an output) is judged by its deepest existing ancestor.
            guard let realBase = Self.realPath(base) else { return resolved }
            var probe = resolved
            var real = Self.realPath(probe)
            while real == nil, let slash = probe.lastIndex(of: "/") {
                probe = String(probe[..<slash])
                real = Self.realPath(probe.isEmpty ? "/" : probe)
            }
            if let real, real != realBase, !real.hasPrefix(realBase.hasSuffix("/") ? realBase : realBase + "/") {
                throw Refusal(reason: "leads outside \(base) through a symbolic link")
            }
            return resolved
        }
    }

    /// True for what is a URL template rather than a file path (`http://`, `https://`).
    static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
