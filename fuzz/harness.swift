// libFuzzer entry point over mapsnap's untrusted inputs. The first byte of an input picks
// the target (`FuzzTarget`), the rest is that target's input. With MAPSNAP_FUZZ_TARGET set
// to a target's name, the first byte is still skipped but ignored, so a run stays on one
// target while the corpus files remain valid for a run over all of them.
//
// Built and run by fuzz/run.sh (compiled into the MapSnap module with the library sources,
// so internal entry points are reachable); not part of the package build. A target treats
// thrown errors as the expected outcome; anything that traps, leaks past the sanitizers,
// hangs (-timeout) or blows memory (-rss_limit_mb) is a finding. A few targets also check a
// property (a round trip, coverage in 0…1) and trap when it fails.

import Foundation

/// The targets, in selector-byte order (`byte % count`). Append only: corpus files start
/// with these numbers.
enum FuzzTarget: Int, CaseIterable {
    case mvt, png, jpeg, gzip, polyline, path, geojson, gpx, style, pmtilesDirectory
    case pmtilesHeader, pmtiles, mbtiles, spec, url, color, template, dem, expression
    case fill, stroke, text, compare, request, sprite, osmpbf

    /// The name run.sh and MAPSNAP_FUZZ_TARGET use.
    var name: String {
        switch self {
        case .pmtilesDirectory: return "pmtiles-dir"
        case .pmtilesHeader: return "pmtiles-header"
        default: return "\(self)"
        }
    }
}

/// The target fixed by MAPSNAP_FUZZ_TARGET, read once.
let fixedTarget: FuzzTarget? = ProcessInfo.processInfo.environment["MAPSNAP_FUZZ_TARGET"].map { name in
    guard let target = FuzzTarget.allCases.first(where: { $0.name == name }) else {
        fatalError("MAPSNAP_FUZZ_TARGET=\(name) is not one of \(FuzzTarget.allCases.map(\.name))")
    }
    return target
}

/// Where the fixtures live (spec and Static Maps inputs may name files inside it).
let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tests/MapSnapTests/Fixtures").path

/// The server's configuration as shipped (the four bundled styles, default limits).
let serverConfiguration = ServerConfiguration()

/// One scratch file per process for the targets that open a path (SQLite, PMTiles).
let scratchPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("mapsnap-fuzz-\(getpid()).bin").path

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = bytes.first else { return 0 }
    let target = fixedTarget ?? FuzzTarget(rawValue: Int(selector) % FuzzTarget.allCases.count) ?? .mvt
    let body = Array(bytes.dropFirst())
    switch target {
    case .mvt: fuzzMVT(body)
    case .png: fuzzPNG(body)
    case .jpeg: _ = try? JPEGCodec.decode(body, origin: "fuzz", maxPixelCount: 1 << 20)
    case .gzip: fuzzGzip(body)
    case .polyline: _ = try? EncodedPolyline.decode(String(decoding: body, as: UTF8.self), precision: 5)
    case .path: _ = try? StaticMapsSyntax.parsePath(String(decoding: body, as: UTF8.self), origin: "fuzz")
    case .geojson: _ = try? GeoJSON(data: Data(body), source: "fuzz")
    case .gpx: _ = try? GPX(data: Data(body), source: "fuzz")
    case .osmpbf: fuzzOSMPBF(body)
    case .style: _ = try? Style.parse(data: Data(body), origin: "fuzz")
    case .pmtilesDirectory: fuzzPMTilesDirectory(body)
    case .pmtilesHeader: fuzzPMTilesHeader(body)
    case .pmtiles: fuzzPMTiles(body)
    case .mbtiles: fuzzMBTiles(body)
    case .spec: fuzzSpec(body)
    case .url: fuzzStaticMapsURL(body)
    case .color: fuzzColor(body)
    case .template: fuzzTemplate(body)
    case .dem: fuzzDEM(body)
    case .expression: fuzzExpression(body)
    case .fill: fuzzFill(body)
    case .stroke: fuzzStroke(body)
    case .text: fuzzText(body)
    case .compare: fuzzCompare(body)
    case .request: fuzzRequest(body)
    case .sprite: fuzzSprite(body)
    }
    return 0
}

// MARK: Decoders

func fuzzMVT(_ body: [UInt8]) {
    guard let tile = try? VectorTile(bytes: body) else { return }
    var geometry = TileGeometry()
    var polygons = ClassifiedPolygons()
    for name in tile.layerNames {
        guard let layer = try? tile.layer(named: name) else { continue }
        for feature in layer.features {
            geometry.removeAll()
            try? feature.decodeGeometry(into: &geometry)
            _ = feature.value(forKey: "class")
            if feature.geometryType == .polygon {
                polygons.removeAll()
                RingClassifier.classify(geometry, into: &polygons)
            }
        }
    }
}

func fuzzPNG(_ body: [UInt8]) {
    // The fast path (libdeflate) and libpng agree on every input: same pixels or same error.
    let fast = Result { () throws(PNGError) in try PNGCodec.decode(body, origin: "fuzz", maxPixelCount: 1 << 20, fastPath: true) }
    let slow = Result { () throws(PNGError) in try PNGCodec.decode(body, origin: "fuzz", maxPixelCount: 1 << 20, fastPath: false) }
    switch (fast, slow) {
    case let (.success(a), .success(b)) where a.width == b.width && a.height == b.height && a.pixels == b.pixels: break
    case let (.failure(a), .failure(b)) where a == b: break
    default: fatalError("PNG fast path and libpng disagree")
    }
    // Whatever decodes must survive our encoder: encode → decode gives the same pixels.
    guard let canvas = try? fast.get() else { return }
    guard let png = try? PNGCodec.encode(canvas), let back = try? PNGCodec.decode(png, origin: "re-encoded"),
          back.pixels == canvas.pixels else { fatalError("PNG encode → decode changed the pixels") }
}

func fuzzGzip(_ body: [UInt8]) {
    // Whatever inflates must deflate and inflate back to itself.
    guard let inflated = try? Gzip.decompress(body, maxOutputBytes: 1 << 20) else { return }
    guard let deflated = try? Gzip.compress(inflated), let back = try? Gzip.decompress(deflated, maxOutputBytes: 1 << 20),
          back == inflated else { fatalError("gzip compress → decompress changed the bytes") }
}

// MARK: Tile containers

func fuzzPMTilesDirectory(_ body: [UInt8]) {
    // Whatever decodes must encode to bytes that decode to the same entries.
    guard let entries = try? PMTilesDirectory.decode(body) else { return }
    guard let back = try? PMTilesDirectory.decode(PMTilesDirectory.encode(entries)), back == entries else {
        fatalError("PMTiles directory encode → decode changed the entries")
    }
    for entry in entries.prefix(64) {
        _ = PMTilesTileID.tile(for: entry.tileID)
        _ = PMTilesDirectory.find(entry.tileID, in: entries)
    }
}

func fuzzPMTilesHeader(_ body: [UInt8]) {
    // The declared file size is the input's (a truncated file) or far larger (all sections fit).
    for fileSize in [body.count, 1 << 40] {
        guard let header = try? PMTilesHeader(bytes: body, fileSize: fileSize, path: "fuzz") else { continue }
        guard let back = try? PMTilesHeader(bytes: header.encoded(), fileSize: fileSize, path: "fuzz"), back == header else {
            fatalError("PMTiles header encode → decode changed the header")
        }
    }
}

/// Writes `body` to the scratch file; false when that fails (then the input is skipped).
func writeScratch(_ body: [UInt8]) -> Bool {
    (try? Data(body).write(to: URL(fileURLWithPath: scratchPath))) != nil
}

/// Tiles every container target asks for besides the ones its walk finds.
let probeTiles: [TileID] = [TileID(unchecked: 0, 0, 0), TileID(unchecked: 1, 1, 0), TileID(unchecked: 14, 9326, 4739),
                            TileID(unchecked: 30, (1 << 30) - 1, (1 << 30) - 1)]

/// Stops a container walk.
struct Enough: Error {}

/// Reads every tile a source's walk yields (at most 256), then the probe tiles, within a
/// deadline as a render does: a hostile database may spend SQLite's whole per-step
/// instruction budget (seconds under ASan) on every lookup, which only a deadline bounds.
func readTiles(_ source: some TileSource, walk: ((TileID, [UInt8]) throws -> Void) throws -> Void) {
    var seen: [TileID] = []
    try? walk { tile, _ in
        seen.append(tile)
        if seen.count >= 256 { throw Enough() }
    }
    let deadline = Deadline.after(seconds: 2)
    for tile in seen + probeTiles {
        _ = try? source.tileData(for: tile, deadline: deadline)
    }
}

func fuzzPMTiles(_ body: [UInt8]) {
    guard writeScratch(body), let source = try? PMTilesSource(path: scratchPath) else { return }
    readTiles(source, walk: source.forEachStoredTile)
}

func fuzzMBTiles(_ body: [UInt8]) {
    guard writeScratch(body), let source = try? MBTilesSource(path: scratchPath) else { return }
    readTiles(source, walk: source.forEachStoredTile)
}

// MARK: User syntaxes

func fuzzSpec(_ body: [UInt8]) {
    // Specs may name files: only those inside the fixtures folder, as a server would allow.
    let data = Data(body)
    _ = try? RenderSpec.parse(data: data, source: "fuzz", baseDirectory: fixturesDirectory, resolver: BundledPlaces(),
                              filePaths: .insideBaseDirectory)
    _ = try? RenderSpec.parseJobs(data: data, source: "fuzz", baseDirectory: fixturesDirectory, resolver: BundledPlaces(),
                                  filePaths: .insideBaseDirectory)
}

func fuzzStaticMapsURL(_ body: [UInt8]) {
    _ = try? StaticMapsURL(parsing: String(decoding: body, as: UTF8.self), origin: "fuzz", resolver: BundledPlaces(),
                           baseDirectory: fixturesDirectory, filePaths: .insideBaseDirectory)
}

func fuzzColor(_ body: [UInt8]) {
    let text = String(decoding: body, as: UTF8.self)
    _ = try? ColorSyntax.parse(text)
    if let color = CSSColor.parse(text) {
        // Style colours are printed in warnings and turned into pixels.
        _ = color.description
        _ = color.color
    }
}

func fuzzTemplate(_ body: [UInt8]) {
    // First line the template, further lines the subdomains.
    let lines = String(decoding: body, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    _ = URLRedaction.redact(lines.first ?? "")
    let subdomains = lines.count > 1 ? Array(lines.dropFirst()) : TileURLTemplate.defaultSubdomains
    guard let template = try? TileURLTemplate(lines.first ?? "", subdomains: subdomains) else { return }
    _ = template.pathExtension
    for tile in probeTiles {
        _ = URLRedaction.redact(template.expand(tile, scale: 2))
    }
}

// MARK: Rendering stages

func fuzzDEM(_ body: [UInt8]) {
    // As a raster-dem tile goes: sniff and decode (size-capped), elevations, hillshade.
    guard let image = try? RasterTileDecoder.decode(body, origin: "fuzz") else { return }
    for encoding in DEMEncoding.allCases {
        guard let dem = try? DEMTile(decoding: image, encoding: encoding) else { continue }
        let shaded = HillshadePainter.shade(dem, tile: TileID(unchecked: 12, 2331, 1183), parameters: .init()) { dx, dy in
            dx == 0 && dy == 0 ? nil : dem
        }
        precondition(shaded.width == dem.side && shaded.height == dem.side, "hillshade image size")
    }
}

/// A feature whose properties come from the fuzzer's JSON.
struct FuzzFeature: StyleFeature {
    var properties: [String: FeatureValue]
    var geometryType: GeometryType
    var featureID: UInt64?
    func value(forKey key: String) -> FeatureValue? { properties[key] }
}

/// Input: a JSON array `[zoom, {properties}, expression, geometry type?, id?]`. The expression
/// is compiled as a filter and as a value of properties of every kind, then evaluated.
func fuzzExpression(_ body: [UInt8]) {
    guard case .array(let items)? = try? JSONValue.parse(body, origin: "fuzz", maximumDepth: Style.maximumNestingDepth),
          items.count >= 3 else { return }
    var zoom = 10.0
    if case .number(let n) = items[0] { zoom = n }
    var properties: [String: FeatureValue] = [:]
    if case .object(let object) = items[1] {
        for (key, value) in object {
            switch value {
            case .string(let s): properties[key] = .string(s)
            case .number(let n): properties[key] = .number(n)
            case .bool(let b): properties[key] = .bool(b)
            default: properties[key] = .null
            }
        }
    }
    var geometryType = GeometryType.lineString
    if items.count > 3, case .string(let s) = items[3] { geometryType = GeometryType(rawValue: s) ?? .point }
    var id: UInt64?
    if items.count > 4, case .number(let n) = items[4], n >= 0, n < 1.8e19 { id = UInt64(n) }
    let feature = FuzzFeature(properties: properties, geometryType: geometryType, featureID: id)
    let zooms = [zoom, 0, 24.5, -1]

    var compiler = ExpressionCompiler(origin: "fuzz")
    if let filter = try? compiler.compileFilter(items[2], at: "filter") {
        for z in zooms { _ = filter.matches(feature, zoom: z) }
    }
    let styleProperties: [StyleProperty] = [.lineColor, .lineWidth, .lineDasharray, .textField, .textFont, .iconImage,
                                       .iconPadding, .lineCap, .visibility]
    for property in styleProperties {
        guard let expression = try? compiler.compileValue(items[2], kind: property.kind, at: property.rawValue) else { continue }
        let value = PropertyValue(property: property, expression: expression)
        for z in zooms {
            _ = value.value(atZoom: z, feature: feature)
            _ = value.color(atZoom: z, feature: feature)
            _ = value.number(atZoom: z, feature: feature)
            _ = value.numberArray(atZoom: z, feature: feature)
            _ = value.stringArray(atZoom: z, feature: feature)
            _ = value.textField(atZoom: z, feature: feature)
            // Keywords are asked only of keyword properties (anything else is a programmer error).
            if property == .lineCap { _ = value.keyword(LineCap.self, atZoom: z, feature: feature) }
            if property == .visibility { _ = value.keyword(Visibility.self, atZoom: z, feature: feature) }
        }
        _ = value.resolved(atZoom: zoom).value(atZoom: zoom, feature: feature)
    }
}

/// Reads a fuzz input front to back; past the end every read yields zeros.
struct InputReader {
    var bytes: [UInt8]
    var position = 0

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    var isAtEnd: Bool { position >= bytes.count }

    /// A coordinate-like number: a tag byte picks a small grid value, any bit pattern
    /// (NaN, ±∞, denormals), a float, or one of the extremes that break geometry code.
    mutating func number() -> Double {
        let tag = byte()
        switch tag % 4 {
        case 0:
            let raw = Int16(bitPattern: UInt16(byte()) | UInt16(byte()) << 8)
            return Double(raw) / 4
        case 1:
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(byte()) << (8 * UInt64(i)) }
            return Double(bitPattern: bits)
        case 2:
            let extremes: [Double] = [1e12, -1e12, .nan, .infinity, -.infinity, .leastNonzeroMagnitude,
                                      -.leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                      1e300, -0.0, 0.5, 1125899906842624, 1e-300, 4e9, -4e9]
            return extremes[Int(byte()) % extremes.count]
        default:
            var bits: UInt32 = 0
            for i in 0..<4 { bits |= UInt32(byte()) << (8 * UInt32(i)) }
            return Double(Float(bitPattern: bits))
        }
    }

    mutating func point() -> PixelPoint { PixelPoint(x: number(), y: number()) }

    /// A path of up to 4096 commands.
    mutating func path() -> Path {
        var path = Path()
        var commands = 0
        while !isAtEnd, commands < 4096 {
            commands += 1
            switch byte() % 8 {
            case 0: path.move(to: point())
            case 1, 2: path.line(to: point())
            case 3: path.quad(to: point(), control: point())
            case 4: path.cubic(to: point(), control1: point(), control2: point())
            case 5: path.close()
            case 6: path.addCircle(center: point(), radius: number())
            default:
                let a = point(), b = point()
                if byte() % 2 == 0 {
                    path.addRect(PixelRect(minX: a.x, minY: a.y, maxX: b.x, maxY: b.y))
                } else {
                    path.addRoundedRect(PixelRect(minX: a.x, minY: a.y, maxX: b.x, maxY: b.y), radius: number())
                }
            }
        }
        return path
    }
}

/// Input: canvas size, fill rule, threads, then path commands (see `InputReader.path`).
func fuzzFill(_ body: [UInt8]) {
    var input = InputReader(bytes: body)
    let width = 1 + Int(input.byte() % 64), height = 1 + Int(input.byte() % 64)
    let rule: FillRule = input.byte() % 2 == 0 ? .nonZero : .evenOdd
    let threads = 1 + Int(input.byte() % 4)
    let path = input.path()

    let canvas = Canvas(width: width, height: height)
    canvas.maximumThreads = threads
    canvas.fill(path, color: Color(red: 200, green: 10, blue: 30, alpha: 180), rule: rule)
    Rasterizer().rasterizeExact(path, width: width, height: height, rule: rule) { _, x0, coverage in
        precondition(x0 >= 0 && x0 + coverage.count <= width, "span outside the canvas")
        for c in coverage where !(c >= -1e-9 && c <= 1 + 1e-9) {
            fatalError("coverage \(c) outside 0…1")
        }
    }
    _ = LineClipper.clip(path, to: PixelRect(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height)))
    _ = Simplifier.simplify(path)
}

/// Input: canvas size, stroke width, cap, join, miter limit, dash pattern and phase, then
/// path commands. Strokes as the canvas does (clip, dash, simplify, outline, fill) and runs
/// the dasher and stroker on the unclipped path as well.
func fuzzStroke(_ body: [UInt8]) {
    var input = InputReader(bytes: body)
    let width = 1 + Int(input.byte() % 64), height = 1 + Int(input.byte() % 64)
    let caps: [LineCap] = [.butt, .round, .square], joins: [LineJoin] = [.miter, .round, .bevel]
    var style = StrokeStyle(width: input.number(), cap: caps[Int(input.byte()) % 3], join: joins[Int(input.byte()) % 3],
                            miterLimit: input.number())
    style.dash = (0..<Int(input.byte() % 9)).map { _ in input.number() }
    style.dashPhase = input.number()
    let path = input.path()

    let canvas = Canvas(width: width, height: height)
    canvas.stroke(path, style: style, color: Color(red: 0, green: 90, blue: 200, alpha: 200))
    if let outline = Canvas.strokeOutline(path, style: style, width: width, height: height) {
        Rasterizer().rasterizeExact(outline, width: width, height: height, rule: .nonZero) { _, _, coverage in
            for c in coverage where !(c >= -1e-9 && c <= 1 + 1e-9) { fatalError("stroke coverage \(c) outside 0…1") }
        }
    }
    // The public building blocks on their own, unclipped; only for widths a style could ask
    // for (line-width is capped far below this), since an unclipped round join of a
    // kilometre-wide line is legitimately huge.
    // Dashes come from a budget weighted by their caps' cost, as in `Canvas.strokeOutline`:
    // 180,000 round-capped dashes of a 9,000-px line are 85 million cap points (1.4 GB).
    if style.width.isFinite, abs(style.width) <= 1e4 {
        var budget = Dasher.maxDashCount / style.dashCost
        let dashed = Dasher.dash(path, pattern: style.dash, phase: style.dashPhase, budget: &budget)
        _ = Stroker.outline(Simplifier.simplify(dashed), style: style)
    }
}

/// Input: a size, a scale, wrapping, alignment, spacing, line height, boldness, a rotation,
/// then the text as UTF-8.
func fuzzText(_ body: [UInt8]) {
    guard let fonts = MapRenderer.shared.text.fonts else { fatalError("the bundled fonts did not load: \(String(describing: MapRenderer.shared.text.fontError))") }
    var input = InputReader(bytes: body)
    let sizes: [Double] = [16, 12, 0, 1, 0.01, 64, 200, 1000, .nan, .infinity, -8, 1e300]
    let size = sizes[Int(input.byte()) % sizes.count]
    let maxWidths: [Double?] = [nil, 160, 10, 0, 1, .nan, -5, 1e9]
    let maxWidth = maxWidths[Int(input.byte()) % maxWidths.count]
    let alignment = TextAlignment.allCases[Int(input.byte()) % TextAlignment.allCases.count]
    let spacings: [Double] = [0, 0.1, -0.5, 5, .nan, -1e6]
    let spacing = spacings[Int(input.byte()) % spacings.count]
    let lineHeights: [Double] = [1.2, 0, 3, .nan, -1, 1e6]
    let lineHeight = lineHeights[Int(input.byte()) % lineHeights.count]
    let bold = input.byte() % 2 == 1
    let rotations: [Double] = [0, 0.5, -3, .pi, .nan, 1e9]
    let rotation = rotations[Int(input.byte()) % rotations.count]
    let text = String(decoding: body[min(input.position, body.count)...], as: UTF8.self)

    let options = TextLayoutOptions(sizePixels: size, maxWidth: maxWidth, lineHeight: lineHeight, alignment: alignment,
                                    letterSpacing: spacing)
    let layout = TextLayout(text, face: bold ? fonts.bold : fonts.regular, fonts: fonts, options: options)
    let canvas = Canvas(width: 96, height: 48)
    let renderer = MapRenderer.shared.text.renderer
    let anchor = TextAnchor.allCases[text.utf8.count % TextAnchor.allCases.count]
    _ = renderer.measure(layout, at: PixelPoint(x: 48, y: 24), anchor: anchor, haloWidth: 2)
    renderer.draw(layout, on: canvas, at: PixelPoint(x: 48, y: 24), anchor: anchor,
                  paint: TextPaint(color: .black, haloColor: .white, haloWidth: 1.5))
    // Labels along lines draw glyph by glyph, rotated.
    for glyph in layout.glyphs.prefix(64) {
        renderer.drawGlyph(glyph, sizePixels: layout.options.sizePixels, on: canvas,
                           at: PixelPoint(x: 20 + glyph.origin.x, y: 30 + glyph.origin.y), rotation: rotation,
                           paint: TextPaint(color: .black, haloColor: .white, haloWidth: 1))
    }
}

/// Input: threshold byte, flags byte, then either two PNGs (flag bit 0 clear; a 2-byte
/// little-endian length precedes the first) or a size and raw pixels for both images.
func fuzzCompare(_ body: [UInt8]) {
    var input = InputReader(bytes: body)
    let thresholdByte = input.byte()
    let flags = input.byte()
    let comparator = ImageComparator(threshold: thresholdByte == 255 ? .nan : Double(thresholdByte) / 254,
                                     includeAntiAliasing: flags & 2 != 0,
                                     diffBackgroundOpacity: Double(flags >> 2) / 63)
    let actual: Canvas, expected: Canvas
    if flags & 1 == 0 {
        let length = Int(input.byte()) | Int(input.byte()) << 8
        let rest = Array(body[min(input.position, body.count)...])
        let split = min(length, rest.count)
        guard let a = try? PNGCodec.decode(Array(rest[..<split]), origin: "actual", maxPixelCount: 1 << 16),
              let b = try? PNGCodec.decode(Array(rest[split...]), origin: "expected", maxPixelCount: 1 << 16) else { return }
        actual = a
        expected = b
    } else {
        let width = 1 + Int(input.byte() % 32), height = 1 + Int(input.byte() % 32)
        func image() -> Canvas {
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            for i in stride(from: 0, to: pixels.count, by: 4) {
                let a = input.byte()
                // Premultiplied: no channel above alpha.
                pixels[i] = min(input.byte(), a); pixels[i + 1] = min(input.byte(), a); pixels[i + 2] = min(input.byte(), a)
                pixels[i + 3] = a
            }
            return Canvas(width: width, height: height, premultipliedPixels: pixels)
        }
        actual = image()
        expected = image()
    }
    guard let difference = try? comparator.compare(actual: actual, expected: expected, producingDiffImage: true) else { return }
    precondition(difference.differingPixelCount + difference.antiAliasedPixelCount <= actual.width * actual.height,
                 "more differing pixels than pixels")
    // An image always matches itself, whatever the settings.
    guard let same = try? comparator.compare(actual: expected, expected: expected), same.isMatch else {
        fatalError("an image does not match itself")
    }
}

// MARK: Server and sprites

/// Input: a mode byte, then what a client sends: a Static Maps query string (`a=b&c`,
/// percent-escapes intact, as libmicrohttpd hands it over; also used as an `If-None-Match`
/// value) for an even mode, a `POST /render` JSON body for an odd one.
func fuzzRequest(_ body: [UInt8]) {
    guard let mode = body.first else { return }
    let rest = Array(body.dropFirst())
    if mode % 2 == 1 {
        _ = try? MapRequest(body: rest, configuration: serverConfiguration, resolver: BundledPlaces())
        return
    }
    let text = String(decoding: rest, as: UTF8.self)
    let query = text.split(separator: "&", omittingEmptySubsequences: false).map { item in
        let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return HTTPRequest.QueryItem(name: String(parts.first ?? ""), value: parts.count > 1 ? String(parts[1]) : nil)
    }
    _ = try? MapRequest(query: query, configuration: serverConfiguration, resolver: BundledPlaces())
    let tag = EntityTag.make([text])
    precondition(EntityTag.matches(ifNoneMatch: tag, tag: tag), "an ETag does not match itself")
    _ = EntityTag.matches(ifNoneMatch: text, tag: tag)
    _ = StaticMapServer.oneLine(text)
}

/// Input: a 2-byte little-endian index length, the JSON index, then the sheet PNG. Up to
/// eight images of the sheet are drawn as icons (SDF-coloured when flagged; scaled, rotated
/// and unrotated) and as a fill pattern at a far origin, with the drawing numbers read from
/// the index bytes backwards (so that mutating the index also moves the drawing).
func fuzzSprite(_ body: [UInt8]) {
    var input = InputReader(bytes: body)
    let length = Int(input.byte()) | Int(input.byte()) << 8
    let rest = Array(body[min(input.position, body.count)...])
    let split = min(length, rest.count)
    var sheet = SpriteSheet()
    guard (try? sheet.add(index: Array(rest[..<split]), image: Array(rest[split...]), origin: "fuzz",
                          prefix: "", defaultPixelRatio: 2)) != nil else { return }
    var parameters = InputReader(bytes: Array(rest[..<split].reversed()))
    let canvas = Canvas(width: 48, height: 40)
    var square = Path()
    square.addRect(PixelRect(minX: -4, minY: 3, maxX: 30, maxY: 50))
    for name in sheet.images.keys.sorted().prefix(8) {
        guard let sprite = sheet.image(named: name) else { continue }
        var image = sprite.image
        if sprite.sdf {
            image = SignedDistanceField.colorize(image, color: .black, haloColor: .white, haloWidth: parameters.number(),
                                                 gamma: parameters.number())
        }
        let center = parameters.point()
        canvas.draw(image, center: center, width: sprite.width * parameters.number(), height: sprite.height * 2,
                    rotation: parameters.number(), opacity: 0.8)
        canvas.draw(image, in: PixelRect(minX: center.x, minY: center.y, maxX: center.x + sprite.width, maxY: center.y + sprite.height))
        guard image.width > 0, image.height > 0 else { continue }
        let origin = Int(truncatingIfNeeded: Int32(bitPattern: UInt32(parameters.byte()) << 24 | UInt32(parameters.byte())))
        canvas.fill(square, pattern: image, originX: origin, originY: -origin, opacity: 0.7, rule: .evenOdd)
    }
}

/// An `.osm.pbf` file: the header, then every element of every block.
func fuzzOSMPBF(_ body: [UInt8]) {
    guard writeScratch(body), let reader = try? OSMPBFReader(path: scratchPath) else { return }
    var count = 0
    try? reader.scan(nodes: { _ in count += 1 }, ways: { count += $0.refs.count }, relations: { count += $0.members.count })
}
