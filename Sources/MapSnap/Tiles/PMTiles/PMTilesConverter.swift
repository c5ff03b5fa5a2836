/// Converts tile archives between MBTiles and PMTiles v3, either way, or repacks one into its
/// own format (exposed by the CLI as `mapsnap convert`).
package enum PMTilesConverter {
    /// The containers `convert` writes, named by the output's extension.
    package enum Container: String, CaseIterable, Sendable {
        case mbtiles, pmtiles

        /// The container `path`'s extension names (any case), or nil.
        package init?(path: String) {
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
            self.init(rawValue: path[path.index(after: dot)...].lowercased())
        }
    }

    /// Why `convert` refused its arguments (the archives' own errors come through as they are).
    package enum ConversionError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The output's extension names no container mapsnap writes.
        case unknownOutputContainer(path: String)
        /// The input is a tile source `convert` cannot read whole (a tile directory, a URL).
        case unsupportedInput(path: String, kind: String)

        package var description: String {
            switch self {
            case let .unknownOutputContainer(path):
                return "\(path): cannot tell which archive to write from its extension; name it .mbtiles or .pmtiles"
            case let .unsupportedInput(path, kind):
                return "\(path): \(kind) cannot be converted; the input must be an .mbtiles or .pmtiles file"
            }
        }
    }

    /// Writes every tile of the MBTiles file at `mbtiles` into a new PMTiles archive at `output`.
    @discardableResult
    package static func convert(mbtiles: String, to output: String) throws -> Int {
        try convert(mbtiles, to: output, as: .pmtiles)
    }

    /// Copies every tile and the metadata of the archive at `input` (MBTiles or PMTiles, told
    /// by its first bytes) into a new archive at `output`, of the container `container` or, by
    /// default, the one `output`'s extension names. Returns the number of tiles written.
    ///
    /// Tiles keep their stored bytes, so MBTiles → PMTiles → MBTiles gives back the same tiles
    /// byte for byte. The one exception: vector tiles an MBTiles file stores uncompressed are
    /// gzip-compressed in a PMTiles archive (whose tile compression is one setting for all).
    /// Metadata carried: name, format, zooms, bounds, centre, attribution, description,
    /// vector layers and other text entries. The output appears only when complete.
    @discardableResult
    package static func convert(_ input: String, to output: String, as container: Container? = nil) throws -> Int {
        guard let target = container ?? Container(path: output) else { throw ConversionError.unknownOutputContainer(path: output) }
        let source = try TileSources.open(input)
        // Stored bytes as they are: PMTilesSource already refuses compressions other than
        // none and gzip, the two MBTiles can carry too.
        let forEachTile: ((TileID, [UInt8]) throws -> Void) throws -> Void
        switch source {
        case let m as MBTilesSource: forEachTile = m.forEachStoredTile
        case let p as PMTilesSource: forEachTile = p.forEachStoredTile
        default:
            throw ConversionError.unsupportedInput(path: input, kind: "a tile directory")
        }
        let metadata = source.metadata
        let isVector = metadata.format == .mvt
        switch target {
        case .pmtiles:
            // A PMTiles archive declares one tile compression: gzip for vector tiles, none for images.
            var writer = PMTilesWriter(format: metadata.format, tileCompression: isVector ? .gzip : .none, metadata: metadata)
            try forEachTile { tile, stored in
                let data = isVector && !Gzip.isGzip(stored) ? try Gzip.compress(Gzip.decompressIfNeeded(stored)) : stored
                try writer.add(tile, data: data)
            }
            try writer.write(to: output)
            return writer.tileCount
        case .mbtiles:
            let writer = try MBTilesWriter(path: output)
            try forEachTile { tile, stored in try writer.add(tile, data: stored) }
            try writer.finish(metadata: MBTilesWriter.metadataRows(metadata))
            return writer.tileCount
        }
    }
}
