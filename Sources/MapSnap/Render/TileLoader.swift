import Dispatch
import Foundation

/// One covering tile of the image and the source tile that supplies its data (itself, or an
/// ancestor when the camera is past the source's max zoom: over-zooming).
struct DrawTile {
    /// The tile at the render's data zoom; its square is the clip rectangle.
    let covering: CoveringTile
    /// The tile whose data is drawn.
    let sourceTile: TileID
    /// `sourceTile`'s square in image pixels (larger than `covering.rect` when over-zooming).
    let sourceRect: PixelRect
    /// Index into `LoadedSource.payloads`.
    let payload: Int
    /// The parts of `covering.rect` this source tile draws (disjoint): the whole square,
    /// or — where a city's street tiles take over inside their bounds — the square minus
    /// those bounds, or the square within them.
    let clips: [PixelRect]
}

/// Fetched and decoded tiles of one style source for one camera.
final class LoadedSource {
    enum Payload: Sendable {
        case vector(VectorTile)
        case raster(Canvas)
        /// Elevations of a `raster-dem` source's tile.
        case dem(DEMTile)
        case missing
    }

    let source: ResolvedSource
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

    /// Loads every tile the camera needs at `dataZoom`, in parallel; results are stored by
    /// index so the outcome never depends on which fetch finished first. Tiles not fetched
    /// by `deadline` fail (decoded tiles already cached are still used).
    init(source: ResolvedSource, camera: Camera, dataZoom: Int, maxThreads: Int? = nil, loadOrder: ((Int) -> [Int])? = nil,
         cache: DecodedTileCache? = nil, deadline: Deadline = .none) {
        self.source = source
        let covering = TileCover.tiles(for: camera, dataZoom: dataZoom)
        struct Key: Hashable { let candidate: Int; let tile: TileID }
        var keys: [Key] = []
        var index: [Key: Int] = [:]
        // Sparse sources: the stored tile drawn for each wanted one, asked once per render.
        var storedTiles: [Key: TileID] = [:]
        for c in covering {
            var remaining = [c.rect]
            for (ci, cand) in source.candidates.enumerated() where !remaining.isEmpty {
                let meta = cand.source.metadata
                guard c.id.z >= cand.fromZoom, c.id.z <= cand.toZoom, c.id.z >= meta.minZoom else { continue }
                var claim = remaining
                if let b = cand.bounds {
                    let r = Self.pixelRect(of: b, camera: camera, worldCopy: c.worldCopy)
                    claim = remaining.compactMap { $0.intersection(r) }
                    guard !claim.isEmpty else { continue }
                    remaining = remaining.flatMap { $0.subtracting(r) }
                } else {
                    remaining = []
                }
                let wanted = c.id.ancestor(atZoom: min(c.id.z, meta.maxZoom))
                let stored = Key(candidate: ci, tile: wanted)
                let ancestor = storedTiles[stored] ?? cand.source.storedTile(for: wanted)
                storedTiles[stored] = ancestor
                let sz = ancestor.z
                let key = Key(candidate: ci, tile: ancestor)
                let slot: Int
                if let s = index[key] { slot = s } else {
                    slot = keys.count
                    index[key] = slot
                    keys.append(key)
                }
                let n = Double(1 << sz)
                let origin = camera.pixel(forWorld: WorldPoint(x: Double(ancestor.x) / n + Double(c.worldCopy), y: Double(ancestor.y) / n))
                let side = camera.worldSize / n
                drawTiles.append(DrawTile(covering: c, sourceTile: ancestor,
                                          sourceRect: PixelRect(x: origin.x, y: origin.y, width: side, height: side),
                                          payload: slot, clips: claim))
            }
        }
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
        var results = [Result<Payload, TileLoadFailure>](repeating: .success(.missing), count: keys.count)
        // Each fetch's own warnings, by job: renders sharing a source never see each other's.
        var fetchWarnings = [[HTTPTileSourceWarning]](repeating: [], count: keys.count)
        let isVector = source.isVector
        let dem = source.demEncoding
        let jobs = keys
        results.withUnsafeMutableBufferPointer { out in
            fetchWarnings.withUnsafeMutableBufferPointer { notes in
                let buffer = UnsafeMutableSendableBuffer(out)
                let noteBuffer = UnsafeMutableSendableBuffer(notes)
                Parallel.forEach(jobs.count, maxThreads: maxThreads, order: loadOrder?(jobs.count)) { i in
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
            }
        }
        for (i, notes) in fetchWarnings.enumerated() {
            let name = source.candidates[keys[i].candidate].name
            warnings.append(contentsOf: notes.map { "\(name): \($0)" })
        }
        var used = Set<Int>()
        statistics.requested = results.count
        for (i, r) in results.enumerated() {
            switch r {
            case .success(let p):
                payloads.append(p)
                if case .missing = p {
                    statistics.absent += 1
                } else {
                    statistics.loaded += 1
                    used.insert(keys[i].candidate)
                }
            case .failure(let f):
                statistics.failed += 1
                payloads.append(.missing)
                warnings.append("tile \(keys[i].tile) of \(source.candidates[keys[i].candidate].name) skipped: \(f.message)")
            }
        }
        usedCandidates = used.sorted()
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

    /// A source's bounds as an image rectangle in one world copy.
    static func pixelRect(of b: TileSourceMetadata.Bounds, camera: Camera, worldCopy: Int) -> PixelRect {
        var sw = WebMercator.project(b.southWest), ne = WebMercator.project(b.northEast)
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
