import Foundation

/// An IP address and port to listen on: `127.0.0.1:8080`, `0.0.0.0:80`, `[::1]:8080`,
/// `localhost:8080` (127.0.0.1), or `:8080` (127.0.0.1). Port 0 asks the kernel for a free
/// port. Host names other than `localhost` are refused: a server binds an address.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address as text (`127.0.0.1`, `::1`).
    public let host: String
    public let port: Int
    /// True for an IPv6 address.
    public let isIPv6: Bool

    /// Parses `HOST:PORT`; `origin` names the setting in errors (`--listen`).
    public init(parsing text: String, origin: String = "--listen") throws(HTTPServerError) {
        var host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw .badAddress(origin: origin, text: text, reason: "expected [IPv6]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw .badAddress(origin: origin, text: text, reason: "expected HOST:PORT")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), (0...65_535).contains(port) else {
            throw .badAddress(origin: origin, text: text, reason: "port must be 0-65535")
        }
        if host.isEmpty || host.lowercased() == "localhost" { host = "127.0.0.1" }
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, String(host), &v4) == 1 {
            isIPv6 = false
        } else if inet_pton(AF_INET6, String(host), &v6) == 1 {
            isIPv6 = true
        } else {
            throw .badAddress(origin: origin, text: text, reason: "\"\(host)\" is not an IP address (use 127.0.0.1, 0.0.0.0 or [::])")
        }
        self.host = String(host)
        self.port = port
    }

    /// An address known to be valid (`host` is an IP literal of the family `isIPv6` says).
    init(host: String, port: Int, isIPv6: Bool) {
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
    }

    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Calls `body` with a `sockaddr_in`/`sockaddr_in6` for this address.
    func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        let port = UInt16(self.port).bigEndian
        if isIPv6 {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = port
            _ = inet_pton(AF_INET6, host, &a.sin6_addr)
            return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port
        _ = inet_pton(AF_INET, host, &a.sin_addr)
        return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
