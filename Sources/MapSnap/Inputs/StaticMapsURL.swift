/// A whole Google Maps Static API URL, parsed into mapsnap's model.
///
/// `https://maps.googleapis.com/maps/api/staticmap?center=…&zoom=…&size=…&scale=…&maptype=…`
/// `&markers=…&path=…&visible=…&style=…&language=…&format=…&key=…`. `markers`, `path`,
/// `visible` and `style` may repeat. `style` rules become `mapStyles` (see
/// `StaticMapsSyntax.parseMapStyle`), `language` the label language, `format` the output
/// format (Google's `png`/`png8`, `png32`, `jpg`, `jpg-baseline`, and `webp`; `gif` is written
/// as png8 with a warning), `quality` (1–100, a mapsnap addition) the JPEG/WebP quality and
/// `bearing` (−360…360 or `auto`, as in Mapbox's Static Images API) the heading.
/// Parameters mapsnap does not use (`key`, `signature`, `region`, `map_id`, anything
/// unknown) are ignored and reported in `warnings`.
public struct StaticMapsURL: Sendable {
    /// `center=`.
    public var center: LatLng?
    /// `zoom=`.
    public var zoom: Double?
    /// `size=`.
    public var size: ImageSize?
    /// `bearing=` (a mapsnap and Mapbox Static addition): degrees clockwise from north;
    /// `.some(nil)` for `bearing=auto` (track-up), nil when absent.
    public var bearing: Double??
    /// `pitch=` (a mapsnap and Mapbox Static addition): degrees from straight down, 0…85;
    /// nil when absent.
    public var pitch: Double?
    /// `scale=`.
    public var scale: Double?
    /// mapsnap style name derived from `maptype` (roadmap → normal, terrain, satellite, hybrid).
    public var style: String?
    /// Google styling rules (`style=`), in URL order.
    public var mapStyles: [MapStyleRule] = []
    /// Label language (`language=`), as given.
    public var language: String?
    /// Every `path=`, in order.
    public var paths: [PathOverlay] = []
    /// Every `markers=` group's markers, in order.
    public var markers: [MarkerOverlay] = []
    /// `visible=` locations the camera must show.
    public var visible: [LatLng] = []
    /// The `format` parameter; nil when the URL has none (Google then sends `png8`).
    public var format: ImageFormat?
    /// The `quality` parameter (1–100).
    public var quality: Int?
    /// Ignored parameters, one sentence each, in URL order.
    public var warnings: [String] = []
    /// Google Directions' parameters (`origin`, `destination`, `waypoints`, `mode`,
    /// `alternatives`, `avoid`, `units`): a route to ask a router for.
    public var directions = DirectionsQuery()
    /// The parameter names a Static Maps URL may carry for directions.
    public static let directionsParameters: Set<String> = ["origin", "destination", "waypoints", "mode", "alternatives", "avoid", "units"]

    /// Longest URL accepted (Google's own limit is 16 384 characters; encoded polylines in
    /// generated URLs can be longer).
    public static let maximumLength = 8 << 20

    /// Parses `text`. Everything before `?` is ignored, so a bare query string works too.
    ///
    /// - Parameters:
    ///   - origin: what error messages call the URL (`--url`, `url`).
    ///   - baseDirectory: resolves relative `icon:` paths.
    ///   - filePaths: which `icon:` paths are allowed.
    public init(parsing text: String, origin: String = "--url", resolver: (any PlaceResolving)? = nil,
                baseDirectory: String? = nil, filePaths: FilePathPolicy = .unrestricted) throws(StaticMapsSyntaxError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw .badURL(origin: origin, reason: "URL longer than \(Self.maximumLength) bytes")
        }
        var query = Substring(text)
        if let q = query.firstIndex(of: "?") { query = query[query.index(after: q)...] }
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        var counts: [String: Int] = [:]
        for (index, pair) in query.split(separator: "&").enumerated() {
            let rawKey: Substring
            let rawValue: Substring
            if let eq = pair.firstIndex(of: "=") {
                rawKey = pair[..<eq]
                rawValue = pair[pair.index(after: eq)...]
            } else {
                rawKey = pair
                rawValue = ""
            }
            guard let key = Self.percentDecode(rawKey)?.lowercased() else {
                throw .badURL(origin: origin, reason: "parameter \(index + 1): invalid percent-encoding in name")
            }
            guard let value = Self.percentDecode(rawValue) else {
                throw .badURL(origin: origin, reason: "parameter \(index + 1) \"\(key)\": invalid percent-encoding")
            }
            let n = counts[key, default: 0] + 1
            counts[key] = n
            let here = "\(origin) \(key)" + (["markers", "path", "visible", "style"].contains(key) ? "[\(n)]" : "")
            switch key {
            case "center": center = try StaticMapsSyntax.parseLocation(value, origin: here, resolver: resolver)
            case "zoom": zoom = try StaticMapsSyntax.parseZoom(value, origin: here)
            case "size": size = try StaticMapsSyntax.parseSize(value, origin: here)
            case "bearing": bearing = .some(try StaticMapsSyntax.parseBearing(value, origin: here))
            case "pitch": pitch = try StaticMapsSyntax.parsePitch(value, origin: here)
            case "scale": scale = try StaticMapsSyntax.parseScale(value, origin: here)
            case "maptype":
                guard let name = StaticMapsSyntax.styleName(forMapType: value) else {
                    throw .badValue(origin: here, key: nil, text: value, reason: "expected roadmap, terrain, satellite or hybrid"
                                         + Suggestion.hint(for: value, among: BundledStyle.mapTypes.map(\.mapType)))
                }
                style = name
            case "markers":
                markers += try StaticMapsSyntax.parseMarkers(value, origin: here, resolver: resolver, baseDirectory: baseDirectory,
                                                             filePaths: filePaths)
            case "path": paths.append(try StaticMapsSyntax.parsePath(value, origin: here, resolver: resolver))
            case "visible": visible += try StaticMapsSyntax.parseLocations(value, origin: here, resolver: resolver)
            case "style":
                if let rule = try StaticMapsSyntax.parseMapStyle(value, origin: here, warnings: &warnings) { mapStyles.append(rule) }
            case "language":
                let code = value.trimmingASCIIWhitespace()
                guard !code.isEmpty, code.count <= 35, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                    throw .badValue(origin: here, key: nil, text: value, reason: "expected a language code such as de or zh-CN")
                }
                language = code
            case "key", "signature", "client", "channel", "sensor":
                warnings.append("\(origin): ignored parameter \"\(key)\" (not needed offline)")
            case "format":
                do {
                    if value.trimmingASCIIWhitespace().lowercased() == "gif" {
                        // A Google URL must keep working: GIF's nearest is the palette PNG.
                        format = .png8
                        warnings.append("\(here): gif is written as png8 (mapsnap does not write GIF)")
                    } else {
                        format = try ImageFormat(name: value.trimmingASCIIWhitespace())
                    }
                } catch {
                    throw .badValue(origin: here, key: nil, text: value, reason: error.description)
                }
            case "quality":
                quality = try StaticMapsSyntax.parseQuality(value, origin: here)
            case "origin": directions.origin = try DirectionsQuery.parsePlace(value, origin: here, resolver: resolver)
            case "destination": directions.destination = try DirectionsQuery.parsePlace(value, origin: here, resolver: resolver)
            case "waypoints": directions.waypoints += try DirectionsQuery.parseWaypoints(value, origin: here, resolver: resolver)
            case "mode": directions.transportType = try DirectionsQuery.parseMode(value, origin: here)
            case "alternatives": directions.alternateCount = try DirectionsQuery.parseAlternatives(value, origin: here)
            case "avoid": directions.avoid = try DirectionsQuery.parseAvoid(value, origin: here)
            case "units": directions.units = try DirectionsQuery.parseUnits(value, origin: here)
            case "region", "map_id":
                warnings.append("\(origin): ignored parameter \"\(key)\" (not supported)")
            default:
                warnings.append("\(origin): ignored unknown parameter \"\(key)\"")
            }
        }
    }

    /// `%XX` → byte, `+` → space; nil for a broken escape or bytes that are not UTF-8.
    static func percentDecode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
