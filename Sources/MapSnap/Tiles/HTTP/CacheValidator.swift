/// The version of a cached body as its server named it (`ETag`, `Last-Modified`): what a
/// conditional request sends so that the server can answer `304 Not Modified` instead of
/// sending the same bytes again.
struct CacheValidator: Sendable, Equatable {
    var entityTag: String?
    var lastModified: String?

    /// Nil when the server named no version (nothing to revalidate with).
    init?(entityTag: String?, lastModified: String?) {
        let tag = entityTag.flatMap { $0.isEmpty ? nil : $0 }
        let date = lastModified.flatMap { $0.isEmpty ? nil : $0 }
        guard tag != nil || date != nil else { return nil }
        self.entityTag = tag
        self.lastModified = date
    }

    /// `If-None-Match` (preferred, RFC 9110 §13.1.3) or `If-Modified-Since`.
    var requestHeaders: [String] {
        if let entityTag { return ["If-None-Match: " + entityTag] }
        if let lastModified { return ["If-Modified-Since: " + lastModified] }
        return []
    }
}
