import Foundation

/// One image of a sprite sheet: its pixels, cut out of the sheet, and what the index says
/// about it.
///
/// Sizes in the style (`icon-size`, `icon-offset`) are CSS pixels: an image `width` pixels
/// wide at `pixelRatio` 2 is `width / 2` CSS pixels wide, and is drawn at that size times
/// the render scale.
struct SpriteImage: Sendable {
    /// The image (premultiplied RGBA).
    let image: Canvas
    /// Image pixels per CSS pixel (1 for `sprite.png`, 2 for `sprite@2x.png`).
    let pixelRatio: Double
    /// A signed-distance-field image: its alpha is a distance to the edge, drawn in
    /// `icon-color` (with `icon-halo-*`).
    let sdf: Bool
    /// Horizontal ranges (image pixels) that `icon-text-fit` stretches; empty: the whole image.
    let stretchX: [ClosedRange<Double>]
    /// Vertical ranges that `icon-text-fit` stretches; empty: the whole image.
    let stretchY: [ClosedRange<Double>]
    /// The part of the image (image pixels) that `icon-text-fit` fits around the text;
    /// nil: the whole image.
    let content: PixelRect?

    /// Width in CSS pixels.
    var width: Double { Double(image.width) / pixelRatio }
    /// Height in CSS pixels.
    var height: Double { Double(image.height) / pixelRatio }
}

/// Why a sprite sheet could not be read. Every case names the file (`origin`) and, for the
/// index, the JSON key path.
public enum SpriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The index or image could not be read (too large, unreadable).
    case unreadable(origin: String, reason: String)
    /// The index is not JSON; the error names the file, line, column and byte offset.
    case invalidIndexJSON(JSONError)
    /// The image is not a readable PNG; the error says why (and where, for broken chunks).
    case invalidImage(origin: String, PNGError)
    /// An index entry is malformed.
    case invalidEntry(origin: String, keyPath: String, reason: String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case .unreadable(let origin, let reason): return "\(origin): cannot read sprite: \(reason)"
        case .invalidIndexJSON(let e): return "\(e.source): cannot read sprite: \(e)"
        case .invalidImage(let origin, let e): return "\(origin): cannot read sprite: \(e)"
        case .invalidEntry(let origin, let path, let reason): return "\(origin): \(path): \(reason)"
        }
    }
}

/// The images of a style's sprite sheets by name (`name` for the `default` sheet,
/// `id:name` for the others, as `icon-image` and `*-pattern` name them).
///
/// A sheet is a PNG plus a JSON index (`{"name": {"x", "y", "width", "height",
/// "pixelRatio", "sdf", "stretchX", "stretchY", "content"}, …}`).
struct SpriteSheet: Sendable {
    /// Most bytes read for an index (real ones are under 100 kB).
    static let maximumIndexBytes = 4 << 20
    /// Most bytes read for a sheet image.
    static let maximumImageBytes = 32 << 20
    /// Largest sheet accepted, in pixels (real @2x sheets are at most about 2048²).
    static let maximumImagePixels = 4096 * 4096
    /// Most entries in one index.
    static let maximumEntries = 20_000

    /// Images by the name styles use.
    private(set) var images: [String: SpriteImage] = [:]
    /// Index entries that were skipped because they lie outside the sheet.
    private(set) var skippedEntries = 0

    init() {}

    /// The image `name` refers to, if any.
    func image(named name: String) -> SpriteImage? { images[name] }

    /// Whether the sheet holds no image.
    var isEmpty: Bool { images.isEmpty }

    /// Adds the images of one sheet, under `prefix` + name (`""` for the default sheet).
    /// - Parameters:
    ///   - origin: names the sheet in errors (its location, without `.json`/`.png`).
    ///   - defaultPixelRatio: for entries without `pixelRatio` (2 for an `@2x` sheet).
    mutating func add(index: [UInt8], image: [UInt8], origin: String, prefix: String = "",
                             defaultPixelRatio: Double = 1) throws(SpriteError) {
        guard index.count <= Self.maximumIndexBytes else {
            throw .unreadable(origin: origin + ".json", reason: "\(index.count) bytes is more than the limit of \(Self.maximumIndexBytes)")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(index, origin: origin + ".json", maximumDepth: 8)
        } catch {
            throw .invalidIndexJSON(error)
        }
        guard case .object(let entries) = json else {
            throw .invalidEntry(origin: origin + ".json", keyPath: "(root)", reason: "expected an object of images, found \(json.typeName)")
        }
        guard entries.count <= Self.maximumEntries else {
            throw .invalidEntry(origin: origin + ".json", keyPath: "(root)",
                                reason: "\(entries.count) images; at most \(Self.maximumEntries) are accepted")
        }
        let sheet: Canvas
        do {
            sheet = try PNGCodec.decode(image, origin: origin + ".png", maxPixelCount: Self.maximumImagePixels)
        } catch {
            throw .invalidImage(origin: origin + ".png", error)
        }
        for (name, value) in entries {
            let entry = try SpriteEntry(value, origin: origin + ".json", keyPath: name, defaultPixelRatio: defaultPixelRatio)
            guard entry.x + entry.width <= sheet.width, entry.y + entry.height <= sheet.height else {
                skippedEntries += 1
                continue
            }
            images[prefix + name] = SpriteImage(image: Self.crop(sheet, entry), pixelRatio: entry.pixelRatio, sdf: entry.sdf,
                                                stretchX: entry.stretchX, stretchY: entry.stretchY, content: entry.content)
        }
    }

    private static func crop(_ sheet: Canvas, _ e: SpriteEntry) -> Canvas {
        var px: [UInt8] = []
        px.reserveCapacity(e.width * e.height * 4)
        for row in 0..<e.height {
            let s = ((e.y + row) * sheet.width + e.x) * 4
            px += sheet.pixels[s..<s + e.width * 4]
        }
        return Canvas(width: e.width, height: e.height, premultipliedPixels: px)
    }
}

/// One validated index entry.
private struct SpriteEntry {
    var x = 0, y = 0, width = 0, height = 0
    var pixelRatio = 1.0
    var sdf = false
    var stretchX: [ClosedRange<Double>] = []
    var stretchY: [ClosedRange<Double>] = []
    var content: PixelRect?

    init(_ json: JSONValue, origin: String, keyPath: String, defaultPixelRatio: Double) throws(SpriteError) {
        guard case .object(let o) = json else {
            throw .invalidEntry(origin: origin, keyPath: keyPath, reason: "expected an object, found \(json.typeName)")
        }
        func integer(_ key: String, minimum: Int) throws(SpriteError) -> Int {
            guard case .number(let n)? = o[key] else {
                throw .invalidEntry(origin: origin, keyPath: keyPath + "." + key, reason: "expected an integer")
            }
            guard n.isFinite, n == n.rounded(), n >= Double(minimum), n <= 1_000_000 else {
                throw .invalidEntry(origin: origin, keyPath: keyPath + "." + key,
                                    reason: "\(JSONWriter.format(n)) is not an integer from \(minimum) to 1000000")
            }
            return Int(n)
        }
        func ranges(_ key: String) throws(SpriteError) -> [ClosedRange<Double>] {
            guard let v = o[key], v != .null else { return [] }
            guard case .array(let items) = v else {
                throw .invalidEntry(origin: origin, keyPath: keyPath + "." + key, reason: "expected an array of [from, to] pairs")
            }
            var out: [ClosedRange<Double>] = []
            for (i, item) in items.enumerated() {
                guard case .array(let pair) = item, pair.count == 2, case .number(let a) = pair[0], case .number(let b) = pair[1],
                      a.isFinite, b.isFinite, a <= b else {
                    throw .invalidEntry(origin: origin, keyPath: "\(keyPath).\(key)[\(i)]", reason: "expected [from, to] with from ≤ to")
                }
                out.append(a...b)
            }
            return out
        }
        x = try integer("x", minimum: 0)
        y = try integer("y", minimum: 0)
        width = try integer("width", minimum: 1)
        height = try integer("height", minimum: 1)
        switch o["pixelRatio"] {
        case nil, .null?: pixelRatio = defaultPixelRatio
        case .number(let r)? where r.isFinite && r > 0 && r <= 16: pixelRatio = r
        default:
            throw .invalidEntry(origin: origin, keyPath: keyPath + ".pixelRatio", reason: "expected a number above 0, at most 16")
        }
        switch o["sdf"] {
        case nil, .null?: sdf = false
        case .bool(let b)?: sdf = b
        default: throw .invalidEntry(origin: origin, keyPath: keyPath + ".sdf", reason: "expected true or false")
        }
        stretchX = try ranges("stretchX")
        stretchY = try ranges("stretchY")
        if let c = o["content"], c != .null {
            guard case .array(let items) = c, items.count == 4 else {
                throw .invalidEntry(origin: origin, keyPath: keyPath + ".content", reason: "expected [left, top, right, bottom]")
            }
            var n: [Double] = []
            for item in items {
                guard case .number(let v) = item, v.isFinite else {
                    throw .invalidEntry(origin: origin, keyPath: keyPath + ".content", reason: "expected [left, top, right, bottom]")
                }
                n.append(v)
            }
            guard n[0] <= n[2], n[1] <= n[3] else {
                throw .invalidEntry(origin: origin, keyPath: keyPath + ".content", reason: "left must be ≤ right and top ≤ bottom")
            }
            content = PixelRect(minX: n[0], minY: n[1], maxX: n[2], maxY: n[3])
        }
    }
}
