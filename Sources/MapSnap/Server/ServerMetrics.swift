
/// The server's counters, written as Prometheus text (`GET /metrics`, exposition format
/// 0.0.4): requests by status, a latency histogram, renders in flight, the queue, the
/// renderer's cache counters, tile errors and renders lacking detail.
final class ServerMetrics: Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds.
    static let latencyBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    private struct Counters {
        var requestsByStatus: [Int: Int] = [:]
        var latencyBucketCounts = [Int](repeating: 0, count: ServerMetrics.latencyBuckets.count)
        var latencySum = 0.0
        var latencyCount = 0
        var renders = 0
        var renderFailures = 0
        var rendersWithoutDetail = 0
        var tileErrors = 0
        var notModified = 0
    }

    private let counters = Locked(Counters())

    /// Counts one finished exchange (status 0: the client left before an answer).
    func recordRequest(status: Int, seconds: Double) {
        counters.withLock { c in
            c.requestsByStatus[status, default: 0] += 1
            c.latencySum += seconds
            c.latencyCount += 1
            if let bucket = Self.latencyBuckets.firstIndex(where: { seconds <= $0 }) {
                c.latencyBucketCounts[bucket] += 1
            }
        }
    }

    /// Counts one render, the tiles it could not read, and whether it lacked detail
    /// (`MapCoverage.lacksDetail`).
    func recordRender(succeeded: Bool, tileErrors: Int, lacksDetail: Bool = false) {
        counters.withLock { c in
            c.renders += 1
            if !succeeded { c.renderFailures += 1 }
            if lacksDetail { c.rendersWithoutDetail += 1 }
            c.tileErrors += tileErrors
        }
    }

    /// Requests answered `304` from their `ETag` without rendering.
    func recordNotModified() {
        counters.withLock { $0.notModified += 1 }
    }

    /// Requests answered so far with `status`.
    func requests(withStatus status: Int) -> Int {
        counters.withLock { $0.requestsByStatus[status, default: 0] }
    }

    /// Gauges and renderer counters read when the metrics are scraped.
    struct Gauges {
        var rendersInFlight: Int
        var queueLength: Int
        var queueCapacity: Int
        var renderer: MapRenderer.Statistics
        var responses: (hits: Int, misses: Int, count: Int, bytes: Int)
        var ready: Bool
    }

    /// The metrics in Prometheus text format.
    func text(_ gauges: Gauges) -> String {
        let c = counters.withLock { $0 }
        var out = ""
        /// One metric family: its help and type lines, then its samples (`labels` may be "").
        func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for sample in samples { out += "\(name)\(sample.labels) \(sample.value)\n" }
        }
        family("mapsnap_http_requests_total", "counter", "HTTP requests answered, by status code (0: the client left first).",
               c.requestsByStatus.keys.sorted().map { ("{code=\"\($0)\"}", "\(c.requestsByStatus[$0] ?? 0)") })
        var cumulative = 0
        var buckets: [(labels: String, value: String)] = []
        for (i, bound) in Self.latencyBuckets.enumerated() {
            cumulative += c.latencyBucketCounts[i]
            buckets.append(("_bucket{le=\"\(Self.format(bound))\"}", "\(cumulative)"))
        }
        buckets += [("_bucket{le=\"+Inf\"}", "\(c.latencyCount)"), ("_sum", Self.format(c.latencySum)), ("_count", "\(c.latencyCount)")]
        family("mapsnap_http_request_duration_seconds", "histogram", "Time from a request's headers to the end of its response.", buckets)
        family("mapsnap_renders_total", "counter", "Renders finished, by result.",
               [("{result=\"ok\"}", "\(c.renders - c.renderFailures)"), ("{result=\"error\"}", "\(c.renderFailures)")])
        let single: [(name: String, type: String, help: String, value: Int)] = [
            ("mapsnap_http_not_modified_total", "counter", "Requests answered 304 from their ETag without rendering.", c.notModified),
            ("mapsnap_renders_in_flight", "gauge", "Renders running now.", gauges.rendersInFlight),
            ("mapsnap_render_queue_length", "gauge", "Requests waiting for a render thread.", gauges.queueLength),
            ("mapsnap_render_queue_capacity", "gauge", "Most requests admitted at once (rendering or waiting).", gauges.queueCapacity),
            ("mapsnap_response_cache_hits_total", "counter", "Images answered from the response cache without a render.", gauges.responses.hits),
            ("mapsnap_response_cache_misses_total", "counter", "Image requests not in the response cache.", gauges.responses.misses),
            ("mapsnap_response_cache_bytes", "gauge", "Bytes of images held by the response cache.", gauges.responses.bytes),
            ("mapsnap_tile_cache_hits_total", "counter", "Tiles found decoded in the renderer's cache.", gauges.renderer.tileCacheHits),
            ("mapsnap_tile_cache_misses_total", "counter", "Tiles read and decoded.", gauges.renderer.tileCacheMisses),
            ("mapsnap_tile_cache_bytes", "gauge", "Memory held by decoded tiles (estimated).", gauges.renderer.tileCacheBytes),
            ("mapsnap_prepared_style_hits_total", "counter", "Renders that found their style prepared.", gauges.renderer.preparedStyleHits),
            ("mapsnap_prepared_style_misses_total", "counter", "Renders that prepared their style.", gauges.renderer.preparedStyleMisses),
            ("mapsnap_tile_errors_total", "counter", "Base-map tiles that could not be read or decoded.", c.tileErrors),
            ("mapsnap_renders_without_detail_total", "counter",
             "Renders where a quarter or more of the image had no detailed map data (only over-zoomed or no tiles).",
             c.rendersWithoutDetail),
            ("mapsnap_ready", "gauge", "1 while the server accepts work, 0 while it drains.", gauges.ready ? 1 : 0),
        ]
        for metric in single { family(metric.name, metric.type, metric.help, [("", "\(metric.value)")]) }
        return out
    }

    /// Prometheus numbers: integers without a fraction, others as Swift prints them.
    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
