import Foundation

/// The vector tile schemas mapsnap's bundled styles are written for, told apart by the
/// names of the layers a source holds (and, for Protomaps, its field names).
///
/// | schema | layers only it has | fields |
/// |---|---|---|
/// | OpenMapTiles | `transportation`, `transportation_name`, `place`, `building`, `boundary`, `water_name`, `waterway`, `housenumber`, `park`, `aeroway`, `aerodrome_label`, `mountain_peak`, `poi` | `class`, `subclass` |
/// | Protomaps v4 | `roads`, `places`, `buildings`, `boundaries`, `earth`, `pois`, `transit` | `kind`, `kind_detail`, `min_zoom` |
/// | Protomaps before v4 (2020–2024) | the same layers, and `natural`, `physical_line`, `physical_point` before v3 | `pmap:kind`, `pmap:level`, `pmap:min_zoom` |
///
/// `water`, `landuse` and `landcover` are in both families and decide nothing.
package enum VectorTileSchema: String, Sendable, Hashable, CustomStringConvertible {
    case openMapTiles
    /// The Protomaps basemap schema, version 4 (the bundled styles' Protomaps variants).
    case protomaps
    /// A Protomaps schema before version 4: `pmap:kind` instead of `kind`.
    case protomapsLegacy

    package var description: String {
        switch self {
        case .openMapTiles: return "OpenMapTiles"
        case .protomaps: return "Protomaps (v4)"
        case .protomapsLegacy: return "Protomaps (before v4)"
        }
    }

    static let openMapTilesLayers: Set<String> = [
        "transportation", "transportation_name", "place", "building", "boundary", "water_name", "waterway",
        "housenumber", "park", "aeroway", "aerodrome_label", "mountain_peak", "poi",
    ]
    static let protomapsLayers: Set<String> = [
        "roads", "places", "buildings", "boundaries", "earth", "pois", "transit", "natural", "physical_line",
        "physical_point",
    ]
    /// Layers only the schemas before version 4 had.
    static let protomapsLegacyLayers: Set<String> = ["natural", "physical_line", "physical_point", "mask", "admin"]
    /// Fields that only the schemas before version 4 used.
    static let protomapsLegacyFields: Set<String> = ["pmap:kind", "pmap:level", "pmap:min_zoom", "pmap:kind_detail"]

    /// The schema of a source with these layers (and, when known, these field names), or
    /// nil when neither family's layers outnumber the other's.
    package static func identify(layers: some Sequence<String>, fields: some Sequence<String> = [String]()) -> VectorTileSchema? {
        var omt = 0, pm = 0, legacy = false
        for name in layers {
            if openMapTilesLayers.contains(name) { omt += 1 }
            if protomapsLayers.contains(name) { pm += 1 }
            if protomapsLegacyLayers.contains(name) { legacy = true }
        }
        if omt > pm { return .openMapTiles }
        guard pm > omt else { return nil }
        if legacy || fields.contains(where: protomapsLegacyFields.contains) { return .protomapsLegacy }
        return .protomaps
    }

    /// The schema of `source`: from its metadata's `vector_layers` when it lists any, else
    /// from the layers and keys of one stored tile — the one at the metadata's minimum zoom
    /// under its center (or the center of its bounds), read by `deadline` (a remote PMTiles
    /// archive reads it over the network). Nil for raster sources, for HTTP URL templates
    /// without a layer list (they declare no extent, so there is no tile to expect), and when
    /// the probed tile is missing or unreadable.
    package static func identify(_ source: any TileSource, deadline: Deadline = .none) -> VectorTileSchema? {
        let metadata = source.metadata
        guard metadata.format.isVector else { return nil }
        if !metadata.vectorLayers.isEmpty {
            return identify(layers: metadata.vectorLayers.map(\.id),
                            fields: metadata.vectorLayers.flatMap { $0.fields.map(\.name) })
        }
        if source is HTTPTileSource { return nil }
        guard let probe = probeTile(metadata), let data = try? source.tileData(for: probe, deadline: deadline),
              let tile = try? VectorTile(bytes: data) else { return nil }
        let names = tile.layerHeaders.map(\.name)
        var keys: [String] = []
        for name in names {
            if let layer = try? tile.layer(named: name) { keys += layer.keys }
        }
        return identify(layers: names, fields: keys)
    }

    /// The tile a source without a layer list is judged by.
    static func probeTile(_ metadata: TileSourceMetadata) -> TileID? {
        let zoom = max(0, min(metadata.minZoom, 30))
        var center = metadata.center
        if center == nil, let b = metadata.bounds {
            center = LatLng(latitude: (b.southWest.latitude + b.northEast.latitude) / 2,
                            longitude: (b.southWest.longitude + b.northEast.longitude) / 2)
        }
        let world = WebMercator.project(center ?? LatLng(latitude: 0, longitude: 0))
        let n = Double(1 << zoom)
        func cell(_ v: Double) -> Int { v.isFinite ? Int(max(0, min(n - 1, (v * n).rounded(.down)))) : 0 }
        return TileID(z: zoom, x: cell(world.x), y: cell(world.y))
    }
}
