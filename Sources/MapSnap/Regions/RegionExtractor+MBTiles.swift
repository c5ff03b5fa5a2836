import Foundation

extension RegionExtractor {
    /// From a local MBTiles file: per zoom, one range query lists the tiles under the area's
    /// box (sizes only), those whose squares touch the area are kept, and their bytes are
    /// read one by one in tile-id order and appended to the output — identical tiles stored
    /// once (found by hash, confirmed byte for byte against what was written).
    static func extractMBTiles(_ source: MBTilesSource, context: Context) throws(RegionExtractError) -> Report {
        let request = context.request
        let metadata = source.metadata
        let zooms = try zooms(request, source: metadata)
        let ranges = request.area.tileRanges(zooms: zooms)
        var selected: [(id: UInt64, tile: TileID, size: Int)] = []
        let box = request.area.bounds
        for z in zooms {
            let first = ExtractArea.firstID(atZoom: z)
            guard ranges.overlaps(first..<ExtractArea.firstID(atZoom: z + 1)) else { continue }
            let n = 1 << z
            func column(_ longitude: Double) -> Int { max(0, min(n - 1, Int(((longitude + 180) / 360 * Double(n)).rounded(.down)))) }
            func row(_ latitude: Double) -> Int {
                max(0, min(n - 1, Int((WebMercator.project(LatLng(latitude: latitude, longitude: 0)).y * Double(n)).rounded(.down))))
            }
            let west = box.southWest.longitude, east = box.northEast.longitude
            let columns = west < east ? column(west)...column(east) : 0...(n - 1)
            let rows = row(box.northEast.latitude)...row(box.southWest.latitude)
            let listed: [(tile: TileID, size: Int)]
            do { listed = try source.storedTiles(zoom: z, columns: columns, rows: rows) } catch { throw Self.mbtilesError(error) }
            for (tile, size) in listed {
                let id = PMTilesTileID.id(for: tile)
                if ranges.contains(id) { selected.append((id, tile, size)) }
            }
            guard selected.count <= maxEntries else { throw tooManyEntries(path: source.path) }
        }
        selected.sort { $0.id < $1.id }
        guard !selected.isEmpty else {
            let bounds = metadata.bounds.map { b in
                [b.southWest.longitude, b.southWest.latitude, b.northEast.longitude, b.northEast.latitude].map(ExtractArea.text).joined(separator: ",")
            } ?? "an undeclared area"
            throw .noTiles(path: source.path, area: request.area.description, zooms: "\(zooms.lowerBound)–\(zooms.upperBound)", sourceBounds: bounds)
        }
        let bounds = outputBounds(request.area, source: metadata.bounds)
        let origin = origin(request, zooms: zooms)
        let listedBytes = selected.reduce(UInt64(0)) { $0 + UInt64(max(0, $1.size)) }
        var report = Report(output: nil, tiles: selected.count, bounds: bounds, origin: origin)
        report.tileReads = selected.count
        report.tileReadBytes = listedBytes
        report.minZoom = selected.first?.tile.z ?? 0
        report.maxZoom = selected.last?.tile.z ?? 0
        if request.dryRun {
            report.entries = selected.count
            report.tileBytes = listedBytes
            return report
        }

        let writer: PMTilesFileWriter
        do throws(PMTilesError) { writer = try PMTilesFileWriter(path: request.output) } catch { throw .write(path: request.output, reason: Self.reason(error)) }
        do throws(RegionExtractError) {
            context.start(tiles: selected.count, bytes: listedBytes)
            var entries: [PMTilesEntry] = []
            var stored: [Int: [(offset: UInt64, length: Int)]] = [:]
            var tileDataLength: UInt64 = 0
            var contents = 0, gzipped = 0
            var readBytes: UInt64 = 0
            for (i, item) in selected.enumerated() {
                if i % 64 == 0 { try context.checkCancelled() }
                let data: [UInt8]
                do {
                    guard let bytes = try source.rawTileData(for: item.tile) else { continue }
                    data = bytes
                } catch {
                    throw Self.mbtilesError(error)
                }
                readBytes += UInt64(data.count)
                if Gzip.isGzip(data) { gzipped += 1 }
                let hash = data.hashValue
                var offset: UInt64?
                for candidate in stored[hash] ?? [] where candidate.length == data.count {
                    let written: [UInt8]
                    do throws(PMTilesError) { written = try writer.readTileData(at: candidate.offset, length: candidate.length) } catch {
                        throw .write(path: request.output, reason: Self.reason(error))
                    }
                    if written == data { offset = candidate.offset; break }
                }
                if offset == nil {
                    do throws(PMTilesError) { try writer.writeTileData(data, at: tileDataLength) } catch {
                        throw .write(path: request.output, reason: Self.reason(error))
                    }
                    offset = tileDataLength
                    stored[hash, default: []].append((tileDataLength, data.count))
                    tileDataLength += UInt64(data.count)
                    contents += 1
                }
                append(PMTilesEntry(tileID: item.id, offset: offset ?? 0, length: UInt32(data.count), runLength: 1), to: &entries)
                context.advance(tiles: 1, bytes: UInt64(data.count))
            }
            try context.checkCancelled()
            guard !entries.isEmpty else {
                throw .noTiles(path: source.path, area: request.area.description, zooms: "\(zooms.lowerBound)–\(zooms.upperBound)",
                               sourceBounds: "no readable tiles")
            }
            // Vector tiles as stored: all gzip, none, or a mix (then "unknown", which readers
            // sniff tile by tile). Raster tiles are never compressed again.
            let compression: PMTilesHeader.Compression
            if metadata.format == .mvt || metadata.format == .unknown {
                compression = gzipped == entries.count ? .gzip : gzipped == 0 ? .none : .unknown
            } else {
                compression = .none
            }
            let tileType: UInt8
            switch metadata.format {
            case .mvt: tileType = 1
            case .png: tileType = 2
            case .jpg: tileType = 3
            case .webp: tileType = 4
            case .unknown: tileType = 0
            }
            let header = Self.header(tileType: tileType, tileCompression: compression.rawValue, entries: entries, contents: contents,
                                     bounds: bounds, sourceCenterZoom: metadata.centerZoom)
            report.minZoom = Int(header.minZoom)
            report.maxZoom = Int(header.maxZoom)
            report.entries = entries.count
            report.contents = contents
            report.tileBytes = tileDataLength
            report.reads = selected.count
            report.bytesRead = readBytes
            report.tileReadBytes = readBytes
            let json = metadataJSON(sourceJSON: [], fallback: metadata, origin: origin, bounds: bounds, zooms: report.minZoom...report.maxZoom)
            do throws(PMTilesError) {
                try writer.finish(entries: entries, tileDataLength: tileDataLength, header: header, metadataJSON: json)
            } catch {
                throw .write(path: request.output, reason: Self.reason(error))
            }
        } catch {
            writer.discard()
            throw error
        }
        report.output = request.output
        report.archiveBytes = fileSize(request.output)
        return report
    }

    static func mbtilesError(_ error: any Error) -> RegionExtractError {
        if let e = error as? MBTilesError { return .mbtiles(e) }
        return .unsupportedSource(path: "MBTiles", reason: "\(error)")
    }
}
