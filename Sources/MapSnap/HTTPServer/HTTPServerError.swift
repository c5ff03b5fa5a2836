/// Why the HTTP server could not start.
package enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--listen` text that is not `HOST:PORT` with an IP address.
    case badAddress(origin: String, text: String, reason: String)
    /// libmicrohttpd could not bind or start (address in use, no permission for the port).
    case cannotListen(address: String)
    /// libmicrohttpd (loaded when the server starts) is not installed.
    case libraryMissing

    package var description: String {
        switch self {
        case let .badAddress(origin, text, reason):
            return "\(origin) \(text): \(reason)"
        case let .cannotListen(address):
            return "cannot listen on \(address) (address in use, or no permission for the port)"
        case .libraryMissing:
            return "libmicrohttpd (libmicrohttpd.so.12) could not be loaded; install libmicrohttpd12"
        }
    }
}
