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
    private indirect enum Condition: Sendable {
        case test(IndexedNode)
        case not(Condition)
        case all([Condition])
        case any([Condition])

        init?(_ node: ExpressionNode) {
            switch node {
            case .indexed(let n) where n.kind == .test:
                self = .test(n)
            case .unary(let f, let inner) where f.name == UnaryFunction.not.name:
                guard let c = Condition(inner) else { return nil }
                self = .not(c)
            case .all(let items):
                guard let cs = Self.conditions(items) else { return nil }
                self = .all(cs)
            case .any(let items):
                guard let cs = Self.conditions(items) else { return nil }
                self = .any(cs)
            default:
                return nil
            }
        }

        private static func conditions(_ items: [ExpressionNode]) -> [Condition]? {
            var out: [Condition] = []
            for item in items {
                guard let c = Condition(item) else { return nil }
                out.append(c)
            }
            return out
        }

        func verdict(_ feature: VectorTileFeature) -> IndexedNode.Verdict {
            switch self {
            case .test(let test):
                return test.verdict(feature)
            case .not(let inner):
                return inner.verdict(feature).negated
            case .all(let items):
                for item in items {
                    let v = item.verdict(feature)
                    if v != .yes { return v }
                }
                return .yes
            case .any(let items):
                for item in items {
                    let v = item.verdict(feature)
                    if v != .no { return v }
                }
                return .no
            }
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
        guard feature.storage === index.storage else {
            return filter?.matches(feature, zoom: zoom) ?? true
        }
        let type = feature.geometryType
        switch type == .lineString ? lineString : type == .polygon ? polygon : point {
        case .never:
            return false
        case .always:
            return true
        case .condition(let condition):
            return condition.verdict(feature) == .yes
        case .tree(let node):
            var context = EvaluationContext(feature: feature, zoom: zoom)
            return (try? node.evaluate(&context)) == .bool(true)
        }
    }
}
