/// One vector-tile layer as style expressions are bound to it (`CompiledFilter`,
/// `PropertyValue.bound(to:zoom:)`): its key and value tables, and for each key the
/// distinct values its features carry with it.
///
/// Cheap to create; the distinct values of a key are found on first use (one pass over the
/// layer's tags, integer work only) and remembered by the decoded layer itself
/// (`VectorTileLayerStorage.distinctValueIndices`), so every style layer drawn from a tile
/// layer — in this render and in later ones that find the tile cached — reads the tags once
/// per key. Safe to use from several threads.
struct TileLayerIndex: Sendable {
    /// The layer's storage: bound expressions recognise their features by it.
    let storage: VectorTileLayerStorage

    /// Indexes `layer`.
    init(_ layer: VectorTileLayer) {
        storage = layer.storage
    }

    /// The key's index, nil when no feature of the layer can have it.
    func keyIndex(_ key: String) -> UInt32? { storage.keyIndex[key] }

    /// The value at `index` of the layer's value table as a style value.
    @inline(__always)
    func value(_ index: UInt32) -> StyleValue {
        Int(index) < storage.values.count ? StyleValue(storage.values[Int(index)]) : .null
    }

    /// The distinct value indices tagged with `key`, in first-seen order.
    func values(forKey key: UInt32) -> [UInt32] { storage.distinctValueIndices(forKey: key) }

    /// `verdict` of each distinct value that features carry with `key`, by value index;
    /// entries of values never seen with the key are `filler` and never read.
    func table<T>(for key: UInt32, filler: T, _ verdict: (StyleValue) -> T) -> [T] {
        var out = Array(repeating: filler, count: storage.values.count)
        for v in values(forKey: key) { out[Int(v)] = verdict(value(v)) }
        return out
    }
}

extension VectorTileFeature {
    /// The value index tagged with key index `key`, nil when the feature lacks the key.
    @inline(__always)
    func valueIndex(forKeyIndex key: UInt32) -> UInt32? {
        guard index < storage.records.count else { return nil }
        let r = storage.records[index]
        var i = r.tagStart
        while i + 1 < r.tagEnd {
            if storage.tags[i] == key { return storage.tags[i + 1] }
            i += 2
        }
        return nil
    }
}

/// A sub-tree that reads a feature of one tile layer by key and value index (built by
/// `ExpressionBinder`): no key strings are compared and, for tests and `match`, no value is
/// converted — the verdict per value index was computed when binding, with the same
/// functions as the unbound node, so results are identical. A class, so evaluating it
/// copies one reference, not its tables.
final class IndexedNode: Sendable {
    enum Verdict: UInt8, Sendable {
        case no, yes, failure

        init(_ f: () throws(ExpressionFailure) -> Bool) {
            do { self = try f() ? .yes : .no } catch { self = .failure }
        }

        /// `!` of the boolean; a failure stays one.
        var negated: Verdict {
            switch self {
            case .no: return .yes
            case .yes: return .no
            case .failure: return .failure
            }
        }
    }

    enum Kind: Sendable {
        /// `get`.
        case get
        /// `has`.
        case has
        /// A boolean test of the key's value (comparison, `in`, legacy filters).
        case test
        /// `match` on the key's value.
        case match
    }

    let layer: TileLayerIndex
    let key: UInt32
    let kind: Kind
    /// `.test`: the verdict per value index, and for a feature without the key.
    let verdicts: [Verdict]
    let missingVerdict: Verdict
    /// `.match`: the branch per value index (-1: the fallback), and without the key.
    let branches: [Int32]
    let missingBranch: Int32
    let outputs: [ExpressionNode]
    let fallback: ExpressionNode

    private init(layer: TileLayerIndex, key: UInt32, kind: Kind, verdicts: [Verdict] = [], missingVerdict: Verdict = .failure,
                 branches: [Int32] = [], missingBranch: Int32 = -1, outputs: [ExpressionNode] = [], fallback: ExpressionNode = .literal(.null)) {
        self.layer = layer
        self.key = key
        self.kind = kind
        self.verdicts = verdicts
        self.missingVerdict = missingVerdict
        self.branches = branches
        self.missingBranch = missingBranch
        self.outputs = outputs
        self.fallback = fallback
    }

    static func get(_ layer: TileLayerIndex, _ key: UInt32) -> IndexedNode { IndexedNode(layer: layer, key: key, kind: .get) }

    static func has(_ layer: TileLayerIndex, _ key: UInt32) -> IndexedNode { IndexedNode(layer: layer, key: key, kind: .has) }

    static func test(_ layer: TileLayerIndex, _ key: UInt32, verdicts: [Verdict], missing: Verdict) -> IndexedNode {
        IndexedNode(layer: layer, key: key, kind: .test, verdicts: verdicts, missingVerdict: missing)
    }

    static func match(_ layer: TileLayerIndex, _ key: UInt32, branches: [Int32], missing: Int32,
                      outputs: [ExpressionNode], fallback: ExpressionNode) -> IndexedNode {
        IndexedNode(layer: layer, key: key, kind: .match, branches: branches, missingBranch: missing, outputs: outputs, fallback: fallback)
    }

    /// This test negated (`!`), or this match with other outputs.
    func negated() -> IndexedNode {
        IndexedNode(layer: layer, key: key, kind: kind, verdicts: verdicts.map(\.negated), missingVerdict: missingVerdict.negated)
    }

    func with(outputs: [ExpressionNode], fallback: ExpressionNode) -> IndexedNode {
        .match(layer, key, branches: branches, missing: missingBranch, outputs: outputs, fallback: fallback)
    }

    /// The test's verdict for `feature`, which must belong to the bound layer.
    @inline(__always)
    func verdict(_ feature: VectorTileFeature) -> Verdict {
        guard let v = feature.valueIndex(forKeyIndex: key) else { return missingVerdict }
        return Int(v) < verdicts.count ? verdicts[Int(v)] : .failure
    }

    func evaluate<F: StyleFeature>(_ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        // Bound trees are only evaluated with features of their layer (`CompiledFilter` and
        // `PropertyValue` check); anything else is a failure rather than a wrong answer.
        guard let feature = c.feature as? VectorTileFeature, feature.storage === layer.storage else { throw ExpressionFailure() }
        switch kind {
        case .get:
            return feature.valueIndex(forKeyIndex: key).map(layer.value) ?? .null
        case .has:
            return .bool(feature.valueIndex(forKeyIndex: key) != nil)
        case .test:
            switch verdict(feature) {
            case .yes: return .bool(true)
            case .no: return .bool(false)
            case .failure: throw ExpressionFailure()
            }
        case .match:
            let branch = feature.valueIndex(forKeyIndex: key).map { Int($0) < branches.count ? Int(branches[Int($0)]) : -1 }
                ?? Int(missingBranch)
            return try (branch >= 0 && branch < outputs.count ? outputs[branch] : fallback).evaluate(&c)
        }
    }
}
