/// A style layer's filter bound to one vector-tile layer at one zoom, for walking that
/// layer's features: `matches(_:)` gives exactly `StyleLayer.matches(_:zoom:)`, faster.
///
/// Binding (`init`) decides, once per distinct value of each key the filter reads, every
/// comparison, `in` and `match` on a property, and specialises the filter for each geometry
/// type. Per feature, `matches` then reads the geometry type (rejecting at once a type the
/// filter can never accept, see `acceptedGeometryTypes`) and compares key and value
/// indices: no strings, no hashing, no allocation.
///
/// Make one per (style layer, tile layer) and use it for every feature of that tile layer —
/// from every drawn tile that shares the decoded tile — with a shared `TileLayerIndex`.
/// A feature of another layer is still answered correctly, by the unbound filter.
struct CompiledFilter: Sendable {
    private let filter: StyleExpression?
    private let zoom: Double
    private let index: TileLayerIndex
    /// The bound filter per geometry type.
    private let point: Plan
    private let lineString: Plan
    private let polygon: Plan

    /// How a bound filter is evaluated: boolean combinations of decided tests (the usual
    /// filters) directly, anything else as a tree.
    private enum Plan: Sendable {
        case never
        case always
        case condition(Condition)
        case tree(ExpressionNode)

        init(_ node: ExpressionNode) {
            if case .literal(let v) = node {
                self = v == .bool(true) ? .always : .never
            } else if node.neverTrue {
                self = .never
            } else {
                self = Condition(node).map { .condition($0) } ?? .tree(node)
            }
        }

        var isNever: Bool {
            if case .never = self { return true }
            return false
        }
    }

    /// `all`, `any` and `!` of decided tests, with the expression semantics: `all` stops at
    /// the first `false`, `any` at the first `true`, and a failure fails the whole.
    ///
    /// Kept as a flat program (prefix order, each node with the size of its subtree, the
    /// tests' verdict tables back to back) and run over buffer pointers: filters run for
    /// every feature of every style layer, and a tree of enum cases and node objects cost a
    /// retain and a release per node visited.
    private struct Condition: Sendable {
        private struct Node: Sendable {
            enum Kind: UInt8, Sendable { case test, not, all, any }
            var kind: Kind
            /// `.test`: the key index, the verdict for a feature without it, and its verdict per
            /// value index in `verdicts[first..<(first + count)]`.
            var key: UInt32 = 0
            var missing: IndexedNode.Verdict = .failure
            var first = 0
            /// `.test`: the table's length; `.all`/`.any`: the number of children.
            var count = 0
            /// Nodes in this subtree, itself included.
            var size = 1
        }

        private var nodes: [Node] = []
        private var verdicts: [IndexedNode.Verdict] = []

        init?(_ node: ExpressionNode) {
            guard append(node) else { return nil }
        }

        private mutating func append(_ node: ExpressionNode) -> Bool {
            let at = nodes.count
            switch node {
            case .indexed(let n) where n.kind == .test:
                nodes.append(Node(kind: .test, key: n.key, missing: n.missingVerdict, first: verdicts.count, count: n.verdicts.count))
                verdicts += n.verdicts
            case .unary(let f, let inner) where f.name == UnaryFunction.not.name:
                nodes.append(Node(kind: .not))
                guard append(inner) else { return false }
            case .all(let items), .any(let items):
                if case .all = node { nodes.append(Node(kind: .all, count: items.count)) } else { nodes.append(Node(kind: .any, count: items.count)) }
                for item in items {
                    guard append(item) else { return false }
                }
            default:
                return false
            }
            nodes[at].size = nodes.count - at
            return true
        }

        /// The verdict for a feature of the bound tile layer whose (key, value) index pairs
        /// are `storage.tags[start..<end]`.
        func verdict(_ storage: VectorTileLayerStorage, tags start: Int, _ end: Int) -> IndexedNode.Verdict {
            storage.tags.withUnsafeBufferPointer { tags in
                nodes.withUnsafeBufferPointer { nodes in
                    verdicts.withUnsafeBufferPointer { table in
                        Self.verdict(at: 0, Run(nodes: nodes, table: table, tags: tags, start: start, end: end))
                    }
                }
            }
        }

        private struct Run {
            let nodes: UnsafeBufferPointer<Node>
            let table: UnsafeBufferPointer<IndexedNode.Verdict>
            let tags: UnsafeBufferPointer<UInt32>
            /// The feature's (key, value) index pairs: `tags[start..<end]`.
            let start: Int
            let end: Int
        }

        private static func verdict(at i: Int, _ run: Run) -> IndexedNode.Verdict {
            let n = run.nodes[i]
            switch n.kind {
            case .test:
                // As `IndexedNode.verdict`: the first pair with the key decides.
                var t = run.start
                while t + 1 < run.end {
                    if run.tags[t] == n.key {
                        let v = Int(run.tags[t + 1])
                        return v < n.count ? run.table[n.first + v] : .failure
                    }
                    t += 2
                }
                return n.missing
            case .not:
                return verdict(at: i + 1, run).negated
            case .all:
                return children(of: i, count: n.count, run, until: .yes)
            case .any:
                return children(of: i, count: n.count, run, until: .no)
            }
        }

        /// The verdicts of node `i`'s `count` children in order: the first that is not
        /// `passing` decides (`.yes` for `all`, `.no` for `any`), else `passing` stands.
        @inline(__always)
        private static func children(of i: Int, count: Int, _ run: Run, until passing: IndexedNode.Verdict) -> IndexedNode.Verdict {
            var child = i + 1
            for _ in 0..<count {
                let v = verdict(at: child, run)
                if v != passing { return v }
                child += run.nodes[child].size
            }
            return passing
        }
    }

    /// Binds `filter` (nil accepts every feature) to `tileLayer` at `zoom`, for features of
    /// the geometry types in `geometryTypes` (others are rejected).
    init(_ filter: StyleExpression?, tileLayer: TileLayerIndex, zoom: Double,
                geometryTypes: Set<GeometryType> = [.point, .lineString, .polygon]) {
        self.filter = filter
        self.zoom = zoom
        self.index = tileLayer
        let root = filter?.root ?? .literal(.bool(true))
        let bound = ExpressionBinder(layer: tileLayer, zoom: zoom).bind(root).node
        func specialised(_ type: GeometryType) -> Plan {
            guard geometryTypes.contains(type) else { return .never }
            return Plan(ExpressionBinder(geometryType: type).bind(bound).node)
        }
        point = specialised(.point)
        lineString = specialised(.lineString)
        polygon = specialised(.polygon)
    }

    /// Convenience: binds `layer`'s filter.
    init(_ layer: StyleLayer, tileLayer: TileLayerIndex, zoom: Double,
                geometryTypes: Set<GeometryType> = [.point, .lineString, .polygon]) {
        self.init(layer.filter, tileLayer: tileLayer, zoom: zoom, geometryTypes: geometryTypes)
    }

    /// The geometry types some feature could match; features of other types are rejected
    /// without evaluating anything. Empty means the layer draws nothing from this tile layer.
    var acceptedGeometryTypes: Set<GeometryType> {
        var types: Set<GeometryType> = []
        if !point.isNever { types.insert(.point) }
        if !lineString.isNever { types.insert(.lineString) }
        if !polygon.isNever { types.insert(.polygon) }
        return types
    }

    /// Whether the filter accepts `feature` (and its geometry type is wanted).
    func matches(_ feature: VectorTileFeature) -> Bool {
        matches(featureAt: feature.index, of: feature.storage)
    }

    /// `matches` for feature `index` of `storage`, without making the feature (and retaining
    /// its storage) unless the filter has to evaluate an expression tree on it: the walk
    /// tests every candidate feature of a tile for every style layer.
    func matches(featureAt index: Int, of storage: VectorTileLayerStorage) -> Bool {
        guard storage === self.index.storage else {
            return filter?.matches(VectorTileFeature(storage: storage, index: index), zoom: zoom) ?? true
        }
        // The record is read once, and each plan is switched on where it is stored: a plan
        // picked into a temporary was a copy, retaining and releasing its tables per feature.
        let record = storage.records[index]
        let (start, end) = (record.tagStart, record.tagEnd)
        switch record.type {
        case .lineString: return Self.matches(lineString, index, storage, tags: start, end, zoom: zoom)
        case .polygon: return Self.matches(polygon, index, storage, tags: start, end, zoom: zoom)
        case .point: return Self.matches(point, index, storage, tags: start, end, zoom: zoom)
        }
    }

    private static func matches(_ plan: Plan, _ index: Int, _ storage: VectorTileLayerStorage,
                                tags start: Int, _ end: Int, zoom: Double) -> Bool {
        switch plan {
        case .never:
            return false
        case .always:
            return true
        case .condition(let condition):
            return condition.verdict(storage, tags: start, end) == .yes
        case .tree(let node):
            var context = EvaluationContext(feature: VectorTileFeature(storage: storage, index: index), zoom: zoom)
            return (try? node.evaluate(&context)) == .bool(true)
        }
    }
}
