import Foundation

/// The evaluation of the operators that control flow or need more than their arguments'
/// values, one function each, with MapLibre's runtime semantics.
extension ExpressionNode {
    static func checkedNeedle(_ v: StyleValue) throws(ExpressionFailure) -> StyleValue {
        switch v {
        case .null, .bool, .number, .string: return v
        default: throw ExpressionFailure()
        }
    }

    /// `in` with a computed haystack: array membership or substring.
    static func contains(_ haystack: StyleValue, _ needle: StyleValue) throws(ExpressionFailure) -> StyleValue {
        switch haystack {
        case .array(let items): return .bool(items.contains(needle))
        case .string(let s):
            guard case .string(let sub) = needle else { throw ExpressionFailure() }
            return .bool(sub.isEmpty || s.contains(sub))
        default: throw ExpressionFailure()
        }
    }

    static func all<F>(_ items: [ExpressionNode], _ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        for item in items {
            switch try item.evaluate(&c) {
            case .bool(true): continue
            case .bool(false): return .bool(false)
            default: throw ExpressionFailure()
            }
        }
        return .bool(true)
    }

    static func any<F>(_ items: [ExpressionNode], _ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        for item in items {
            switch try item.evaluate(&c) {
            case .bool(true): return .bool(true)
            case .bool(false): continue
            default: throw ExpressionFailure()
            }
        }
        return .bool(false)
    }

    static func caseOf<F>(_ conditions: [ExpressionNode], _ outputs: [ExpressionNode], _ fallback: ExpressionNode,
                          _ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        for (i, condition) in conditions.enumerated() {
            switch try condition.evaluate(&c) {
            case .bool(true): return try outputs[i].evaluate(&c)
            case .bool(false): continue
            default: throw ExpressionFailure()
            }
        }
        return try fallback.evaluate(&c)
    }

    static func coalesce<F>(_ items: [ExpressionNode], _ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        for item in items {
            let v = try item.evaluate(&c)
            if v != .null { return v }
        }
        return .null
    }

    static func fold<F>(_ function: VariadicFunction, _ args: [ExpressionNode], _ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        var acc = function.initial
        for arg in args {
            guard case .number(let n) = try arg.evaluate(&c) else { throw ExpressionFailure() }
            acc = function.combine(acc, n)
        }
        return .number(acc)
    }

    static func coerce<F>(_ coercion: Coercion, _ args: [ExpressionNode], _ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        for arg in args {
            if let v = coercion.convert(try arg.evaluate(&c)) { return v }
        }
        throw ExpressionFailure()
    }

    /// `concat`: never builds a string longer than `Style.maximumStringBytes`.
    static func concat<F>(_ args: [ExpressionNode], _ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        var text = ""
        for arg in args {
            let part = try arg.evaluate(&c).description
            guard text.utf8.count + part.utf8.count <= Style.maximumStringBytes else { throw ExpressionFailure(exceededLimit: true) }
            text += part
        }
        return .string(text)
    }

    /// `let`: the values are pushed unevaluated at `base`. A `let` inside a binding's value
    /// runs when that binding is first used, maybe deeper than where it was written: the
    /// slots above `base` (invisible to it) are set aside meanwhile.
    static func letBinding<F>(_ base: Int, _ values: [ExpressionNode], _ body: ExpressionNode,
                              _ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        guard base <= c.variables.count else { throw ExpressionFailure() }
        let hidden = c.variables.count > base ? Array(c.variables[base...]) : []
        c.variables.removeSubrange(base...)
        for value in values { c.variables.append(.pending(value)) }
        defer {
            c.variables.removeSubrange(base...)
            c.variables.append(contentsOf: hidden)
        }
        return try body.evaluate(&c)
    }

    /// `var`: the binding's value, evaluated on first use.
    static func variable<F>(_ slot: Int, _ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        guard slot >= 0, slot < c.variables.count else { throw ExpressionFailure() }
        switch c.variables[slot] {
        case .evaluated(let v):
            return v
        case .pending(let node):
            let v = try node.evaluate(&c)
            c.variables[slot] = .evaluated(v)
            return v
        }
    }

    static func step<F>(_ input: ExpressionNode, _ first: ExpressionNode, stops: [Double], outputs: [ExpressionNode],
                        _ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        guard case .number(let x) = try input.evaluate(&c) else { throw ExpressionFailure() }
        // The last stop whose input is <= x; stops are sorted, and there are few.
        var chosen = -1
        for (i, s) in stops.enumerated() {
            if s <= x { chosen = i } else { break }
        }
        return chosen < 0 ? try first.evaluate(&c) : try outputs[chosen].evaluate(&c)
    }

    static func interpolate<F>(_ kind: Interpolation, _ input: ExpressionNode, stops: [Double], outputs: [ExpressionNode],
                               _ c: inout EvaluationContext<F>) throws(ExpressionFailure) -> StyleValue {
        guard let firstStop = stops.first, let lastStop = stops.last, !outputs.isEmpty else { throw ExpressionFailure() }
        // MapLibre: one stop is that output, whatever the input.
        if stops.count == 1 { return try outputs[0].evaluate(&c) }
        guard case .number(let x) = try input.evaluate(&c) else { throw ExpressionFailure() }
        if x <= firstStop { return try outputs[0].evaluate(&c) }
        if x >= lastStop { return try outputs[outputs.count - 1].evaluate(&c) }
        var upper = 1
        while upper < stops.count - 1, stops[upper] <= x { upper += 1 }
        let lower = upper - 1
        let t = interpolationFactor(kind, x: x, lower: stops[lower], upper: stops[upper])
        return try interpolateValues(try outputs[lower].evaluate(&c), try outputs[upper].evaluate(&c), t)
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
    static func ordered<T: Comparable>(_ op: ComparisonOperator, _ x: T, _ y: T) -> Bool {
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
    static func legacyValue<F: StyleFeature>(_ key: LegacyKey, _ f: F) -> StyleValue? {
        if F.self == NoFeature.self { return nil }
        switch key {
        case .property(let name): return f.value(forKey: name).map(StyleValue.init)
        case .geometryType: return .string(f.geometryType.rawValue)
        case .id: return f.featureID.map { .number(Double($0)) }
        }
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

    /// The distinct values, small sets in their first-seen order.
    var members: [StyleValue] { small.isEmpty ? Array(large) : small }

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

    /// Every (label, branch) pair.
    var entries: [(label: StyleValue, branch: Int)] {
        large.isEmpty ? small.map { ($0.0, $0.1) } : large.map { ($0.key, $0.value) }
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
