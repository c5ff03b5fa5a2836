import Foundation

/// Scheme, host and port of an http(s) URL: what the redirect policy compares, and (as
/// `host:port`) the key of the per-host connection cap and circuit breaker.
struct HTTPOrigin: Sendable, Equatable {
    /// `http` or `https`, lowercased.
    var scheme: String
    /// Lowercased host name or address.
    var host: String
    /// The explicit port, else 80 or 443.
    var port: Int

    /// nil for anything but an absolute http(s) URL with a host.
    init?(_ url: String) {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = parsed.host?.lowercased(), !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host
        port = parsed.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `host:port`: connections and failures are counted per server, whatever the scheme.
    var hostKey: String { "\(host):\(port)" }

    /// Why a redirect from this origin to `target` is not followed, or nil when it may be.
    ///
    /// Never from https to http (the rest of the exchange would be readable and forgeable on
    /// the way); never to anything but http(s); to another origin only when
    /// `allowsCrossOrigin` — except the upgrade of the same host from http to https, which
    /// many tile servers do and which only gains security.
    func refusal(forRedirectTo target: String, allowsCrossOrigin: Bool) -> String? {
        guard let to = HTTPOrigin(target) else { return "the target is not an http(s) URL" }
        if scheme == "https" && to.scheme == "http" { return "it would downgrade https to http" }
        if to == self || allowsCrossOrigin { return nil }
        let upgrade = scheme == "http" && to.scheme == "https" && to.host == host && (to.port == port || (port == 80 && to.port == 443))
        if upgrade { return nil }
        return "it leads to another origin (\(to.scheme)://\(to.hostKey)); allow cross-origin redirects to follow it"
    }
}
