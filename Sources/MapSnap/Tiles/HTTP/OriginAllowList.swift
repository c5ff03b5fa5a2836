import Foundation

/// Where transfers for a client-chosen URL may go, checked on every redirect hop: only to the
/// origins listed (a server's `iconHosts`), and never to the server's own listen port on a
/// local address. The first URL is checked by whoever accepts it (`MapRequest`); the
/// transfer layer (`TileDownloader`) applies this to each `Location` before following it,
/// so an allowed host cannot bounce a fetch to another port or service of the machine.
///
/// A redirect to a listed origin is followed even across origins (the list is what the
/// operator trusts); https → http is still never followed.
struct OriginAllowList: Sendable, Hashable {
    /// `scheme://host:port`, lowercased, as `ServerConfiguration.iconHosts` holds them.
    var origins: Set<String>
    /// The host the server listens on and its port: no hop may reach it (nil: no server).
    var ownHost: String?
    var ownPort: Int?

    /// Why `origin` may not be fetched, or nil when it may.
    func refusal(_ origin: HTTPOrigin) -> String? {
        if let ownPort, let ownHost, origin.port == ownPort, Self.isLocal(origin.host, listeningOn: ownHost) {
            return "it leads to this server itself"
        }
        guard origins.contains("\(origin.scheme)://\(origin.hostKey)") else {
            return "it leads to an origin not listed in iconHosts"
        }
        return nil
    }

    /// Whether `host` (from a URL) names this machine as a server listening on `listenHost`
    /// reaches it: loopback names and addresses, the unspecified address, the listen address.
    /// (A host name that resolves to this machine is not recognised.)
    static func isLocal(_ host: String, listeningOn listenHost: String) -> Bool {
        let h = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        let l = listenHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if h == l || h == "localhost" || h.hasSuffix(".localhost") || h == "::1" || h == "0.0.0.0" || h == "::" { return true }
        return h.hasPrefix("127.") || h.hasPrefix("::ffff:127.")
    }
}
