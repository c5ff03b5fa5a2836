import Foundation

/// How long a response may be used from the cache without asking the server again, from its
/// caching headers (RFC 9111 §4.2.1, as a private cache reads them):
///
/// - `Cache-Control: no-store` or `no-cache` → 0: the copy is kept (offline renders can use
///   it) but revalidated before every other use;
/// - `Cache-Control: max-age=N` → N seconds, less the response's `Age`;
/// - else `Expires` − `Date` (the server's clock, so a wrong local clock does not matter; the
///   local time when there is no `Date`); an `Expires` that is not a date means "already
///   expired";
/// - else nil: the server said nothing, and the cache's default lifetime applies.
///
/// `s-maxage` is for shared caches and is ignored.
struct HTTPFreshness: Sendable, Equatable {
    /// Seconds from the response on, or nil when the headers say nothing.
    var lifetime: TimeInterval?

    init(cacheControl: String?, expires: String?, date: String?, age: String?, now: Date = Date()) {
        lifetime = Self.lifetime(cacheControl: cacheControl, expires: expires, date: date, age: age, now: now)
    }

    private static func lifetime(cacheControl: String?, expires: String?, date: String?, age: String?,
                                 now: Date) -> TimeInterval? {
        let ageSeconds = age.flatMap { Double($0.trimmingSpaces()) }.map { max(0, $0) } ?? 0
        if let cacheControl {
            var maxAge: Double?
            for directive in cacheControl.lowercased().split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
                switch parts.first {
                case "no-store", "no-cache": return 0
                case "max-age":
                    let value = parts.count == 2 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
                    // An unreadable max-age means "stale" (RFC 9111 §4.2.1).
                    maxAge = Double(value).map { $0.isFinite ? max(0, $0) : 0 } ?? 0
                default: continue
                }
            }
            if let maxAge { return max(0, maxAge - ageSeconds) }
        }
        guard let expires else { return nil }
        guard let expiry = parseDate(expires) else { return 0 }
        let reference = date.flatMap(parseDate) ?? now
        return max(0, expiry.timeIntervalSince(reference) - ageSeconds)
    }

    /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`; the obsolete RFC 850 and asctime forms
    /// too), or nil.
    static func parseDate(_ text: String) -> Date? {
        let trimmed = text.trimmingSpaces()
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }
}
