import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How one HTTP attempt ended.
enum TileTransferOutcome: Sendable, Equatable {
    /// `expectedLength` is the `Content-Length` when it describes the body as received (no
    /// `Content-Encoding`: a body the client decoded legitimately differs from it).
    case response(status: Int, body: [UInt8], expectedLength: Int?)
    /// The body (declared or received so far) passed the size limit; the transfer was cancelled.
    case tooLarge(size: Int)
    case timedOut
    case failed(String)
}

/// URLSession delegate that collects each data task's body itself, so a body larger than the
/// limit is cancelled as soon as its `Content-Length` or its running size shows it, instead of
/// being buffered whole first.
///
/// Transfers are keyed by task identifier; `register` must precede `resume()`.
final class TileTransfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private final class Transfer {
        let limit: Int
        let finish: @Sendable (TileTransferOutcome) -> Void
        var body: [UInt8] = []
        var response: HTTPURLResponse?
        var oversize: Int?

        init(limit: Int, finish: @escaping @Sendable (TileTransferOutcome) -> Void) {
            self.limit = limit
            self.finish = finish
        }
    }

    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    /// Tracks `task`; `finish` is called once, on the session's delegate queue.
    func register(_ task: URLSessionTask, limit: Int, finish: @escaping @Sendable (TileTransferOutcome) -> Void) {
        lock.lock()
        transfers[task.taskIdentifier] = Transfer(limit: limit, finish: finish)
        lock.unlock()
    }

    /// Stops tracking `task` (after the caller gave up waiting); `finish` will not be called.
    func forget(_ task: URLSessionTask) {
        lock.lock()
        transfers[task.taskIdentifier] = nil
        lock.unlock()
    }

    private func transfer(_ task: URLSessionTask) -> Transfer? {
        lock.lock()
        defer { lock.unlock() }
        return transfers[task.taskIdentifier]
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let transfer = transfer(dataTask) else { return completionHandler(.cancel) }
        let http = response as? HTTPURLResponse
        var disposition = URLSession.ResponseDisposition.allow
        lock.lock()
        transfer.response = http
        if let length = http.flatMap(Self.contentLength), length > transfer.limit {
            transfer.oversize = length
            disposition = .cancel
        }
        lock.unlock()
        completionHandler(disposition)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(dataTask) else { return }
        lock.lock()
        let size = transfer.body.count + data.count
        let over = size > transfer.limit
        if over {
            transfer.oversize = size
            transfer.body = []
        } else if transfer.oversize == nil {
            transfer.body.append(contentsOf: data)
        }
        lock.unlock()
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let transfer = transfers.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let transfer else { return }
        transfer.finish(Self.outcome(transfer, error: error))
    }

    private static func outcome(_ transfer: Transfer, error: (any Error)?) -> TileTransferOutcome {
        if let oversize = transfer.oversize { return .tooLarge(size: oversize) }
        if let error {
            let ns = error as NSError
            if ns.domain == NSURLErrorDomain && ns.code == NSURLErrorTimedOut { return .timedOut }
            let text = ns.localizedDescription
            return .failed(text.isEmpty ? "\(ns.domain) \(ns.code)" : "\(text) (\(ns.domain) \(ns.code))")
        }
        guard let http = transfer.response else { return .failed("not an HTTP response") }
        let encoding = (http.value(forHTTPHeaderField: "Content-Encoding") ?? "identity").lowercased()
        let expected = encoding == "identity" ? contentLength(http) : nil
        return .response(status: http.statusCode, body: transfer.body, expectedLength: expected)
    }

    private static func contentLength(_ http: HTTPURLResponse) -> Int? {
        http.value(forHTTPHeaderField: "Content-Length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}
