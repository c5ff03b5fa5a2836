import Foundation

/// How much of a rendered image the base map draws with *detail*, and the warning when too
/// little of it does.
///
/// Without it a view where the data runs out looks like a map of nothing: Paris at zoom 15
/// from the embedded world data is beige with the Seine as one straight line. Every tile
/// source knows where it has detail — its bounds, its zoom window and its zoom range:
///
/// - A source has detail at data zoom `z` up to `detailMaxZoom`: its max zoom + 1 (one level
///   of over-zoom draws fine; more is a blur or a few straight lines), or any zoom for vector
///   tiles that go to zoom 14 or beyond (OpenMapTiles and Protomaps tiles carry everything
///   at z14–15 and are meant to be over-zoomed). The embedded world data (z0–7) has detail
///   to z8; the bundled Helsinki streets (z14) everywhere within their bounds.
/// - A part of the image has detail when a source that claims it there (within its bounds
///   and zoom window, see `LoadedSource`) has detail at that zoom *and* supplied the tile,
///   and the part is within the bounds the source's metadata declares (a `--source` claims
///   every tile, but an extract's tiles at its edge are blank beyond them).
///   Parts nobody claims, parts whose tile is absent or failed, and parts drawn only from
///   over-zoomed tiles lack detail. Any one of the style's sources drawn at this zoom
///   suffices (imagery under vector roads); elevation (`raster-dem`) sources do not count.
/// - Only the image's area over the map counts (not the sky beyond the poles), measured
///   from the covering tiles' rectangles: no pixel is looked at.
///
/// A style that draws no tile source at this zoom (a plain background) asks for no data and
/// lacks nothing: `detailedFraction` is 1.
public struct MapCoverage: Sendable, Hashable {
    /// The share of the image (0…1) where the base map has detail.
    public let detailedFraction: Double
    /// One line saying what is missing and what to do, when at least `warningThreshold` of
    /// the image lacks detail; it is also among the snapshot's warnings.
    public let warning: String?

    /// The share of the image lacking detail from which the render warns.
    public static let warningThreshold = 0.25

    /// What to do about a view of the bundled data without detail.
    static let advice = "add your area with 'mapsnap data extract' or 'mapsnap data build', "
        + "or render online with --basemap liberty; see \"Maps of your own city\" in the README"
    /// What to do when the style's sources are the user's own (`--source`, a style file).
    static let ownSourcesAdvice = "use tiles that cover this area at this zoom, or render online with --basemap liberty"

    /// True when the warning applies (`mapsnap render --require-detail` then exits 3).
    public var lacksDetail: Bool { warning != nil }

    /// The share of the image (0…1) lacking detail.
    public var lackingFraction: Double { 1 - detailedFraction }

    init(detailedFraction: Double, warning: String?) {
        self.detailedFraction = detailedFraction
        self.warning = warning
    }

    /// The highest data zoom at which tiles of a source with this metadata carry detail:
    /// one level past its max zoom, or every zoom for vector tiles going to z14 or beyond.
    static func detailMaxZoom(of metadata: TileSourceMetadata) -> Int {
        if metadata.format.isVector && metadata.maxZoom >= 14 { return Int.max }
        return metadata.maxZoom + 1
    }

    /// The coverage of the image `camera` shows, from the sources loaded for it (in a stable
    /// order: the warning lists their candidates in it).
    static func measure(_ sources: [LoadedSource], camera: Camera) -> MapCoverage {
        let judged = sources.filter { $0.source.demEncoding == nil }
        guard !judged.isEmpty else { return MapCoverage(detailedFraction: 1, warning: nil) }
        // The image over the map: between the world's top and bottom edges.
        let top = camera.pixel(forWorld: WorldPoint(x: 0, y: 0)).y, bottom = camera.pixel(forWorld: WorldPoint(x: 0, y: 1)).y
        guard let map = PixelRect(x: 0, y: 0, width: Double(camera.pixelWidth), height: Double(camera.pixelHeight))
            .intersection(PixelRect(minX: -.infinity, minY: top, maxX: .infinity, maxY: bottom)) else {
            return MapCoverage(detailedFraction: 1, warning: nil)
        }
        var lacking = [map]
        for s in judged {
            for t in s.drawTiles where !lacking.isEmpty {
                let cand = s.source.candidates[t.candidate]
                guard t.covering.id.z <= cand.detailMaxZoom else { continue }
                if case .missing = s.payloads[t.payload] { continue }
                // A source claiming everything (a --source) still has data only within the
                // bounds its metadata declares: its tiles at the edge are blank beyond them.
                var parts = t.clips
                if let b = cand.bounds ?? cand.source.metadata.bounds, b.hasArea {
                    let area = LoadedSource.pixelRects(of: b, camera: camera, worldCopy: t.covering.worldCopy)
                    parts = parts.flatMap { clip in area.compactMap { clip.intersection($0) } }
                }
                for part in parts {
                    // Adjacent tiles' edges are computed apart and may miss by a rounding
                    // error: the slivers between them are dropped, not kept as lacking.
                    lacking = lacking.flatMap { $0.subtracting(part) }.filter { $0.width > 1e-6 && $0.height > 1e-6 }
                }
            }
        }
        let area = map.width * map.height
        let lackingArea = lacking.reduce(0) { $0 + $1.width * $1.height }
        // Six decimals: the share does not hinge on the last bits of tile edges.
        let detailed = area > 0 ? (max(0, min(1, 1 - lackingArea / area)) * 1e6).rounded() / 1e6 : 1
        guard 1 - detailed >= warningThreshold else { return MapCoverage(detailedFraction: detailed, warning: nil) }
        return MapCoverage(detailedFraction: detailed, warning: message(lacking: 1 - detailed, judged, camera: camera))
    }

    /// `no detailed map data for 92 % of this view at zoom 15 (why): what to do`.
    static func message(lacking: Double, _ sources: [LoadedSource], camera: Camera) -> String {
        let share = lacking >= 0.995 ? "this view" : "\(Int((lacking * 100).rounded())) % of this view"
        var seen: Set<Int> = []
        var limited: [String] = [], bounded: [String] = [], empty: [String] = []
        for s in sources {
            for (k, c) in s.source.candidates.enumerated() where !c.isHole && seen.insert(c.sourceID).inserted && c.isUsed(atZoom: s.dataZoom) {
                let stats = s.candidateStatistics[k]
                // A --source without a tile here has its own warning (`namedSourceWarnings`).
                if c.isNamedByUser && stats.loaded == 0 { continue }
                // A source that claims everywhere but was asked for nothing lies wholly under
                // another (the z0–7 world data under its z8–9 detail): it explains nothing.
                if c.bounds == nil && stats.requested == 0 { continue }
                let area = (c.bounds ?? c.source.metadata.bounds).flatMap { !$0.hasArea || isWholeWorld($0) ? nil : "covers only \(describe($0))" }
                if s.dataZoom > c.detailMaxZoom {
                    limited.append("\(c.label) \(area.map { $0 + " and " } ?? "")ends at z\(c.detailMaxZoom == c.source.metadata.maxZoom + 1 ? c.source.metadata.maxZoom : c.detailMaxZoom)")
                } else if let area {
                    bounded.append("\(c.label) \(area)")
                } else if stats.loaded == 0 && stats.absent > 0 {
                    empty.append("\(c.label) has no tile here")
                }
            }
        }
        var reasons = limited + empty + bounded
        if reasons.count > 4 {
            let more = reasons.count - 3
            reasons = Array(reasons.prefix(3)) + ["and \(more) more"]
        }
        let why = reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")"
        let todo = sources.contains(where: \.source.offersRegions) ? advice : ownSourcesAdvice
        return "no detailed map data for \(share) at zoom \(zoomText(camera.zoom))\(why): \(todo)"
    }

    /// One warning per source the user named (`--source`) that supplied no tile to the view
    /// and had none fail: it is outside the source's area or zooms, or every tile was absent
    /// (a 404). Names the source, its bounds and zooms, and what is drawn instead.
    /// Sources whose id is in `except` (they supplied tiles elsewhere: another band of a
    /// pitched image) are not reported.
    static func namedSourceWarnings(_ sources: [LoadedSource], except: Set<Int> = []) -> [String] {
        var out: [String] = []
        var seen = except
        for s in sources where s.source.demEncoding == nil {
            for (k, c) in s.source.candidates.enumerated() where c.isNamedByUser && seen.insert(c.sourceID).inserted {
                let stats = s.candidateStatistics[k]
                guard stats.loaded == 0 && stats.failed == 0 else { continue }
                let meta = c.source.metadata
                let n = stats.requested
                let found = "no tile for this view" + (n == 0 ? "" : n == 1 ? " (the 1 tile asked for is absent)" : " (all \(n) tiles asked for are absent)")
                let zooms = "zoom \(meta.minZoom)–\(meta.maxZoom)"
                let declared = meta.bounds.flatMap { $0.hasArea ? $0 : nil }
                var line = "\(c.label): \(found); " + (declared.map { "it covers \(describe($0)), \(zooms)" } ?? "it declares no bounds (\(zooms))")
                if let instead = s.usedCandidates.first(where: { $0 != k }) {
                    line += "; \(s.source.candidates[instead].label) is drawn there instead"
                }
                out.append(line)
            }
        }
        return out
    }

    /// Whether bounds span the whole Web Mercator world (as the embedded world data's do).
    static func isWholeWorld(_ b: TileSourceMetadata.Bounds) -> Bool {
        b.southWest.longitude <= -179.99 && b.northEast.longitude >= 179.99
            && b.southWest.latitude <= -85 && b.northEast.latitude >= 85
    }

    /// `24.935–24.954 E, 60.164–60.179 N`, or `0.510 W–0.334 E, …` across a meridian.
    static func describe(_ b: TileSourceMetadata.Bounds) -> String {
        func axis(_ a: Double, _ b: Double, _ positive: String, _ negative: String) -> String {
            func d(_ v: Double) -> String { String(format: "%.3f", abs(v)) }
            func side(_ v: Double) -> String { v < 0 ? negative : positive }
            return side(a) == side(b) ? "\(d(a))–\(d(b)) \(side(a))" : "\(d(a)) \(side(a))–\(d(b)) \(side(b))"
        }
        return axis(b.southWest.longitude, b.northEast.longitude, "E", "W") + ", "
            + axis(b.southWest.latitude, b.northEast.latitude, "N", "S")
    }

    /// `15`, `15.5`, `14.25`.
    static func zoomText(_ z: Double) -> String {
        let rounded = (z * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%g", rounded)
    }
}
