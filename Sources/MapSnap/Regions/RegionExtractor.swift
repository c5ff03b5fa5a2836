import Foundation

/// `mapsnap data extract`: copies the tiles of an area from a PMTiles archive (a local file
/// or a URL read with range requests — a planet build) or a local MBTiles file into a new
/// PMTiles archive, byte for byte.
///
/// The cost grows with the area, never with the source: from a PMTiles archive only the root
/// directory, the leaf directories whose tile-id spans meet the area's ids and the area's
/// tiles are read, and those reads are coalesced (`RangeCoalescer`) into few large ranges
/// fetched a few at a time. Run-length entries are clipped to the area; tiles stored once for
/// many ids (the ocean) stay stored once. Tile bytes stream to a temporary file beside the
/// output (`PMTilesFileWriter`), which is renamed into place only when complete: a failure,
/// or cancellation, leaves nothing. A remote archive that changes meanwhile (another size or
/// `ETag`) fails the extract.
///
/// The output is deterministic: the same source, area, zooms and date give the same bytes.
package enum RegionExtractor {
    /// What to extract, from where, to where.
    package struct Request: Sendable {
        /// A PMTiles or MBTiles path, or an `http(s)://` URL of a PMTiles archive.
        package var source: String
        package var area: ExtractArea
        /// Zooms to copy; nil: the source's own lowest / deepest zoom. Zooms beyond the
        /// source's are dropped (the renderer over-zooms the deepest).
        package var minZoom: Int?
        package var maxZoom: Int?
        /// The PMTiles file to write.
        package var output: String
        /// How the user named the area, for `mapsnap:origin` (`Paris ±10 km`); nil: its box.
        package var areaLabel: String?
        /// The date recorded in `mapsnap:origin`.
        package var date: Date
        /// Plan only: read the directories, write nothing, report what the extract would copy.
        package var dryRun = false
        /// Transfer settings for a remote source (no cache: an extract is read once).
        package var httpOptions = RegionExtractor.defaultHTTPOptions
        /// Reads in flight at once.
        package var concurrentReads = 4
        /// Bytes read between wanted ranges to save requests, as a fraction of the wanted bytes.
        package var overfetch = 0.1
        /// Largest single read, in bytes.
        package var maxReadBytes: UInt64 = 4 << 20

        package init(source: String, area: ExtractArea, output: String, date: Date = Date()) {
            self.source = source
            self.area = area
            self.output = output
            self.date = date
        }
    }

    /// How far an extract has come; tiles and bytes count the area's tiles (a tile stored
    /// once for many ids counts for all of them, its bytes once).
    package struct Progress: Sendable, Equatable {
        package var tilesDone = 0, tilesTotal = 0
        package var bytesDone: UInt64 = 0, bytesTotal: UInt64 = 0
    }

    /// What an extract did.
    package struct Report: Sendable {
        /// The archive written (nil for a dry run).
        package var output: String?
        /// Tile ids addressed by the output, the directory entries they take, and the
        /// distinct tile contents stored.
        package var tiles = 0, entries = 0, contents = 0
        /// Bytes of those contents: the tiles themselves.
        package var tileBytes: UInt64 = 0
        package var minZoom = 0, maxZoom = 0
        package var bounds: TileSourceMetadata.Bounds
        /// What `mapsnap:origin` says.
        package var origin: String
        /// Reads of the source (range requests for a URL) and the bytes they moved, the
        /// directories and the header included; for a dry run, those made to plan.
        package var reads = 0
        package var bytesRead: UInt64 = 0
        /// Of those, the reads of tile data, and their bytes (for a dry run: planned).
        package var tileReads = 0
        package var tileReadBytes: UInt64 = 0
        /// Size of the archive written.
        package var archiveBytes: UInt64 = 0
    }

    /// Transfer settings for an extract: no cache (the bytes go into the output), long
    /// timeouts for multi-megabyte ranges, more retries, reads up to 64 MiB.
    package static var defaultHTTPOptions: HTTPTileSource.Options {
        var o = HTTPTileSource.Options()
        o.cacheEnabled = false
        o.timeout = 300
        o.connectTimeout = 15
        o.lowSpeedLimit = 1024
        o.lowSpeedTime = 30
        o.maxRetries = 4
        o.maxTileBytes = 64 << 20
        return o
    }

    /// `source` as messages show it: a URL's credentials and secret parameters masked.
    package static func shown(_ source: String) -> String { URLRedaction.redact(source) }

    /// Most tile entries an extract plans (a planet at z15 is hundreds of millions): beyond,
    /// it asks for a smaller area rather than exhausting memory.
    static let maxEntries = 50_000_000

    /// Runs `request`, calling `progress` as tiles arrive (from any thread) and stopping with
    /// `.cancelled` soon after `isCancelled` turns true.
    package static func run(_ request: Request, progress: @escaping @Sendable (Progress) -> Void = { _ in },
                            isCancelled: @escaping @Sendable () -> Bool = { false }) throws(RegionExtractError) -> Report {
        for (flag, zoom) in [("--minzoom", request.minZoom), ("--maxzoom", request.maxZoom)] {
            if let zoom, !(0...30).contains(zoom) { throw .invalidZooms(reason: "\(flag) \(zoom): expected a zoom from 0 to 30") }
        }
        if let lo = request.minZoom, let hi = request.maxZoom, lo > hi {
            throw .invalidZooms(reason: "--minzoom \(lo) is above --maxzoom \(hi)")
        }
        let context = Context(request: request, progress: progress, isCancelled: isCancelled)
        switch try openSource(request.source, options: request.httpOptions) {
        case .pmtiles(let source, let counter):
            return try extractPMTiles(source, counter: counter, context: context)
        case .mbtiles(let source):
            return try extractMBTiles(source, context: context)
        }
    }

    // MARK: - Sources

    enum OpenedSource {
        case pmtiles(PMTilesSource, ReadCounter)
        case mbtiles(MBTilesSource)
    }

    /// Counts a source's reads and bytes.
    final class ReadCounter: Sendable {
        private let counts = Locked((reads: 0, bytes: UInt64(0)))
        private let remote: PMTilesHTTPReader?

        init(remote: PMTilesHTTPReader?) { self.remote = remote }

        func add(bytes: Int) { counts.withLock { $0.reads += 1; $0.bytes += UInt64(bytes) } }

        var totals: (reads: Int, bytes: UInt64) {
            if let remote { let t = remote.transfers; return (t.reads, UInt64(t.bytes)) }
            return counts.withLock { $0 }
        }
    }

    /// A local archive's reads, counted.
    struct CountedFile: PMTilesByteSource {
        let file: PMTilesFile
        let counter: ReadCounter
        var size: Int { file.size }

        func read(offset: UInt64, length: UInt64, deadline: Deadline) throws(PMTilesError) -> [UInt8] {
            let bytes = try file.read(offset: offset, length: length, deadline: deadline)
            counter.add(bytes: bytes.count)
            return bytes
        }
    }

    static func openSource(_ source: String, options: HTTPTileSource.Options) throws(RegionExtractError) -> OpenedSource {
        let lower = source.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("pmtiles://") {
            let url = lower.hasPrefix("pmtiles://") ? String(source.dropFirst("pmtiles://".count)) : source
            guard url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://") else {
                throw .unsupportedSource(path: URLRedaction.redact(source), reason: "expected an http(s) URL of a PMTiles archive")
            }
            if url.contains("{z}") || url.contains("{quadkey}") {
                throw .unsupportedSource(path: URLRedaction.redact(url),
                                         reason: "a tile URL template cannot be extracted from; give the URL of a PMTiles archive")
            }
            let reader: PMTilesHTTPReader
            do {
                reader = try PMTilesHTTPReader(url: url, options: options, deadline: .none)
            } catch let error as ResourceError {
                throw .source(.resource(error))
            } catch let error as PMTilesError {
                throw .source(.pmtiles(error))
            } catch {
                throw .source(.unreadable(path: URLRedaction.redact(url), reason: "\(error)"))
            }
            do {
                let opened = try PMTilesSource(bytes: reader, name: URLRedaction.redact(url), deadline: .none)
                return .pmtiles(opened, ReadCounter(remote: reader))
            } catch {
                throw .source(.pmtiles(error))
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else { throw .source(.notFound(path: source)) }
        if isDirectory.boolValue {
            throw .unsupportedSource(path: source, reason: "a tile directory cannot be extracted from; give a PMTiles or MBTiles file")
        }
        let opened: any TileSource
        do { opened = try TileSources.open(source) } catch { throw .source(error) }
        if let mbtiles = opened as? MBTilesSource { return .mbtiles(mbtiles) }
        guard opened is PMTilesSource else {
            throw .unsupportedSource(path: source, reason: "not a PMTiles or MBTiles file")
        }
        // Reopened through a counter, so the report can say how much was read.
        let counter = ReadCounter(remote: nil)
        do {
            let file = PMTilesFile(file: try ReadOnlyFile(path: source), path: source)
            return .pmtiles(try PMTilesSource(bytes: CountedFile(file: file, counter: counter), name: source, deadline: .none), counter)
        } catch {
            throw .source(.pmtiles(error))
        }
    }

    // MARK: - Shared steps

    /// The request and the caller's hooks, with the progress so far.
    final class Context: Sendable {
        let request: Request
        private let report: @Sendable (Progress) -> Void
        let isCancelled: @Sendable () -> Bool
        private let state = Locked(Progress())

        init(request: Request, progress: @escaping @Sendable (Progress) -> Void, isCancelled: @escaping @Sendable () -> Bool) {
            self.request = request
            self.report = progress
            self.isCancelled = isCancelled
        }

        func start(tiles: Int, bytes: UInt64) {
            let now = state.withLock { p -> Progress in
                p = Progress(tilesDone: 0, tilesTotal: tiles, bytesDone: 0, bytesTotal: bytes)
                return p
            }
            report(now)
        }

        func advance(tiles: Int, bytes: UInt64) {
            let now = state.withLock { p -> Progress in
                p.tilesDone += tiles
                p.bytesDone += bytes
                return p
            }
            report(now)
        }

        func checkCancelled() throws(RegionExtractError) {
            if isCancelled() { throw .cancelled }
        }
    }

    /// The zooms to copy: those asked for, within the source's.
    static func zooms(_ request: Request, source metadata: TileSourceMetadata) throws(RegionExtractError) -> ClosedRange<Int> {
        let lo = max(request.minZoom ?? metadata.minZoom, 0)
        let hi = min(request.maxZoom ?? metadata.maxZoom, metadata.maxZoom, 30)
        guard lo <= hi else {
            if let asked = request.minZoom, asked > metadata.maxZoom {
                throw .invalidZooms(reason: "--minzoom \(asked) is above the source's deepest zoom \(metadata.maxZoom)")
            }
            throw .invalidZooms(reason: "no zoom between \(lo) and \(hi): the source has zooms \(metadata.minZoom)–\(metadata.maxZoom)")
        }
        return lo...hi
    }

    /// The area's box, within the source's bounds when the source declares them.
    static func outputBounds(_ area: ExtractArea, source: TileSourceMetadata.Bounds?) -> TileSourceMetadata.Bounds {
        let a = area.bounds
        guard let s = source else { return a }
        let south = max(a.southWest.latitude, s.southWest.latitude), north = min(a.northEast.latitude, s.northEast.latitude)
        guard south < north else { return a }
        var west = a.southWest.longitude, east = a.northEast.longitude
        let crosses = west > east || s.southWest.longitude > s.northEast.longitude
        if !crosses {
            west = max(west, s.southWest.longitude)
            east = min(east, s.northEast.longitude)
            if west >= east { west = a.southWest.longitude; east = a.northEast.longitude }
        }
        return TileSourceMetadata.Bounds(southWest: LatLng(latitude: south, longitude: west), northEast: LatLng(latitude: north, longitude: east))
    }

    /// `SOURCE (LABEL, bbox W,S,E,N, z0–15, 2026-12-03)`, the source's URL with secrets masked.
    static func origin(_ request: Request, zooms: ClosedRange<Int>) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        var parts: [String] = []
        if let label = request.areaLabel, !label.isEmpty { parts.append(label) }
        parts.append(request.area.description)
        parts.append("z\(zooms.lowerBound)–\(zooms.upperBound)")
        parts.append(formatter.string(from: request.date))
        return "\(URLRedaction.redact(request.source)) (\(parts.joined(separator: ", ")))"
    }

    /// The header of the output: what the source's says about its tiles, the bounds, zooms
    /// and centre of the extract.
    static func header(tileType: UInt8, tileCompression: UInt8, entries: [PMTilesEntry], contents: Int,
                       bounds: TileSourceMetadata.Bounds, sourceCenterZoom: Double?) -> PMTilesHeader {
        var h = PMTilesHeader()
        h.tileType = tileType
        h.tileCompression = tileCompression
        h.clustered = true
        h.tileContentsCount = UInt64(contents)
        let minZoom = entries.first.flatMap { PMTilesTileID.tile(for: $0.tileID) }?.z ?? 0
        let maxZoom = entries.last.flatMap { e in PMTilesTileID.tile(for: e.tileID + UInt64(max(e.runLength, 1)) - 1) }?.z ?? minZoom
        h.minZoom = UInt8(minZoom)
        h.maxZoom = UInt8(maxZoom)
        func e7(_ degrees: Double) -> Int32 { Int32(max(-2_000_000_000, min(2_000_000_000, (degrees * 1e7).rounded()))) }
        h.minLonE7 = e7(bounds.southWest.longitude)
        h.minLatE7 = e7(bounds.southWest.latitude)
        h.maxLonE7 = e7(bounds.northEast.longitude)
        h.maxLatE7 = e7(bounds.northEast.latitude)
        var centerLon = (bounds.southWest.longitude + bounds.northEast.longitude) / 2
        if bounds.southWest.longitude > bounds.northEast.longitude {
            centerLon = (bounds.southWest.longitude + bounds.northEast.longitude + 360) / 2
            if centerLon > 180 { centerLon -= 360 }
        }
        h.centerLonE7 = e7(centerLon)
        h.centerLatE7 = e7((bounds.southWest.latitude + bounds.northEast.latitude) / 2)
        let zoom = Int((sourceCenterZoom ?? Double(maxZoom)).rounded(.down))
        h.centerZoom = UInt8(max(minZoom, min(maxZoom, zoom)))
        return h
    }

    /// The source's JSON metadata with the extract's zooms and bounds where it states them,
    /// and `mapsnap:origin`; keys sorted so the bytes are deterministic.
    static func metadataJSON(sourceJSON: [UInt8], fallback: TileSourceMetadata, origin: String, bounds: TileSourceMetadata.Bounds,
                             zooms: ClosedRange<Int>) -> [UInt8] {
        var object = JSONObject()
        if !sourceJSON.isEmpty, case .object(let parsed)? = try? JSONValue.parse(sourceJSON, origin: "metadata") {
            object = parsed
        } else {
            let writer = PMTilesWriter(format: fallback.format, tileCompression: .none, metadata: fallback)
            if case .object(let built)? = try? JSONValue.parse(writer.metadataJSON(), origin: "metadata") { object = built }
        }
        if object["bounds"] != nil {
            object["bounds"] = .array([bounds.southWest.longitude, bounds.southWest.latitude, bounds.northEast.longitude,
                                       bounds.northEast.latitude].map { .number($0) })
        }
        object["center"] = nil
        if object["minzoom"] != nil { object["minzoom"] = .number(Double(zooms.lowerBound)) }
        if object["maxzoom"] != nil { object["maxzoom"] = .number(Double(zooms.upperBound)) }
        object["mapsnap:origin"] = .string(origin)
        return JSONWriter.bytes(.object(object), sortedKeys: true)
    }

    /// Appends `entry` to `entries`, joining it to the last one when it continues its run
    /// (same bytes, next id).
    static func append(_ entry: PMTilesEntry, to entries: inout [PMTilesEntry]) {
        if let last = entries.last, last.offset == entry.offset, last.length == entry.length,
           last.tileID + UInt64(last.runLength) == entry.tileID, UInt64(last.runLength) + UInt64(entry.runLength) <= UInt64(UInt32.max) {
            entries[entries.count - 1].runLength += entry.runLength
        } else {
            entries.append(entry)
        }
    }

    /// Runs `body(i)` for `i` in `0..<count` on up to `threads` threads of its own (reads
    /// block on the network, so the shared pool's one-per-core is too few). The first error
    /// stops the others from starting new work and is rethrown; so is cancellation.
    static func concurrently(_ count: Int, threads: Int, context: Context,
                             _ body: @escaping @Sendable (Int) throws(RegionExtractError) -> Void) throws(RegionExtractError) {
        guard count > 0 else { return }
        let next = Locked(0)
        let failure = Locked<RegionExtractError?>(nil)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(threads, count)) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                while true {
                    let index = next.withLock { n -> Int? in
                        guard n < count, failure.withLock({ $0 == nil }) else { return nil }
                        n += 1
                        return n - 1
                    }
                    guard let index else { return }
                    do throws(RegionExtractError) {
                        try context.checkCancelled()
                        try body(index)
                    } catch {
                        failure.withLock { if $0 == nil { $0 = error } }
                        return
                    }
                }
            }
            thread.start()
        }
        group.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
