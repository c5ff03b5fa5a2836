/// Why no route could be had. `origin` names where the answer came from: the router
/// (`Valhalla at http://127.0.0.1:8002`) or the file (`walk.json`). Each prints as one line.
public enum DirectionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The router could not be reached, did not answer in time or failed (5xx): a runtime fault.
    case routerUnavailable(router: String, reason: String)
    /// The router did not answer within the time allowed: a runtime fault, told apart from
    /// the others so that a server can answer `504` (a gateway time-out) instead of `502`.
    case routerTimedOut(router: String, reason: String)
    /// The engine answered that it has no route between the places, with its own reason.
    case noRoute(origin: String, reason: String)
    /// The answer is bigger than allowed (bytes), or its routes have more points than allowed.
    case tooLarge(origin: String, what: String, count: Int, limit: Int, fromRouter: Bool)
    /// The answer is not a directions response mapsnap reads, or is broken; `keyPath` says where.
    case invalidResponse(origin: String, keyPath: String, reason: String, fromRouter: Bool)
    /// The router cannot do what was asked (transit on OSRM, a router URL it cannot use).
    case unsupported(origin: String, reason: String)

    /// True when the user's input is at fault (exit code 2): no route between the places,
    /// a broken saved response, an unusable request. Router faults are runtime failures (3).
    public var isInputError: Bool {
        switch self {
        case .routerUnavailable, .routerTimedOut: false
        case .noRoute, .unsupported: true
        case .tooLarge(_, _, _, _, let fromRouter), .invalidResponse(_, _, _, let fromRouter): !fromRouter
        }
    }

/// One line for the user: what failed, naming the router or file.
    public var description: String {
        switch self {
        case let .routerUnavailable(router, reason), let .routerTimedOut(router, reason):
            return "router \(router): \(reason)"
        case let .noRoute(origin, reason):
            return "\(origin): no route: \(reason)"
        case let .tooLarge(origin, what, count, limit, _):
            return "\(origin): the answer has \(count) \(what), more than the limit of \(limit)"
        case let .invalidResponse(origin, keyPath, reason, _):
            return "\(origin): not a usable directions response\(keyPath.isEmpty ? "" : " at \(keyPath)"): \(reason)"
        case let .unsupported(origin, reason):
            return "\(origin): \(reason)"
        }
    }
}
