import Foundation

/// Walks the JSON of a style, validating every type by hand, and compiles filters and
/// properties. Errors carry the JSON key path (`layers[12].paint.line-width`).
struct StyleParser {
    let origin: String
    private var compiler: ExpressionCompiler

    init(origin: String) {
        self.origin = origin
        self.compiler = ExpressionCompiler(origin: origin)
    }

    /// Root keys with no effect on a still image, accepted without a warning.
    private static let silentRootKeys: Set<String> = [
        "version", "name", "sources", "layers", "metadata", "center", "zoom", "bearing", "pitch", "id", "sky",
        "owner", "draft", "created", "modified", "visibility", "transition",
        // Read below. Labels always use the bundled fonts (`text-font` picks the face), so
        // the glyph URL has nothing to add; docs/style-subset.md says so.
        "sprite", "glyphs",
    ]

    // MARK: Helpers

    private func wrongType(_ path: String, _ expected: String, _ found: JSONValue) -> StyleError {
        .wrongType(origin: origin, keyPath: path, expected: expected, found: "\(found.typeName) \(found.excerpt)")
    }

    private func object(_ json: JSONValue, _ path: String) throws -> JSONObject {
        guard case .object(let o) = json else { throw wrongType(path, "object", json) }
        return o
    }

    private func optionalString(_ o: JSONObject, _ key: String, _ path: String) throws -> String? {
        guard let v = o[key], v != .null else { return nil }
        guard case .string(let s) = v else { throw wrongType(path + "." + key, "string", v) }
        return s
    }

    private func optionalNumber(_ o: JSONObject, _ key: String, _ path: String, range: ClosedRange<Double>? = nil) throws -> Double? {
        guard let v = o[key], v != .null else { return nil }
        guard case .number(let n) = v, n.isFinite else { throw wrongType(path + "." + key, "number", v) }
        if let range, !range.contains(n) {
            throw StyleError.invalidValue(origin: origin, keyPath: path + "." + key,
                                          reason: "\(StyleValue.formatNumber(n)) is outside \(StyleValue.formatNumber(range.lowerBound))…\(StyleValue.formatNumber(range.upperBound))")
        }
        return n
    }

    private static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    // MARK: Root

    mutating func parseStyle(_ json: JSONValue) throws -> Style {
        let root = try object(json, "(root)")
        guard let versionJSON = root["version"] else { throw StyleError.missingKey(origin: origin, keyPath: "version") }
        guard case .number(let version) = versionJSON else { throw wrongType("version", "number", versionJSON) }
        guard version == 8 else {
            throw StyleError.invalidValue(origin: origin, keyPath: "version", reason: "style version must be 8, found \(StyleValue.formatNumber(version))")
        }
        let name = try optionalString(root, "name", "")
        let sprites = try parseSprites(root["sprite"])
        if let glyphs = root["glyphs"], glyphs != .null {
            guard case .string = glyphs else { throw wrongType("glyphs", "URL string", glyphs) }
        }

        for key in root.keys.sorted() where !Self.silentRootKeys.contains(key) {
            compiler.log.add(.ignoredRootKey(key), at: key)
        }

        guard let sourcesJSON = root["sources"] else { throw StyleError.missingKey(origin: origin, keyPath: "sources") }
        let sourcesObject = try object(sourcesJSON, "sources")
        var sources: [String: StyleSource] = [:]
        for id in sourcesObject.keys.sorted() {
            guard let value = sourcesObject[id] else { continue }
            sources[id] = try parseSource(id: id, value, path: "sources.\(id)")
        }

        guard let layersJSON = root["layers"] else { throw StyleError.missingKey(origin: origin, keyPath: "layers") }
        guard case .array(let layerItems) = layersJSON else { throw wrongType("layers", "array", layersJSON) }
        guard layerItems.count <= Style.maximumLayerCount else {
            throw StyleError.limitExceeded(origin: origin, keyPath: "layers",
                                           reason: "\(layerItems.count) layers; at most \(Style.maximumLayerCount) are accepted")
        }
        var layers: [StyleLayer] = []
        layers.reserveCapacity(layerItems.count)
        var seenIDs: Set<String> = []
        for (i, parsed) in parseLayers(layerItems, sources: sources).enumerated() {
            let layer = try parsed.layer.get()
            compiler.log.merge(parsed.log)
            guard seenIDs.insert(layer.id).inserted else {
                throw StyleError.duplicateLayerID(origin: origin, keyPath: "layers[\(i)].id", id: layer.id)
            }
            layers.append(layer)
        }
        return Style(origin: origin, version: 8, name: name, sources: sources, layers: layers, sprites: sprites,
                     warnings: compiler.log.warnings, sky: Self.parseSky(root["sky"]))
    }

    // MARK: Sprites

    /// `"sprite": "URL"` (one sheet, id `default`) or `[{"id": …, "url": …}, …]` (several;
    /// images of a sheet other than `default` are named `id:name`).
    /// The root `sky` object's literal colours; nil without one (a malformed colour keeps
    /// its default: the sky is decoration, never a reason to refuse a style).
    private static func parseSky(_ json: JSONValue?) -> StyleSky? {
        guard case .object(let sky)? = json else { return nil }
        var out = StyleSky()
        func color(_ key: String) -> StyleColor? {
            guard case .string(let text)? = sky[key] else { return nil }
            return CSSColor.parse(text)
        }
        if let c = color("sky-color") { out.skyColor = c }
        if let c = color("horizon-color") { out.horizonColor = c }
        if let c = color("fog-color") { out.fogColor = c }
        return out
    }

    private func parseSprites(_ json: JSONValue?) throws -> [StyleSprite] {
        switch json {
        case nil, .null?:
            return []
        case .string(let url)?:
            return [StyleSprite(id: StyleSprite.defaultID, url: url)]
        case .array(let items)?:
            var out: [StyleSprite] = []
            for (i, item) in items.enumerated() {
                let path = "sprite[\(i)]"
                let o = try object(item, path)
                guard let id = try optionalString(o, "id", path) else { throw StyleError.missingKey(origin: origin, keyPath: path + ".id") }
                guard let url = try optionalString(o, "url", path) else { throw StyleError.missingKey(origin: origin, keyPath: path + ".url") }
                guard !out.contains(where: { $0.id == id }) else {
                    throw StyleError.invalidValue(origin: origin, keyPath: path + ".id", reason: "sprite id \"\(id)\" is used twice")
                }
                out.append(StyleSprite(id: id, url: url))
            }
            return out
        case let other?:
            throw wrongType("sprite", "URL string or array of {\"id\", \"url\"} objects", other)
        }
    }

    // MARK: Sources

    private mutating func parseSource(id: String, _ json: JSONValue, path: String) throws -> StyleSource {
        let o = try object(json, path)
        guard let typeName = try optionalString(o, "type", path) else {
            throw StyleError.missingKey(origin: origin, keyPath: path + ".type")
        }
        let kind: StyleSource.Kind
        switch typeName {
        case "vector": kind = .vector
        case "raster": kind = .raster
        case "raster-dem": kind = .rasterDEM
        case "geojson": kind = .geoJSON
        default:
            kind = .other(typeName)
            compiler.log.add(.unsupportedSourceType(typeName), at: path + ".type")
        }
        var tiles: [String] = []
        if let tilesJSON = o["tiles"] {
            guard case .array(let items) = tilesJSON else { throw wrongType(path + ".tiles", "array of strings", tilesJSON) }
            for (i, item) in items.enumerated() {
                guard case .string(let s) = item else { throw wrongType("\(path).tiles[\(i)]", "string", item) }
                tiles.append(s)
            }
        }
        var bounds: [Double]?
        if let boundsJSON = o["bounds"] {
            guard case .array(let items) = boundsJSON, items.count == 4 else {
                throw wrongType(path + ".bounds", "array of 4 numbers", boundsJSON)
            }
            bounds = try items.enumerated().map { i, item in
                guard case .number(let n) = item, n.isFinite else { throw wrongType("\(path).bounds[\(i)]", "number", item) }
                return n
            }
        }
        var dataURL: String?
        var inlineData: Data?
        switch o["data"] {
        case .string(let s)?: dataURL = s
        case .object?, .array?: inlineData = o["data"].map { Data(JSONWriter.bytes($0, sortedKeys: true)) }
        case nil, .null?: break
        case let other?: throw wrongType(path + ".data", "URL string or GeoJSON object", other)
        }
        let scheme = try optionalString(o, "scheme", path)
        if let scheme, scheme != "xyz", scheme != "tms" {
            throw StyleError.invalidValue(origin: origin, keyPath: path + ".scheme", reason: "expected \"xyz\" or \"tms\", found \"\(scheme)\"")
        }
        let tileSize = try optionalNumber(o, "tileSize", path, range: 1...4096)
        return StyleSource(
            id: id, kind: kind, url: try optionalString(o, "url", path), tiles: tiles,
            minZoom: try optionalNumber(o, "minzoom", path, range: 0...30),
            maxZoom: try optionalNumber(o, "maxzoom", path, range: 0...30),
            tileSize: tileSize.map { Int($0) }, attribution: try optionalString(o, "attribution", path),
            scheme: scheme, encoding: try optionalString(o, "encoding", path), bounds: bounds,
            dataURL: dataURL, inlineData: inlineData)
    }

    // MARK: Layers

    /// Styles with at least this many layers have them compiled on every core.
    static let parallelLayerThreshold = 16

    /// Each layer compiled on its own, with a warning log of its own: layers do not depend on
    /// one another, so a long style's are compiled on every core. Taken in order — each log
    /// merged, the first error thrown, ids checked — they give exactly the style, warnings
    /// and error one pass over the layers gives.
    private func parseLayers(_ items: [JSONValue], sources: [String: StyleSource])
        -> [(layer: Result<StyleLayer, any Error>, log: StyleWarningLog)] {
        let fresh = StyleParser(origin: origin)
        @Sendable func parse(_ i: Int) -> (layer: Result<StyleLayer, any Error>, log: StyleWarningLog) {
            var parser = fresh
            let layer = Result { try parser.parseLayer(items[i], path: "layers[\(i)]", sources: sources) }
            return (layer, parser.compiler.log)
        }
        guard items.count >= Self.parallelLayerThreshold else { return items.indices.map(parse) }
        return Parallel.map(items.count, maxThreads: nil, parse)
    }

    private mutating func parseLayer(_ json: JSONValue, path: String, sources: [String: StyleSource]) throws -> StyleLayer {
        let o = try object(json, path)
        guard let id = try optionalString(o, "id", path) else { throw StyleError.missingKey(origin: origin, keyPath: path + ".id") }
        guard let typeName = try optionalString(o, "type", path) else {
            throw StyleError.missingKey(origin: origin, keyPath: path + ".type")
        }
        let type = StyleLayerType(name: typeName)
        guard type.isKnownToMapLibre else {
            throw StyleError.invalidValue(origin: origin, keyPath: path + ".type", reason: "unknown layer type \"\(typeName)\"")
        }
        let source = try optionalString(o, "source", path)
        if let source, sources[source] == nil {
            throw StyleError.unknownSource(origin: origin, keyPath: path + ".source", source: source)
        }
        if source == nil, type != .background, o["ref"] == nil {
            throw StyleError.missingKey(origin: origin, keyPath: path + ".source")
        }
        let sourceLayer = try optionalString(o, "source-layer", path)
        let minZoom = try optionalNumber(o, "minzoom", path, range: 0...24)
        let maxZoom = try optionalNumber(o, "maxzoom", path, range: 0...24)

        var filter: StyleExpression?
        if let filterJSON = o["filter"], filterJSON != .null {
            filter = try compiler.compileFilter(filterJSON, at: path + ".filter")
        }

        var paint: [StyleProperty: PropertyValue] = [:]
        var layout: [StyleProperty: PropertyValue] = [:]
        var visibility = Visibility.visible
        if case .other(let name) = type {
            compiler.log.add(.unsupportedLayerType(name), at: path + ".type")
        } else {
            paint = try parseProperties(o["paint"], type: type, layout: false, path: path + ".paint")
            layout = try parseProperties(o["layout"], type: type, layout: true, path: path + ".layout")
            if let v = layout.removeValue(forKey: .visibility) {
                visibility = v.keyword(Visibility.self, atZoom: 0)
            }
        }
        if o["ref"] != nil { compiler.log.add(.ignoredRootKey("ref (layer references)"), at: path + ".ref") }

        return StyleLayer(id: id, type: type, source: source, sourceLayer: sourceLayer, minZoom: minZoom, maxZoom: maxZoom,
                          filter: filter, visibility: visibility, paint: paint, layout: layout)
    }

    private mutating func parseProperties(_ json: JSONValue?, type: StyleLayerType, layout: Bool, path: String) throws
        -> [StyleProperty: PropertyValue] {
        guard let json, json != .null else { return [:] }
        let o = try object(json, path)
        var out: [StyleProperty: PropertyValue] = [:]
        // Sorted so warnings come out in the same order on every run.
        for key in o.keys.sorted() {
            guard let value = o[key] else { continue }
            let keyPath = path + "." + key
            // Transitions animate between values; a still image has nothing to animate.
            if !layout, key.hasSuffix("-transition") { continue }
            guard let property = StyleProperty.named(key, layerType: type, layout: layout) else {
                compiler.log.add(.unknownProperty(key), at: keyPath)
                continue
            }
            switch property.support {
            case .unsupported:
                compiler.log.add(.unsupportedProperty(key), at: keyPath)
                continue
            case .ignored:
                compiler.log.add(.ignoredProperty(key), at: keyPath)
            case .supported:
                break
            }
            if let parsed = try parsePropertyValue(value, property: property, path: keyPath) {
                out[property] = parsed
            }
        }
        return out
    }

    // MARK: Property values

    mutating func parsePropertyValue(_ json: JSONValue, property: StyleProperty, path: String) throws -> PropertyValue? {
        let kind = property.kind
        switch json {
        case .object(let function):
            guard let expression = try compileFunction(function, property: property, path: path) else { return nil }
            return PropertyValue(property: property, expression: expression)
        case .array(let items):
            let arrayKind = kind == .numberArray || kind == .stringArray || kind == .padding
            if case .string(let op)? = items.first, ExpressionCompiler.isOperator(op) || !arrayKind {
                let expression = try compiler.compileValue(json, kind: kind, at: path)
                return PropertyValue(property: property, expression: expression)
            }
            return PropertyValue(property: property, constant: try constant(json, kind: kind, path: path))
        case .string(let text) where kind == .formatted || kind == .image:
            let compiled = tokenExpression(try compiler.checkedString(text, path))
            return PropertyValue(property: property, expression: compiled)
        default:
            return PropertyValue(property: property, constant: try constant(json, kind: kind, path: path))
        }
    }

    /// `"{name:latin}\n{name:nonlatin}"` → concat of literals and `to-string(get(key))`, so a
    /// missing property substitutes "" as MapLibre does.
    func tokenExpression(_ text: String) -> StyleExpression {
        var parts: [ExpressionNode] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let ch = text[index]
            if ch == "{", let close = text[index...].firstIndex(of: "}") {
                let name = text[text.index(after: index)..<close]
                if !name.isEmpty, !name.contains("{") {
                    if !literal.isEmpty { parts.append(.literal(.string(literal))); literal = "" }
                    parts.append(.unary(.toString, .get(String(name))))
                    index = text.index(after: close)
                    continue
                }
            }
            literal.append(ch)
            index = text.index(after: index)
        }
        if parts.isEmpty { return StyleExpression(constant: .string(literal)) }
        if !literal.isEmpty { parts.append(.literal(.string(literal))) }
        return StyleExpression(root: parts.count == 1 ? parts[0] : .concat(parts), dependencies: .feature)
    }

    /// Validates a constant against the property's kind.
    func constant(_ json: JSONValue, kind: StylePropertyKind, path: String) throws -> StyleValue {
        switch kind {
        case .color:
            guard case .string(let s) = json else { throw wrongType(path, "colour string", json) }
            guard let color = CSSColor.parse(s) else {
                throw StyleError.invalidValue(origin: origin, keyPath: path, reason: "\"\(s)\" is not a CSS colour")
            }
            return .color(color)
        case .number:
            guard case .number(let n) = json, n.isFinite else { throw wrongType(path, "number", json) }
            return .number(n)
        case .boolean:
            guard case .bool(let b) = json else { throw wrongType(path, "boolean", json) }
            return .bool(b)
        case .string, .formatted, .image:
            guard case .string(let s) = json else { throw wrongType(path, "string", json) }
            return .string(try compiler.checkedString(s, path))
        case .enumeration(let allowed):
            guard case .string(let s) = json else { throw wrongType(path, "string", json) }
            guard allowed.contains(s) else {
                throw StyleError.invalidValue(origin: origin, keyPath: path,
                                              reason: "\"\(s)\" is not one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
            return .string(s)
        case .stringArray:
            guard case .array(let items) = json else { throw wrongType(path, "array of strings", json) }
            return .array(try items.enumerated().map { i, item in
                guard case .string(let s) = item else { throw wrongType("\(path)[\(i)]", "string", item) }
                return .string(s)
            })
        case .numberArray, .padding:
            if kind == .padding, case .number(let n) = json, n.isFinite { return .array([.number(n)]) }
            guard case .array(let items) = json else { throw wrongType(path, "array of numbers", json) }
            if kind == .padding, !(1...4).contains(items.count) {
                throw StyleError.invalidValue(origin: origin, keyPath: path, reason: "padding takes 1 to 4 numbers, found \(items.count)")
            }
            return .array(try items.enumerated().map { i, item in
                guard case .number(let n) = item, n.isFinite else { throw wrongType("\(path)[\(i)]", "number", item) }
                return .number(n)
            })
        }
    }

    /// Legacy functions: `{"stops": [[z, v], …], "base": b}` (zoom), with `"property"`
    /// (data-driven) and `"type"` exponential / interval / categorical / identity.
    /// Returns nil (with a warning) for zoom-and-property functions.
    private mutating func compileFunction(_ o: JSONObject, property: StyleProperty, path: String) throws -> StyleExpression? {
        let kind = property.kind
        let propertyKey = try optionalString(o, "property", path)
        let base = try optionalNumber(o, "base", path) ?? 1
        guard base > 0 else {
            throw StyleError.invalidValue(origin: origin, keyPath: path + ".base", reason: "base must be positive")
        }
        let defaultValue = try o["default"].map { try constant($0, kind: kind, path: path + ".default") }
        let input: ExpressionNode = propertyKey.map { .get($0) } ?? .zoom
        let dependencies: ExpressionDependencies = propertyKey == nil ? .zoom : .feature
        func finish(_ node: ExpressionNode) -> StyleExpression {
            StyleExpression(root: defaultValue.map { .fallback(node, $0) } ?? node, dependencies: dependencies)
        }

        let explicitType = try optionalString(o, "type", path)
        if explicitType == "identity" {
            guard let propertyKey else { throw StyleError.missingKey(origin: origin, keyPath: path + ".property") }
            let node: ExpressionNode = kind == .color ? .coerce(.toColor, [.get(propertyKey)]) : .get(propertyKey)
            return finish(node)
        }
        guard let stopsJSON = o["stops"] else { throw StyleError.missingKey(origin: origin, keyPath: path + ".stops") }
        guard case .array(let stopItems) = stopsJSON, !stopItems.isEmpty else {
            throw wrongType(path + ".stops", "non-empty array of [input, output] pairs", stopsJSON)
        }
        var inputs: [JSONValue] = []
        var outputs: [StyleValue] = []
        for (i, item) in stopItems.enumerated() {
            let stopPath = "\(path).stops[\(i)]"
            guard case .array(let pair) = item, pair.count == 2 else { throw wrongType(stopPath, "[input, output] pair", item) }
            if case .object = pair[0] {
                compiler.log.add(.unsupportedFunction("a zoom-and-property function"), at: path)
                return nil
            }
            inputs.append(pair[0])
            outputs.append(try constant(pair[1], kind: kind, path: stopPath + "[1]"))
        }

        let firstIsString: Bool = { if case .string = inputs[0] { return true }; return false }()
        let type = explicitType ?? (propertyKey != nil && firstIsString ? "categorical" : (kind.isInterpolatable ? "exponential" : "interval"))
        switch type {
        case "exponential", "interval":
            var stops: [Double] = []
            for (i, input) in inputs.enumerated() {
                guard case .number(let z) = input, z.isFinite else {
                    throw wrongType("\(path).stops[\(i)][0]", "number", input)
                }
                if let previous = stops.last, z < previous {
                    throw StyleError.invalidValue(origin: origin, keyPath: "\(path).stops[\(i)][0]",
                                                  reason: "stop inputs must be in ascending order")
                }
                stops.append(z)
            }
            let outputNodes = outputs.map { ExpressionNode.literal($0) }
            if type == "exponential" {
                guard kind.isInterpolatable else {
                    throw StyleError.invalidValue(origin: origin, keyPath: path + ".type",
                                                  reason: "\(property.rawValue) cannot be interpolated; use \"interval\"")
                }
                let interpolation: Interpolation = base == 1 ? .linear : .exponential(base: base)
                return finish(.interpolate(interpolation, input, stops: stops, outputs: outputNodes))
            }
            return finish(.step(input, first: outputNodes[0], stops: stops, outputs: outputNodes))
        case "categorical":
            var labels: [StyleValue: Int] = [:]
            for (i, input) in inputs.enumerated() {
                let label = try compiler.literalValue(input, "\(path).stops[\(i)][0]")
                if labels[label] == nil { labels[label] = i }
            }
            let fallback: ExpressionNode = .literal(defaultValue ?? .null)
            return finish(.match(input, labels: LabelTable(labels), outputs: outputs.map { .literal($0) }, fallback: fallback))
        default:
            throw StyleError.invalidValue(origin: origin, keyPath: path + ".type",
                                          reason: "unknown function type \"\(type)\"; expected exponential, interval, categorical or identity")
        }
    }
}
