/// The tags of one OpenStreetMap element, in file order. Elements have a handful of tags, so
/// lookups scan; no dictionary is built per element.
package struct OSMTags: Sendable, Sequence {
    package var pairs: [(key: String, value: String)]

    package init(_ pairs: [(key: String, value: String)] = []) { self.pairs = pairs }

    /// The value of `key`, or nil.
    package subscript(key: String) -> String? {
        for p in pairs where p.key == key { return p.value }
        return nil
    }

    package var isEmpty: Bool { pairs.isEmpty }

    package func makeIterator() -> IndexingIterator<[(key: String, value: String)]> { pairs.makeIterator() }
}

/// A node: a point with an id and tags.
package struct OSMNode: Sendable {
    package var id: Int64
    package var coordinate: LatLng
    package var tags: OSMTags
}

/// A way: an ordered list of node ids with tags.
package struct OSMWay: Sendable {
    package var id: Int64
    package var refs: [Int64]
    package var tags: OSMTags
}

/// A relation: members (nodes, ways, relations) with roles, and tags.
package struct OSMRelation: Sendable {
    package enum MemberType: UInt8, Sendable { case node = 0, way = 1, relation = 2 }
    package struct Member: Sendable {
        package var type: MemberType
        package var id: Int64
        package var role: String
    }
    package var id: Int64
    package var members: [Member]
    package var tags: OSMTags
}

/// What the file's `OSMHeader` block declares.
package struct OSMHeader: Sendable {
    /// The area the file covers (`HeaderBBox`), when declared.
    package var bounds: (southWest: LatLng, northEast: LatLng)?
    package var requiredFeatures: [String]
    package var writingProgram: String?
    /// Seconds since 1970 of the replication state the data reflects, when declared.
    package var replicationTimestamp: Int64?
}
