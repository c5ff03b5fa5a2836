/// Removes secrets from URLs before they appear in an error, a warning or a log line.
///
/// Tile URL templates often carry credentials: `?access_token=…` (Mapbox), `?key=…`
/// (MapTiler, Thunderforest), `?apikey=…`, signed URLs (`signature=`, `X-Amz-Signature=`), or
/// `user:password@` before the host. Every message of the HTTP source passes its URLs through
/// `redact(_:)`, which keeps the rest of the URL (host, path, harmless parameters) so the
/// message still says which tile and server failed.
enum URLRedaction {
    /// What replaces a secret.
    static let mask = "REDACTED"

    /// Query parameter names are secret when, lowercased, they contain one of these.
    /// Generous on purpose: redacting a harmless parameter costs nothing.
    static let secretNameParts = ["key", "token", "secret", "signature", "sig", "password", "passwd", "auth", "credential",
                                  "session"]

    /// `text` with userinfo and secret query values masked; text that is not an http(s) URL
    /// (a file path, a bundled source name) comes back unchanged.
    static func redact(_ text: String) -> String {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return text }
        guard let schemeEnd = text.range(of: "://") else { return text }
        var result = String(text[..<schemeEnd.upperBound])
        var rest = Substring(text[schemeEnd.upperBound...])
        // Userinfo is whatever precedes an "@" within the authority (up to the first / ? #).
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") {
            result += mask + "@"
            rest = rest[rest.index(after: at)...]
        }
        guard let question = rest.firstIndex(of: "?") else { return result + rest }
        result += rest[...question]
        var query = rest[rest.index(after: question)...]
        var fragment: Substring = ""
        if let hash = query.firstIndex(of: "#") {
            fragment = query[hash...]
            query = query[..<hash]
        }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            return isSecret(name) ? name + "=" + mask : String(pair)
        }
        return result + pairs.joined(separator: "&") + fragment
    }

    /// True when a query parameter of this name holds a credential.
    static func isSecret(_ name: Substring) -> Bool {
        let lower = name.lowercased()
        return secretNameParts.contains { lower.contains($0) }
    }
}
