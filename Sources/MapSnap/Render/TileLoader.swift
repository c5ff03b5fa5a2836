import Dispatch
import Foundation

/// One covering tile of the image and the source tile that supplies its data (itself, or an
/// ancestor when the camera is past the source's max zoom: over-zooming).
struct DrawTile {
    /// The tile at the render's data zoom; its square is the clip rectangle.
    let covering: CoveringTile
    /// Index of `covering` in the camera's tile cover (draw tiles are in cover order).
    let coveringIndex: Int
    /// Index into the source's `candidates` of the tile source supplying it.
    let candidate: Int
    /// The tile whose data is drawn.
    let sourceTile: TileID
    /// `sourceTile`'s square in image pixels (larger than `covering.rect` when over-zooming).
    let sourceRect: PixelRect
    /// Index into `LoadedSource.payloads`.
    let payload: Int
    /// The parts of `covering.rect` this source tile draws (disjoint): the whole square,
    /// or — where a city's street tiles take over inside their bounds — the square minus
    /// those bounds, or the square within them.
    fileprivate(set) var clips: [PixelRect]
}

/// Fetched and decoded tiles of one style source for one camera.
///
/// Each covering tile is claimed by the source's candidates in priority order, each taking
/// what is left of the square within its bounds and zoom window. Where a candidate has no
/// tile (absent from an archive, a 404), the next candidates claim that part in its place,
/// so a city extract's gaps or a `--source` outside its area show the data beneath — one
/// more round of fetches, made only when something was absent. A tile that failed (an
/// error, the time limit) is not replaced: it is reported.
final class LoadedSource {
    enum Payload: Sendable {
        case vector(VectorTile)
        case raster(Canvas)
        /// Elevations of a `raster-dem` source's tile.
        case dem(DEMTile)
        case missing
    }

    let source: ResolvedSource
    /// The data zoom of the covering tiles.
    let dataZoom: Int
    private(set) var drawTiles: [DrawTile] = []
    /// Draw tiles that show the same source tile in the same world copy form a group,
    /// whose data painters read once: `sourceTileGroupIndex[i]` is the group of
    /// `drawTiles[i]`; groups are numbered in order of first appearance.
    private(set) var sourceTileGroupIndex: [Int] = []
    private(set) var sourceTileGroupCount = 0
    /// Per group, the bounding box of every clip of its draw tiles: features outside it
    /// are never drawn, so painters need not even evaluate them.
    private(set) var sourceTileGroupBounds: [PixelRect] = []
    private(set) var payloads: [Payload] = []
    private(set) var warnings: [String] = []
    /// Candidates that supplied at least one tile, ascending: only they are credited.
    private(set) var usedCandidates: [Int] = []
    /// How the fetches went (requested, loaded, absent, failed).
    private(set) var statistics = TileLoadStatistics()
    /// The same counts per candidate (indexed like `source.candidates`).
    private(set) var candidateStatistics: [TileLoadStatistics]

    /// Loads every tile the camera needs at `dataZoom`, in parallel; results are stored by
    /// index so the outcome never depends on which fetch finished first. Tiles not fetched
    /// by `deadline` fail (decoded tiles already cached are still used).
    ///
    /// In three steps: claim and fetch (`TileClaims`, round after round while absent tiles
    /// pass their parts on), group the draw tiles painters read together, and tally what the
    /// fetches gave (payloads, warnings, statistics, credited candidates).
    init(source: ResolvedSource, camera: Camera, dataZoom: Int, maxThreads: Int? = nil, loadOrder: ((Int) -> [Int])? = nil,
         cache: DecodedTileCache? = nil, deadline: Deadline = .none) {
        self.source = source
        self.dataZoom = dataZoom
        candidateStatistics = Array(repeating: TileLoadStatistics(), count: source.candidates.count)
        var claims = TileClaims(source: source, camera: camera, covering: TileCover.tiles(for: camera, dataZoom: dataZoom))
        let fetchWarnings = claims.claimAndFetch { jobs in
            Self.fetch(jobs, source: source, maxThreads: maxThreads, loadOrder: loadOrder, cache: cache, deadline: deadline)
        }
        drawTiles = claims.tiles
        groupSourceTiles()
        record(claims.results, of: claims.keys, fetchWarnings: fetchWarnings, camera: camera)
    }

    /// Which source tile supplies each part of each covering tile, and the fetches that
    /// needs: one slot per distinct (candidate, stored tile), in order of first claim, so
    /// results are stored by slot and never depend on fetch order.
    private struct TileClaims {
        struct Key: Hashable { let candidate: Int; let tile: TileID }

        let source: ResolvedSource
        let camera: Camera
        let covering: [CoveringTile]
        /// The draw tiles, in cover order, then candidate order.
        private(set) var tiles: [DrawTile] = []
        /// The fetch slots claimed so far; `results` holds those fetched (a prefix).
        private(set) var keys: [Key] = []
        private(set) var results: [Result<Payload, TileLoadFailure>] = []
        private var slots: [Key: Int] = [:]
        /// Sparse sources: the stored tile drawn for each wanted one, asked once per render.
        private var storedTiles: [Key: TileID] = [:]

        init(source: ResolvedSource, camera: Camera, covering: [CoveringTile]) {
            self.source = source
            self.camera = camera
            self.covering = covering
        }

        /// Claims every covering tile, then fetches round after round: the draw tiles whose
        /// payload arrived in the last round and was absent pass their parts to the
        /// candidates after theirs, whose tiles the next round fetches. Ends when a round
        /// leaves nothing to pass on; returns each slot's fetch warnings, in slot order.
        mutating func claimAndFetch(
            _ fetch: ([(candidate: Int, tile: TileID)]) -> ([Result<Payload, TileLoadFailure>], [[HTTPTileSourceWarning]])
        ) -> [[HTTPTileSourceWarning]] {
            tiles = covering.indices.flatMap { claims($0, [covering[$0].rect], from: 0) }
            var fresh = Array(tiles.indices)
            var fetchWarnings: [[HTTPTileSourceWarning]] = []
            while true {
                let (loaded, notes) = fetch(Array(keys[results.count...]).map { ($0.candidate, $0.tile) })
                results += loaded
                fetchWarnings += notes
                var replacements: [DrawTile] = []
                for i in fresh where isAbsent(tiles[i].payload) && tiles[i].candidate + 1 < source.candidates.count {
                    replacements += claims(tiles[i].coveringIndex, tiles[i].clips, from: tiles[i].candidate + 1)
                }
                guard !replacements.isEmpty else { break }
                fresh = merge(replacements)
            }
            return fetchWarnings
        }

        /// Whether the tile in `slot` was loaded and found absent.
        private func isAbsent(_ slot: Int) -> Bool {
            guard slot < results.count, case .success(.missing) = results[slot] else { return false }
            return true
        }

        /// The draw tiles that supply `rects` (parts of covering tile `ci`'s square) from
        /// candidates `first…` on: each takes what is left within its bounds and zooms. A
        /// candidate whose tile is already known to be absent passes its part on.
        private mutating func claims(_ ci: Int, _ rects: [PixelRect], from first: Int) -> [DrawTile] {
            let c = covering[ci]
            var remaining = rects
            var out: [DrawTile] = []
            for (k, cand) in source.candidates.enumerated().dropFirst(first) where !remaining.isEmpty {
                guard cand.isUsed(atZoom: c.id.z) else { continue }
                var claim = remaining
                if let b = cand.bounds {
                    let area = LoadedSource.pixelRects(of: b, camera: camera, worldCopy: c.worldCopy)
                    claim = remaining.flatMap { r in area.compactMap { r.intersection($0) } }
                    guard !claim.isEmpty else { continue }
                    remaining = remaining.flatMap { r in area.reduce([r]) { left, a in left.flatMap { $0.subtracting(a) } } }
                } else {
                    remaining = []
                }
                if cand.isHole { continue }
                let wanted = c.id.ancestor(atZoom: min(c.id.z, cand.source.metadata.maxZoom))
                let stored = Key(candidate: k, tile: wanted)
                let ancestor = storedTiles[stored] ?? cand.source.storedTile(for: wanted)
                storedTiles[stored] = ancestor
                let slot = self.slot(for: Key(candidate: k, tile: ancestor))
                if isAbsent(slot) {
                    out += claims(ci, claim, from: k + 1)
                    continue
                }
                let n = Double(1 << ancestor.z)
                let origin = camera.pixel(forWorld: WorldPoint(x: Double(ancestor.x) / n + Double(c.worldCopy), y: Double(ancestor.y) / n))
                let side = camera.worldSize / n
                out.append(DrawTile(covering: c, coveringIndex: ci, candidate: k, sourceTile: ancestor,
                                    sourceRect: PixelRect(x: origin.x, y: origin.y, width: side, height: side),
                                    payload: slot, clips: claim))
            }
            return out
        }

        /// The fetch slot of `key`, a new one at the end when first claimed.
        private mutating func slot(for key: Key) -> Int {
            if let s = slots[key] { return s }
            slots[key] = keys.count
            keys.append(key)
            return keys.count - 1
        }

        /// Adds a round's replacements: one from a source tile its covering tile already
        /// draws widens that draw tile's clips; the others are new draw tiles, and all are
        /// put back in cover order, then candidate order. Returns the new ones' indices.
        private mutating func merge(_ replacements: [DrawTile]) -> [Int] {
            struct Drawn: Hashable { let covering: Int; let payload: Int }
            var drawn: [Drawn: Int] = [:]
            var fresh: [Int] = []
            for (j, t) in tiles.enumerated() { drawn[Drawn(covering: t.coveringIndex, payload: t.payload)] = j }
            for r in replacements {
                let key = Drawn(covering: r.coveringIndex, payload: r.payload)
                if let j = drawn[key] {
                    tiles[j].clips += r.clips
                } else {
                    drawn[key] = tiles.count
                    fresh.append(tiles.count)
                    tiles.append(r)
                }
            }
            guard !fresh.isEmpty else { return fresh }
            let order = tiles.indices.sorted {
                (tiles[$0].coveringIndex, tiles[$0].candidate, $0) < (tiles[$1].coveringIndex, tiles[$1].candidate, $1)
            }
            var position = [Int](repeating: 0, count: tiles.count)
            for (p, i) in order.enumerated() { position[i] = p }
            tiles = order.map { tiles[$0] }
            return fresh.map { position[$0] }
        }
    }

    /// Numbers the groups of draw tiles that show the same source tile in the same world
    /// copy (painters read a group's data once) and bounds each group's clips.
    private func groupSourceTiles() {
        struct GroupKey: Hashable { let payload: Int; let worldCopy: Int }
        var groups: [GroupKey: Int] = [:]
        for tile in drawTiles {
            let key = GroupKey(payload: tile.payload, worldCopy: tile.covering.worldCopy)
            let g: Int
            if let found = groups[key] {
                g = found
            } else {
                g = sourceTileGroupCount
                groups[key] = g
                sourceTileGroupCount += 1
                sourceTileGroupBounds.append(PixelRect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity))
            }
            sourceTileGroupIndex.append(g)
            for c in tile.clips {
                let b = sourceTileGroupBounds[g]
                sourceTileGroupBounds[g] = PixelRect(minX: min(b.minX, c.minX), minY: min(b.minY, c.minY),
                                                     maxX: max(b.maxX, c.maxX), maxY: max(b.maxY, c.maxY))
            }
        }
    }

    /// Stores the fetch results by slot as payloads (a failed tile draws as missing) and
    /// records what they tell: warnings, statistics overall and per candidate, and the
    /// candidates to credit.
    private func record(_ results: [Result<Payload, TileLoadFailure>], of keys: [TileClaims.Key],
                        fetchWarnings: [[HTTPTileSourceWarning]], camera: Camera) {
        for (i, notes) in fetchWarnings.enumerated() {
            let name = source.candidates[keys[i].candidate].name
            warnings.append(contentsOf: notes.map { "\(name): \($0)" })
        }
        var used = Set<Int>()
        for (i, r) in results.enumerated() {
            var counts = TileLoadStatistics(requested: 1)
            switch r {
            case .success(let p):
                payloads.append(p)
                if case .missing = p {
                    counts.absent = 1
                } else {
                    counts.loaded = 1
                    used.insert(keys[i].candidate)
                }
            case .failure(let f):
                counts.failed = 1
                payloads.append(.missing)
                warnings.append("tile \(keys[i].tile) of \(source.candidates[keys[i].candidate].name) skipped: \(f.message)")
            }
            statistics = statistics + counts
            candidateStatistics[keys[i].candidate] = candidateStatistics[keys[i].candidate] + counts
        }
        // Credit only what shows: a covering tile reaches past the image, and a source that
        // supplied only the part outside (the world data around a city's bounds) drew nothing.
        let image = PixelRect(x: 0, y: 0, width: Double(camera.pixelWidth), height: Double(camera.pixelHeight))
        var visible = Set<Int>()
        for t in drawTiles where t.clips.contains(where: { $0.intersection(image).map { $0.width > 0 && $0.height > 0 } ?? false }) {
            visible.insert(t.candidate)
        }
        usedCandidates = used.intersection(visible).sorted()
    }

    /// Reads `jobs` (candidate index, tile) in parallel, from the decoded-tile cache when
    /// there; results and each fetch's own warnings come back in job order (renders sharing
    /// a source never see each other's warnings).
    private static func fetch(_ jobs: [(candidate: Int, tile: TileID)], source: ResolvedSource, maxThreads: Int?,
                              loadOrder: ((Int) -> [Int])?, cache: DecodedTileCache?,
                              deadline: Deadline) -> ([Result<Payload, TileLoadFailure>], [[HTTPTileSourceWarning]]) {
        var results = [Result<Payload, TileLoadFailure>](repeating: .success(.missing), count: jobs.count)
        var fetchWarnings = [[HTTPTileSourceWarning]](repeating: [], count: jobs.count)
        guard !jobs.isEmpty else { return (results, fetchWarnings) }
        let isVector = source.isVector
        let dem = source.demEncoding
        results.withUnsafeMutableBufferPointer { out in
            fetchWarnings.withUnsafeMutableBufferPointer { notes in
                let buffer = UnsafeMutableSendableBuffer(out)
                let noteBuffer = UnsafeMutableSendableBuffer(notes)
                let work: @Sendable (Int) -> Void = { i in
                    let key = jobs[i]
                    let cand = source.candidates[key.candidate]
                    let kind: DecodedTileCache.Kind = isVector ? .vector : dem.map { .dem($0) } ?? .raster
                    let cacheKey = DecodedTileCache.Key(sourceID: cand.sourceID, tile: key.tile, kind: kind)
                    if let hit = cache?.payload(for: cacheKey) {
                        buffer[i] = .success(hit)
                        return
                    }
                    guard !deadline.hasPassed else {
                        buffer[i] = .failure(TileLoadFailure(message: Self.deadlineMessage))
                        return
                    }
                    let (result, notes) = Self.load(key.tile, from: cand, isVector: isVector, dem: dem, deadline: deadline)
                    // A tile that came with warnings (a 403, a stale copy) is not remembered:
                    // the next render asks again and reports it again.
                    if case .success(let payload) = result, notes.isEmpty { cache?.store(payload, for: cacheKey) }
                    buffer[i] = result
                    noteBuffer[i] = notes
                }
                // Tiles over HTTP mostly wait: fetched as many at once as the host allows
                // (`maxConcurrentRequests`, which the shared host gate enforces), not one per core.
                if let waiting = Self.transferThreads(source, jobs: jobs.count, maxThreads: maxThreads) {
                    Parallel.forEachWaiting(jobs.count, threads: waiting, order: loadOrder?(jobs.count), work)
                } else {
                    Parallel.forEach(jobs.count, maxThreads: maxThreads, order: loadOrder?(jobs.count), work)
                }
            }
        }
        return (results, fetchWarnings)
    }

    /// Threads for fetching `jobs` tiles of `source` when some of its candidates are HTTP
    /// tile sources: the most transfers their hosts allow, at least what `maxThreads` gives;
    /// nil for local sources (their loading is work for the cores).
    static func transferThreads(_ source: ResolvedSource, jobs: Int, maxThreads: Int?) -> Int? {
        let perHost = source.candidates.compactMap { ($0.source as? HTTPTileSource)?.options.maxConcurrentRequests }.max()
        guard let perHost, jobs > 1 else { return nil }
        let cores = maxThreads ?? ProcessInfo.processInfo.activeProcessorCount
        return max(cores, min(jobs, max(1, perHost)))
    }

    private var reportedTiles: Set<TileID> = []

    /// Per source tile group and source layer, the features whose boxes reach the group's
    /// bounds, in feature order (`FeatureWalker` fills it). Filled and read by one layer's
    /// walk at a time, like `report`.
    var featuresReachingGroup: [GroupLayer: [Int]] = [:]

    struct GroupLayer: Hashable {
        let group: Int
        let layer: String
    }

    /// Records a problem met while drawing a tile: one warning per tile, however many
    /// layers or features of it are broken.
    func report(_ tile: TileID, _ message: String) {
        guard reportedTiles.insert(tile).inserted else { return }
        warnings.append("tile \(tile) of \(source.id): skipped broken data: \(message)")
    }

    /// A source's bounds as image rectangles in one world copy: one, or two for bounds that
    /// cross the antimeridian (west > east: from west to 180°, and from −180° to east).
    static func pixelRects(of b: TileSourceMetadata.Bounds, camera: Camera, worldCopy: Int) -> [PixelRect] {
        let west = b.southWest.longitude, east = b.northEast.longitude
        guard west > east else { return [pixelRect(west: west, east: east, b, camera: camera, worldCopy: worldCopy)] }
        return [pixelRect(west: west, east: 180, b, camera: camera, worldCopy: worldCopy),
                pixelRect(west: -180, east: east, b, camera: camera, worldCopy: worldCopy)]
    }

    private static func pixelRect(west: Double, east: Double, _ b: TileSourceMetadata.Bounds, camera: Camera,
                                  worldCopy: Int) -> PixelRect {
        var sw = WebMercator.project(LatLng(latitude: b.southWest.latitude, longitude: west))
        var ne = WebMercator.project(LatLng(latitude: b.northEast.latitude, longitude: east))
        sw.x += Double(worldCopy)
        ne.x += Double(worldCopy)
        let p = camera.pixel(forWorld: sw), q = camera.pixel(forWorld: ne)
        return PixelRect(minX: min(p.x, q.x), minY: min(p.y, q.y), maxX: max(p.x, q.x), maxY: max(p.y, q.y))
    }

    struct TileLoadFailure: Error { let message: String }

    static let deadlineMessage = "the render's time limit passed before it was read"

    /// Reads and decodes one tile; an HTTP source's warnings for it come back beside it.
    static func load(_ tile: TileID, from cand: ResolvedSource.Candidate, isVector: Bool, dem: DEMEncoding? = nil,
                     deadline: Deadline = .none) -> (Result<Payload, TileLoadFailure>, [HTTPTileSourceWarning]) {
        var warnings: [HTTPTileSourceWarning] = []
        do {
            let data: [UInt8]?
            if let http = cand.source as? HTTPTileSource {
                let fetched = http.fetch(tile, deadline: deadline)
                warnings = fetched.warnings
                data = try fetched.result.get()
            } else {
                data = try cand.source.tileData(for: tile, deadline: deadline)
            }
            guard let bytes = data, !bytes.isEmpty else { return (.success(.missing), warnings) }
            if isVector {
                return (.success(.vector(try VectorTile(bytes: bytes))), warnings)
            }
            let image = try RasterTileDecoder.decode(bytes, origin: "tile \(tile)")
            if let dem { return (.success(.dem(try DEMTile(decoding: image, encoding: dem))), warnings) }
            return (.success(.raster(image)), warnings)
        } catch {
            return (.failure(TileLoadFailure(message: String(describing: error))), warnings)
        }
    }
}

/// Raster tile bytes (PNG or JPEG, sniffed) → canvas, refusing absurd tile sizes.
enum RasterTileDecoder {
    static let maximumSide = 4096

    static func decode(_ bytes: [UInt8], origin: String) throws -> Canvas {
        try RasterImageDecoder.decode(bytes, origin: origin, maxPixelCount: maximumSide * maximumSide)
    }
}
