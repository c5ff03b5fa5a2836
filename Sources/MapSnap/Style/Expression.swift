/// A style expression (or filter) compiled once at load time into an evaluable tree.
///
/// Evaluation never walks JSON and, for the common filter shapes (a comparison of `get`
/// with a literal, `match` on a property, `in` against a literal list, `all`/`any` of
/// those), does not allocate. Runtime type errors follow MapLibre: the whole expression
/// fails, so a filter is false and a property takes its default.
///
/// Cost is bounded: a compiled tree has at most `Style.maximumExpressionNodes` nodes, `let`
/// bindings are evaluated once per evaluation (never expanded), and no string longer than
/// `Style.maximumStringBytes` is ever built.
struct StyleExpression: Sendable {
    let root: ExpressionNode
    let dependencies: ExpressionDependencies

    init(root: ExpressionNode, dependencies: ExpressionDependencies) {
        self.root = root
        self.dependencies = dependencies
    }

    /// A constant expression.
    init(constant value: StyleValue) {
        self.init(root: .literal(value), dependencies: [])
    }

    /// Whether the result depends on the map zoom.
    var dependsOnZoom: Bool { dependencies.contains(.zoom) }
    /// Whether the result depends on the feature (properties, geometry type or id).
    var dependsOnFeature: Bool { dependencies.contains(.feature) }
    /// Whether the expression always yields the same value.
    var isConstant: Bool { dependencies.isEmpty }
    /// Whether the result depends on the zoom only, so it can be evaluated once per render.
    var isZoomOnly: Bool { dependencies == .zoom }

    /// Evaluates for a feature; `.null` when evaluation fails (a MapLibre runtime error).
    func evaluate<F: StyleFeature>(zoom: Double, feature: F) -> StyleValue {
        var context = EvaluationContext(feature: feature, zoom: zoom)
        do {
            return try root.evaluate(&context)
        } catch {
            return .null
        }
    }

    /// Evaluates without a feature: property lookups yield null.
    func evaluate(zoom: Double) -> StyleValue {
        evaluate(zoom: zoom, feature: NoFeature())
    }

    /// Evaluates as a filter: true only when the result is the boolean `true`.
    func matches<F: StyleFeature>(_ feature: F, zoom: Double) -> Bool {
        evaluate(zoom: zoom, feature: feature) == .bool(true)
    }
}

/// What an expression reads besides its literals.
struct ExpressionDependencies: OptionSet, Sendable {
    let rawValue: UInt8
    static let zoom = ExpressionDependencies(rawValue: 1)
    static let feature = ExpressionDependencies(rawValue: 2)
}

/// The feature used when evaluating without one.
struct NoFeature: StyleFeature {
    init() {}
    func value(forKey key: String) -> FeatureValue? { nil }
    var geometryType: GeometryType { .point }
    var featureID: UInt64? { nil }
}

/// A MapLibre runtime evaluation error. Carries one flag so throwing stays free; the flag
/// tells a resource limit (a string longer than `Style.maximumStringBytes`) from a type
/// error, so constant folding can report the limit with its key path.
struct ExpressionFailure: Error {
    var exceededLimit = false
}

/// What one evaluation reads: the feature, the zoom and the `let` bindings in scope
/// (innermost last). Passed `inout` down the tree, so it is never copied.
struct EvaluationContext<F: StyleFeature> {
    /// A `let` binding: evaluated at its first `var`, then remembered. Lazy like MapLibre
    /// (an unused binding that would fail does not fail the expression), once like a
    /// variable (each `var` does not re-evaluate it, so nesting cannot blow up).
    enum Binding {
        case pending(ExpressionNode)
        case evaluated(StyleValue)
    }

    let feature: F
    let zoom: Double
    var variables: [Binding] = []

    init(feature: F, zoom: Double) {
        self.feature = feature
        self.zoom = zoom
    }
}

enum ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// The subject of a legacy filter comparison: a property, `$type` or `$id`.
enum LegacyKey: Sendable {
    case property(String)
    case geometryType
    case id
}

enum Interpolation: Sendable, Equatable {
    case linear
    case exponential(base: Double)
    case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
}

/// The compiled expression tree. Built by `ExpressionCompiler`; the operators that are
/// plain functions of their evaluated arguments carry their function (from the operator
/// table, `ExpressionOperators`) instead of having a case each.
indirect enum ExpressionNode: Sendable {
    case literal(StyleValue)
    case get(String)
    case getDynamic(ExpressionNode)
    case has(String)
    case geometryType
    case id
    case zoom
    /// `["==", ["get", key], literal]` and friends: the filter fast path.
    case compareProperty(ComparisonOperator, key: String, StyleValue)
    case compare(ComparisonOperator, ExpressionNode, ExpressionNode)
    case legacyCompare(ComparisonOperator, LegacyKey, StyleValue)
    case legacyIn(LegacyKey, ValueSet)
    case legacyHas(LegacyKey)
    case inSet(ExpressionNode, ValueSet)
    case inValue(ExpressionNode, ExpressionNode)
    case all([ExpressionNode])
    case any([ExpressionNode])
    case match(ExpressionNode, labels: LabelTable, outputs: [ExpressionNode], fallback: ExpressionNode)
    case caseOf(conditions: [ExpressionNode], outputs: [ExpressionNode], fallback: ExpressionNode)
    case coalesce([ExpressionNode])
    case interpolate(Interpolation, ExpressionNode, stops: [Double], outputs: [ExpressionNode])
    case step(ExpressionNode, first: ExpressionNode, stops: [Double], outputs: [ExpressionNode])
    /// A one-argument function (`!`, `abs`, `to-string`, …).
    case unary(UnaryFunction, ExpressionNode)
    /// A two-number function (`-`, `/`, `%`, `^`).
    case binary(BinaryFunction, ExpressionNode, ExpressionNode)
    /// A fold over one or more numbers (`+`, `*`, `min`, `max`).
    case variadic(VariadicFunction, [ExpressionNode])
    /// The first argument that converts (`to-number`, `to-color`) or has the asserted type
    /// (`string`, `number`, …); a runtime error when none does.
    case coerce(Coercion, [ExpressionNode])
    /// A function of all its evaluated arguments (`rgba`, `at`).
    case call(NaryFunction, [ExpressionNode])
    case concat([ExpressionNode])
    /// `let`: the body sees the values as variables; each is evaluated at most once.
    /// Its values take the slots from `base` on; they see only the slots below `base`.
    case letBinding(base: Int, values: [ExpressionNode], body: ExpressionNode)
    /// `var`: the binding at this position of `EvaluationContext.variables`.
    case variable(Int)
    /// A legacy function with a `default`: the value when evaluation fails or yields null.
    case fallback(ExpressionNode, StyleValue)
    /// A MapLibre operator we do not implement: evaluates to null.
    case unsupported(String)
    /// Produced by binding to a vector-tile layer (`ExpressionNode.bound(to:)`).
    case indexed(IndexedNode)

    /// Evaluates the tree. The feature is generic (not boxed, not optional) so specialised
    /// code needs no runtime type metadata; `NoFeature` stands in when there is none.
    func evaluate<F: StyleFeature>(_ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        switch self {
        case .literal(let v):
            return v
        case .get(let key):
            return c.feature.value(forKey: key).map(StyleValue.init) ?? .null
        case .getDynamic(let keyNode):
            guard case .string(let key) = try keyNode.evaluate(&c) else { throw ExpressionFailure() }
            return c.feature.value(forKey: key).map(StyleValue.init) ?? .null
        case .has(let key):
            return .bool(c.feature.value(forKey: key) != nil)
        case .geometryType:
            if F.self == NoFeature.self { return .null }
            return .string(c.feature.geometryType.rawValue)
        case .id:
            return c.feature.featureID.map { .number(Double($0)) } ?? .null
        case .zoom:
            return .number(c.zoom)
        case .compareProperty(let op, let key, let literal):
            return .bool(try Self.compare(op, c.feature.value(forKey: key).map(StyleValue.init) ?? .null, literal))
        case .compare(let op, let lhs, let rhs):
            return .bool(try Self.compare(op, try lhs.evaluate(&c), try rhs.evaluate(&c)))
        case .legacyCompare(let op, let key, let literal):
            return .bool(Self.legacyCompare(op, Self.legacyValue(key, c.feature), literal))
        case .legacyIn(let key, let set):
            return .bool(Self.legacyValue(key, c.feature).map(set.contains) ?? false)
        case .legacyHas(let key):
            return .bool(Self.legacyValue(key, c.feature) != nil)
        case .inSet(let needle, let set):
            return .bool(set.contains(try Self.checkedNeedle(try needle.evaluate(&c))))
        case .inValue(let needle, let haystack):
            return try Self.contains(try haystack.evaluate(&c), try Self.checkedNeedle(try needle.evaluate(&c)))
        case .all(let items):
            return try Self.all(items, &c)
        case .any(let items):
            return try Self.any(items, &c)
        case .match(let input, let labels, let outputs, let fallback):
            let index = labels.index(of: try input.evaluate(&c))
            return try (index.flatMap { $0 < outputs.count ? outputs[$0] : nil } ?? fallback).evaluate(&c)
        case .caseOf(let conditions, let outputs, let fallback):
            return try Self.caseOf(conditions, outputs, fallback, &c)
        case .coalesce(let items):
            return try Self.coalesce(items, &c)
        case .interpolate(let kind, let input, let stops, let outputs):
            return try Self.interpolate(kind, input, stops: stops, outputs: outputs, &c)
        case .step(let input, let first, let stops, let outputs):
            return try Self.step(input, first, stops: stops, outputs: outputs, &c)
        case .unary(let function, let arg):
            return try function.apply(try arg.evaluate(&c))
        case .binary(let function, let lhs, let rhs):
            guard case .number(let a) = try lhs.evaluate(&c), case .number(let b) = try rhs.evaluate(&c) else { throw ExpressionFailure() }
            return .number(function.apply(a, b))
        case .variadic(let function, let args):
            return try Self.fold(function, args, &c)
        case .coerce(let coercion, let args):
            return try Self.coerce(coercion, args, &c)
        case .call(let function, let args):
            var values: [StyleValue] = []
            values.reserveCapacity(args.count)
            for arg in args { values.append(try arg.evaluate(&c)) }
            return try function.apply(values)
        case .concat(let args):
            return try Self.concat(args, &c)
        case .letBinding(let base, let values, let body):
            return try Self.letBinding(base, values, body, &c)
        case .variable(let slot):
            return try Self.variable(slot, &c)
        case .fallback(let node, let value):
            guard let v = try? node.evaluate(&c), v != .null else { return value }
            return v
        case .unsupported:
            return .null
        case .indexed(let node):
            return try node.evaluate(&c)
        }
    }
}
