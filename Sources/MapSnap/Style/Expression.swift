import Foundation

/// A style expression (or filter) compiled once at load time into an evaluable tree.
///
/// Evaluation never walks JSON and, for the common filter shapes (a comparison of `get`
/// with a literal, `match` on a property, `in` against a literal list, `all`/`any` of
/// those), does not allocate. Runtime type errors follow MapLibre: the whole expression
/// fails, so a filter is false and a property takes its default.
public struct StyleExpression: Sendable {
    let root: ExpressionNode
    let dependencies: ExpressionDependencies

    init(root: ExpressionNode, dependencies: ExpressionDependencies) {
        self.root = root
        self.dependencies = dependencies
    }

    /// A constant expression.
    public init(constant value: StyleValue) {
        self.init(root: .literal(value), dependencies: [])
    }

    /// Whether the result depends on the map zoom.
    public var dependsOnZoom: Bool { dependencies.contains(.zoom) }
    /// Whether the result depends on the feature (properties, geometry type or id).
    public var dependsOnFeature: Bool { dependencies.contains(.feature) }
    /// Whether the expression always yields the same value.
    public var isConstant: Bool { dependencies.isEmpty }
    /// Whether the result depends on the zoom only, so it can be evaluated once per render.
    public var isZoomOnly: Bool { dependencies == .zoom }

    /// Evaluates for a feature; `.null` when evaluation fails (a MapLibre runtime error).
    public func evaluate<F: StyleFeature>(zoom: Double, feature: F) -> StyleValue {
        do {
            return try root.evaluate(feature, zoom)
        } catch {
            return .null
        }
    }

    /// Evaluates without a feature: property lookups yield null.
    public func evaluate(zoom: Double) -> StyleValue {
        evaluate(zoom: zoom, feature: NoFeature())
    }

    /// Evaluates as a filter: true only when the result is the boolean `true`.
    public func matches<F: StyleFeature>(_ feature: F, zoom: Double) -> Bool {
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

/// A MapLibre runtime evaluation error; carries nothing so throwing is free.
struct ExpressionFailure: Error {}

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

enum UnaryOperator: String, Sendable {
    case toString = "to-string", toBoolean = "to-boolean", upcase, downcase, not = "!"
    case abs, round, floor, ceil, length, sqrt, ln, log10, log2, sin, cos, tan, asin, acos, atan
    case typeOf = "typeof", negate = "-"
}

enum VariadicOperator: String, Sendable {
    case add = "+", multiply = "*", min, max
}

enum BinaryOperator: String, Sendable {
    case subtract = "-", divide = "/", remainder = "%", power = "^"
}

enum TypeAssertion: String, Sendable {
    case string, number, boolean, array
}

/// The compiled expression tree. Built by `ExpressionCompiler`.
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
    case unary(UnaryOperator, ExpressionNode)
    case variadic(VariadicOperator, [ExpressionNode])
    case binary(BinaryOperator, ExpressionNode, ExpressionNode)
    case assertType(TypeAssertion, [ExpressionNode])
    case toNumber([ExpressionNode])
    case toColor([ExpressionNode])
    case concat([ExpressionNode])
    case rgba([ExpressionNode])
    case toRGBA(ExpressionNode)
    case at(ExpressionNode, ExpressionNode)
    /// A legacy function with a `default`: the value when evaluation fails or yields null.
    case fallback(ExpressionNode, StyleValue)
    /// A MapLibre operator we do not implement: evaluates to null.
    case unsupported(String)

    /// Evaluates the tree. The feature is passed by value and generic (not boxed, not
    /// optional) so specialised code needs no runtime type metadata; `NoFeature` stands in
    /// when there is none.
    func evaluate<F: StyleFeature>(_ feature: F, _ zoom: Double) throws(ExpressionFailure) -> StyleValue {
        switch self {
        case .literal(let v):
            return v
        case .get(let key):
            return feature.value(forKey: key).map(StyleValue.init) ?? .null
        case .getDynamic(let keyNode):
            guard case .string(let key) = try keyNode.evaluate(feature, zoom) else { throw ExpressionFailure() }
            return feature.value(forKey: key).map(StyleValue.init) ?? .null
        case .has(let key):
            return .bool(feature.value(forKey: key) != nil)
        case .geometryType:
            if F.self == NoFeature.self { return .null }
            return .string(feature.geometryType.rawValue)
        case .id:
            guard let id = feature.featureID else { return .null }
            return .number(Double(id))
        case .zoom:
            return .number(zoom)
        case .compareProperty(let op, let key, let literal):
            let value = feature.value(forKey: key).map(StyleValue.init) ?? .null
            return .bool(try Self.compare(op, value, literal))
        case .compare(let op, let lhs, let rhs):
            return .bool(try Self.compare(op, try lhs.evaluate(feature, zoom), try rhs.evaluate(feature, zoom)))
        case .legacyCompare(let op, let key, let literal):
            return .bool(Self.legacyCompare(op, Self.legacyValue(key, feature), literal))
        case .legacyIn(let key, let set):
            guard let v = Self.legacyValue(key, feature) else { return .bool(false) }
            return .bool(set.contains(v))
        case .legacyHas(let key):
            return .bool(Self.legacyValue(key, feature) != nil)
        case .inSet(let needle, let set):
            let v = try needle.evaluate(feature, zoom)
            try Self.checkNeedle(v)
            return .bool(set.contains(v))
        case .inValue(let needle, let haystack):
            let v = try needle.evaluate(feature, zoom)
            try Self.checkNeedle(v)
            switch try haystack.evaluate(feature, zoom) {
            case .array(let items): return .bool(items.contains(v))
            case .string(let s):
                guard case .string(let sub) = v else { throw ExpressionFailure() }
                return .bool(sub.isEmpty || s.contains(sub))
            default: throw ExpressionFailure()
            }
        case .all(let items):
            for item in items {
                switch try item.evaluate(feature, zoom) {
                case .bool(true): continue
                case .bool(false): return .bool(false)
                default: throw ExpressionFailure()
                }
            }
            return .bool(true)
        case .any(let items):
            for item in items {
                switch try item.evaluate(feature, zoom) {
                case .bool(true): return .bool(true)
                case .bool(false): continue
                default: throw ExpressionFailure()
                }
            }
            return .bool(false)
        case .match(let input, let labels, let outputs, let fallback):
            let v = try input.evaluate(feature, zoom)
            if let index = labels.index(of: v), index < outputs.count { return try outputs[index].evaluate(feature, zoom) }
            return try fallback.evaluate(feature, zoom)
        case .caseOf(let conditions, let outputs, let fallback):
            for (i, condition) in conditions.enumerated() {
                switch try condition.evaluate(feature, zoom) {
                case .bool(true): return try outputs[i].evaluate(feature, zoom)
                case .bool(false): continue
                default: throw ExpressionFailure()
                }
            }
            return try fallback.evaluate(feature, zoom)
        case .coalesce(let items):
            for item in items {
                let v = try item.evaluate(feature, zoom)
                if v != .null { return v }
            }
            return .null
        case .interpolate(let kind, let input, let stops, let outputs):
            guard case .number(let x) = try input.evaluate(feature, zoom) else { throw ExpressionFailure() }
            return try Self.interpolate(kind, x: x, stops: stops, outputs: outputs, feature, zoom)
        case .step(let input, let first, let stops, let outputs):
            guard case .number(let x) = try input.evaluate(feature, zoom) else { throw ExpressionFailure() }
            // The last stop whose input is <= x; stops are sorted, and there are few.
            var chosen = -1
            for (i, s) in stops.enumerated() {
                if s <= x { chosen = i } else { break }
            }
            return chosen < 0 ? try first.evaluate(feature, zoom) : try outputs[chosen].evaluate(feature, zoom)
        case .unary(let op, let arg):
            return try Self.unary(op, try arg.evaluate(feature, zoom))
        case .variadic(let op, let args):
            var acc: Double
            switch op {
            case .add: acc = 0
            case .multiply: acc = 1
            case .min: acc = .infinity
            case .max: acc = -.infinity
            }
            for arg in args {
                guard case .number(let n) = try arg.evaluate(feature, zoom) else { throw ExpressionFailure() }
                switch op {
                case .add: acc += n
                case .multiply: acc *= n
                case .min: acc = Swift.min(acc, n)
                case .max: acc = Swift.max(acc, n)
                }
            }
            return .number(acc)
        case .binary(let op, let lhs, let rhs):
            guard case .number(let a) = try lhs.evaluate(feature, zoom), case .number(let b) = try rhs.evaluate(feature, zoom) else {
                throw ExpressionFailure()
            }
            switch op {
            case .subtract: return .number(a - b)
            case .divide: return .number(a / b)
            case .remainder: return .number(a.truncatingRemainder(dividingBy: b))
            case .power: return .number(Foundation.pow(a, b))
            }
        case .assertType(let type, let args):
            for arg in args {
                let v = try arg.evaluate(feature, zoom)
                switch (type, v) {
                case (.string, .string), (.number, .number), (.boolean, .bool), (.array, .array): return v
                default: continue
                }
            }
            throw ExpressionFailure()
        case .toNumber(let args):
            for arg in args {
                switch try arg.evaluate(feature, zoom) {
                case .null: return .number(0)
                case .bool(let b): return .number(b ? 1 : 0)
                case .number(let n): if !n.isNaN { return .number(n) }
                case .string(let s): if let n = Self.javaScriptNumber(s) { return .number(n) }
                default: continue
                }
            }
            throw ExpressionFailure()
        case .toColor(let args):
            for arg in args {
                if let color = Self.color(from: try arg.evaluate(feature, zoom)) { return .color(color) }
            }
            throw ExpressionFailure()
        case .concat(let args):
            var text = ""
            for arg in args { text += try arg.evaluate(feature, zoom).description }
            return .string(text)
        case .rgba(let args):
            var channels: [Double] = [0, 0, 0, 1]
            for (i, arg) in args.enumerated() where i < 4 {
                guard case .number(let n) = try arg.evaluate(feature, zoom) else { throw ExpressionFailure() }
                let limit: Double = i < 3 ? 255 : 1
                guard n >= 0, n <= limit else { throw ExpressionFailure() }
                channels[i] = i < 3 ? n / 255 : n
            }
            return .color(StyleColor(red: channels[0], green: channels[1], blue: channels[2], alpha: channels[3]))
        case .toRGBA(let arg):
            guard case .color(let col) = try arg.evaluate(feature, zoom) else { throw ExpressionFailure() }
            return .array([.number(col.red * 255), .number(col.green * 255), .number(col.blue * 255), .number(col.alpha)])
        case .at(let indexNode, let arrayNode):
            guard case .number(let i) = try indexNode.evaluate(feature, zoom), case .array(let items) = try arrayNode.evaluate(feature, zoom),
                  i >= 0, i == i.rounded(), i < Double(items.count) else { throw ExpressionFailure() }
            return items[Int(i)]
        case .fallback(let node, let value):
            guard let v = try? node.evaluate(feature, zoom), v != .null else { return value }
            return v
        case .unsupported:
            return .null
        }
    }

    private static func checkNeedle(_ v: StyleValue) throws(ExpressionFailure) {
        switch v {
        case .null, .bool, .number, .string: return
        default: throw ExpressionFailure()
        }
    }

    /// MapLibre's `==`/`<`: equality across any types (different types are unequal);
    /// ordering only between two numbers or two strings, otherwise a runtime error.
    @inline(__always)
    static func compare(_ op: ComparisonOperator, _ a: StyleValue, _ b: StyleValue) throws(ExpressionFailure) -> Bool {
        switch op {
        case .equal: return a == b
        case .notEqual: return a != b
        default: break
        }
        switch (a, b) {
        case (.number(let x), .number(let y)): return ordered(op, x, y)
        case (.string(let x), .string(let y)): return ordered(op, x, y)
        default: throw ExpressionFailure()
        }
    }

    @inline(__always)
    private static func ordered<T: Comparable>(_ op: ComparisonOperator, _ x: T, _ y: T) -> Bool {
        switch op {
        case .less: return x < y
        case .lessOrEqual: return x <= y
        case .greater: return x > y
        case .greaterOrEqual: return x >= y
        case .equal: return x == y
        case .notEqual: return x != y
        }
    }

    /// Legacy filter semantics: strict equality; ordering only between values of the same
    /// type, false otherwise; a missing property equals nothing.
    @inline(__always)
    static func legacyCompare(_ op: ComparisonOperator, _ value: StyleValue?, _ literal: StyleValue) -> Bool {
        switch op {
        case .equal: return value == literal
        case .notEqual: return value != literal
        default: break
        }
        switch (value, literal) {
        case (.number(let x)?, .number(let y)): return ordered(op, x, y)
        case (.string(let x)?, .string(let y)): return ordered(op, x, y)
        default: return false
        }
    }

    @inline(__always)
    private static func legacyValue<F: StyleFeature>(_ key: LegacyKey, _ f: F) -> StyleValue? {
        if F.self == NoFeature.self { return nil }
        switch key {
        case .property(let name): return f.value(forKey: name).map(StyleValue.init)
        case .geometryType: return .string(f.geometryType.rawValue)
        case .id: return f.featureID.map { .number(Double($0)) }
        }
    }

    private static func interpolate<F: StyleFeature>(
        _ kind: Interpolation, x: Double, stops: [Double], outputs: [ExpressionNode], _ feature: F, _ zoom: Double
    ) throws(ExpressionFailure) -> StyleValue {
        guard let firstStop = stops.first, let lastStop = stops.last, !outputs.isEmpty else { throw ExpressionFailure() }
        if x <= firstStop { return try outputs[0].evaluate(feature, zoom) }
        if x >= lastStop { return try outputs[outputs.count - 1].evaluate(feature, zoom) }
        var upper = 1
        while upper < stops.count - 1, stops[upper] <= x { upper += 1 }
        let lower = upper - 1
        let t = interpolationFactor(kind, x: x, lower: stops[lower], upper: stops[upper])
        return try interpolateValues(try outputs[lower].evaluate(feature, zoom), try outputs[upper].evaluate(feature, zoom), t)
    }

    /// The 0…1 position of `x` between two stops, after MapLibre's `exponentialInterpolation`
    /// (base 1 is linear) and its UnitBezier for `cubic-bezier`.
    static func interpolationFactor(_ kind: Interpolation, x: Double, lower: Double, upper: Double) -> Double {
        let difference = upper - lower
        let progress = x - lower
        guard difference > 0 else { return 0 }
        switch kind {
        case .linear:
            return progress / difference
        case .exponential(let base):
            if base == 1 { return progress / difference }
            return (Foundation.pow(base, progress) - 1) / (Foundation.pow(base, difference) - 1)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return UnitBezier(x1: x1, y1: y1, x2: x2, y2: y2).solve(progress / difference)
        }
    }

    static func interpolateValues(_ a: StyleValue, _ b: StyleValue, _ t: Double) throws(ExpressionFailure) -> StyleValue {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(x + (y - x) * t)
        case (.color(let x), .color(let y)):
            return .color(x.interpolated(to: y, fraction: t))
        case (.array(let xs), .array(let ys)) where xs.count == ys.count:
            var out: [StyleValue] = []
            out.reserveCapacity(xs.count)
            for (x, y) in zip(xs, ys) {
                guard case .number(let p) = x, case .number(let q) = y else { throw ExpressionFailure() }
                out.append(.number(p + (q - p) * t))
            }
            return .array(out)
        default:
            throw ExpressionFailure()
        }
    }

    private static func unary(_ op: UnaryOperator, _ v: StyleValue) throws(ExpressionFailure) -> StyleValue {
        switch op {
        case .toString:
            return .string(v.description)
        case .toBoolean:
            switch v {
            case .null: return .bool(false)
            case .bool(let b): return .bool(b)
            case .number(let n): return .bool(n != 0 && !n.isNaN)
            case .string(let s): return .bool(!s.isEmpty)
            default: return .bool(true)
            }
        case .upcase, .downcase:
            guard case .string(let s) = v else { throw ExpressionFailure() }
            return .string(op == .upcase ? s.uppercased() : s.lowercased())
        case .not:
            guard case .bool(let b) = v else { throw ExpressionFailure() }
            return .bool(!b)
        case .length:
            switch v {
            case .string(let s): return .number(Double(s.utf16.count))
            case .array(let items): return .number(Double(items.count))
            default: throw ExpressionFailure()
            }
        case .typeOf:
            return .string(v.typeName)
        default:
            break
        }
        guard case .number(let n) = v else { throw ExpressionFailure() }
        switch op {
        case .abs: return .number(Swift.abs(n))
        // JavaScript's Math.round: halves go towards +∞.
        case .round: return .number(Foundation.floor(n + 0.5))
        case .floor: return .number(Foundation.floor(n))
        case .ceil: return .number(Foundation.ceil(n))
        case .sqrt: return .number(Foundation.sqrt(n))
        case .ln: return .number(Foundation.log(n))
        case .log10: return .number(Foundation.log10(n))
        case .log2: return .number(Foundation.log2(n))
        case .sin: return .number(Foundation.sin(n))
        case .cos: return .number(Foundation.cos(n))
        case .tan: return .number(Foundation.tan(n))
        case .asin: return .number(Foundation.asin(n))
        case .acos: return .number(Foundation.acos(n))
        case .atan: return .number(Foundation.atan(n))
        case .negate: return .number(-n)
        default: throw ExpressionFailure()
        }
    }

    /// `to-color` conversion of one value: CSS strings, colours, `[r, g, b(, a)]` arrays.
    static func color(from v: StyleValue) -> StyleColor? {
        switch v {
        case .color(let col): return col
        case .string(let s): return CSSColor.parse(s)
        case .array(let items) where items.count == 3 || items.count == 4:
            var channels: [Double] = []
            for item in items {
                guard case .number(let n) = item else { return nil }
                channels.append(n)
            }
            guard channels.prefix(3).allSatisfy({ $0 >= 0 && $0 <= 255 }) else { return nil }
            let alpha = channels.count == 4 ? channels[3] : 1
            guard alpha >= 0, alpha <= 1 else { return nil }
            return StyleColor(red: channels[0] / 255, green: channels[1] / 255, blue: channels[2] / 255, alpha: alpha)
        default:
            return nil
        }
    }

    /// JavaScript's `Number(string)` for the forms styles use: trimmed decimal text, empty
    /// string is 0; anything else is not a number.
    static func javaScriptNumber(_ s: String) -> Double? {
        let trimmed = s.trimmingASCIIWhitespace()
        if trimmed.isEmpty { return 0 }
        guard trimmed.utf8.count <= 64, let n = Double(trimmed), !n.isNaN else { return nil }
        // Swift accepts "nan"/"inf" spellings JavaScript does not.
        if n.isInfinite, trimmed != "Infinity", trimmed != "-Infinity", trimmed != "+Infinity" { return nil }
        return n
    }
}

/// A set of literal values for `in`. Small sets are scanned linearly: comparing a few
/// values is cheaper than hashing a string.
struct ValueSet: Sendable {
    private let small: [StyleValue]
    private let large: Set<StyleValue>

    init<S: Sequence>(_ values: S) where S.Element == StyleValue {
        var seen = Set<StyleValue>()
        let unique = values.filter { seen.insert($0).inserted }
        if unique.count <= 8 {
            small = unique
            large = []
        } else {
            small = []
            large = Set(unique)
        }
    }

    func contains(_ value: StyleValue) -> Bool {
        small.isEmpty ? large.contains(value) : small.contains(value)
    }
}

/// `match` labels → branch index; small tables are scanned linearly like `ValueSet`.
struct LabelTable: Sendable {
    private let small: [(StyleValue, Int)]
    private let large: [StyleValue: Int]

    init(_ labels: [StyleValue: Int]) {
        if labels.count <= 8 {
            // Sorted by branch so the scan order is fixed.
            small = labels.map { ($0.key, $0.value) }.sorted { $0.1 < $1.1 }
            large = [:]
        } else {
            small = []
            large = labels
        }
    }

    func index(of value: StyleValue) -> Int? {
        if large.isEmpty {
            for (label, index) in small where label == value { return index }
            return nil
        }
        return large[value]
    }
}

/// A CSS `cubic-bezier(x1, y1, x2, y2)` timing curve; `solve(x)` returns y.
/// Newton iterations with a bisection fallback, as in WebKit's UnitBezier that MapLibre uses.
struct UnitBezier {
    let cx, bx, ax, cy, by, ay: Double

    init(x1: Double, y1: Double, x2: Double, y2: Double) {
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    func solve(_ x: Double, epsilon: Double = 1e-6) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        var t = x
        for _ in 0..<8 {
            let error = sampleX(t) - x
            if Swift.abs(error) < epsilon { return sampleY(t) }
            let d = sampleDerivativeX(t)
            if Swift.abs(d) < 1e-6 { break }
            t -= error / d
        }
        var lo = 0.0, hi = 1.0
        t = x
        for _ in 0..<64 {
            let value = sampleX(t)
            if Swift.abs(value - x) < epsilon { break }
            if x > value { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return sampleY(t)
    }
}
