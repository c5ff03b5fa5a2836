/// Converts tile archives to PMTiles v3 (exposed by the CLI as `mapsnap convert`).
package enum PMTilesConverter {
    /// Writes every tile of the MBTiles file at `mbtiles` into a new PMTiles archive at `output`.
    ///
    /// Vector tiles are stored gzip-compressed (as stored when already gzipped, compressed
    /// otherwise); raster tiles are stored as is. Returns the number of tiles written.
    @discardableResult
    package static func convert(mbtiles: String, to output: String) throws -> Int {
        let source = try MBTilesSource(path: mbtiles)
        let isVector = source.metadata.format == .mvt
        var writer = PMTilesWriter(format: source.metadata.format, tileCompression: isVector ? .gzip : .none, metadata: source.metadata)
        try source.forEachStoredTile { tile, stored in
            let data = isVector && !Gzip.isGzip(stored) ? try Gzip.compress(Gzip.decompressIfNeeded(stored)) : stored
            try writer.add(tile, data: data)
        }
        try writer.write(to: output)
        return writer.tileCount
    }
}
