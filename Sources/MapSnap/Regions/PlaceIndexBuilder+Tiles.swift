import Foundation

extension PlaceIndexBuilder {
    /// Builds a place index from a region's vector tiles (OpenMapTiles or Protomaps schema), so
    /// that a region made by `data extract` answers place names the way one made from an
    /// `.osm.pbf` does.
    ///
    /// Reads every tile at the archive's highest zoom (where the schemas keep every named
    /// object) once:
    /// - named places (`place` / `places`) and points of interest (`poi`, `aerodrome_label`,
    ///   `mountain_peak` / `pois`): a point is taken only from the tile it lies in, not from a
    ///   neighbour's buffer, so each is indexed once;
    /// - named roads (`transportation_name` / `roads`): segments merged into streets as for
    ///   OpenStreetMap data.
    ///
    /// No addresses: both schemas carry a house number without its street. Giving each number
    /// the nearest named street was measured on the Helsinki tiles against the extract they
    /// were made from: at best 94 % right (corner buildings, arcades, squares), and a pin on
    /// the wrong street is worse than a clear miss. `data build` from an `.osm.pbf` indexes
    /// every address exactly.
    ///
    /// `source` must be a local PMTiles or MBTiles archive.
    package static func build(tiles source: any TileSource, path: String) throws(RegionBuildError) -> (PlaceIndexWriter, Summary) {
        guard let schema = VectorTileSchema.identify(source) else {
            throw .io(path: path, reason: "not vector tiles of the OpenMapTiles or Protomaps schema; no place index can be made from it")
        }
        let zoom = source.metadata.maxZoom
        var reader = TilePlaceReader(schema: schema)
        let visit: (TileID, [UInt8]) throws -> Void = { tile, stored in
            guard tile.z == zoom else { return }
            try reader.read(tile: tile, stored: stored)
        }
        do {
            switch source {
            case let p as PMTilesSource: try p.forEachStoredTile(visit)
            case let m as MBTilesSource: try m.forEachStoredTile(visit)
            default: throw RegionBuildError.io(path: path, reason: "place indexes are made from local .pmtiles or .mbtiles archives")
            }
        } catch let error as RegionBuildError {
            throw error
        } catch {
            throw .io(path: path, reason: "cannot read its tiles for the place index: \(error)")
        }
        return reader.finish()
    }
}

/// Collects what a place index needs from decoded tiles (see `PlaceIndexBuilder.build(tiles:path:)`).
struct TilePlaceReader {
    typealias Pending = PlaceIndexBuilder.Pending

    let schema: VectorTileSchema
    private var located: [(Pending, LatLng)] = []
    private var streetSegments: [(Pending, [LatLng])] = []
    private var cities: [PlaceIndexBuilder.CityPoint] = []
    private var geometry = TileGeometry()

    init(schema: VectorTileSchema) { self.schema = schema }

    /// Reads one stored tile (gzip or plain MVT).
    mutating func read(tile: TileID, stored: [UInt8]) throws {
        let bytes = try Gzip.decompressIfNeeded(stored)
        let decoded = try VectorTile(bytes: bytes)
        for layer in try decoded.decodeAllLayers() {
            switch (schema, layer.name) {
            case (.openMapTiles, "place"), (.protomaps, "places"), (.protomapsLegacy, "places"):
                try readPlaces(layer, tile)
            case (.openMapTiles, "poi"), (.openMapTiles, "aerodrome_label"), (.openMapTiles, "mountain_peak"),
                 (.protomaps, "pois"), (.protomapsLegacy, "pois"):
                try readPOIs(layer, tile)
            case (.openMapTiles, "transportation_name"), (.protomaps, "roads"), (.protomapsLegacy, "roads"):
                try readStreets(layer, tile)
            default:
                continue
            }
        }
    }

    /// The index, assembled as for `.osm.pbf` data.
    func finish() -> (PlaceIndexWriter, PlaceIndexBuilder.Summary) {
        PlaceIndexBuilder.assemble(located: located, streetSegments: streetSegments, cityNodes: cities)
    }

    // MARK: Layers

    private mutating func readPlaces(_ layer: VectorTileLayer, _ tile: TileID) throws {
        for feature in layer.features where feature.geometryType == .point {
            let kind = string(feature, schema == .openMapTiles ? "class" : "kind_detail") ?? string(feature, kindKey) ?? ""
            guard let importance = PlaceIndexBuilder.placeImportance[kind], let (name, alternates) = names(feature),
                  let at = try ownPoint(feature, layer, tile) else { continue }
            located.append((Pending(kind: .place, name: name, alternates: alternates, importance: importance), at))
            if kind == "city" || kind == "town" {
                cities.append(.init(name: name, aliases: alternates, at: at, radiusDegrees: kind == "city" ? 0.18 : 0.072))
            }
        }
    }

    private mutating func readPOIs(_ layer: VectorTileLayer, _ tile: TileID) throws {
        for feature in layer.features where feature.geometryType == .point {
            guard let (name, alternates) = names(feature), let at = try ownPoint(feature, layer, tile) else { continue }
            let importance: UInt8
            switch layer.name {
            case "aerodrome_label": importance = 170
            case "mountain_peak": importance = 90
            default:
                let value = string(feature, schema == .openMapTiles ? "subclass" : kindKey) ?? ""
                importance = Self.poiImportance(value, group: string(feature, "class") ?? "")
            }
            located.append((Pending(kind: .poi, name: name, alternates: alternates, importance: importance), at))
        }
    }

    private mutating func readStreets(_ layer: VectorTileLayer, _ tile: TileID) throws {
        for feature in layer.features where feature.geometryType == .lineString {
            let kind: String
            if schema == .openMapTiles {
                // `minor` gathers residential, unclassified and living streets; `subclass` names paths.
                let group = string(feature, "class") ?? ""
                kind = group == "minor" ? "residential" : (string(feature, "subclass") ?? group)
            } else {
                kind = string(feature, schema == .protomaps ? "kind_detail" : "pmap:kind_detail") ?? ""
            }
            guard let importance = PlaceIndexBuilder.streetImportance[kind], let (name, alternates) = names(feature) else { continue }
            try feature.decodeGeometry(into: &geometry)
            for part in 0..<geometry.partCount {
                let line = geometry.part(part).map { tile.coordinate(x: Double($0.x), y: Double($0.y), extent: layer.extent) }
                guard line.count >= 2 else { continue }
                streetSegments.append((Pending(kind: .street, name: name, alternates: alternates, importance: importance, highway: true), line))
            }
        }
    }

    // MARK: Helpers

    private var kindKey: String { schema == .protomapsLegacy ? "pmap:kind" : "kind" }

    private func string(_ feature: VectorTileFeature, _ key: String) -> String? {
        if case .string(let s)? = feature.value(forKey: key), !s.isEmpty { return s }
        return nil
    }

    /// The feature's name (`name`, else the schema's Latin or English name) and every other
    /// `name…` value it carries.
    private func names(_ feature: VectorTileFeature) -> (String, [String])? {
        var primary: String?
        for key in ["name", "name:latin", "name_en", "name:en"] {
            if let s = string(feature, key) { primary = s; break }
        }
        guard let primary else { return nil }
        var alternates: [String] = []
        for (key, value) in feature.properties where key.hasPrefix("name") {
            if case .string(let s) = value, !s.isEmpty, s != primary, !alternates.contains(s) { alternates.append(s) }
        }
        return (primary, alternates.sorted())
    }

    /// A point feature's first point when it lies inside the tile proper (not in the buffer a
    /// neighbouring tile also holds).
    private mutating func ownPoint(_ feature: VectorTileFeature, _ layer: VectorTileLayer, _ tile: TileID) throws -> LatLng? {
        try feature.decodeGeometry(into: &geometry)
        guard let p = geometry.points.first, p.x >= 0, p.y >= 0, Int(p.x) < layer.extent, Int(p.y) < layer.extent else { return nil }
        return tile.coordinate(x: Double(p.x), y: Double(p.y), extent: layer.extent)
    }

    /// Importance of a point of interest from its OpenStreetMap value (OpenMapTiles `subclass`,
    /// Protomaps `kind`) and OpenMapTiles `class`, on the scale of `PlaceIndexBuilder`'s.
    static func poiImportance(_ value: String, group: String) -> UInt8 {
        switch value {
        case "station": return group == "bus" ? 110 : 150
        case "halt": return 110
        case "aerodrome", "terminal": return 170
        case "attraction", "museum", "gallery", "zoo", "theme_park", "aquarium", "viewpoint", "art_gallery": return 130
        case "place_of_worship", "cathedral", "church": return 100
        case "townhall", "university", "college", "theatre", "library", "hospital", "concert_hall", "arts_centre",
             "bus_station", "ferry_terminal", "monument", "castle", "memorial", "ruins", "archaeological_site": return 110
        case "park": return 90
        case "peak", "beach", "bay", "cape", "island": return 90
        case "hotel", "hostel": return 70
        case "tram_stop", "subway_entrance", "bus_stop", "platform": return 45
        default: break
        }
        switch group {
        case "lodging": return 70
        case "shop", "grocery", "clothing_store", "office": return 50
        default: return 55
        }
    }
}

private extension TileID {
    /// The coordinate of a point in this tile's own space (0…`extent`, y down).
    func coordinate(x: Double, y: Double, extent: Int) -> LatLng {
        let n = Double(gridSize), e = Double(max(extent, 1))
        return WebMercator.unproject(WorldPoint(x: (Double(self.x) + x / e) / n, y: (Double(self.y) + y / e) / n))
    }
}
