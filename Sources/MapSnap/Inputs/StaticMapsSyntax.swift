import Foundation

/// An image size in points.
public struct ImageSize: Hashable, Sendable, CustomStringConvertible {
    /// Width and height in points.
    public var width, height: Int
    /// A size; parsers validate ranges, this initializer does not.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    /// `WIDTHxHEIGHT`, as the syntax writes it.
    public var description: String { "\(width)x\(height)" }
}

/// Parsers for the Google Maps Static API parameter syntax (`path`, `markers`, `visible`,
/// `center`, `size`, `scale`, `zoom`), shared by the CLI flags, JSON specs and whole URLs.
///
/// A parameter value is a `|`-separated list: style items (`key:value`) first, then
/// locations. A location is `lat,lon` or a place name resolved through `PlaceResolving`.
/// In a path, `enc:` starts an encoded polyline that runs to the end of the value, because
/// the polyline alphabet includes `|`.
///
/// `origin` names the flag or key being parsed (`--path`, `paths[2]`); it starts every error
/// message.
public enum StaticMapsSyntax {
    /// Largest number of locations in one parameter value.
    public static let maximumLocationCount = EncodedPolyline.maximumPointCount
    /// Longest marker label in characters (Google allows one; we allow short words).
    public static let maximumLabelLength = 8
    /// Longest marker title in characters.
    public static let maximumTitleLength = 200
    /// Largest `weight:` in points.
    public static let maximumWeight = 200.0

    // MARK: Paths

    /// Parses a `path` value: `color:`, `weight:`, `fillcolor:`, `geodesic:` then locations or
    /// `enc:POLYLINE`. A `fillcolor:` closes the path and fills it.
    public static func parsePath(_ text: String, origin: String,
                                 resolver: (any PlaceResolving)? = nil) throws(StaticMapsSyntaxError) -> PathOverlay {
        var path = PathOverlay(coordinates: [])
        var sawLocation = false
        var itemIndex = 0
        var rest = Substring(text)
        while !rest.isEmpty {
            let item: Substring
            if let bar = rest.firstIndex(of: "|") {
                item = rest[..<bar]
                rest = rest[rest.index(after: bar)...]
            } else {
                item = rest
                rest = ""
            }
            itemIndex += 1
            if item.isEmpty { continue }
            if let (key, value) = styleItem(item) {
                if key == "enc" {
                    guard !sawLocation else { throw .styleAfterLocation(origin: origin, item: itemIndex, text: String(item)) }
                    // The polyline runs to the end of the value: '|' is one of its characters.
                    let encoded = text[value.startIndex...]
                    do {
                        path.coordinates = try EncodedPolyline.decode(String(encoded), precision: 5)
                    } catch {
                        throw .badPolyline(origin: origin, error: error)
                    }
                    sawLocation = true
                    break
                }
                guard !sawLocation else { throw .styleAfterLocation(origin: origin, item: itemIndex, text: String(item)) }
                switch key {
                case "color": path.color = try color(value, key: key, origin: origin)
                case "fillcolor": path.fillColor = try color(value, key: key, origin: origin)
                case "weight": path.width = try number(value, key: key, origin: origin, in: 0...maximumWeight)
                case "geodesic": path.geodesic = try bool(value, key: key, origin: origin)
                default: throw .unknownStyleKey(origin: origin, item: itemIndex, key: key, allowed: ["color", "weight", "fillcolor", "geodesic", "enc"])
                }
                continue
            }
            sawLocation = true
            guard path.coordinates.count < maximumLocationCount else {
                throw .tooManyLocations(origin: origin, limit: maximumLocationCount)
            }
            path.coordinates.append(try location(item, number: path.coordinates.count + 1, origin: origin, resolver: resolver))
        }
        guard !path.coordinates.isEmpty else { throw .noLocations(origin: origin) }
        return path
    }

    // MARK: Markers

    /// Parses a `markers` value: `size:`, `color:`, `label:`, `icon:`, `anchor:`, `scale:`
    /// (icon pixels per point, 1…4), `shadow:` (accepted; mapsnap draws no icon shadows), and
    /// the mapsnap extensions `title:` and `style:dot`, then one or more locations, each of
    /// which becomes a marker with the same style.
    ///
    /// - Parameters:
    ///   - baseDirectory: directory that a relative `icon:` path is resolved against, and
    ///     where the icon is read to place a named anchor (`top`, `left`, …).
    ///   - filePaths: which `icon:` paths are allowed (an `http(s)` URL is not a path: it is
    ///     fetched when the marker is drawn, through the same HTTP layer and cache as tiles).
    public static func parseMarkers(_ text: String, origin: String, resolver: (any PlaceResolving)? = nil,
                                    baseDirectory: String? = nil,
                                    filePaths: FilePathPolicy = .unrestricted) throws(StaticMapsSyntaxError) -> [MarkerOverlay] {
        var size = MarkerOverlay.PinSize.normal
        var markerColor: Color? = nil
        var label: String? = nil
        var title: String? = nil
        var snippet: String? = nil
        var opacity = 1.0
        var iconPath: String? = nil
        var anchorText: (item: Int, text: String)? = nil
        var isDot = false
        var iconScale = 1.0
        var locations: [LatLng] = []
        let items = text.split(separator: "|", omittingEmptySubsequences: false)
        for (offset, item) in items.enumerated() {
            let itemIndex = offset + 1
            if item.isEmpty { continue }
            if let (key, value) = styleItem(item) {
                guard locations.isEmpty else { throw .styleAfterLocation(origin: origin, item: itemIndex, text: String(item)) }
                switch key {
                case "size":
                    guard let s = MarkerOverlay.PinSize(rawValue: value.lowercased()) else {
                        throw .badValue(origin: origin, key: key, text: String(value), reason: "expected tiny, small, mid or normal")
                    }
                    size = s
                case "color": markerColor = try color(value, key: key, origin: origin)
                case "label":
                    guard !value.isEmpty, value.count <= maximumLabelLength else {
                        throw .badValue(origin: origin, key: key, text: String(value), reason: "expected 1…\(maximumLabelLength) characters")
                    }
                    label = String(value)
                case "title":
                    guard value.count <= maximumTitleLength else {
                        throw .badValue(origin: origin, key: key, text: String(value.prefix(20)) + "…", reason: "longer than \(maximumTitleLength) characters")
                    }
                    title = String(value)
                case "snippet":
                    guard value.count <= maximumTitleLength else {
                        throw .badValue(origin: origin, key: key, text: String(value.prefix(20)) + "…", reason: "longer than \(maximumTitleLength) characters")
                    }
                    snippet = String(value)
                case "opacity": opacity = try number(value, key: key, origin: origin, in: 0...1)
                case "icon":
                    guard !value.isEmpty else {
                        throw .badValue(origin: origin, key: key, text: "", reason: "expected a PNG file path or an http(s) URL of a PNG or JPEG")
                    }
                    // A URL is fetched when the marker is drawn (through the tile transfer
                    // layer, with its cache); it is not a file path for `filePaths` to judge.
                    if FilePathPolicy.isURL(String(value)) {
                        iconPath = String(value)
                        break
                    }
                    do {
                        iconPath = try filePaths.resolve(String(value), against: baseDirectory)
                    } catch {
                        throw .badValue(origin: origin, key: key, text: String(value), reason: error.reason)
                    }
                case "anchor": anchorText = (itemIndex, String(value))
                case "style":
                    switch value.lowercased() {
                    case "dot": isDot = true
                    case "pin": isDot = false
                    default: throw .badValue(origin: origin, key: key, text: String(value), reason: "expected pin or dot")
                    }
                case "scale": iconScale = try number(value, key: key, origin: origin, in: 1...4)
                case "shadow": _ = try bool(value, key: key, origin: origin)
                default:
                    throw .unknownStyleKey(origin: origin, item: itemIndex, key: key,
                                           allowed: ["size", "color", "label", "icon", "anchor", "scale", "shadow", "title", "snippet", "opacity", "style"])
                }
                continue
            }
            guard locations.count < maximumLocationCount else {
                throw .tooManyLocations(origin: origin, limit: maximumLocationCount)
            }
            locations.append(try location(item, number: locations.count + 1, origin: origin, resolver: resolver))
        }
        guard !locations.isEmpty else { throw .noLocations(origin: origin) }
        let style: MarkerOverlay.Style
        var anchorFraction: IconAnchorFraction? = nil
        if let iconPath {
            var anchor: PixelPoint? = nil
            if let anchorText {
                (anchor, anchorFraction) = try iconAnchor(anchorText.text, iconPath: iconPath, origin: origin)
            }
            style = .icon(path: iconPath, anchor: anchor)
        } else if anchorText != nil {
            throw .badValue(origin: origin, key: "anchor", text: anchorText?.text ?? "", reason: "anchor needs an icon:")
        } else if isDot {
            style = .dot(diameter: dotDiameter(size))
        } else {
            style = .pin(size)
        }
        return locations.map { coordinate in
            var marker = MarkerOverlay(coordinate: coordinate, style: style, label: label, title: title, iconScale: iconScale)
            if let markerColor { marker.color = markerColor }
            marker.iconAnchorFraction = anchorFraction
            marker.snippet = snippet
            marker.opacity = opacity
            return marker
        }
    }

    /// Diameter in points of a `style:dot` marker for each `size:`.
    static func dotDiameter(_ size: MarkerOverlay.PinSize) -> Double {
        switch size {
        case .tiny: return 6
        case .small: return 9
        case .mid: return 12
        case .normal: return 16
        }
    }

    // MARK: Locations and camera

    /// Parses a `visible` value: locations separated by `|`.
    public static func parseLocations(_ text: String, origin: String,
                                      resolver: (any PlaceResolving)? = nil) throws(StaticMapsSyntaxError) -> [LatLng] {
        var result: [LatLng] = []
        for item in text.split(separator: "|") where !item.isEmpty {
            guard result.count < maximumLocationCount else { throw .tooManyLocations(origin: origin, limit: maximumLocationCount) }
            result.append(try location(item, number: result.count + 1, origin: origin, resolver: resolver))
        }
        guard !result.isEmpty else { throw .noLocations(origin: origin) }
        return result
    }

    /// Parses a single location (`center`): `lat,lon` or a place name.
    public static func parseLocation(_ text: String, origin: String,
                                     resolver: (any PlaceResolving)? = nil) throws(StaticMapsSyntaxError) -> LatLng {
        guard !text.trimmingASCIIWhitespace().isEmpty else { throw .noLocations(origin: origin) }
        return try location(Substring(text), number: 1, origin: origin, resolver: resolver)
    }

    /// Parses `WxH` in points, each side 1…`maximum`.
    public static func parseSize(_ text: String, origin: String, maximum: Int = 8192) throws(StaticMapsSyntaxError) -> ImageSize {
        let parts = text.trimmingASCIIWhitespace().lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw .badValue(origin: origin, key: nil, text: text, reason: "expected WIDTHxHEIGHT such as 600x400")
        }
        guard (1...maximum).contains(w), (1...maximum).contains(h) else {
            throw .badValue(origin: origin, key: nil, text: text, reason: "each side must be 1…\(maximum)")
        }
        return ImageSize(width: w, height: h)
    }

    /// Parses a pixel ratio 1…4 (Google allows 1, 2 and 4; any value in between works here).
    public static func parseScale(_ text: String, origin: String) throws(StaticMapsSyntaxError) -> Double {
        try number(Substring(text), key: nil, origin: origin, in: 1...4)
    }

    /// Parses a zoom level 0…22; fractions are allowed.
    public static func parseZoom(_ text: String, origin: String) throws(StaticMapsSyntaxError) -> Double {
        try number(Substring(text), key: nil, origin: origin, in: 0...22)
    }

    /// A bearing (heading): degrees clockwise from north, −360…360, or `auto` (track-up),
    /// which gives nil. MapLibre's, Mapbox Static's and mapsnap's `bearing`.
    public static func parseBearing(_ text: String, origin: String) throws(StaticMapsSyntaxError) -> Double? {
        let t = text.trimmingASCIIWhitespace()
        if t.lowercased() == "auto" { return nil }
        guard let v = Double(t), v.isFinite else {
            throw .badValue(origin: origin, key: nil, text: text, reason: "expected degrees -360…360 or auto")
        }
        guard abs(v) <= 360 else {
            throw .badValue(origin: origin, key: nil, text: text, reason: "out of range -360…360 (degrees clockwise from north)")
        }
        return v
    }

    /// A pitch: degrees the view tilts from straight down, 0…85 (MapLibre's and Mapbox
    /// Static's limit). MapLibre's, Mapbox Static's and mapsnap's `pitch`.
    public static func parsePitch(_ text: String, origin: String) throws(StaticMapsSyntaxError) -> Double {
        let t = text.trimmingASCIIWhitespace()
        guard let v = Double(t), v.isFinite else {
            throw .badValue(origin: origin, key: nil, text: text, reason: "expected degrees 0…85")
        }
        guard v >= 0, v <= 85 else {
            throw .badValue(origin: origin, key: nil, text: text, reason: "out of range 0…85 (degrees from straight down)")
        }
        return v
    }

    /// Maps a Google `maptype` onto a mapsnap style name: roadmap → normal, terrain → terrain,
    /// satellite → satellite (imagery without roads or labels), hybrid → hybrid. nil for an
    /// unknown map type.
    public static func styleName(forMapType mapType: String) -> String? {
        BundledStyle.style(forMapType: mapType)
    }

    // MARK: Pieces

    /// `key:value` when the item starts with letters and a colon; keys are case-insensitive.
    /// Place names never start that way in practice ("Paris, France" has no colon).
    static func styleItem(_ item: Substring) -> (key: String, value: Substring)? {
        guard let colon = item.firstIndex(of: ":") else { return nil }
        let key = item[..<colon]
        guard !key.isEmpty, key.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return (key.lowercased(), item[item.index(after: colon)...])
    }

    /// `lat,lon` → validated coordinate; anything that is not numeric → place name.
    static func location(_ item: Substring, number: Int, origin: String,
                         resolver: (any PlaceResolving)?) throws(StaticMapsSyntaxError) -> LatLng {
        let text = item.trimmingASCIIWhitespace()
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, let lat = Double(parts[0].trimmingASCIIWhitespace()), let lon = Double(parts[1].trimmingASCIIWhitespace()) {
            guard lat.isFinite, lon.isFinite else {
                throw .badLocation(origin: origin, number: number, text: text, problem: .notFinite)
            }
            guard LatLng.isValidLatitude(lat) else { throw .badLocation(origin: origin, number: number, text: text, problem: .latitudeOutOfRange(lat)) }
            guard LatLng.isValidLongitude(lon) else { throw .badLocation(origin: origin, number: number, text: text, problem: .longitudeOutOfRange(lon)) }
            return LatLng(latitude: lat, longitude: lon)
        }
        // Only digits, signs, dots and commas: a malformed coordinate, not a place.
        if text.allSatisfy({ "0123456789+-., eE".contains($0) }) {
            throw .badLocation(origin: origin, number: number, text: text, problem: .malformed)
        }
        guard let resolver, let coordinate = resolver.coordinate(forPlaceNamed: text) else {
            throw .badLocation(origin: origin, number: number, text: text,
                               problem: .unknownPlace(suggestions: resolver?.suggestions(forPlaceNamed: text) ?? []))
        }
        guard coordinate.isValid else {
            throw .badLocation(origin: origin, number: number, text: text, problem: .notFinite)
        }
        return coordinate
    }

    static func color(_ value: Substring, key: String, origin: String) throws(StaticMapsSyntaxError) -> Color {
        do {
            return try ColorSyntax.parse(String(value))
        } catch {
            throw .badValue(origin: origin, key: key, text: String(value), reason: error.description)
        }
    }

    static func number(_ value: Substring, key: String?, origin: String, in range: ClosedRange<Double>) throws(StaticMapsSyntaxError) -> Double {
        guard let v = Double(value.trimmingASCIIWhitespace()), v.isFinite else {
            throw .badValue(origin: origin, key: key, text: String(value), reason: "not a number")
        }
        guard range.contains(v) else {
            throw .badValue(origin: origin, key: key, text: String(value), reason: "out of range \(format(range.lowerBound))…\(format(range.upperBound))")
        }
        return v
    }

    /// An image quality: a whole number 1…100 (JPEG, lossy WebP).
    public static func parseQuality(_ text: String, origin: String) throws(StaticMapsSyntaxError) -> Int {
        let q = try number(Substring(text), key: nil, origin: origin, in: 1...100)
        guard q == q.rounded() else { throw .badValue(origin: origin, key: nil, text: text, reason: "not a whole number") }
        return Int(q)
    }

    static func bool(_ value: Substring, key: String, origin: String) throws(StaticMapsSyntaxError) -> Bool {
        switch value.lowercased() {
        case "true": return true
        case "false": return false
        default: throw .badValue(origin: origin, key: key, text: String(value), reason: "expected true or false")
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `path` unchanged when absolute, a URL, or when there is no base directory.
    static func resolvePath(_ path: String, against baseDirectory: String?) -> String {
        guard let baseDirectory, !path.hasPrefix("/"), !path.contains("://"), !baseDirectory.isEmpty else { return path }
        return baseDirectory.hasSuffix("/") ? baseDirectory + path : baseDirectory + "/" + path
    }

    /// An `anchor:` for the icon at `iconPath`: `x,y` in icon pixels, or a name placed by the
    /// icon's size — read from a local PNG's header now, or kept as a fraction for an icon
    /// URL, whose size is known only once it is fetched.
    static func iconAnchor(_ text: String, iconPath: String,
                           origin: String) throws(StaticMapsSyntaxError) -> (pixels: PixelPoint?, fraction: IconAnchorFraction?) {
        let lower = text.lowercased()
        let parts = lower.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let x = Double(parts[0].trimmingASCIIWhitespace()), let y = Double(parts[1].trimmingASCIIWhitespace()),
                  x.isFinite, y.isFinite, abs(x) <= 4096, abs(y) <= 4096 else {
                throw .badValue(origin: origin, key: "anchor", text: text, reason: "expected x,y in icon pixels")
            }
            return (PixelPoint(x: x, y: y), nil)
        }
        guard let fraction = IconAnchorFraction.named[lower] else {
            throw .badValue(origin: origin, key: "anchor", text: text,
                            reason: "expected top, bottom, left, right, center, topleft, topright, bottomleft, bottomright or x,y")
        }
        if FilePathPolicy.isURL(iconPath) { return (nil, fraction) }
        let size: ImageSize
        do {
            size = try IconImageHeader.imageSize(atPath: iconPath)
        } catch {
            throw .badValue(origin: origin, key: "icon", text: iconPath, reason: error.reason)
        }
        return (fraction.point(width: size.width, height: size.height), nil)
    }
}

/// Reads just the IHDR of a PNG to learn its size, without decoding it.
private enum IconImageHeader {
    struct Failure: Error { var reason: String }

    static func imageSize(atPath path: String) throws(Failure) -> ImageSize {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(reason: "cannot open the icon file") }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: 24)) ?? nil
        let bytes = [UInt8](data ?? Data())
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count == 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw Failure(reason: "not a PNG file")
        }
        let w = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let h = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        guard w > 0, h > 0, w <= 4096, h <= 4096 else { throw Failure(reason: "icon size \(w)x\(h) outside 1…4096") }
        return ImageSize(width: w, height: h)
    }
}

/// Why a Static Maps parameter was rejected. `origin` is the flag or key (`--path`,
/// `paths[2]`, `--url markers[1]`), `item`/`number` are 1-based positions in the value.
public enum StaticMapsSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with a location.
    public enum LocationProblem: Equatable, Sendable {
        case latitudeOutOfRange(Double)
        case longitudeOutOfRange(Double)
        case notFinite
        case malformed
        case unknownPlace(suggestions: [String] = [])
    }

    case badLocation(origin: String, number: Int, text: String, problem: LocationProblem)
    case styleAfterLocation(origin: String, item: Int, text: String)
    case unknownStyleKey(origin: String, item: Int, key: String, allowed: [String])
    /// `key` is nil for whole-value parameters such as `--size`.
    case badValue(origin: String, key: String?, text: String, reason: String)
    case badPolyline(origin: String, error: PolylineError)
    /// A precision-5 polyline whose points leave the world, while the same text is a valid
    /// precision-6 polyline (OSRM and Valhalla write those): the usual mix-up, named as such.
    case precision6Polyline(origin: String, error: PolylineError)
    case noLocations(origin: String)
    case tooManyLocations(origin: String, limit: Int)
    case badURL(origin: String, reason: String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case let .badLocation(origin, number, text, problem):
            let head = "\(origin): location \(number) \"\(text)\": "
            switch problem {
            case let .latitudeOutOfRange(v): return head + "latitude \(StaticMapsSyntax.format(v)) out of range -90…90"
            case let .longitudeOutOfRange(v): return head + "longitude \(StaticMapsSyntax.format(v)) out of range -180…180"
            case .notFinite: return head + "coordinates must be finite numbers"
            case .malformed: return head + "expected LAT,LON"
            case .unknownPlace(let suggestions):
                var hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.map { "\"\($0)\"" }.joined(separator: ", "))?)"
                if suggestions.isEmpty, let missing = PlaceResolver.bundledPlacesMissing { hint = " (\(missing))" }
                return head + "no place named \"\(text)\"" + hint
            }
        case let .styleAfterLocation(origin, item, text):
            return "\(origin): item \(item) \"\(text)\": style items must come before the first location"
        case let .unknownStyleKey(origin, item, key, allowed):
            return "\(origin): item \(item): unknown style key \"\(key)\" (expected \(allowed.joined(separator: ", ")))"
        case let .badValue(origin, key, text, reason):
            return key.map { "\(origin): \($0):\"\(text)\": \(reason)" } ?? "\(origin): \"\(text)\": \(reason)"
        case let .badPolyline(origin, error):
            return "\(origin): encoded polyline: \(error)"
        case let .precision6Polyline(origin, error):
            return "\(origin): encoded polyline: \(error); the text is a valid precision-6 polyline: pass it as polyline6"
        case let .noLocations(origin):
            return "\(origin): no locations given"
        case let .tooManyLocations(origin, limit):
            return "\(origin): more than \(limit) locations"
        case let .badURL(origin, reason):
            return "\(origin): \(reason)"
        }
    }
}
