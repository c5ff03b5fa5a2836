/// Turns place names ("Brooklyn Bridge, New York") into coordinates. mapsnap has no geocoder
/// of its own; callers pass one in (a table, a gazetteer file, a service).
public protocol PlaceResolving: Sendable {
    /// The coordinate for `name`, or nil when the place is unknown.
    func coordinate(forPlaceNamed name: String) -> LatLng?
    /// Close matches for a name that did not resolve, best first (for "did you mean").
    func suggestions(forPlaceNamed name: String) -> [String]
}

extension PlaceResolving {
    /// None, unless a resolver offers them.
    public func suggestions(forPlaceNamed name: String) -> [String] { [] }
}
