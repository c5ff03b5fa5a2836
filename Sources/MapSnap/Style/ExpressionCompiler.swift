/// Compiles JSON expressions, legacy filters and legacy functions into `ExpressionNode`
/// trees, once per style. Literal sub-trees are constant-folded; unsupported MapLibre
/// operators become warnings (and evaluate to null); malformed input is a `StyleError`
/// naming the key path of the offending element.
struct ExpressionCompiler {
    let origin: String
    var log = StyleWarningLog()
    /// `let` bindings, innermost last. `var` inlines the bound tree: expressions are pure,
    /// so re-evaluating is equivalent and keeps evaluation free of environments.
    private var scopes: [[String: Compiled]] = []

    struct Compiled {
        var node: ExpressionNode
        var dependencies: ExpressionDependencies
    }

    init(origin: String) {
        self.origin = origin
    }

    /// Every operator name this compiler accepts, for telling a literal string array
    /// (`text-font: ["Noto Sans Regular"]`) from an expression.
    static let operatorNames: Set<String> = unsupportedOperators.union([
        "literal", "get", "has", "properties", "geometry-type", "id", "zoom", "==", "!=", "<", "<=", ">", ">=",
        "all", "any", "none", "in", "match", "case", "coalesce", "interpolate", "step", "-", "+", "*", "min", "max",
        "/", "%", "^", "e", "pi", "ln2", "string", "number", "boolean", "array", "to-number", "to-color", "concat",
        "format", "image", "rgb", "rgba", "to-rgba", "at", "let", "var", "to-string", "to-boolean", "upcase",
        "downcase", "!", "abs", "round", "floor", "ceil", "length", "sqrt", "ln", "log10", "log2", "sin", "cos",
        "tan", "asin", "acos", "atan", "typeof",
    ])

    /// MapLibre operators we recognise but do not evaluate.
    static let unsupportedOperators: Set<String> = [
        "collator", "resolved-locale", "is-supported-script", "feature-state", "heatmap-density",
        "line-progress", "accumulated", "within", "distance", "number-format", "index-of", "slice",
        "object", "interpolate-hcl", "interpolate-lab", "global-state", "elevation", "split", "join",
    ]

    // MARK: Entry points

    /// A layer `filter`: legacy syntax is detected with MapLibre's rules and converted.
    mutating func compileFilter(_ json: JSONValue, at path: String) throws -> StyleExpression {
        let compiled = Self.isExpressionFilter(json)
            ? try compile(json, path)
            : Compiled(node: try legacyFilter(json, path), dependencies: .feature)
        return StyleExpression(root: compiled.node, dependencies: compiled.dependencies)
    }

    /// A value expression. With `kind == .color`, string literals in output positions are
    /// parsed as colours now rather than on every evaluation.
    mutating func compileValue(_ json: JSONValue, kind: StylePropertyKind?, at path: String) throws -> StyleExpression {
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

    private func fail(_ path: String, _ reason: String) -> StyleError {
        .invalidExpression(origin: origin, keyPath: path, reason: reason)
    }

    mutating func compile(_ json: JSONValue, _ path: String) throws -> Compiled {
        switch json {
        case .null: return Compiled(node: .literal(.null), dependencies: [])
        case .bool(let b): return Compiled(node: .literal(.bool(b)), dependencies: [])
        case .number(let n): return Compiled(node: .literal(.number(n)), dependencies: [])
        case .string(let s): return Compiled(node: .literal(.string(s)), dependencies: [])
        case .object:
            throw fail(path, "an object is not an expression")
        case .array(let items):
            guard let first = items.first else { throw fail(path, "empty array; write [\"literal\", []] for an empty list") }
            guard case .string(let op) = first else {
                throw fail(path + "[0]", "expected an operator name, found \(first.typeName) \(first.excerpt); wrap array values in [\"literal\", …]")
            }
            var compiled = try compileOperator(op, Array(items.dropFirst()), path)
            // Constant folding: a sub-tree that reads neither zoom nor feature is evaluated
            // now; one that fails is kept so it fails (to the default) at evaluation as well.
            if compiled.dependencies.isEmpty,
               let value = try? compiled.node.evaluate(NoFeature(), 0) {
                compiled.node = .literal(value)
            }
            return compiled
        }
    }

    private func argPath(_ path: String, _ index: Int) -> String { "\(path)[\(index + 1)]" }

    private func expectCount(_ args: [JSONValue], _ range: ClosedRange<Int>, _ op: String, _ path: String) throws {
        guard range.contains(args.count) else {
            let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
            throw fail(path, "\"\(op)\" expects \(expected) argument(s), found \(args.count)")
        }
    }

    private mutating func compileArgs(_ args: [JSONValue], _ path: String, from start: Int = 0) throws -> ([ExpressionNode], ExpressionDependencies) {
        var nodes: [ExpressionNode] = []
        var deps: ExpressionDependencies = []
        for i in start..<args.count {
            let c = try compile(args[i], argPath(path, i))
            nodes.append(c.node)
            deps.formUnion(c.dependencies)
        }
        return (nodes, deps)
    }

    private mutating func compileOperator(_ op: String, _ args: [JSONValue], _ path: String) throws -> Compiled {
        switch op {
        case "literal":
            try expectCount(args, 1...1, op, path)
            return Compiled(node: .literal(try literalValue(args[0], argPath(path, 0))), dependencies: [])

        case "get", "has":
            try expectCount(args, 1...2, op, path)
            if args.count == 2 {
                guard case .array(let obj) = args[1], obj == [.string("properties")] else {
                    log.add(.unsupportedExpression("\(op) with an object argument"), at: path)
                    return Compiled(node: .unsupported(op), dependencies: .feature)
                }
            }
            if case .string(let key) = args[0] {
                return Compiled(node: op == "get" ? .get(key) : .has(key), dependencies: .feature)
            }
            let key = try compile(args[0], argPath(path, 0))
            let getNode: ExpressionNode = .getDynamic(key.node)
            let node: ExpressionNode = op == "get" ? getNode : .unary(.not, .compare(.equal, getNode, .literal(.null)))
            return Compiled(node: node, dependencies: key.dependencies.union(.feature))

        case "properties":
            log.add(.unsupportedExpression("properties"), at: path)
            return Compiled(node: .unsupported(op), dependencies: .feature)

        case "geometry-type", "id", "zoom":
            try expectCount(args, 0...0, op, path)
            switch op {
            case "zoom": return Compiled(node: .zoom, dependencies: .zoom)
            case "id": return Compiled(node: .id, dependencies: .feature)
            default: return Compiled(node: .geometryType, dependencies: .feature)
            }

        case "==", "!=", "<", "<=", ">", ">=":
            try expectCount(args, 2...3, op, path)
            if args.count == 3 { log.add(.unsupportedExpression("collator argument of comparisons"), at: path) }
            guard let comparison = ComparisonOperator(rawValue: op) else { throw fail(path, "unknown comparison \(op)") }
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

        case "all", "any", "none":
            let (nodes, deps) = try compileArgs(args, path)
            switch op {
            case "all": return Compiled(node: .all(nodes), dependencies: deps)
            case "any": return Compiled(node: .any(nodes), dependencies: deps)
            default: return Compiled(node: .unary(.not, .any(nodes)), dependencies: deps)
            }

        case "in":
            try expectCount(args, 2...2, op, path)
            let needle = try compile(args[0], argPath(path, 0))
            let haystack = try compile(args[1], argPath(path, 1))
            if case .literal(.array(let items)) = haystack.node {
                return Compiled(node: .inSet(needle.node, ValueSet(items)), dependencies: needle.dependencies)
            }
            return Compiled(node: .inValue(needle.node, haystack.node), dependencies: needle.dependencies.union(haystack.dependencies))

        case "match":
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
                for label in labelValues {
                    let key: StyleValue
                    switch label {
                    case .string(let s): key = .string(s)
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

        case "case":
            guard args.count >= 3, args.count % 2 == 1 else {
                throw fail(path, "\"case\" expects condition/output pairs and a fallback; found \(args.count) argument(s)")
            }
            let (nodes, deps) = try compileArgs(args, path)
            var conditions: [ExpressionNode] = []
            var outputs: [ExpressionNode] = []
            for i in stride(from: 0, to: nodes.count - 1, by: 2) {
                conditions.append(nodes[i])
                outputs.append(nodes[i + 1])
            }
            return Compiled(node: .caseOf(conditions: conditions, outputs: outputs, fallback: nodes[nodes.count - 1]), dependencies: deps)

        case "coalesce":
            guard !args.isEmpty else { throw fail(path, "\"coalesce\" needs at least one argument") }
            let (nodes, deps) = try compileArgs(args, path)
            return Compiled(node: .coalesce(nodes), dependencies: deps)

        case "interpolate":
            guard args.count >= 4, args.count % 2 == 0 else {
                throw fail(path, "\"interpolate\" expects a type, an input and stop/output pairs; found \(args.count) argument(s)")
            }
            let kind = try interpolation(args[0], argPath(path, 0))
            let input = try compile(args[1], argPath(path, 1))
            let (stops, outputs, deps) = try stopPairs(args, from: 2, path, strictlyAscending: true)
            return Compiled(node: .interpolate(kind, input.node, stops: stops, outputs: outputs),
                            dependencies: deps.union(input.dependencies))

        case "step":
            guard args.count >= 2, args.count % 2 == 0 else {
                throw fail(path, "\"step\" expects an input, a default output and stop/output pairs; found \(args.count) argument(s)")
            }
            let input = try compile(args[0], argPath(path, 0))
            let first = try compile(args[1], argPath(path, 1))
            let (stops, outputs, deps) = try stopPairs(args, from: 2, path, strictlyAscending: true)
            return Compiled(node: .step(input.node, first: first.node, stops: stops, outputs: outputs),
                            dependencies: deps.union(input.dependencies).union(first.dependencies))

        case "-":
            try expectCount(args, 1...2, op, path)
            let (nodes, deps) = try compileArgs(args, path)
            return Compiled(node: nodes.count == 1 ? .unary(.negate, nodes[0]) : .binary(.subtract, nodes[0], nodes[1]), dependencies: deps)

        case "+", "*", "min", "max":
            guard !args.isEmpty else { throw fail(path, "\"\(op)\" needs at least one argument") }
            let (nodes, deps) = try compileArgs(args, path)
            guard let v = VariadicOperator(rawValue: op) else { throw fail(path, "unknown operator \(op)") }
            return Compiled(node: .variadic(v, nodes), dependencies: deps)

        case "/", "%", "^":
            try expectCount(args, 2...2, op, path)
            let (nodes, deps) = try compileArgs(args, path)
            guard let b = BinaryOperator(rawValue: op) else { throw fail(path, "unknown operator \(op)") }
            return Compiled(node: .binary(b, nodes[0], nodes[1]), dependencies: deps)

        case "e", "pi", "ln2":
            try expectCount(args, 0...0, op, path)
            let value = op == "e" ? 2.718281828459045 : op == "pi" ? Double.pi : 0.6931471805599453
            return Compiled(node: .literal(.number(value)), dependencies: [])

        case "string", "number", "boolean", "array":
            guard !args.isEmpty else { throw fail(path, "\"\(op)\" needs at least one argument") }
            guard let assertion = TypeAssertion(rawValue: op) else { throw fail(path, "unknown operator \(op)") }
            if assertion == .array {
                // ["array", value], ["array", type, value], ["array", type, N, value]: check the value only.
                let c = try compile(args[args.count - 1], argPath(path, args.count - 1))
                return Compiled(node: .assertType(.array, [c.node]), dependencies: c.dependencies)
            }
            let (nodes, deps) = try compileArgs(args, path)
            return Compiled(node: .assertType(assertion, nodes), dependencies: deps)

        case "to-number", "to-color":
            guard !args.isEmpty else { throw fail(path, "\"\(op)\" needs at least one argument") }
            let (nodes, deps) = try compileArgs(args, path)
            return Compiled(node: op == "to-number" ? .toNumber(nodes) : .toColor(nodes), dependencies: deps)

        case "concat":
            let (nodes, deps) = try compileArgs(args, path)
            return Compiled(node: .concat(nodes), dependencies: deps)

        case "format":
            // Reduced to plain text: each section's text, style options ({…}) dropped.
            var nodes: [ExpressionNode] = []
            var deps: ExpressionDependencies = []
            for (i, arg) in args.enumerated() {
                if case .object = arg { continue }
                let c = try compile(arg, argPath(path, i))
                nodes.append(c.node)
                deps.formUnion(c.dependencies)
            }
            return Compiled(node: .concat(nodes), dependencies: deps)

        case "image":
            try expectCount(args, 1...1, op, path)
            let c = try compile(args[0], argPath(path, 0))
            return Compiled(node: .unary(.toString, c.node), dependencies: c.dependencies)

        case "rgb", "rgba":
            try expectCount(args, op == "rgb" ? 3...3 : 4...4, op, path)
            let (nodes, deps) = try compileArgs(args, path)
            return Compiled(node: .rgba(nodes), dependencies: deps)

        case "to-rgba":
            try expectCount(args, 1...1, op, path)
            let c = try compile(args[0], argPath(path, 0))
            return Compiled(node: .toRGBA(c.node), dependencies: c.dependencies)

        case "at":
            try expectCount(args, 2...2, op, path)
            let (nodes, deps) = try compileArgs(args, path)
            return Compiled(node: .at(nodes[0], nodes[1]), dependencies: deps)

        case "let":
            guard args.count >= 3, args.count % 2 == 1 else {
                throw fail(path, "\"let\" expects name/value pairs and a body; found \(args.count) argument(s)")
            }
            var scope: [String: Compiled] = [:]
            for i in stride(from: 0, to: args.count - 1, by: 2) {
                guard case .string(let name) = args[i] else {
                    throw fail(argPath(path, i), "variable names must be strings, found \(args[i].typeName)")
                }
                scope[name] = try compile(args[i + 1], argPath(path, i + 1))
            }
            scopes.append(scope)
            defer { scopes.removeLast() }
            return try compile(args[args.count - 1], argPath(path, args.count - 1))

        case "var":
            try expectCount(args, 1...1, op, path)
            guard case .string(let name) = args[0] else { throw fail(argPath(path, 0), "variable name must be a string") }
            for scope in scopes.reversed() {
                if let bound = scope[name] { return bound }
            }
            throw fail(path, "unknown variable \"\(name)\"")

        default:
            if let unary = UnaryOperator(rawValue: op), unary != .negate {
                try expectCount(args, 1...1, op, path)
                let c = try compile(args[0], argPath(path, 0))
                return Compiled(node: .unary(unary, c.node), dependencies: c.dependencies)
            }
            if Self.unsupportedOperators.contains(op) {
                log.add(.unsupportedExpression(op), at: path)
                return Compiled(node: .unsupported(op), dependencies: .feature)
            }
            throw fail(path, "unknown expression operator \"\(op)\"")
        }
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

    private func interpolation(_ json: JSONValue, _ path: String) throws -> Interpolation {
        guard case .array(let items) = json, case .string(let name)? = items.first else {
            throw fail(path, "interpolation type must be [\"linear\"], [\"exponential\", base] or [\"cubic-bezier\", x1, y1, x2, y2]")
        }
        var numbers: [Double] = []
        for (i, item) in items.dropFirst().enumerated() {
            guard case .number(let n) = item, n.isFinite else { throw fail("\(path)[\(i + 1)]", "expected a number, found \(item.typeName)") }
            numbers.append(n)
        }
        switch (name, numbers.count) {
        case ("linear", 0): return .linear
        case ("exponential", 1): return numbers[0] == 1 ? .linear : .exponential(base: numbers[0])
        case ("cubic-bezier", 4):
            guard (0...1).contains(numbers[0]), (0...1).contains(numbers[2]) else {
                throw fail(path, "cubic-bezier x control points must be in 0…1")
            }
            return .cubicBezier(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3])
        default:
            throw fail(path, "unknown interpolation \(json.excerpt)")
        }
    }

    private mutating func stopPairs(_ args: [JSONValue], from start: Int, _ path: String, strictlyAscending: Bool) throws
        -> ([Double], [ExpressionNode], ExpressionDependencies) {
        var stops: [Double] = []
        var outputs: [ExpressionNode] = []
        var deps: ExpressionDependencies = []
        var i = start
        while i + 1 < args.count {
            guard case .number(let stop) = args[i], stop.isFinite else {
                throw fail(argPath(path, i), "stop inputs must be number literals, found \(args[i].typeName)")
            }
            if let previous = stops.last, strictlyAscending ? stop <= previous : stop < previous {
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
    func literalValue(_ json: JSONValue, _ path: String) throws -> StyleValue {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .array(let items):
            var out: [StyleValue] = []
            for (i, item) in items.enumerated() { out.append(try literalValue(item, "\(path)[\(i)]")) }
            return .array(out)
        case .object:
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
        default:
            return node
        }
    }

    // MARK: Legacy filters

    /// Converts the pre-expression filter syntax with its own semantics: strict equality, a
    /// missing property makes `==`/`<`/`in` false and `!=`/`!in` true.
    mutating func legacyFilter(_ json: JSONValue, _ path: String) throws -> ExpressionNode {
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
        case .string(let s): return .string(s)
        default: throw fail(path, "legacy filter values must be strings, numbers or booleans, found \(json.typeName)")
        }
    }
}
