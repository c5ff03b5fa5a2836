import Synchronization

/// The server's counters, written as Prometheus text (`GET /metrics`, exposition format
/// 0.0.4): requests by status, a latency histogram, renders in flight, the queue, the
/// renderer's cache counters and tile errors.
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
        var tileErrors = 0
        var notModified = 0
    }

    private let counters = Mutex(Counters())

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

    /// Counts one render and the tiles it could not read.
    func recordRender(succeeded: Bool, tileErrors: Int) {
        counters.withLock { c in
            c.renders += 1
            if !succeeded { c.renderFailures += 1 }
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
        var ready: Bool
    }

    /// The metrics in Prometheus text format.
    func text(_ gauges: Gauges) -> String {
        let c = counters.withLock { $0 }
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family("mapsnap_http_requests_total", "counter", "HTTP requests answered, by status code (0: the client left first).")
        for status in c.requestsByStatus.keys.sorted() {
            out += "mapsnap_http_requests_total{code=\"\(status)\"} \(c.requestsByStatus[status] ?? 0)\n"
        }
        family("mapsnap_http_request_duration_seconds", "histogram", "Time from a request's headers to the end of its response.")
        var cumulative = 0
        for (i, bound) in Self.latencyBuckets.enumerated() {
            cumulative += c.latencyBucketCounts[i]
            out += "mapsnap_http_request_duration_seconds_bucket{le=\"\(Self.format(bound))\"} \(cumulative)\n"
        }
        out += "mapsnap_http_request_duration_seconds_bucket{le=\"+Inf\"} \(c.latencyCount)\n"
        out += "mapsnap_http_request_duration_seconds_sum \(Self.format(c.latencySum))\n"
        out += "mapsnap_http_request_duration_seconds_count \(c.latencyCount)\n"
        family("mapsnap_http_not_modified_total", "counter", "Requests answered 304 from their ETag without rendering.")
        out += "mapsnap_http_not_modified_total \(c.notModified)\n"
        family("mapsnap_renders_total", "counter", "Renders finished, by result.")
        out += "mapsnap_renders_total{result=\"ok\"} \(c.renders - c.renderFailures)\n"
        out += "mapsnap_renders_total{result=\"error\"} \(c.renderFailures)\n"
        family("mapsnap_renders_in_flight", "gauge", "Renders running now.")
        out += "mapsnap_renders_in_flight \(gauges.rendersInFlight)\n"
        family("mapsnap_render_queue_length", "gauge", "Requests waiting for a render thread.")
        out += "mapsnap_render_queue_length \(gauges.queueLength)\n"
        family("mapsnap_render_queue_capacity", "gauge", "Most requests admitted at once (rendering or waiting).")
        out += "mapsnap_render_queue_capacity \(gauges.queueCapacity)\n"
        family("mapsnap_tile_cache_hits_total", "counter", "Tiles found decoded in the renderer's cache.")
        out += "mapsnap_tile_cache_hits_total \(gauges.renderer.tileCacheHits)\n"
        family("mapsnap_tile_cache_misses_total", "counter", "Tiles read and decoded.")
        out += "mapsnap_tile_cache_misses_total \(gauges.renderer.tileCacheMisses)\n"
        family("mapsnap_tile_cache_bytes", "gauge", "Memory held by decoded tiles (estimated).")
        out += "mapsnap_tile_cache_bytes \(gauges.renderer.tileCacheBytes)\n"
        family("mapsnap_prepared_style_hits_total", "counter", "Renders that found their style prepared.")
        out += "mapsnap_prepared_style_hits_total \(gauges.renderer.preparedStyleHits)\n"
        family("mapsnap_prepared_style_misses_total", "counter", "Renders that prepared their style.")
        out += "mapsnap_prepared_style_misses_total \(gauges.renderer.preparedStyleMisses)\n"
        family("mapsnap_tile_errors_total", "counter", "Tiles skipped because they could not be fetched or decoded.")
        out += "mapsnap_tile_errors_total \(c.tileErrors)\n"
        family("mapsnap_ready", "gauge", "1 while the server accepts work, 0 while it drains.")
        out += "mapsnap_ready \(gauges.ready ? 1 : 0)\n"
        return out
    }

    /// Prometheus numbers: integers without a fraction, others as Swift prints them.
    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
