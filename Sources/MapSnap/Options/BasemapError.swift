/// Why a named base map (`Basemap`) could not be used.
public enum BasemapError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No base map has this name; `suggestion` is the closest name, if one is close.
    case unknownName(String, suggestion: String?)
    /// The Protomaps builds list could not be had or read (`reason` says which).
    case buildsUnavailable(url: String, reason: String, isTransient: Bool)
    /// The provider answered 404 for the archive or style: a dated build that was removed, or
    /// a configured URL that is wrong.
    case notFound(name: String, url: String, variable: String)
    /// Any other failure to fetch or read the provider's files (the render's own message).
    case unavailable(name: String, reason: String, isTransient: Bool)

    /// True for failures that may pass (the network, an offline cache miss): exit 3, not 2.
    public var isTransient: Bool {
        switch self {
        case .unknownName, .notFound: return false
        case .buildsUnavailable(_, _, let t), .unavailable(_, _, let t): return t
        }
    }

    /// One line naming the base map, what failed and what to do: the message the CLI prints.
    public var description: String {
        switch self {
        case .unknownName(let name, let suggestion):
            let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
            return "--basemap \(name): no such base map\(hint); known: \(Basemap.names.joined(separator: ", "))"
        case .buildsUnavailable(let url, let reason, _):
            return "--basemap protomaps: the list of Protomaps builds (\(url)) \(reason); set "
                + "MAPSNAP_BASEMAP_PROTOMAPS_URL to a build's URL from https://maps.protomaps.com/builds/"
        case .notFound(let name, let url, let variable):
            let why = name == "protomaps"
                ? "Protomaps removes old planet builds; unset \(variable) to use the newest, or set it to a current one from https://maps.protomaps.com/builds/"
                : "check \(variable) (unset, the provider's public URL is used)"
            return "--basemap \(name): \(url): the server has no such file (HTTP 404): \(why)"
        case .unavailable(let name, let reason, _):
            return "--basemap \(name): \(reason)"
        }
    }
}
