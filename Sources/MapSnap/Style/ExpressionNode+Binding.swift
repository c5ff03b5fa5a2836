/// Partial evaluation of a compiled tree for one situation: a vector-tile layer (property
/// reads become key/value-index lookups, keys the layer lacks become literals), a zoom, a
/// geometry type. Whatever then reads nothing is folded. Every rewrite keeps the result of
/// evaluation identical for features of that layer at that zoom (and of that type).
struct ExpressionBinder {
    var layer: TileLayerIndex?
    var zoom: Double?
    var geometryType: GeometryType?

    typealias Bound = (node: ExpressionNode, dependencies: ExpressionDependencies)

    func bind(_ node: ExpressionNode) -> Bound {
        let bound = rewrite(node)
        guard bound.dependencies.isEmpty, !bound.node.isLiteral else { return bound }
        var context = EvaluationContext(feature: NoFeature(), zoom: 0)
        guard let value = try? bound.node.evaluate(&context) else { return bound }
        return (.literal(value), [])
    }

    private func bindAll(_ nodes: [ExpressionNode]) -> ([ExpressionNode], ExpressionDependencies) {
        var deps: ExpressionDependencies = []
        let out = nodes.map { node -> ExpressionNode in
            let b = bind(node)
            deps.formUnion(b.dependencies)
            return b.node
        }
        return (out, deps)
    }

    private func rewrite(_ node: ExpressionNode) -> Bound {
        switch node {
        case .literal, .unsupported, .id:
            return (node, node.isLiteral ? [] : .feature)
        case .variable, .getDynamic, .letBinding:
            // Variables' dependencies are not tracked in the tree: never folded.
            return (rewriteChildren(node), [.feature, .zoom])
        case .zoom:
            return zoom.map { (.literal(.number($0)), []) } ?? (node, .zoom)
        case .geometryType:
            return geometryType.map { (.literal(.string($0.rawValue)), []) } ?? (node, .feature)
        case .get(let key):
            return indexed(key, node, IndexedNode.get, absent: .null)
        case .has(let key):
            return indexed(key, node, IndexedNode.has, absent: .bool(false))
        case .compareProperty(let op, let key, let literal):
            return test(key, node) { v throws(ExpressionFailure) in try ExpressionNode.compare(op, v ?? .null, literal) }
        case .legacyCompare(let op, let key, let literal):
            return legacy(key, node) { ExpressionNode.legacyCompare(op, $0, literal) }
        case .legacyIn(let key, let set):
            return legacy(key, node) { $0.map(set.contains) ?? false }
        case .legacyHas(let key):
            return legacy(key, node) { $0 != nil }
        case .inSet(.get(let key), let set):
            return test(key, node) { v throws(ExpressionFailure) in set.contains(try ExpressionNode.checkedNeedle(v ?? .null)) }
        case .match(.get(let key), let labels, let outputs, let fallback):
            return match(key, node, labels, outputs, fallback)
        case .all(let items):
            let (nodes, deps) = bindAll(items)
            return (.all(Self.trimmed(nodes, skipping: true, stoppingAt: false)), deps)
        case .any(let items):
            let (nodes, deps) = bindAll(items)
            return (.any(Self.trimmed(nodes, skipping: false, stoppingAt: true)), deps)
        case .indexed(let indexed):
            guard indexed.kind == .match else { return (node, .feature) }
            let (bound, deps) = bindAll(indexed.outputs + [indexed.fallback])
            return (.indexed(indexed.with(outputs: Array(bound.dropLast()), fallback: bound[bound.count - 1])), deps.union(.feature))
        default:
            return rewriteGeneric(node)
        }
    }

    /// The remaining operators: children bound, node kept.
    private func rewriteGeneric(_ node: ExpressionNode) -> Bound {
        switch node {
        case .compare(let op, let a, let b):
            let (n, d) = bindAll([a, b])
            return (.compare(op, n[0], n[1]), d)
        case .inSet(let needle, let set):
            let b = bind(needle)
            return (.inSet(b.node, set), b.dependencies)
        case .inValue(let a, let b):
            let (n, d) = bindAll([a, b])
            return (.inValue(n[0], n[1]), d)
        case .match(let input, let labels, let outputs, let fallback):
            let (n, d) = bindAll([input, fallback] + outputs)
            return (.match(n[0], labels: labels, outputs: Array(n.dropFirst(2)), fallback: n[1]), d)
        case .caseOf(let conditions, let outputs, let fallback):
            let (c, d1) = bindAll(conditions)
            let (o, d2) = bindAll(outputs + [fallback])
            return (.caseOf(conditions: c, outputs: Array(o.dropLast()), fallback: o[o.count - 1]), d1.union(d2))
        case .coalesce(let items):
            let (n, d) = bindAll(items)
            return (.coalesce(n), d)
        case .interpolate(let kind, let input, let stops, let outputs):
            let (n, d) = bindAll([input] + outputs)
            return (.interpolate(kind, n[0], stops: stops, outputs: Array(n.dropFirst())), d)
        case .step(let input, let first, let stops, let outputs):
            let (n, d) = bindAll([input, first] + outputs)
            return (.step(n[0], first: n[1], stops: stops, outputs: Array(n.dropFirst(2))), d)
        case .unary(let f, let a):
            let b = bind(a)
            // `!` of a decided test is the test with its verdicts negated.
            if f.name == UnaryFunction.not.name, case .indexed(let test) = b.node, test.kind == .test {
                return (.indexed(test.negated()), b.dependencies)
            }
            return (.unary(f, b.node), b.dependencies)
        case .binary(let f, let a, let b):
            let (n, d) = bindAll([a, b])
            return (.binary(f, n[0], n[1]), d)
        case .variadic(let f, let args):
            let (n, d) = bindAll(args)
            return (.variadic(f, n), d)
        case .coerce(let f, let args):
            let (n, d) = bindAll(args)
            return (.coerce(f, n), d)
        case .call(let f, let args):
            let (n, d) = bindAll(args)
            return (.call(f, n), d)
        case .concat(let args):
            let (n, d) = bindAll(args)
            return (.concat(n), d)
        case .fallback(let inner, let value):
            let b = bind(inner)
            return (.fallback(b.node, value), b.dependencies)
        default:
            return (node, [.feature, .zoom])
        }
    }

    /// Children of the nodes that are never folded: only property reads are rewritten, and
    /// nothing is folded below a `let` (its body and values may read variables).
    private func rewriteChildren(_ node: ExpressionNode) -> ExpressionNode {
        let inner = ExpressionBinder(layer: layer, zoom: nil, geometryType: nil)
        switch node {
        case .getDynamic(let key): return .getDynamic(inner.rewrite(key).node)
        default: return node
        }
    }

    /// `all` drops `true` children and ends after a `false` one (`any`: the reverse); an
    /// emptied list keeps its meaning (`all []` is true, `any []` false).
    private static func trimmed(_ nodes: [ExpressionNode], skipping skip: Bool, stoppingAt stop: Bool) -> [ExpressionNode] {
        var out: [ExpressionNode] = []
        for node in nodes {
            if case .literal(.bool(skip)) = node { continue }
            out.append(node)
            if case .literal(.bool(stop)) = node { break }
        }
        return out
    }

    private func indexed(_ key: String, _ node: ExpressionNode, _ make: (TileLayerIndex, UInt32) -> IndexedNode,
                         absent: StyleValue) -> Bound {
        guard let layer else { return (node, .feature) }
        guard let k = layer.keyIndex(key) else { return (.literal(absent), []) }
        return (.indexed(make(layer, k)), .feature)
    }

    /// A boolean test of one property: decided per distinct value now. `decide` gets nil for
    /// a feature without the key.
    private func test(_ key: String, _ node: ExpressionNode, _ decide: (StyleValue?) throws(ExpressionFailure) -> Bool) -> Bound {
        guard let layer else { return (node, .feature) }
        let missing = IndexedNode.Verdict { () throws(ExpressionFailure) in try decide(nil) }
        guard let k = layer.keyIndex(key) else {
            // No feature has the key: the verdict is the same for all of them.
            switch missing {
            case .yes: return (.literal(.bool(true)), [])
            case .no: return (.literal(.bool(false)), [])
            case .failure: return (node, .feature)
            }
        }
        let verdicts = layer.table(for: k, filler: IndexedNode.Verdict.failure) { v in
            IndexedNode.Verdict { () throws(ExpressionFailure) in try decide(v) }
        }
        return (.indexed(.test(layer, k, verdicts: verdicts, missing: missing)), .feature)
    }

    private func legacy(_ key: LegacyKey, _ node: ExpressionNode, _ decide: @escaping (StyleValue?) -> Bool) -> Bound {
        switch key {
        case .property(let name):
            return test(name, node) { decide($0) }
        case .geometryType:
            guard let geometryType else { return (node, .feature) }
            return (.literal(.bool(decide(.string(geometryType.rawValue)))), [])
        case .id:
            return (node, .feature)
        }
    }

    private func match(_ key: String, _ node: ExpressionNode, _ labels: LabelTable, _ outputs: [ExpressionNode],
                       _ fallback: ExpressionNode) -> Bound {
        guard let layer else { return rewriteGeneric(node) }
        let (bound, deps) = bindAll(outputs + [fallback])
        let boundOutputs = Array(bound.dropLast())
        let boundFallback = bound[bound.count - 1]
        func branch(_ v: StyleValue) -> Int32 {
            labels.index(of: v).flatMap { $0 < outputs.count ? Int32($0) : nil } ?? -1
        }
        guard let k = layer.keyIndex(key) else {
            let b = branch(.null)
            return (b >= 0 ? boundOutputs[Int(b)] : boundFallback, deps)
        }
        // A match choosing between boolean literals (`["match", ["get", k], [...], true, false]`)
        // is a test of the key's value.
        let booleans = (boundOutputs + [boundFallback]).compactMap { node -> Bool? in
            if case .literal(.bool(let b)) = node { return b }
            return nil
        }
        if booleans.count == outputs.count + 1 {
            func verdict(_ v: StyleValue) -> IndexedNode.Verdict {
                let b = branch(v)
                return booleans[b >= 0 ? Int(b) : outputs.count] ? .yes : .no
            }
            let verdicts = layer.table(for: k, filler: IndexedNode.Verdict.failure, verdict)
            return (.indexed(.test(layer, k, verdicts: verdicts, missing: verdict(.null))), .feature)
        }
        let branches = layer.table(for: k, filler: Int32(-1), branch)
        let node = IndexedNode.match(layer, k, branches: branches, missing: branch(.null), outputs: boundOutputs, fallback: boundFallback)
        return (.indexed(node), deps.union(.feature))
    }
}

extension ExpressionNode {
    var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }

    /// Whether the node, used as a filter, can never yield `true`.
    var neverTrue: Bool {
        switch self {
        case .literal(let v): return v != .bool(true)
        case .all(let items): return items.contains { $0.neverTrue }
        case .any(let items): return items.allSatisfy { $0.neverTrue }
        default: return false
        }
    }
}
