/// A JSON object: members in document order, looked up by key.
///
/// Order matters for determinism: Swift's `Dictionary` iterates in a different order in every
/// process, so anything built by walking an object (warnings, written JSON) would change from
/// run to run. Iterating a `JSONObject` yields `(key, value)` in the order the document wrote
/// them. A key written twice keeps its first position and its last value, as JavaScript's
/// `JSON.parse` does. Equality ignores order, as JSON's does.
struct JSONObject: Sendable, Equatable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    typealias Element = (key: String, value: JSONValue)

    private var storage: [Member] = []
    /// Key → position in `storage`, built once an object outgrows a linear scan, so that
    /// reading an object with n keys costs O(n), not O(n²), even when it is hostile.
    private var index: [String: Int]?

    private struct Member: Sendable {
        var key: String
        var value: JSONValue
    }

    /// Objects up to this size are searched linearly; most objects in styles and specs are.
    private static let linearSearchLimit = 12

    init() {}

    init(dictionaryLiteral elements: (String, JSONValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }

    subscript(position: Int) -> Element {
        let member = storage[position]
        return (member.key, member.value)
    }

    /// The keys in document order.
    var keys: [String] { storage.map(\.key) }

    /// The values in document order.
    var values: [JSONValue] { storage.map(\.value) }

    /// The value for `key`; setting a key that exists replaces its value in place, setting nil
    /// removes it.
    subscript(key: String) -> JSONValue? {
        get { position(of: key).map { storage[$0].value } }
        set {
            if let i = position(of: key) {
                if let newValue {
                    storage[i].value = newValue
                } else {
                    storage.remove(at: i)
                    rebuildIndex()
                }
            } else if let newValue {
                storage.append(Member(key: key, value: newValue))
                if index != nil {
                    index?[key] = storage.count - 1
                } else if storage.count > Self.linearSearchLimit {
                    rebuildIndex()
                }
            }
        }
    }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return storage.firstIndex { $0.key == key }
    }

    private mutating func rebuildIndex() {
        guard storage.count > Self.linearSearchLimit else {
            index = nil
            return
        }
        var built: [String: Int] = [:]
        built.reserveCapacity(storage.count)
        for (i, member) in storage.enumerated() { built[member.key] = i }
        index = built
    }

    static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.storage.allSatisfy { rhs[$0.key] == $0.value }
    }
}
