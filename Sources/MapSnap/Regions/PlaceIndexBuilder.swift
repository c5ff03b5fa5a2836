import Foundation

/// Builds a region's place index (`PlaceIndexWriter`) from an OpenStreetMap extract:
/// addresses, streets, named points of interest and named places.
///
/// Three streaming passes over the `.osm.pbf` (the format stores nodes, then ways, then
/// relations, and an area's position needs its nodes): relations (which ways outline a
/// named or addressed multipolygon), ways (which nodes the kept ways use), nodes (tagged
/// nodes become entries; the used nodes' positions are kept in a sorted array). Memory
/// grows with what is kept, not with the file: a city of 100,000 addressed buildings needs
/// tens of megabytes.
///
/// - Addresses: `addr:street` (or `addr:place`) + `addr:housenumber` on a node, way or
///   multipolygon; an area's point is its centroid. A bare address point (often at the
///   entrance) ranks above the building, which ranks above shops inside with the address.
/// - Streets: named `highway=*` ways; segments of one name in one city that touch or lie
///   within ~250 m of each other become one street, placed on its geometry nearest the
///   middle of all its segments.
/// - Points of interest: named objects with `amenity`, `shop`, `tourism`, `historic`,
///   `leisure`, `office`, `craft`, `building`, stations and stops…; places: `place=city`
///   … `square`. Importance rises with the kind (stations, attractions, places of worship)
///   and with a `wikidata` link.
/// - City: `addr:city`, else the nearest `place=city|town` within 20 km (towns 8 km), else
///   the extract's most common `addr:city`.
package struct PlaceIndexBuilder {
    /// Counts of what was indexed (for `data build`'s summary).
    package struct Summary: Sendable, Equatable {
        package var addresses = 0, streets = 0, pointsOfInterest = 0, places = 0
    }

    struct Pending {
        var kind: PlaceIndexEntry.Kind
        var name: String
        var alternates: [String]
        var street = "", houseNumber = "", city = "", postcode = ""
        var importance: UInt8
        var highway = false
    }

    /// Reads `pbf` and returns the index writer filled with its entries, and the counts.
    package static func build(pbf: OSMPBFReader) throws(OSMPBFError) -> (PlaceIndexWriter, Summary) {
        // Pass 1: multipolygons worth indexing, and the ways that outline them.
        var relationItems: [(pending: [Pending], outerWays: [Int64])] = []
        var memberWays = Set<Int64>()
        try pbf.scan(relations: { r in
            guard r.tags["type"] == "multipolygon" else { return }
            let items = classify(r.tags)
            guard !items.isEmpty else { return }
            let outers = r.members.filter { $0.type == .way && ($0.role == "outer" || $0.role.isEmpty) }.map(\.id)
            guard !outers.isEmpty else { return }
            relationItems.append((items, outers))
            memberWays.formUnion(outers)
        })
        // Pass 2: ways to index, member ways, and the nodes they need.
        var wayItems: [(pending: [Pending], refs: [Int64])] = []
        var memberRefs: [Int64: [Int64]] = [:]
        var needed: [Int64] = []
        try pbf.scan(ways: { w in
            let items = classify(w.tags)
            let isMember = memberWays.contains(w.id)
            guard !items.isEmpty || isMember else { return }
            if !items.isEmpty { wayItems.append((items, w.refs)) }
            if isMember { memberRefs[w.id] = w.refs }
            needed.append(contentsOf: w.refs)
        })
        needed.sort()
        var unique: [Int64] = []
        unique.reserveCapacity(needed.count)
        for id in needed where unique.last != id { unique.append(id) }
        needed = []
        // Pass 3: tagged nodes, and positions of the needed nodes.
        var positions = [LatLng](repeating: LatLng(latitude: .nan, longitude: .nan), count: unique.count)
        var nodeItems: [(pending: [Pending], at: LatLng)] = []
        var cityNodes: [CityPoint] = []
        try pbf.scan(nodes: { n in
            if let i = unique.sortedIndex(of: n.id) { positions[i] = n.coordinate }
            guard !n.tags.isEmpty, n.coordinate.isValid else { return }
            let items = classify(n.tags)
            if !items.isEmpty { nodeItems.append((items, n.coordinate)) }
            if let place = n.tags["place"], place == "city" || place == "town", let name = n.tags["name"], !name.isEmpty {
                cityNodes.append(CityPoint(name: name, aliases: alternateNames(n.tags), at: n.coordinate,
                                           radiusDegrees: place == "city" ? 0.18 : 0.072))
            }
        })
        func position(_ id: Int64) -> LatLng? {
            guard let i = unique.sortedIndex(of: id), positions[i].isValid else { return nil }
            return positions[i]
        }

        // Points for ways and relations.
        var located: [(Pending, LatLng)] = []
        var streetSegments: [(Pending, [LatLng])] = []
        for (items, refs) in wayItems {
            let points = refs.compactMap(position)
            guard !points.isEmpty else { continue }
            for item in items {
                if item.highway {
                    streetSegments.append((item, points))
                } else {
                    located.append((item, centroid(points, closed: refs.count > 3 && refs.first == refs.last)))
                }
            }
        }
        for (items, outers) in relationItems {
            let points = outers.flatMap { (memberRefs[$0] ?? []).compactMap(position) }
            guard !points.isEmpty else { continue }
            let at = centroid(points, closed: false)
            for item in items where !item.highway { located.append((item, at)) }
        }
        for (items, at) in nodeItems {
            for item in items where !item.highway { located.append((item, at)) }
        }

        return assemble(located: located, streetSegments: streetSegments, cityNodes: cityNodes)
    }


    /// A named city or town that entries without `addr:city` are assigned to, within its radius.
    struct CityPoint {
        var name: String
        var aliases: [String]
        var at: LatLng
        var radiusDegrees: Double
    }

    /// The index from located entries, street segments and the cities around: entries
    /// without a city get the nearest city or town (else the commonest `addr:city`), street
    /// segments of one name are merged into streets. Shared by the `.osm.pbf` and the
    /// vector-tile builders.
    static func assemble(located: [(Pending, LatLng)], streetSegments: [(Pending, [LatLng])],
                         cityNodes: [CityPoint]) -> (PlaceIndexWriter, Summary) {
        var cityNodes = cityNodes
        cityNodes.sort { ($0.at.latitude, $0.at.longitude, $0.name) < ($1.at.latitude, $1.at.longitude, $1.name) }
        var cityCounts: [String: Int] = [:]
        for (item, _) in located where !item.city.isEmpty { cityCounts[item.city, default: 0] += 1 }
        let commonest = cityCounts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? ""
        func city(near p: LatLng) -> String {
            var best: (distance: Double, name: String)?
            var lo = 0, hi = cityNodes.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if cityNodes[mid].at.latitude < p.latitude - 0.2 { lo = mid + 1 } else { hi = mid }
            }
            var i = lo
            let cosLat = cos(p.latitude * .pi / 180)
            while i < cityNodes.count, cityNodes[i].at.latitude <= p.latitude + 0.2 {
                let c = cityNodes[i]
                let d = hypot(c.at.latitude - p.latitude, (c.at.longitude - p.longitude) * cosLat)
                if d <= c.radiusDegrees, best.map({ d < $0.distance }) ?? true { best = (d, c.name) }
                i += 1
            }
            return best?.name ?? commonest
        }

        var writer = PlaceIndexWriter()
        var summary = Summary()
        for (var item, at) in located {
            if item.city.isEmpty { item.city = city(near: at) }
            writer.entries.append(entry(item, at))
            switch item.kind {
            case .address: summary.addresses += 1
            case .poi: summary.pointsOfInterest += 1
            case .place: summary.places += 1
            case .street: break
            }
        }
        for street in mergeStreets(streetSegments.map { seg in
            var item = seg.0
            if item.city.isEmpty { item.city = city(near: seg.1[seg.1.count / 2]) }
            return (item, seg.1)
        }) {
            writer.entries.append(street)
            summary.streets += 1
        }
        // The main city: the commonest city of the entries; aliases from city nodes' names.
        var entryCities: [String: Int] = [:]
        for e in writer.entries where !e.city.isEmpty { entryCities[e.city, default: 0] += 1 }
        writer.mainCity = entryCities.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? ""
        for c in cityNodes {
            for alias in c.aliases where writer.cityAliases[alias] == nil { writer.cityAliases[alias] = c.name }
        }
        return (writer, summary)
    }

    // MARK: Classification

    static let streetImportance: [String: UInt8] = [
        "motorway": 100, "trunk": 100, "primary": 100, "secondary": 95, "tertiary": 90, "unclassified": 85,
        "residential": 85, "living_street": 85, "pedestrian": 85, "road": 80, "service": 60, "track": 50,
        "footway": 50, "cycleway": 50, "path": 50, "steps": 45, "bridleway": 45,
    ]
    static let placeImportance: [String: UInt8] = [
        "city": 220, "town": 200, "village": 160, "borough": 150, "suburb": 150, "quarter": 140, "square": 140,
        "neighbourhood": 130, "island": 120, "hamlet": 100, "locality": 100, "islet": 90,
    ]

    /// What a tagged object contributes: an address, a street segment, a POI or a place
    /// (an object can be both an address and a POI).
    private static func classify(_ tags: OSMTags) -> [Pending] {
        guard !tags.isEmpty else { return [] }
        var out: [Pending] = []
        let name = tags["name"] ?? ""
        let city = tags["addr:city"] ?? "", postcode = tags["addr:postcode"] ?? ""
        let poi = name.isEmpty ? nil : poiImportance(tags)
        if let number = tags["addr:housenumber"], let street = tags["addr:street"] ?? tags["addr:place"],
           !number.isEmpty, !street.isEmpty {
            let importance: UInt8 = poi != nil && tags["building"] == nil ? 60 : (tags["building"] != nil || !name.isEmpty ? 70 : 80)
            out.append(Pending(kind: .address, name: "\(street) \(number)", alternates: [], street: street, houseNumber: number,
                               city: city, postcode: postcode, importance: importance))
        }
        guard !name.isEmpty else { return out }
        if let place = tags["place"], let importance = placeImportance[place] {
            out.append(Pending(kind: .place, name: name, alternates: alternateNames(tags), city: city, postcode: postcode,
                               importance: withLinks(importance, tags)))
        } else if let highway = tags["highway"], let importance = streetImportance[highway], tags["area"] != "yes" || highway == "pedestrian" {
            out.append(Pending(kind: .street, name: name, alternates: alternateNames(tags), city: city, postcode: postcode,
                               importance: importance, highway: true))
        } else if let importance = poi {
            out.append(Pending(kind: .poi, name: name, alternates: alternateNames(tags), city: city, postcode: postcode,
                               importance: importance))
        }
        return out
    }

    /// A named object's importance as a point of interest, or nil when it is none.
    private static func poiImportance(_ tags: OSMTags) -> UInt8? {
        var base: UInt8?
        func at(least v: UInt8) { base = max(base ?? 0, v) }
        if let v = tags["railway"], v == "station" || v == "halt" { at(least: v == "station" ? 150 : 110) }
        if let v = tags["railway"], v == "tram_stop" || v == "subway_entrance" { at(least: 45) }
        if let v = tags["public_transport"], v == "station" { at(least: 140) }
        if let v = tags["aeroway"], v == "aerodrome" || v == "terminal" { at(least: 170) }
        if let v = tags["tourism"] {
            switch v {
            case "attraction", "museum", "gallery", "zoo", "theme_park", "aquarium", "viewpoint": at(least: 130)
            case "hotel", "hostel": at(least: 70)
            default: at(least: 60)
            }
        }
        if tags["historic"] != nil { at(least: 110) }
        if let v = tags["amenity"] {
            switch v {
            case "place_of_worship": at(least: tags["wikidata"] != nil ? 140 : 100)
            case "townhall", "university", "theatre", "library", "hospital", "concert_hall", "arts_centre": at(least: 110)
            case "bus_station", "ferry_terminal": at(least: 110)
            default: at(least: 55)
            }
        }
        if tags["leisure"] != nil { at(least: tags["leisure"] == "park" ? 90 : 55) }
        if tags["shop"] != nil || tags["office"] != nil || tags["craft"] != nil || tags["healthcare"] != nil { at(least: 50) }
        if tags["highway"] == "bus_stop" || tags["public_transport"] == "platform" { at(least: 45) }
        if let v = tags["natural"], ["peak", "beach", "bay", "cape", "island", "water", "wood"].contains(v) { at(least: 90) }
        if tags["man_made"] != nil || tags["bridge"] != nil { at(least: 60) }
        if tags["building"] != nil { at(least: 40) }
        guard let base else { return nil }
        return withLinks(base, tags)
    }

    /// Objects with a Wikidata item are better known: +30 (+10 with Wikipedia), at most 250.
    static func withLinks(_ importance: UInt8, _ tags: OSMTags) -> UInt8 {
        var v = Int(importance)
        if tags["wikidata"] != nil { v += 30 }
        if tags["wikipedia"] != nil { v += 10 }
        return UInt8(min(v, 250))
    }

    /// Every other name: `name:xx`, `alt_name`, `official_name`, `short_name`, `loc_name`,
    /// `int_name`, `old_name` (`;`-separated lists split).
    private static func alternateNames(_ tags: OSMTags) -> [String] {
        let keys: Set<String> = ["alt_name", "official_name", "short_name", "loc_name", "int_name", "old_name", "reg_name"]
        var out: [String] = []
        for (k, v) in tags where k.hasPrefix("name:") || keys.contains(k) {
            for part in v.split(separator: ";") {
                let s = part.trimmingSpaces()
                if !s.isEmpty, !out.contains(s) { out.append(s) }
            }
        }
        return out
    }

    static func entry(_ p: Pending, _ at: LatLng) -> PlaceIndexEntry {
        PlaceIndexEntry(kind: p.kind, name: p.name, alternateNames: p.alternates, street: p.street, houseNumber: p.houseNumber,
                        city: p.city, postcode: p.postcode, coordinate: at, importance: p.importance)
    }

    // MARK: Geometry

    /// A closed ring's area centroid (in a local plane around its first point), else the
    /// mean of the points.
    static func centroid(_ points: [LatLng], closed: Bool) -> LatLng {
        let n = Double(points.count)
        let mean = LatLng(latitude: points.reduce(0) { $0 + $1.latitude } / n, longitude: points.reduce(0) { $0 + $1.longitude } / n)
        guard closed, points.count >= 4, let origin = points.first else { return mean }
        let k = cos(origin.latitude * .pi / 180)
        var area = 0.0, cx = 0.0, cy = 0.0
        for i in 0..<(points.count - 1) {
            let x0 = (points[i].longitude - origin.longitude) * k, y0 = points[i].latitude - origin.latitude
            let x1 = (points[i + 1].longitude - origin.longitude) * k, y1 = points[i + 1].latitude - origin.latitude
            let cross = x0 * y1 - x1 * y0
            area += cross
            cx += (x0 + x1) * cross
            cy += (y0 + y1) * cross
        }
        guard abs(area) > 1e-14 else { return mean }
        return LatLng(latitude: origin.latitude + cy / (3 * area), longitude: origin.longitude + cx / (3 * area) / k)
    }

    /// Street segments of one name and city merged into streets: segments whose bounding
    /// boxes come within ~250 m of each other (touching ones included) are one street. Each street is placed
    /// at the point of its segments nearest their length-weighted middle.
    private static func mergeStreets(_ segments: [(Pending, [LatLng])]) -> [PlaceIndexEntry] {
        var groups: [String: [Int]] = [:]
        for (i, s) in segments.enumerated() { groups["\(Gazetteer.fold(s.0.name))\u{1}\(s.0.city)", default: []].append(i) }
        var out: [PlaceIndexEntry] = []
        for key in groups.keys.sorted() {
            let members = groups[key] ?? []
            // Union-find over the group's segments.
            var parent = Array(0..<members.count)
            func find(_ i: Int) -> Int {
                var i = i
                while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
                return i
            }
            let boxes = members.map { i -> (Double, Double, Double, Double) in
                let pts = segments[i].1
                return (pts.map(\.latitude).min() ?? 0, pts.map(\.longitude).min() ?? 0, pts.map(\.latitude).max() ?? 0, pts.map(\.longitude).max() ?? 0)
            }
            // Segments whose boxes come within ~250 m are one street (touching segments share
            // a node, so their boxes meet). A sweep by south edge keeps this near-linear.
            let margin = 0.00225  // ~250 m of latitude
            let order = (0..<members.count).sorted { (boxes[$0].0, $0) < (boxes[$1].0, $1) }
            for (k, a) in order.enumerated() {
                let (_, w0, n0, e0) = boxes[a]
                let lonMargin = margin / max(cos(n0 * .pi / 180), 0.1)
                for b in order[(k + 1)...] {
                    let (s1, w1, _, e1) = boxes[b]
                    if s1 > n0 + margin { break }
                    if w1 <= e0 + lonMargin && w0 <= e1 + lonMargin { parent[find(a)] = find(b) }
                }
            }
            var clusters: [Int: [Int]] = [:]
            for a in 0..<members.count { clusters[find(a), default: []].append(members[a]) }
            for root in clusters.keys.sorted() {
                let parts = clusters[root] ?? []
                guard let first = parts.first else { continue }
                out.append(street(segments[first].0, parts.map { segments[$0].1 },
                                  alternates: Array(Set(parts.flatMap { segments[$0].0.alternates })).sorted(),
                                  importance: parts.map { segments[$0].0.importance }.max() ?? segments[first].0.importance))
            }
        }
        return out
    }

    private static func street(_ p: Pending, _ lines: [[LatLng]], alternates: [String], importance: UInt8) -> PlaceIndexEntry {
        let origin = lines[0][0]
        let k = cos(origin.latitude * .pi / 180)
        func plane(_ q: LatLng) -> (Double, Double) { ((q.longitude - origin.longitude) * k, q.latitude - origin.latitude) }
        var total = 0.0, mx = 0.0, my = 0.0
        for line in lines {
            for (a, b) in zip(line, line.dropFirst()) {
                let (x0, y0) = plane(a), (x1, y1) = plane(b)
                let length = hypot(x1 - x0, y1 - y0)
                total += length
                mx += (x0 + x1) / 2 * length
                my += (y0 + y1) / 2 * length
            }
        }
        var best = lines[0][lines[0].count / 2]
        if total > 0 {
            let cx = mx / total, cy = my / total
            var bestDistance = Double.infinity
            for line in lines {
                for (a, b) in zip(line, line.dropFirst()) {
                    let (x0, y0) = plane(a), (x1, y1) = plane(b)
                    let dx = x1 - x0, dy = y1 - y0, length2 = dx * dx + dy * dy
                    let t = length2 > 0 ? max(0, min(1, ((cx - x0) * dx + (cy - y0) * dy) / length2)) : 0
                    let px = x0 + t * dx, py = y0 + t * dy
                    let d = hypot(px - cx, py - cy)
                    if d < bestDistance {
                        bestDistance = d
                        best = LatLng(latitude: origin.latitude + py, longitude: origin.longitude + px / k)
                    }
                }
            }
        }
        var entry = entry(p, best)
        entry.alternateNames = alternates
        entry.importance = importance
        return entry
    }
}
