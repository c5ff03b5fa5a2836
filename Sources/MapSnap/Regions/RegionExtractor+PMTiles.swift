import Foundation

extension RegionExtractor {
    /// A leaf directory to read: where it is in the leaf section and the ids it answers for
    /// (from its entry's id up to the next entry's, within its parent's span).
    struct Leaf: Sendable {
        var offset: UInt64
        var length: UInt64
        var span: Range<UInt64>
    }

    /// One stored tile content of the source that the output needs, and where it goes.
    struct Blob: Sendable {
        /// Offset and length in the source's tile data section.
        var source: UInt64
        var length: UInt32
        /// Offset in the output's tile data section.
        var output: UInt64
        /// Tile ids of the output that show it.
        var tiles: Int
    }

    private struct BlobKey: Hashable {
        var offset: UInt64
        var length: UInt32
    }

    static func extractPMTiles(_ source: PMTilesSource, counter: ReadCounter, context: Context) throws(RegionExtractError) -> Report {
        let request = context.request
        let header = source.header
        let zooms = try zooms(request, source: source.metadata)
        let ranges = request.area.tileRanges(zooms: zooms)
        let planned = try planEntries(source, ranges: ranges, context: context)
        guard !planned.isEmpty else {
            let bounds = source.metadata.bounds.map { b in
                [b.southWest.longitude, b.southWest.latitude, b.northEast.longitude, b.northEast.latitude].map(ExtractArea.text).joined(separator: ",")
            } ?? "the world"
            throw .noTiles(path: source.path, area: request.area.description, zooms: "\(zooms.lowerBound)–\(zooms.upperBound)", sourceBounds: bounds)
        }

        // The output keeps the source's sharing: entries that point at the same stored bytes
        // in the source point at the same bytes in the output, laid out in tile-id order of
        // first use (so the output is clustered too).
        var index: [BlobKey: Int] = [:]
        var blobs: [Blob] = []
        var entries: [PMTilesEntry] = []
        var tileDataLength: UInt64 = 0
        var tiles = 0
        for e in planned {
            guard e.length <= PMTilesSource.maxTileBytes else {
                throw .pmtiles(.tileTooLarge(path: source.path, tile: "id \(e.tileID)", length: UInt64(e.length), limit: PMTilesSource.maxTileBytes))
            }
            let (end, overflow) = e.offset.addingReportingOverflow(UInt64(e.length))
            guard !overflow, end <= header.tileDataLength else {
                throw .pmtiles(.tileOutOfBounds(path: source.path, tile: "id \(e.tileID)", offset: e.offset, length: UInt64(e.length)))
            }
            let key = BlobKey(offset: e.offset, length: e.length)
            let b: Int
            if let known = index[key] {
                b = known
            } else {
                b = blobs.count
                index[key] = b
                blobs.append(Blob(source: e.offset, length: e.length, output: tileDataLength, tiles: 0))
                tileDataLength += UInt64(e.length)
            }
            blobs[b].tiles += Int(e.runLength)
            tiles += Int(e.runLength)
            append(PMTilesEntry(tileID: e.tileID, offset: blobs[b].output, length: e.length, runLength: e.runLength), to: &entries)
        }

        let byOffset = blobs.sorted { $0.source != $1.source ? $0.source < $1.source : $0.length < $1.length }
        let reads = RangeCoalescer(overfetch: request.overfetch, maxReadBytes: request.maxReadBytes)
            .plan(byOffset.map { ($0.source, UInt64($0.length)) })
        let bounds = outputBounds(request.area, source: source.metadata.bounds)
        let origin = origin(request, zooms: zooms)
        var report = Report(output: nil, tiles: tiles, entries: entries.count, contents: blobs.count, tileBytes: tileDataLength,
                            bounds: bounds, origin: origin)
        report.tileReads = reads.count
        report.tileReadBytes = reads.reduce(0) { $0 + $1.length }
        let outHeader = Self.header(tileType: header.tileType, tileCompression: header.tileCompression, entries: entries,
                                    contents: blobs.count, bounds: bounds, sourceCenterZoom: source.metadata.centerZoom)
        report.minZoom = Int(outHeader.minZoom)
        report.maxZoom = Int(outHeader.maxZoom)
        if request.dryRun {
            (report.reads, report.bytesRead) = counter.totals
            return report
        }

        let writer: PMTilesFileWriter
        do throws(PMTilesError) { writer = try PMTilesFileWriter(path: request.output) } catch { throw .write(path: request.output, reason: Self.reason(error)) }
        do throws(RegionExtractError) {
            context.start(tiles: tiles, bytes: tileDataLength)
            let file = source.file, base = header.tileDataOffset, path = request.output
            try concurrently(reads.count, threads: request.concurrentReads, context: context) { i throws(RegionExtractError) in
                let read = reads[i]
                let bytes: [UInt8]
                do throws(PMTilesError) { bytes = try file.read(offset: base + read.offset, length: read.length, deadline: .none) } catch { throw .pmtiles(error) }
                var tiles = 0, written: UInt64 = 0
                for blob in byOffset[read.pieces] {
                    let start = Int(blob.source - read.offset)
                    do throws(PMTilesError) {
                        try writer.writeTileData(bytes[start..<(start + Int(blob.length))], at: blob.output)
                    } catch {
                        throw .write(path: path, reason: Self.reason(error))
                    }
                    tiles += blob.tiles
                    written += UInt64(blob.length)
                }
                context.advance(tiles: tiles, bytes: written)
            }
            try context.checkCancelled()
            let json = metadataJSON(sourceJSON: source.jsonMetadata, fallback: source.metadata, origin: origin, bounds: bounds,
                                    zooms: report.minZoom...report.maxZoom)
            do throws(PMTilesError) {
                try writer.finish(entries: entries, tileDataLength: tileDataLength, header: outHeader, metadataJSON: json)
            } catch {
                throw .write(path: path, reason: Self.reason(error))
            }
        } catch {
            writer.discard()
            throw error
        }
        report.output = request.output
        (report.reads, report.bytesRead) = counter.totals
        report.archiveBytes = Self.fileSize(request.output)
        return report
    }

    /// The source's directory entries for the area's ids, clipped to them, sorted by id, with
    /// offsets in the source's tile data. Reads only the leaves whose spans meet the area,
    /// depth by depth, each depth's leaves in coalesced reads.
    static func planEntries(_ source: PMTilesSource, ranges: TileIDRanges, context: Context) throws(RegionExtractError) -> [PMTilesEntry] {
        let request = context.request
        let header = source.header
        var planned: [PMTilesEntry] = []
        var leaves: [Leaf] = []
        try visit(source.rootEntries, span: 0..<UInt64.max, ranges: ranges, entries: &planned, leaves: &leaves, path: source.path)
        var depth = 1
        while !leaves.isEmpty {
            guard depth < PMTilesSource.maxDirectoryDepth else {
                throw .pmtiles(.directoryTooDeep(path: source.path, tileID: leaves[0].span.lowerBound))
            }
            for leaf in leaves {
                let (end, overflow) = leaf.offset.addingReportingOverflow(leaf.length)
                guard !overflow, end <= header.leafDirectoriesLength, leaf.length <= UInt64(PMTilesSource.maxDirectoryBytes) else {
                    throw .pmtiles(.corruptDirectory(path: source.path, offset: header.leafDirectoriesOffset &+ leaf.offset,
                                                     reason: "leaf of \(leaf.length) bytes lies outside the leaf section or exceeds the \(PMTilesSource.maxDirectoryBytes)-byte limit"))
                }
            }
            let level = leaves.sorted { $0.offset != $1.offset ? $0.offset < $1.offset : $0.span.lowerBound < $1.span.lowerBound }
            let reads = RangeCoalescer(overfetch: request.overfetch, maxReadBytes: request.maxReadBytes).plan(level.map { ($0.offset, $0.length) })
            let found = Locked((entries: [PMTilesEntry](), leaves: [Leaf]()))
            let file = source.file, path = source.path, base = header.leafDirectoriesOffset
            let plannedSoFar = planned.count
            try concurrently(reads.count, threads: request.concurrentReads, context: context) { i throws(RegionExtractError) in
                let read = reads[i]
                let bytes: [UInt8]
                do throws(PMTilesError) { bytes = try file.read(offset: base + read.offset, length: read.length, deadline: .none) } catch { throw .pmtiles(error) }
                var entries: [PMTilesEntry] = [], deeper: [Leaf] = []
                for leaf in level[read.pieces] {
                    let start = Int(leaf.offset - read.offset)
                    let decoded: [PMTilesEntry]
                    do throws(PMTilesError) {
                        decoded = try PMTilesSource.decodeDirectory(Array(bytes[start..<(start + Int(leaf.length))]), header: header,
                                                                    offset: base + leaf.offset, path: path)
                    } catch {
                        throw .pmtiles(error)
                    }
                    try visit(decoded, span: leaf.span, ranges: ranges, entries: &entries, leaves: &deeper, path: path)
                }
                let total = found.withLock { f -> Int in
                    f.entries += entries
                    f.leaves += deeper
                    return f.entries.count
                }
                guard plannedSoFar + total <= maxEntries else { throw tooManyEntries(path: path) }
            }
            let (entries, deeper) = found.withLock { ($0.entries, $0.leaves) }
            planned += entries
            leaves = deeper
            depth += 1
        }
        planned.sort { $0.tileID < $1.tileID }
        return planned
    }

    /// Adds the parts of `directory`'s tile entries inside `ranges` (and `span`) to `entries`,
    /// and its leaves whose spans meet `ranges` to `leaves`.
    ///
    /// An entry answers for the ids from its own up to the next entry's (a reader looks up the
    /// last entry at or before an id): a run is cut there, as readers cut it.
    static func visit(_ directory: [PMTilesEntry], span: Range<UInt64>, ranges: TileIDRanges, entries: inout [PMTilesEntry],
                      leaves: inout [Leaf], path: String) throws(RegionExtractError) {
        for (i, e) in directory.enumerated() {
            let next = i + 1 < directory.count ? directory[i + 1].tileID : span.upperBound
            let lower = max(e.tileID, span.lowerBound)
            var upper = min(next, span.upperBound)
            if e.runLength == 0 {
                guard lower < upper, ranges.overlaps(lower..<upper) else { continue }
                leaves.append(Leaf(offset: e.offset, length: UInt64(e.length), span: lower..<upper))
                continue
            }
            let (runEnd, overflow) = e.tileID.addingReportingOverflow(UInt64(e.runLength))
            upper = min(upper, overflow ? UInt64.max : runEnd)
            guard lower < upper else { continue }
            ranges.forEachIntersection(with: lower..<upper) { part in
                entries.append(PMTilesEntry(tileID: part.lowerBound, offset: e.offset, length: e.length,
                                            runLength: UInt32(part.upperBound - part.lowerBound)))
            }
            guard entries.count <= maxEntries else { throw tooManyEntries(path: path) }
        }
    }

    static func tooManyEntries(path: String) -> RegionExtractError {
        .invalidArea(flag: "area", reason: "more than \(maxEntries) tile entries of \(path) lie in it; extract a smaller area or fewer zooms (--maxzoom)")
    }

    /// The reason of a writer's error, without the path it starts with.
    static func reason(_ error: PMTilesError) -> String {
        if case .io(_, _, let reason) = error { return reason }
        return error.description
    }

    static func fileSize(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }
}
