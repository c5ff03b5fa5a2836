/// One findable thing of a place index (`NAME.places`): an address, a street, a named point
/// of interest or a named place, with the point a pin goes to.
package struct PlaceIndexEntry: Sendable, Equatable {
    /// What an entry is; ranking and the query forms that reach it depend on it.
    package enum Kind: UInt8, Sendable, Comparable {
        /// `addr:street` + `addr:housenumber` of a node, building or other area.
        case address = 1
        /// A named highway, its segments merged (one entry per street and area).
        case street = 2
        /// A named point of interest (amenity, shop, tourism, station, building…).
        case poi = 3
        /// A named place (`place=city|suburb|square|…`).
        case place = 4

        package static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    package var kind: Kind
    /// What the entry is called: `Aleksanterinkatu 52`, `Helsingin tuomiokirkko`, `Mannerheimintie`.
    package var name: String
    /// Other names it is found by (`name:en`, `name:sv`, `alt_name`, …), not shown.
    package var alternateNames: [String]
    /// For addresses: the street and house number the key is made of.
    package var street: String
    package var houseNumber: String
    /// `addr:city`, or the region's main city when the object has none.
    package var city: String
    /// `addr:postcode`, or empty.
    package var postcode: String
    package var coordinate: LatLng
    /// 0…255, larger first among equal matches (a cathedral before a café of the same name).
    package var importance: UInt8

    package init(kind: Kind, name: String, alternateNames: [String] = [], street: String = "", houseNumber: String = "",
                 city: String = "", postcode: String = "", coordinate: LatLng, importance: UInt8) {
        self.kind = kind
        self.name = name
        self.alternateNames = alternateNames
        self.street = street
        self.houseNumber = houseNumber
        self.city = city
        self.postcode = postcode
        self.coordinate = coordinate
        self.importance = importance
    }

    /// A house number as it is matched: each part (split at `-`, `–`, `/`, `,`, `;`) folded
    /// (`Gazetteer.fold`) with its spaces taken out, parts joined by `-`: `52 A`, `52a` and
    /// `52A` are all `52a`; `52–54` is `52-54`.
    package static func normalizedHouseNumber(_ text: String) -> String {
        var out = ""
        for part in text.lowercased().split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "-" || $0 == "/" || $0 == "–" }) {
            let folded = Gazetteer.fold(String(part)).replacingOccurrences(of: " ", with: "")
            guard !folded.isEmpty else { continue }
            if !out.isEmpty { out += "-" }
            out += folded
        }
        return out
    }
}
