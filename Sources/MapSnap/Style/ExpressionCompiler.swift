/// Compiles JSON expressions, legacy filters and legacy functions into `ExpressionNode`
/// trees, once per style. Operators come from the table in `ExpressionOperators`; literal
/// sub-trees are constant-folded; unsupported MapLibre operators become warnings (and
/// evaluate to null); malformed input is a `StyleError` naming the key path of the
/// offending element. Each expression is held to `Style.maximumExpressionNodes` nodes and
/// `Style.maximumStringBytes` per string.
struct ExpressionCompiler {
    let origin: String
    var log = StyleWarningLog()
    /// `let` bindings, innermost last.
    private var scopes: [[String: Binding]] = []
    /// How many `let` values enclosing scopes bind at run time (their slots come first).
    private var runtimeSlots = 0
    /// Nodes compiled for the current top-level expression.
    private var nodeCount = 0

    struct Compiled {
        var node: ExpressionNode
        var dependencies: ExpressionDependencies
    }

    /// A `let` name: a literal is substituted where it is used; anything else is bound once
    /// at run time in a slot of `EvaluationContext.variables`.
    private enum Binding {
        case inline(Compiled)
        case slot(Int, ExpressionDependencies)
    }

    init(origin: String) {
        self.origin = origin
    }

    /// Whether `name` is an expression operator (known or recognised-but-unsupported).
    static func isOperator(_ name: String) -> Bool { ExpressionOperators.table[name] != nil }

    // MARK: Entry points

    /// A layer `filter`: legacy syntax is detected with MapLibre's rules and converted.
    mutating func compileFilter(_ json: JSONValue, at path: String) throws -> StyleExpression {
        nodeCount = 0
        let compiled = Self.isExpressionFilter(json)
            ? try compile(json, path)
            : Compiled(node: try legacyFilter(json, path), dependencies: .feature)
        return StyleExpression(root: compiled.node, dependencies: compiled.dependencies)
    }

    /// A value expression. With `kind == .color`, string literals in output positions are
    /// parsed as colours now rather than on every evaluation.
    mutating func compileValue(_ json: JSONValue, kind: StylePropertyKind?, at path: String) throws -> StyleExpression {
        nodeCount = 0
        var compiled = try compile(json, path)
        if kind == .color { compiled.node = try coercingColorLiterals(compiled.node, path) }
        return StyleExpression(root: compiled.node, dependencies: compiled.dependencies)
    }

    /// MapLibre's `isExpressionFilter`: tells an expression from the legacy filter syntax.
    static func isExpressionFilter(_ json: JSONValue) -> Bool {
        if case .bool = json { return true }
        guard case .array(let items) = json, case .string(let op)? = items.first else { return false }
        switch op {
        case "has":
            guard items.count >= 2 else { return false }
            return items[1] != .string("$id") && items[1] != .string("$type")
        case "in":
            guard items.count >= 3 else { return false }
            if case .string = items[1] {
                if case .array = items[2] { return true }
                return false
            }
            return true
        case "!in", "!has", "none":
            return false
        case "==", "!=", ">", ">=", "<", "<=":
            guard items.count == 3 else { return true }
            if case .array = items[1] { return true }
            if case .array = items[2] { return true }
            return false
        case "any", "all":
            for item in items.dropFirst() {
                if case .bool = item { continue }
                if !isExpressionFilter(item) { return false }
            }
            return true
        default:
            return true
        }
    }

    // MARK: Expressions

    func fail(_ path: String, _ reason: String) -> StyleError {
        .invalidExpression(origin: origin, keyPath: path, reason: reason)
    }

    /// Counts `count` more nodes against `Style.maximumExpressionNodes`.
    mutating func spend(_ count: Int, _ path: String) throws {
        nodeCount += count
        guard nodeCount <= Style.maximumExpressionNodes else {
            throw StyleError.limitExceeded(origin: origin, keyPath: path,
                                           reason: "expression has more than \(Style.maximumExpressionNodes) nodes")
        }
    }

    /// A string from the style, refused past `Style.maximumStringBytes`.
    func checkedString(_ s: String, _ path: String) throws -> String {
        guard s.utf8.count <= Style.maximumStringBytes else {
            throw StyleError.limitExceeded(origin: origin, keyPath: path,
                                           reason: "string of \(s.utf8.count) bytes is longer than \(Style.maximumStringBytes)")
        }
        return s
    }

    mutating func compile(_ json: JSONValue, _ path: String) throws -> Compiled {
        try spend(1, path)
        switch json {
        case .null: return Compiled(node: .literal(.null), dependencies: [])
        case .bool(let b): return Compiled(node: .literal(.bool(b)), dependencies: [])
        case .number(let n): return Compiled(node: .literal(.number(n)), dependencies: [])
        case .string(let s): return Compiled(node: .literal(.string(try checkedString(s, path))), dependencies: [])
        case .array(let items):
            guard let first = items.first else { throw fail(path, "empty array; write [\"literal\", []] for an empty list") }
            guard case .string(let op) = first else {
                throw fail(path + "[0]", "expected an operator name, found \(first.typeName) \(first.excerpt); wrap array values in [\"literal\", …]")
            }
            var compiled = try compileOperator(op, Array(items.dropFirst()), path)
            // Constant folding: a sub-tree that reads neither zoom nor feature is evaluated
            // now; one that fails is kept so it fails (to the default) at evaluation as well,
            // except when it fails on a limit, which is the style's error.
            if compiled.dependencies.isEmpty {
                var context = EvaluationContext(feature: NoFeature(), zoom: 0)
                do {
                    compiled.node = .literal(try compiled.node.evaluate(&context))
                } catch where error.exceededLimit {
                    throw StyleError.limitExceeded(origin: origin, keyPath: path,
                                                   reason: "builds a string longer than \(Style.maximumStringBytes) bytes")
                } catch {}
            }
            return compiled
        default:
            throw fail(path, "an object is not an expression")
        }
    }

    func argPath(_ path: String, _ index: Int) -> String { "\(path)[\(index + 1)]" }

    private mutating func compileOperator(_ op: String, _ args: [JSONValue], _ path: String) throws -> Compiled {
        guard let definition = ExpressionOperators.table[op] else {
            let close = ExpressionOperators.names(closeTo: op)
            let hint = close.isEmpty ? "" : "; did you mean " + close.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
            throw fail(path, "unknown expression operator \"\(op)\"\(hint)")
        }
        guard definition.arity.accepts(args.count) else {
            throw fail(path, "\"\(op)\" expects \(definition.arity.text) argument(s), found \(args.count)")
        }
        switch definition.form {
        case .unary(let function):
            let arg = try compile(args[0], argPath(path, 0))
            return Compiled(node: .unary(function, arg.node), dependencies: arg.dependencies)
        case .binary(let function):
            return try compileNodes(args, path) { .binary(function, $0[0], $0[1]) }
        case .variadic(let function):
            return try compileNodes(args, path) { .variadic(function, $0) }
        case .coercion(let coercion):
            return try compileNodes(args, path) { .coerce(coercion, $0) }
        case .call(let function):
            return try compileNodes(args, path) { .call(function, $0) }
        case .leaf(let node, let dependencies):
            return Compiled(node: node, dependencies: dependencies)
        case .special(let build):
            return try build(&self, args, path)
        case .unsupported:
            return unsupported(op, path)
        }
    }

    mutating func unsupported(_ what: String, _ path: String) -> Compiled {
        log.add(.unsupportedExpression(what), at: path)
        return Compiled(node: .unsupported(what), dependencies: .feature)
    }

    /// Compiles every argument and builds one node from them.
    mutating func compileNodes(_ args: [JSONValue], _ path: String, from start: Int = 0,
                               _ make: ([ExpressionNode]) -> ExpressionNode) throws -> Compiled {
        var nodes: [ExpressionNode] = []
        var deps: ExpressionDependencies = []
        for i in start..<max(start, args.count) {
            let c = try compile(args[i], argPath(path, i))
            nodes.append(c.node)
            deps.formUnion(c.dependencies)
        }
        return Compiled(node: make(nodes), dependencies: deps)
    }

    // MARK: Special forms (builders of the operator table)

    mutating func compileLiteral(_ args: [JSONValue], _ path: String) throws -> Compiled {
        Compiled(node: .literal(try literalValue(args[0], argPath(path, 0))), dependencies: [])
    }

    mutating func compileGet(_ args: [JSONValue], _ path: String, has: Bool) throws -> Compiled {
        let op = has ? "has" : "get"
        if args.count == 2 {
            guard case .array(let obj) = args[1], obj == [.string("properties")] else {
                return unsupported("\(op) with an object argument", path)
            }
        }
        if case .string(let key) = args[0] {
            return Compiled(node: has ? .has(key) : .get(key), dependencies: .feature)
        }
        let key = try compile(args[0], argPath(path, 0))
        let getNode: ExpressionNode = .getDynamic(key.node)
        let node: ExpressionNode = has ? .unary(.not, .compare(.equal, getNode, .literal(.null))) : getNode
        return Compiled(node: node, dependencies: key.dependencies.union(.feature))
    }

    mutating func compileComparison(_ comparison: ComparisonOperator, _ args: [JSONValue], _ path: String) throws -> Compiled {
        if args.count == 3 { log.add(.unsupportedExpression("collator argument of comparisons"), at: path) }
        let lhs = try compile(args[0], argPath(path, 0))
        let rhs = try compile(args[1], argPath(path, 1))
        let deps = lhs.dependencies.union(rhs.dependencies)
        switch (lhs.node, rhs.node) {
        case (.get(let key), .literal(let v)):
            return Compiled(node: .compareProperty(comparison, key: key, v), dependencies: deps)
        case (.literal(let v), .get(let key)):
            return Compiled(node: .compareProperty(Self.flipped(comparison), key: key, v), dependencies: deps)
        default:
            return Compiled(node: .compare(comparison, lhs.node, rhs.node), dependencies: deps)
        }
    }

    mutating func compileLogic(_ args: [JSONValue], _ path: String, _ make: ([ExpressionNode]) -> ExpressionNode) throws -> Compiled {
        try compileNodes(args, path, make)
    }

    mutating func compileIn(_ args: [JSONValue], _ path: String) throws -> Compiled {
        let needle = try compile(args[0], argPath(path, 0))
        let haystack = try compile(args[1], argPath(path, 1))
        if case .literal(.array(let items)) = haystack.node {
            return Compiled(node: .inSet(needle.node, ValueSet(items)), dependencies: needle.dependencies)
        }
        return Compiled(node: .inValue(needle.node, haystack.node), dependencies: needle.dependencies.union(haystack.dependencies))
    }

    mutating func compileMatch(_ args: [JSONValue], _ path: String) throws -> Compiled {
        guard args.count >= 4, args.count % 2 == 0 else {
            throw fail(path, "\"match\" expects an input, label/output pairs and a fallback; found \(args.count) argument(s)")
        }
        let input = try compile(args[0], argPath(path, 0))
        var deps = input.dependencies
        var labels: [StyleValue: Int] = [:]
        var outputs: [ExpressionNode] = []
        var i = 1
        while i + 1 < args.count {
            let labelPath = argPath(path, i)
            let labelValues: [JSONValue]
            if case .array(let list) = args[i] {
                guard !list.isEmpty else { throw fail(labelPath, "empty label list") }
                labelValues = list
            } else {
                labelValues = [args[i]]
            }
            try spend(labelValues.count, labelPath)
            for label in labelValues {
                let key: StyleValue
                switch label {
                case .string(let s): key = .string(try checkedString(s, labelPath))
                case .number(let n): key = .number(n)
                default: throw fail(labelPath, "match labels must be strings or numbers, found \(label.typeName)")
                }
                // MapLibre rejects duplicates; the first occurrence wins here.
                if labels[key] == nil { labels[key] = outputs.count }
            }
            let out = try compile(args[i + 1], argPath(path, i + 1))
            outputs.append(out.node)
            deps.formUnion(out.dependencies)
            i += 2
        }
        let fallback = try compile(args[args.count - 1], argPath(path, args.count - 1))
        deps.formUnion(fallback.dependencies)
        return Compiled(node: .match(input.node, labels: LabelTable(labels), outputs: outputs, fallback: fallback.node), dependencies: deps)
    }

    mutating func compileCase(_ args: [JSONValue], _ path: String) throws -> Compiled {
        guard args.count >= 3, args.count % 2 == 1 else {
            throw fail(path, "\"case\" expects condition/output pairs and a fallback; found \(args.count) argument(s)")
        }
        return try compileNodes(args, path) { nodes in
            let pairs = nodes.count - 1
            return .caseOf(conditions: stride(from: 0, to: pairs, by: 2).map { nodes[$0] },
                           outputs: stride(from: 1, to: pairs, by: 2).map { nodes[$0] }, fallback: nodes[pairs])
        }
    }

    /// MapLibre: `["interpolate", type, input, stop, output, …]` with at least one stop.
    mutating func compileInterpolate(_ args: [JSONValue], _ path: String) throws -> Compiled {
        let kind = try interpolation(args.first ?? .null, argPath(path, 0))
        guard args.count >= 4, args.count % 2 == 0 else {
            throw fail(path, "\"interpolate\" expects a type, an input and stop/output pairs; found \(args.count) argument(s)")
        }
        let input = try compile(args[1], argPath(path, 1))
        let (stops, outputs, deps) = try stopPairs(args, from: 2, path)
        return Compiled(node: .interpolate(kind, input.node, stops: stops, outputs: outputs),
                        dependencies: deps.union(input.dependencies))
    }

    /// MapLibre: `["step", input, output0, stop, output, …]` with at least one stop.
    mutating func compileStep(_ args: [JSONValue], _ path: String) throws -> Compiled {
        guard args.count >= 4, args.count % 2 == 0 else {
            throw fail(path, "\"step\" expects an input, a default output and stop/output pairs; found \(args.count) argument(s)")
        }
        let input = try compile(args[0], argPath(path, 0))
        let first = try compile(args[1], argPath(path, 1))
        let (stops, outputs, deps) = try stopPairs(args, from: 2, path)
        return Compiled(node: .step(input.node, first: first.node, stops: stops, outputs: outputs),
                        dependencies: deps.union(input.dependencies).union(first.dependencies))
    }

    /// `format`, reduced to plain text: each section's text, style options (`{…}`) dropped.
    mutating func compileFormat(_ args: [JSONValue], _ path: String) throws -> Compiled {
        var nodes: [ExpressionNode] = []
        var deps: ExpressionDependencies = []
        for (i, arg) in args.enumerated() {
            if arg.isObject { continue }
            let c = try compile(arg, argPath(path, i))
            nodes.append(c.node)
            deps.formUnion(c.dependencies)
        }
        return Compiled(node: .concat(nodes), dependencies: deps)
    }

    /// `let`: literal values are substituted; others get a run-time slot, evaluated at most
    /// once per evaluation, so nesting costs linear time whatever the number of `var`s.
    mutating func compileLet(_ args: [JSONValue], _ path: String) throws -> Compiled {
        guard args.count >= 3, args.count % 2 == 1 else {
            throw fail(path, "\"let\" expects name/value pairs and a body; found \(args.count) argument(s)")
        }
        var scope: [String: Binding] = [:]
        var values: [ExpressionNode] = []
        for i in stride(from: 0, to: args.count - 1, by: 2) {
            guard case .string(let name) = args[i] else {
                throw fail(argPath(path, i), "variable names must be strings, found \(args[i].typeName)")
            }
            let value = try compile(args[i + 1], argPath(path, i + 1))
            if case .literal = value.node {
                scope[name] = .inline(value)
            } else {
                scope[name] = .slot(runtimeSlots + values.count, value.dependencies)
                values.append(value.node)
            }
        }
        let base = runtimeSlots
        scopes.append(scope)
        runtimeSlots += values.count
        defer {
            scopes.removeLast()
            runtimeSlots = base
        }
        let body = try compile(args[args.count - 1], argPath(path, args.count - 1))
        guard !values.isEmpty else { return body }
        return Compiled(node: .letBinding(base: base, values: values, body: body.node), dependencies: body.dependencies)
    }

    mutating func compileVar(_ args: [JSONValue], _ path: String) throws -> Compiled {
        guard case .string(let name) = args[0] else { throw fail(argPath(path, 0), "variable name must be a string") }
        for scope in scopes.reversed() {
            switch scope[name] {
            case .inline(let compiled)?: return compiled
            case .slot(let slot, let dependencies)?: return Compiled(node: .variable(slot), dependencies: dependencies)
            case nil: continue
            }
        }
        throw fail(path, "unknown variable \"\(name)\"")
    }

    private static func flipped(_ op: ComparisonOperator) -> ComparisonOperator {
        switch op {
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return op
        }
    }

    /// MapLibre's interpolation types: `["linear"]` (further items ignored, as MapLibre does:
    /// OpenFreeMap writes `["linear", 1]`), `["exponential", base]` (further items ignored),
    /// `["cubic-bezier", x1, y1, x2, y2]` with all four in 0…1.
    private func interpolation(_ json: JSONValue, _ path: String) throws -> Interpolation {
        guard case .array(let items) = json, let first = items.first else {
            throw fail(path, "interpolation type must be [\"linear\"], [\"exponential\", base] or [\"cubic-bezier\", x1, y1, x2, y2]")
        }
        switch first {
        case .string("linear"):
            return .linear
        case .string("exponential"):
            guard items.count >= 2, case .number(let base) = items[1], base.isFinite else {
                throw fail(path + "[1]", "exponential interpolation needs a numeric base")
            }
            return base == 1 ? .linear : .exponential(base: base)
        case .string("cubic-bezier"):
            let points = items.dropFirst().compactMap { item -> Double? in
                if case .number(let n) = item, (0...1).contains(n) { return n }
                return nil
            }
            guard items.count == 5, points.count == 4 else {
                throw fail(path, "cubic-bezier needs four numbers in 0…1")
            }
            return .cubicBezier(x1: points[0], y1: points[1], x2: points[2], y2: points[3])
        default:
            throw fail(path + "[0]", "unknown interpolation \(first.excerpt)")
        }
    }

    private mutating func stopPairs(_ args: [JSONValue], from start: Int, _ path: String) throws
        -> ([Double], [ExpressionNode], ExpressionDependencies) {
        var stops: [Double] = []
        var outputs: [ExpressionNode] = []
        var deps: ExpressionDependencies = []
        var i = start
        while i + 1 < args.count {
            guard case .number(let stop) = args[i], stop.isFinite else {
                throw fail(argPath(path, i), "stop inputs must be number literals, found \(args[i].typeName)")
            }
            if let previous = stops.last, stop <= previous {
                throw fail(argPath(path, i), "stop inputs must be in ascending order (\(StyleValue.formatNumber(stop)) after \(StyleValue.formatNumber(previous)))")
            }
            let out = try compile(args[i + 1], argPath(path, i + 1))
            stops.append(stop)
            outputs.append(out.node)
            deps.formUnion(out.dependencies)
            i += 2
        }
        return (stops, outputs, deps)
    }

    /// A JSON literal as a value; objects are not representable.
    mutating func literalValue(_ json: JSONValue, _ path: String) throws -> StyleValue {
        try spend(1, path)
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(try checkedString(s, path))
        case .array(let items):
            var out: [StyleValue] = []
            for (i, item) in items.enumerated() { out.append(try literalValue(item, "\(path)[\(i)]")) }
            return .array(out)
        default:
            throw fail(path, "object literals are not supported")
        }
    }

    /// Parses colour strings in output positions (stops, branches, fallbacks).
    func coercingColorLiterals(_ node: ExpressionNode, _ path: String) throws -> ExpressionNode {
        switch node {
        case .literal(.string(let s)):
            guard let color = CSSColor.parse(s) else {
                throw StyleError.invalidValue(origin: origin, keyPath: path, reason: "\"\(s)\" is not a CSS colour")
            }
            return .literal(.color(color))
        case .match(let input, let labels, let outputs, let fallback):
            return .match(input, labels: labels, outputs: try outputs.map { try coercingColorLiterals($0, path) },
                          fallback: try coercingColorLiterals(fallback, path))
        case .caseOf(let conditions, let outputs, let fallback):
            return .caseOf(conditions: conditions, outputs: try outputs.map { try coercingColorLiterals($0, path) },
                           fallback: try coercingColorLiterals(fallback, path))
        case .coalesce(let items):
            return .coalesce(try items.map { try coercingColorLiterals($0, path) })
        case .interpolate(let kind, let input, let stops, let outputs):
            return .interpolate(kind, input, stops: stops, outputs: try outputs.map { try coercingColorLiterals($0, path) })
        case .step(let input, let first, let stops, let outputs):
            return .step(input, first: try coercingColorLiterals(first, path), stops: stops,
                         outputs: try outputs.map { try coercingColorLiterals($0, path) })
        case .letBinding(let base, let values, let body):
            return .letBinding(base: base, values: values, body: try coercingColorLiterals(body, path))
        default:
            return node
        }
    }

    // MARK: Legacy filters

    /// Converts the pre-expression filter syntax with its own semantics: strict equality, a
    /// missing property makes `==`/`<`/`in` false and `!=`/`!in` true.
    mutating func legacyFilter(_ json: JSONValue, _ path: String) throws -> ExpressionNode {
        try spend(1, path)
        if case .bool(let b) = json { return .literal(.bool(b)) }
        guard case .array(let items) = json, case .string(let op)? = items.first else {
            throw fail(path, "a filter must be an array starting with an operator, found \(json.excerpt)")
        }
        switch op {
        case "all", "any", "none":
            var children: [ExpressionNode] = []
            for (i, item) in items.enumerated().dropFirst() {
                children.append(try legacyFilter(item, "\(path)[\(i)]"))
            }
            switch op {
            case "all": return .all(children)
            case "any": return .any(children)
            default: return .unary(.not, .any(children))
            }
        case "==", "!=", "<", "<=", ">", ">=":
            guard items.count == 3 else { throw fail(path, "legacy \"\(op)\" filter expects a key and a value, found \(items.count - 1) argument(s)") }
            guard let comparison = ComparisonOperator(rawValue: op) else { throw fail(path, "unknown comparison \(op)") }
            let key = try legacyKey(items[1], "\(path)[1]")
            let value = try legacyScalar(items[2], "\(path)[2]")
            return .legacyCompare(comparison, key, value)
        case "in", "!in":
            guard items.count >= 2 else { throw fail(path, "legacy \"\(op)\" filter expects a key") }
            try spend(items.count, path)
            let key = try legacyKey(items[1], "\(path)[1]")
            var values: [StyleValue] = []
            for i in 2..<items.count { values.append(try legacyScalar(items[i], "\(path)[\(i)]")) }
            let node: ExpressionNode = .legacyIn(key, ValueSet(values))
            return op == "in" ? node : .unary(.not, node)
        case "has", "!has":
            guard items.count == 2 else { throw fail(path, "legacy \"\(op)\" filter expects exactly one key") }
            let node: ExpressionNode = .legacyHas(try legacyKey(items[1], "\(path)[1]"))
            return op == "has" ? node : .unary(.not, node)
        default:
            throw fail("\(path)[0]", "unknown legacy filter operator \"\(op)\"")
        }
    }

    private func legacyKey(_ json: JSONValue, _ path: String) throws -> LegacyKey {
        guard case .string(let key) = json else { throw fail(path, "legacy filter key must be a string, found \(json.typeName)") }
        switch key {
        case "$type": return .geometryType
        case "$id": return .id
        default: return .property(key)
        }
    }

    private func legacyScalar(_ json: JSONValue, _ path: String) throws -> StyleValue {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(try checkedString(s, path))
        default: throw fail(path, "legacy filter values must be strings, numbers or booleans, found \(json.typeName)")
        }
    }
}

extension JSONValue {
    /// Whether the value is a JSON object (matched without its payload, whatever holds it).
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}
