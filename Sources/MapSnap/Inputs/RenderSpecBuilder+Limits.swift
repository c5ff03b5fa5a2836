/// The settings of a render that are not about the map itself — size and time limits, the
/// HTTP client, where data and the cache live — so that every front end (the `render` and
/// `batch` flags today) parses and checks them in one place, like the map's own settings.
extension RenderSpecBuilder {
    /// Longest `--render-timeout`, in seconds (a day).
    package static let maximumRenderTimeout = 86_400.0

    /// `--max-size PX`: the largest image side in pixels, 1…65536.
    package mutating func setMaximumPixelSize(_ text: String, origin: String) throws(RenderSpecError) {
        guard let n = Int(text), n >= 1, n <= 65_536 else {
            throw .badValue(origin: "\(origin) \(text)", reason: "expected a whole number of pixels 1-65536")
        }
        options.maximumPixelSize = n
    }

    /// `--max-pixels N`: the largest image area in pixels, 1…`hardMaximumPixelCount`.
    package mutating func setMaximumPixelCount(_ text: String, origin: String) throws(RenderSpecError) {
        let hard = MapSnapshotOptions.hardMaximumPixelCount
        guard let n = Int(text), n >= 1, n <= hard else {
            throw .badValue(origin: "\(origin) \(text)", reason: "expected a whole number of pixels 1-\(hard)")
        }
        options.maximumPixelCount = n
    }

    /// `--render-timeout SEC`: the time allowed for loading tiles; 0 is no limit.
    package mutating func setRenderTimeout(_ text: String, origin: String) throws(RenderSpecError) {
        options.renderTimeout = try Self.renderTimeout(text, origin: origin)
    }

    /// A render time-out as `--render-timeout` takes it: seconds from 0 to a day, nil for 0
    /// (no limit). For front ends that apply one value to many renders (`batch`).
    package static func renderTimeout(_ text: String, origin: String) throws(RenderSpecError) -> Double? {
        guard let t = Double(text), t.isFinite, t >= 0, t <= maximumRenderTimeout else {
            throw .badValue(origin: "\(origin) \(text)", reason: "expected seconds from 0 (no limit) to 86400")
        }
        return t == 0 ? nil : t
    }

    /// `--max-cost N`: the most drawing work (`DrawingCost`, pixel operations) a render may
    /// ask for; 0 is no limit.
    package mutating func setMaximumDrawingCost(_ text: String, origin: String) throws(RenderSpecError) {
        options.maximumDrawingCost = try Self.maximumDrawingCost(text, origin: origin)
    }

    /// A drawing-cost limit as `--max-cost` takes it: pixel operations from 0 to 1e12, nil for 0
    /// (no limit). For front ends that apply one value to many renders (`batch`).
    package static func maximumDrawingCost(_ text: String, origin: String) throws(RenderSpecError) -> Double? {
        guard let n = Double(text), n.isFinite, n >= 0, n <= 1e12 else {
            throw .badValue(origin: "\(origin) \(text)", reason: "expected pixel operations from 0 (no limit) to 1e12, e.g. 5e9")
        }
        return n == 0 ? nil : n
    }

    /// `--timeout SEC`: the per-request HTTP time-out, more than 0 and at most 600 seconds.
    package mutating func setHTTPTimeout(_ text: String, origin: String) throws(RenderSpecError) {
        guard let t = Double(text), t.isFinite, t > 0, t <= 600 else {
            throw .badValue(origin: "\(origin) \(text)", reason: "expected seconds, more than 0 and at most 600")
        }
        options.http.timeout = t
    }

    /// `--max-connections N`: HTTP connections per host at once, 1…64.
    package mutating func setMaximumConnections(_ text: String, origin: String) throws(RenderSpecError) {
        guard let n = Int(text), n >= 1, n <= 64 else {
            throw .badValue(origin: "\(origin) \(text)", reason: "expected a whole number 1-64")
        }
        options.http.maxConcurrentRequests = n
    }

    /// `--offline`: the HTTP cache only, never the network.
    package mutating func setOffline(_ offline: Bool) {
        options.http.offline = offline
    }

    /// `--allow-cross-origin-redirects`: follow HTTP redirects to other hosts.
    package mutating func setAllowsCrossOriginRedirects(_ allows: Bool) {
        options.http.allowsCrossOriginRedirects = allows
    }

    /// `--cache-dir DIR`: the on-disk cache of everything fetched over HTTP.
    package mutating func setCacheDirectory(_ path: String) {
        options.http.cacheDirectory = path
    }

    /// `--data-dir DIR`: the regions and address indexes to use.
    package mutating func setDataDirectory(_ path: String) {
        options.dataDirectory = path
    }

    /// `--steps`: numbered dots at each maneuver of the route.
    package mutating func setShowsSteps(_ shows: Bool) {
        directions.showsSteps = shows
    }
}
