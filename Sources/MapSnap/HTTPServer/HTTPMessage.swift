/// One HTTP request, read completely (headers and body) before a handler sees it.
public struct HTTPRequest: Sendable {
    /// One query argument exactly as the client sent it: percent-escapes and `+` intact.
    public struct QueryItem: Sendable, Equatable {
        public var name: String
        /// nil for an argument without `=` (`?flag`), "" for `?flag=`.
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// `GET`, `HEAD`, `POST`, … as sent.
    public var method: String
    /// The path part of the target, without the query, as sent (`/maps/api/staticmap`).
    public var path: String
    /// Query arguments in the order sent.
    public var query: [QueryItem]
    /// Header values by lowercased name; a repeated header's values are joined with ", ".
    public var headers: [String: String]
    /// The body (empty for requests without one).
    public var body: [UInt8]
    /// The client's IP address as text, "" when unknown.
    public var clientAddress: String

    public init(method: String, path: String, query: [QueryItem] = [], headers: [String: String] = [:],
                body: [UInt8] = [], clientAddress: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    /// The header's value; `name` is matched case-insensitively.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The query re-joined as it was sent (`a=1&b`), without the leading `?`.
    public var rawQuery: String {
        query.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }.joined(separator: "&")
    }

    /// Bytes of the request target (path, `?`, query) as sent, for the URL length limit.
    public var targetLength: Int {
        let q = rawQuery.utf8.count
        return path.utf8.count + (q > 0 ? q + 1 : 0)
    }
}

/// One HTTP response: status, headers in order, body. `Content-Length` is added by the
/// adapter; a `HEAD` request gets the headers of the `GET` response without its body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    /// A plain-text response: `text` and a newline.
    public static func text(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array((text + "\n").utf8))
    }
}
