import Foundation

/// A tile URL template such as `https://{s}.tile.example.org/{z}/{x}/{y}{r}.png`, parsed once
/// and expanded per tile.
///
/// Placeholders: `{z}`, `{x}`, `{y}` (XYZ row), `{-y}` (TMS row, y = 0 at the bottom), `{s}`
/// (a subdomain, chosen per tile), `{r}` (`@2x` when the render scale is 2 or more, else
/// empty) and `{quadkey}` (Bing-style). A template must be `http` or `https`, have a host, and
/// address tiles by `{z}`/`{x}`/`{y}` (or `{-y}`) or by `{quadkey}`.
struct TileURLTemplate: Sendable, Equatable, CustomStringConvertible {
    enum Part: Sendable, Equatable {
        case literal(String)
        case z, x, y, tmsY, subdomain, retina, quadkey
    }

    /// The template as written.
    let template: String
    /// Subdomains `{s}` rotates through; never empty when the template uses `{s}`.
    let subdomains: [String]
    let parts: [Part]

    /// Subdomains used when the caller gives none (OpenStreetMap's and most providers').
    static let defaultSubdomains = ["a", "b", "c"]

    /// Parses and validates `template`.
    init(_ template: String, subdomains: [String] = TileURLTemplate.defaultSubdomains) throws(HTTPTileSourceError) {
        self.template = template
        self.subdomains = subdomains
        let lower = template.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw .invalidTemplate(template: URLRedaction.redact(template), reason: "must start with http:// or https://")
        }
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                let position = template.distance(from: template.startIndex, to: open)
                throw .invalidTemplate(template: URLRedaction.redact(template), reason: "unclosed '{' at character \(position)")
            }
            let name = rest[rest.index(after: open)..<close]
            let part: Part
            switch name {
            case "z": part = .z
            case "x": part = .x
            case "y": part = .y
            case "-y": part = .tmsY
            case "s": part = .subdomain
            case "r": part = .retina
            case "quadkey": part = .quadkey
            default:
                throw .invalidTemplate(template: URLRedaction.redact(template), reason: "unknown placeholder '{\(name)}' (known: {z} {x} {y} {-y} {s} {r} {quadkey})")
            }
            if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
            parts.append(part)
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts

        let hasXYZ = parts.contains(.z) && parts.contains(.x) && (parts.contains(.y) || parts.contains(.tmsY))
        guard hasXYZ || parts.contains(.quadkey) else {
            throw .invalidTemplate(template: URLRedaction.redact(template), reason: "must contain {z}, {x} and {y} (or {-y}), or {quadkey}")
        }
        if parts.contains(.subdomain) {
            guard !subdomains.isEmpty, subdomains.allSatisfy({ !$0.isEmpty }) else {
                throw .invalidTemplate(template: URLRedaction.redact(template), reason: "uses {s} but the subdomain list is empty")
            }
        }
        // Every expansion differs from this one only in digits and subdomains, so one valid
        // URL here means the template's fixed parts are valid URL text.
        let sample = expand(TileID(unchecked: 1, 1, 1), scale: 1)
        guard let url = URL(string: sample), url.host?.isEmpty == false else {
            throw .invalidTemplate(template: URLRedaction.redact(template), reason: "does not form a valid URL with a host (e.g. \(URLRedaction.redact(sample)))")
        }
    }

    /// True when the template has `{r}`, so the fetched tiles depend on the render scale.
    var usesScale: Bool { parts.contains(.retina) }

    /// The file extension of the tile URL's path (`png`, `jpg`, `pbf`, …), lowercased, or nil.
    var pathExtension: String? {
        let sample = expand(TileID(unchecked: 0, 0, 0), scale: 1)
        guard let url = URL(string: sample) else { return nil }
        let ext = url.pathExtension.lowercased()
        return ext.isEmpty ? nil : ext
    }

    /// The subdomain for `tile`: a fixed function of its address, so the same tile always goes
    /// to the same host (cache-friendly) and neighbours spread across hosts.
    func subdomain(for tile: TileID) -> String {
        guard !subdomains.isEmpty else { return "" }
        return subdomains[(tile.x + tile.y) % subdomains.count]
    }

    /// The URL text for `tile` at render scale `scale` (1–4).
    func expand(_ tile: TileID, scale: Double) -> String {
        var out = ""
        out.reserveCapacity(template.count + 16)
        for part in parts {
            switch part {
            case .literal(let s): out += s
            case .z: out += String(tile.z)
            case .x: out += String(tile.x)
            case .y: out += String(tile.y)
            case .tmsY: out += String(tile.tmsY)
            case .subdomain: out += subdomain(for: tile)
            case .retina: if scale >= 2 { out += "@2x" }
            case .quadkey: out += Self.quadkey(tile)
            }
        }
        return out
    }

    /// Bing Maps quadkey: one base-4 digit per zoom level, most significant first; z0 is "".
    static func quadkey(_ tile: TileID) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(tile.z)
        var level = tile.z
        while level > 0 {
            let mask = 1 << (level - 1)
            var digit: UInt8 = 0x30  // "0"
            if tile.x & mask != 0 { digit += 1 }
            if tile.y & mask != 0 { digit += 2 }
            digits.append(digit)
            level -= 1
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// The template with credentials redacted (see `URLRedaction`): safe for messages.
    var description: String { URLRedaction.redact(template) }
}
