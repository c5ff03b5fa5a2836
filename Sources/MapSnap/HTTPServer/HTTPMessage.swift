/// One HTTP request, read completely (headers and body) before a handler sees it.
struct HTTPRequest: Sendable {
    /// One query argument exactly as the client sent it: percent-escapes and `+` intact.
    struct QueryItem: Sendable, Equatable {
        var name: String
        /// nil for an argument without `=` (`?flag`), "" for `?flag=`.
        var value: String?

        init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// `GET`, `HEAD`, `POST`, … as sent.
    var method: String
    /// The path part of the target, without the query, as sent (`/maps/api/staticmap`).
    var path: String
    /// Query arguments in the order sent.
    var query: [QueryItem]
    /// Header values by lowercased name; a repeated header's values are joined with ", ".
    var headers: [String: String]
    /// The body (empty for requests without one).
    var body: [UInt8]
    /// The client's IP address as text, "" when unknown.
    var clientAddress: String

    init(method: String, path: String, query: [QueryItem] = [], headers: [String: String] = [:],
                body: [UInt8] = [], clientAddress: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    /// The header's value; `name` is matched case-insensitively.
    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The query re-joined as it was sent (`a=1&b`), without the leading `?`.
    var rawQuery: String {
        query.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }.joined(separator: "&")
    }

    /// Bytes of the request target (path, `?`, query) as sent, for the URL length limit.
    var targetLength: Int {
        let q = rawQuery.utf8.count
        return path.utf8.count + (q > 0 ? q + 1 : 0)
    }
}

/// One HTTP response: status, headers in order, body. `Content-Length` is added by the
/// adapter; a `HEAD` request gets the headers of the `GET` response without its body.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    /// Shared, not copied, by the responses that send it (see `HTTPBody`).
    var body: HTTPBody

    init(status: Int, headers: [(name: String, value: String)] = [], body: HTTPBody = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8]) {
        self.init(status: status, headers: headers, body: HTTPBody(body))
    }

    /// The first value of header `name` (case-insensitive).
    func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    /// A plain-text response: `text` and a newline.
    static func text(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array((text + "\n").utf8))
    }
}
