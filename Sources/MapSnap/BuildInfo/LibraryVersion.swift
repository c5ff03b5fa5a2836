/// One C library mapsnap uses and the version this process runs with.
public struct LibraryVersion: Sendable, Equatable, CustomStringConvertible {
    /// How the version was learned.
    public enum Origin: Sendable, Equatable {
        /// Asked of the library at run time: exactly the code that runs.
        case runtime
        /// The library's header at build time, for libraries without a run-time query; the
        /// release build links them statically, so there it is the code that runs.
        case header
        /// A library mapsnap loads on first use (HarfBuzz, libcurl, libmicrohttpd), not asked because
        /// loading it costs start-up time; `version` is its header's at build time, and
        /// `libraryVersions(loadingOnDemandLibraries: true)` asks the library itself.
        case notLoaded
        /// The library could not be loaded or did not say.
        case unavailable
    }

    /// The library's usual name: `libpng`, `FreeType`, `SQLite`…
    public var name: String
    /// Its version (`1.6.39`); for `.notLoaded`, the header's; nil when `.unavailable`.
    public var version: String?
    /// Where `version` came from.
    public var origin: Origin

    /// Creates a library's entry.
    public init(name: String, version: String?, origin: Origin) {
        self.name = name
        self.version = version
        self.origin = version == nil && (origin == .runtime || origin == .header) ? .unavailable : origin
    }

    /// `libpng 1.6.39`, `libdeflate 1.14 (from its header)`, `libcurl (loaded on first use)`.
    public var description: String {
        switch origin {
        case .runtime: return "\(name) \(version ?? "")"
        case .header: return "\(name) \(version ?? "") (from its header at build time)"
        case .notLoaded:
            return "\(name) \(version.map { $0 + " " } ?? "")(from its header at build time; loaded on first use: --version --all asks it)"
        case .unavailable: return "\(name) (not available)"
        }
    }
}
