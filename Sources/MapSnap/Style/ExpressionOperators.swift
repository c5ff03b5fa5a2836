import Foundation

/// The one table of expression operators: name → argument count and how it compiles and
/// evaluates. The compiler looks operators up here (and nowhere else), and the
/// plain functions (`abs`, `-`, `+`, `to-number`, `rgba`, …) carry their evaluator into the
/// compiled node, so adding an operator is adding a row.
enum ExpressionOperators {
    struct Definition: Sendable {
        let arity: Arity
        let form: Form
    }

    enum Arity: Sendable {
        case exactly(Int)
        case between(Int, Int)
        case atLeast(Int)
        /// The builder checks the shape itself (`match`, `case`, `interpolate`, …).
        case checkedByBuilder

        func accepts(_ count: Int) -> Bool {
            switch self {
            case .exactly(let n): return count == n
            case .between(let lo, let hi): return count >= lo && count <= hi
            case .atLeast(let n): return count >= n
            case .checkedByBuilder: return true
            }
        }

        var text: String {
            switch self {
            case .exactly(let n): return "\(n)"
            case .between(let lo, let hi): return "\(lo)–\(hi)"
            case .atLeast(let n): return "at least \(n)"
            case .checkedByBuilder: return "any number of"
            }
        }
    }

    typealias Builder = @Sendable (inout ExpressionCompiler, _ args: [JSONValue], _ path: String) throws -> ExpressionCompiler.Compiled

    enum Form: Sendable {
        case unary(UnaryFunction)
        case binary(BinaryFunction)
        case variadic(VariadicFunction)
        case coercion(Coercion)
        case call(NaryFunction)
        /// A leaf: no arguments, this node and what it reads.
        case leaf(ExpressionNode, ExpressionDependencies)
        /// Compiled by a builder of `ExpressionCompiler` (control flow, bindings, data access).
        case special(Builder)
        /// A MapLibre operator we recognise but do not evaluate (warning; null).
        case unsupported
    }

    static let table: [String: Definition] = {
        var t: [String: Definition] = [:]
        func add(_ name: String, _ arity: Arity, _ form: Form) {
            precondition(t[name] == nil, "operator \(name) defined twice")
            t[name] = Definition(arity: arity, form: form)
        }
        func special(_ name: String, _ arity: Arity, _ builder: @escaping Builder) { add(name, arity, .special(builder)) }

        // Data.
        special("literal", .exactly(1)) { c, args, path in try c.compileLiteral(args, path) }
        special("get", .between(1, 2)) { c, args, path in try c.compileGet(args, path, has: false) }
        special("has", .between(1, 2)) { c, args, path in try c.compileGet(args, path, has: true) }
        special("properties", .checkedByBuilder) { c, _, path in c.unsupported("properties", path) }
        add("geometry-type", .exactly(0), .leaf(.geometryType, .feature))
        add("id", .exactly(0), .leaf(.id, .feature))
        add("zoom", .exactly(0), .leaf(.zoom, .zoom))
        special("let", .checkedByBuilder) { c, args, path in try c.compileLet(args, path) }
        special("var", .exactly(1)) { c, args, path in try c.compileVar(args, path) }

        // Decision.
        for op in [ComparisonOperator.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual] {
            special(op.rawValue, .between(2, 3)) { c, args, path in try c.compileComparison(op, args, path) }
        }
        special("all", .atLeast(0)) { c, args, path in try c.compileLogic(args, path) { .all($0) } }
        special("any", .atLeast(0)) { c, args, path in try c.compileLogic(args, path) { .any($0) } }
        special("none", .atLeast(0)) { c, args, path in try c.compileLogic(args, path) { .unary(.not, .any($0)) } }
        add("!", .exactly(1), .unary(.not))
        special("in", .exactly(2)) { c, args, path in try c.compileIn(args, path) }
        special("match", .checkedByBuilder) { c, args, path in try c.compileMatch(args, path) }
        special("case", .checkedByBuilder) { c, args, path in try c.compileCase(args, path) }
        special("coalesce", .atLeast(1)) { c, args, path in try c.compileNodes(args, path) { .coalesce($0) } }

        // Ramps.
        special("interpolate", .checkedByBuilder) { c, args, path in try c.compileInterpolate(args, path) }
        special("step", .checkedByBuilder) { c, args, path in try c.compileStep(args, path) }

        // Types.
        add("to-string", .exactly(1), .unary(.toString))
        add("to-boolean", .exactly(1), .unary(.toBoolean))
        add("to-number", .atLeast(1), .coercion(.toNumber))
        add("to-color", .atLeast(1), .coercion(.toColor))
        add("string", .atLeast(1), .coercion(.assert("string") { if case .string = $0 { return true }; return false }))
        add("number", .atLeast(1), .coercion(.assert("number") { if case .number = $0 { return true }; return false }))
        add("boolean", .atLeast(1), .coercion(.assert("boolean") { if case .bool = $0 { return true }; return false }))
        // ["array", value], ["array", type, value], ["array", type, N, value]: checks the value only.
        special("array", .between(1, 3)) { c, args, path in
            let value = try c.compile(args[args.count - 1], c.argPath(path, args.count - 1))
            return .init(node: .coerce(.assert("array") { if case .array = $0 { return true }; return false }, [value.node]),
                         dependencies: value.dependencies)
        }
        add("typeof", .exactly(1), .unary(UnaryFunction("typeof") { .string($0.typeName) }))

        // Strings.
        special("concat", .atLeast(0)) { c, args, path in try c.compileNodes(args, path) { .concat($0) } }
        special("format", .checkedByBuilder) { c, args, path in try c.compileFormat(args, path) }
        add("image", .exactly(1), .unary(.toString))
        add("upcase", .exactly(1), .unary(.string("upcase") { $0.uppercased() }))
        add("downcase", .exactly(1), .unary(.string("downcase") { $0.lowercased() }))
        add("length", .exactly(1), .unary(.length))

        // Math.
        special("-", .between(1, 2)) { c, args, path in
            try c.compileNodes(args, path) { $0.count == 1 ? .unary(.negate, $0[0]) : .binary(.subtract, $0[0], $0[1]) }
        }
        add("+", .atLeast(1), .variadic(VariadicFunction("+", initial: 0) { $0 + $1 }))
        add("*", .atLeast(1), .variadic(VariadicFunction("*", initial: 1) { $0 * $1 }))
        add("min", .atLeast(1), .variadic(VariadicFunction("min", initial: .infinity) { Swift.min($0, $1) }))
        add("max", .atLeast(1), .variadic(VariadicFunction("max", initial: -.infinity) { Swift.max($0, $1) }))
        add("/", .exactly(2), .binary(BinaryFunction("/") { $0 / $1 }))
        add("%", .exactly(2), .binary(BinaryFunction("%") { $0.truncatingRemainder(dividingBy: $1) }))
        add("^", .exactly(2), .binary(BinaryFunction("^") { Foundation.pow($0, $1) }))
        add("e", .exactly(0), .leaf(.literal(.number(M_E)), []))
        add("pi", .exactly(0), .leaf(.literal(.number(Double.pi)), []))
        add("ln2", .exactly(0), .leaf(.literal(.number(M_LN2)), []))
        add("abs", .exactly(1), .unary(.number("abs") { Swift.abs($0) }))
        // JavaScript's Math.round: halves go towards +∞.
        add("round", .exactly(1), .unary(.number("round") { Foundation.floor($0 + 0.5) }))
        add("floor", .exactly(1), .unary(.number("floor") { Foundation.floor($0) }))
        add("ceil", .exactly(1), .unary(.number("ceil") { Foundation.ceil($0) }))
        add("sqrt", .exactly(1), .unary(.number("sqrt") { Foundation.sqrt($0) }))
        add("ln", .exactly(1), .unary(.number("ln") { Foundation.log($0) }))
        add("log10", .exactly(1), .unary(.number("log10") { Foundation.log10($0) }))
        add("log2", .exactly(1), .unary(.number("log2") { Foundation.log2($0) }))
        add("sin", .exactly(1), .unary(.number("sin") { Foundation.sin($0) }))
        add("cos", .exactly(1), .unary(.number("cos") { Foundation.cos($0) }))
        add("tan", .exactly(1), .unary(.number("tan") { Foundation.tan($0) }))
        add("asin", .exactly(1), .unary(.number("asin") { Foundation.asin($0) }))
        add("acos", .exactly(1), .unary(.number("acos") { Foundation.acos($0) }))
        add("atan", .exactly(1), .unary(.number("atan") { Foundation.atan($0) }))

        // Colour and arrays.
        add("rgb", .exactly(3), .call(.rgba))
        add("rgba", .exactly(4), .call(.rgba))
        add("to-rgba", .exactly(1), .unary(.toRGBA))
        add("at", .exactly(2), .call(.at))

        for name in unsupportedOperators { add(name, .checkedByBuilder, .unsupported) }
        return t
    }()

    /// MapLibre operators we recognise but do not evaluate.
    static let unsupportedOperators = [
        "collator", "resolved-locale", "is-supported-script", "feature-state", "heatmap-density",
        "line-progress", "accumulated", "within", "distance", "number-format", "index-of", "slice",
        "object", "interpolate-hcl", "interpolate-lab", "global-state", "elevation", "split", "join",
    ]

    /// Up to three operator names within two edits of `name`, closest first, for "did you
    /// mean" in the unknown-operator error.
    static func names(closeTo name: String) -> [String] {
        let scored = table.keys.compactMap { candidate -> (Int, String)? in
            let d = EditDistance.between(name, candidate, limit: 2)
            return d <= 2 ? (d, candidate) : nil
        }
        return scored.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.prefix(3).map(\.1)
    }
}

/// A one-argument operator with its evaluator.
struct UnaryFunction: Sendable {
    let name: String
    let apply: @Sendable (StyleValue) throws(ExpressionFailure) -> StyleValue

    init(_ name: String, _ apply: @escaping @Sendable (StyleValue) throws(ExpressionFailure) -> StyleValue) {
        self.name = name
        self.apply = apply
    }

    /// A function of a number; other types are a runtime error.
    static func number(_ name: String, _ f: @escaping @Sendable (Double) -> Double) -> UnaryFunction {
        UnaryFunction(name) { v throws(ExpressionFailure) in
            guard case .number(let n) = v else { throw ExpressionFailure() }
            return .number(f(n))
        }
    }

    /// A function of a string; other types are a runtime error.
    static func string(_ name: String, _ f: @escaping @Sendable (String) -> String) -> UnaryFunction {
        UnaryFunction(name) { v throws(ExpressionFailure) in
            guard case .string(let s) = v else { throw ExpressionFailure() }
            return .string(f(s))
        }
    }

    static let not = UnaryFunction("!") { v throws(ExpressionFailure) in
        guard case .bool(let b) = v else { throw ExpressionFailure() }
        return .bool(!b)
    }

    static let negate = number("-") { -$0 }

    static let toString = UnaryFunction("to-string") { .string($0.description) }

    static let toBoolean = UnaryFunction("to-boolean") { v in
        switch v {
        case .null: return .bool(false)
        case .bool(let b): return .bool(b)
        case .number(let n): return .bool(n != 0 && !n.isNaN)
        case .string(let s): return .bool(!s.isEmpty)
        default: return .bool(true)
        }
    }

    /// JavaScript's `length`: UTF-16 code units of a string, or items of an array.
    static let length = UnaryFunction("length") { v throws(ExpressionFailure) in
        switch v {
        case .string(let s): return .number(Double(s.utf16.count))
        case .array(let items): return .number(Double(items.count))
        default: throw ExpressionFailure()
        }
    }

    static let toRGBA = UnaryFunction("to-rgba") { v throws(ExpressionFailure) in
        guard case .color(let col) = v else { throw ExpressionFailure() }
        return .array([.number(col.red * 255), .number(col.green * 255), .number(col.blue * 255), .number(col.alpha)])
    }
}

/// A two-number operator.
struct BinaryFunction: Sendable {
    let name: String
    let apply: @Sendable (Double, Double) -> Double

    init(_ name: String, _ apply: @escaping @Sendable (Double, Double) -> Double) {
        self.name = name
        self.apply = apply
    }

    static let subtract = BinaryFunction("-") { $0 - $1 }
}

/// A fold over numbers from `initial`.
struct VariadicFunction: Sendable {
    let name: String
    let initial: Double
    let combine: @Sendable (Double, Double) -> Double

    init(_ name: String, initial: Double, _ combine: @escaping @Sendable (Double, Double) -> Double) {
        self.name = name
        self.initial = initial
        self.combine = combine
    }
}

/// `to-number`, `to-color` and the type assertions: the first argument `convert` accepts.
struct Coercion: Sendable {
    let name: String
    let convert: @Sendable (StyleValue) -> StyleValue?

    static func assert(_ name: String, _ isType: @escaping @Sendable (StyleValue) -> Bool) -> Coercion {
        Coercion(name: name) { isType($0) ? $0 : nil }
    }

    static let toNumber = Coercion(name: "to-number") { v in
        switch v {
        case .null: return .number(0)
        case .bool(let b): return .number(b ? 1 : 0)
        case .number(let n): return n.isNaN ? nil : v
        case .string(let s): return ExpressionNode.javaScriptNumber(s).map { .number($0) }
        default: return nil
        }
    }

    static let toColor = Coercion(name: "to-color") { ExpressionNode.color(from: $0).map { .color($0) } }
}

/// An operator evaluated from all its argument values at once.
struct NaryFunction: Sendable {
    let name: String
    let apply: @Sendable ([StyleValue]) throws(ExpressionFailure) -> StyleValue

    /// `rgb`/`rgba`: channels 0…255, alpha 0…1 (1 when absent).
    static let rgba = NaryFunction(name: "rgba") { args throws(ExpressionFailure) in
        var channels: [Double] = [0, 0, 0, 1]
        for (i, arg) in args.enumerated() where i < 4 {
            guard case .number(let n) = arg else { throw ExpressionFailure() }
            let limit: Double = i < 3 ? 255 : 1
            guard n >= 0, n <= limit else { throw ExpressionFailure() }
            channels[i] = i < 3 ? n / 255 : n
        }
        return .color(StyleColor(red: channels[0], green: channels[1], blue: channels[2], alpha: channels[3]))
    }

    /// `at`: an integral index within the array.
    static let at = NaryFunction(name: "at") { args throws(ExpressionFailure) in
        guard args.count == 2, case .number(let i) = args[0], case .array(let items) = args[1],
              i >= 0, i == i.rounded(), i < Double(items.count) else { throw ExpressionFailure() }
        return items[Int(i)]
    }
}
