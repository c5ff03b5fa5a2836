/// Why a style could not be loaded. Every case names the style (`origin`, a file name or a
/// caller-chosen label) and, where it applies, the JSON key path such as
/// `layers[12].paint.line-width`.
public enum StyleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(origin: String, reason: String)
    /// The input is larger than `Style.maximumInputBytes`.
    case tooLarge(origin: String, byteCount: Int, limit: Int)
    /// The bytes are not JSON; the error names the byte offset, line, column and key path.
    case invalidJSON(JSONError)
    /// A value has the wrong JSON type.
    case wrongType(origin: String, keyPath: String, expected: String, found: String)
    /// A required key is absent.
    case missingKey(origin: String, keyPath: String)
    /// A value has the right type but is not acceptable (unknown enum value, bad colour…).
    case invalidValue(origin: String, keyPath: String, reason: String)
    /// An expression or filter is malformed.
    case invalidExpression(origin: String, keyPath: String, reason: String)
    /// Two layers share an id.
    case duplicateLayerID(origin: String, keyPath: String, id: String)
    /// A layer refers to a source the style does not define.
    case unknownSource(origin: String, keyPath: String, source: String)
    /// The style nests arrays/objects deeper than `Style.maximumNestingDepth`.
    case nestingTooDeep(origin: String, keyPath: String, limit: Int)
    /// The style exceeds a resource limit (`Style.maximumLayerCount`,
    /// `Style.maximumExpressionNodes`, `Style.maximumStringBytes`); `reason` says which.
    case limitExceeded(origin: String, keyPath: String, reason: String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case .unreadable(let origin, let reason):
            return "\(origin): cannot read style: \(reason)"
        case .tooLarge(let origin, let count, let limit):
            return "\(origin): style is \(count) bytes, more than the limit of \(limit)"
        case .invalidJSON(let error):
            return error.description
        case .wrongType(let origin, let path, let expected, let found):
            return "\(origin): \(path): expected \(expected), found \(found)"
        case .missingKey(let origin, let path):
            return "\(origin): \(path): required key is missing"
        case .invalidValue(let origin, let path, let reason):
            return "\(origin): \(path): \(reason)"
        case .invalidExpression(let origin, let path, let reason):
            return "\(origin): \(path): invalid expression: \(reason)"
        case .duplicateLayerID(let origin, let path, let id):
            return "\(origin): \(path): duplicate layer id \"\(id)\""
        case .unknownSource(let origin, let path, let source):
            return "\(origin): \(path): unknown source \"\(source)\""
        case .nestingTooDeep(let origin, let path, let limit):
            return "\(origin): \(path): nested deeper than \(limit) levels"
        case .limitExceeded(let origin, let path, let reason):
            return "\(origin): \(path): \(reason)"
        }
    }
}

/// Something in a style that loaded but will not be drawn as written. Warnings are
/// deduplicated per style by `kind`; `keyPath` is the first place it occurred and
/// `occurrences` counts all of them.
struct StyleWarning: Hashable, Sendable, CustomStringConvertible {
    /// What was degraded.
    enum Kind: Hashable, Sendable {
        /// A layer type we parse but do not draw (`circle`, `fill-extrusion`, …).
        case unsupportedLayerType(String)
        /// A known property we do not implement (`fill-pattern`).
        case unsupportedProperty(String)
        /// A known property we read but whose effect is not rendered (`line-blur`).
        case ignoredProperty(String)
        /// A property name the spec does not define for this layer type.
        case unknownProperty(String)
        /// A known MapLibre expression operator we do not evaluate (it yields null).
        case unsupportedExpression(String)
        /// A legacy function form we do not evaluate (zoom-and-property stops).
        case unsupportedFunction(String)
        /// A source type we do not read.
        case unsupportedSourceType(String)
        /// A root key mapsnap does not read (`light`, `terrain`, `projection`, …).
        case ignoredRootKey(String)
    }

    let kind: Kind
    let keyPath: String
    let occurrences: Int

    init(kind: Kind, keyPath: String, occurrences: Int = 1) {
        self.kind = kind
        self.keyPath = keyPath
        self.occurrences = occurrences
    }

    var description: String {
        let times = occurrences > 1 ? " (\(occurrences) places)" : ""
        switch kind {
        case .unsupportedLayerType(let t):
            return "\(keyPath): layer type \"\(t)\" is not supported; such layers are skipped\(times)"
        case .unsupportedProperty(let p):
            return "\(keyPath): property \"\(p)\" is not supported and has no effect\(times)"
        case .ignoredProperty(let p):
            return "\(keyPath): property \"\(p)\" is read but not rendered\(times)"
        case .unknownProperty(let p):
            return "\(keyPath): unknown property \"\(p)\" for this layer type\(times)"
        case .unsupportedExpression(let op):
            return "\(keyPath): expression \"\(op)\" is not supported and evaluates to null\(times)"
        case .unsupportedFunction(let form):
            return "\(keyPath): \(form) is not supported; the default value is used\(times)"
        case .unsupportedSourceType(let t):
            return "\(keyPath): source type \"\(t)\" is not supported\(times)"
        case .ignoredRootKey(let k):
            return "\(keyPath): \"\(k)\" is ignored\(times)"
        }
    }
}

extension StyleWarning {
    /// The warnings as lines for people: one line per kind of degradation (every ignored
    /// property in one line, every skipped layer type in another), so that a real style's
    /// handful of unsupported details costs a few lines, not one each. A kind with a single
    /// warning keeps its own `description`; lines come in order of first occurrence.
    static func lines(_ warnings: [StyleWarning]) -> [String] {
        var families: [Int: [StyleWarning]] = [:]
        var order: [Int] = []
        for w in warnings {
            let f = w.kind.family
            if families[f] == nil { order.append(f) }
            families[f, default: []].append(w)
        }
        return order.compactMap { f -> String? in
            guard let group = families[f], let first = group.first else { return nil }
            guard group.count > 1 else { return first.description }
            let items = group.map { w -> String in
                "\"\(w.kind.subject)\"" + (w.occurrences > 1 ? " (\(w.occurrences) places)" : "")
            }
            let list = items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
            return "\(first.keyPath) and elsewhere: \(first.kind.pluralPhrase(list))"
        }
    }
}

extension StyleWarning.Kind {
    /// Warnings of one family are merged into one line by `StyleWarning.lines`.
    fileprivate var family: Int {
        switch self {
        case .unsupportedLayerType: return 0
        case .unsupportedProperty: return 1
        case .ignoredProperty: return 2
        case .unknownProperty: return 3
        case .unsupportedExpression: return 4
        case .unsupportedFunction: return 5
        case .unsupportedSourceType: return 6
        case .ignoredRootKey: return 7
        }
    }

    /// The name the warning is about (a layer type, property, operator, key).
    fileprivate var subject: String {
        switch self {
        case .unsupportedLayerType(let s), .unsupportedProperty(let s), .ignoredProperty(let s), .unknownProperty(let s),
             .unsupportedExpression(let s), .unsupportedFunction(let s), .unsupportedSourceType(let s), .ignoredRootKey(let s):
            return s
        }
    }

    fileprivate func pluralPhrase(_ list: String) -> String {
        switch self {
        case .unsupportedLayerType: return "layer types \(list) are not supported; such layers are skipped"
        case .unsupportedProperty: return "properties \(list) are not supported and have no effect"
        case .ignoredProperty: return "properties \(list) are read but not rendered"
        case .unknownProperty: return "properties \(list) are unknown for their layer types"
        case .unsupportedExpression: return "expressions \(list) are not supported and evaluate to null"
        case .unsupportedFunction: return "\(list) are not supported; the default values are used"
        case .unsupportedSourceType: return "source types \(list) are not supported"
        case .ignoredRootKey: return "keys \(list) are ignored"
        }
    }
}

/// Collects warnings, keeping first-occurrence order so output is deterministic.
struct StyleWarningLog {
    private var order: [StyleWarning.Kind] = []
    private var entries: [StyleWarning.Kind: (keyPath: String, count: Int)] = [:]

    mutating func add(_ kind: StyleWarning.Kind, at keyPath: String) {
        if let existing = entries[kind] {
            entries[kind] = (existing.keyPath, existing.count + 1)
        } else {
            order.append(kind)
            entries[kind] = (keyPath, 1)
        }
    }

    /// Adds `other`'s warnings as if they had been added here after this log's own.
    mutating func merge(_ other: StyleWarningLog) {
        for kind in other.order {
            guard let theirs = other.entries[kind] else { continue }
            if let ours = entries[kind] {
                entries[kind] = (ours.keyPath, ours.count + theirs.count)
            } else {
                order.append(kind)
                entries[kind] = theirs
            }
        }
    }

    var warnings: [StyleWarning] {
        order.compactMap { kind in
            entries[kind].map { StyleWarning(kind: kind, keyPath: $0.keyPath, occurrences: $0.count) }
        }
    }
}
