import MapSnapTesting
import Foundation
@testable import MapSnap

/// Deliberate regressions of committed goldens, for tests proving that a comparison notices
/// them: the exact check of our own goldens (`GoldenSensitivityTests`) and the perceptual
/// defaults of `MapSnapTesting` (`SnapshotDefaultsTests`).
///
/// The visible ones are those issue #8 found passing the old loose goldens: buildings 20
/// levels darker, road names greyed from #444 to #777, every pixel 25 levels darker. The
/// invisible one is 1 % of pixels moved by 5 levels, at random positions from a printed seed.
enum GoldenRegressions {
    /// The Helsinki street-map golden, `BaseMap/helsinki-normal-z16`, as `BaseMapTests` renders it.
    static let streetMapGolden = "helsinki-normal-z16"

    /// The Helsinki street map rendered with the bundled `normal` style edited by `edit`
    /// (the style's JSON object), through the same options as its golden.
    static func streetMap(editingStyle edit: (inout [String: Any]) throws -> Void) throws -> MapImage {
        let url = URL(fileURLWithPath: TestPaths.repositoryRoot + "/Styles/normal.json")
        guard var style = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw RegressionError("Styles/normal.json is not a JSON object")
        }
        try edit(&style)
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/normal.json"
        try JSONSerialization.data(withJSONObject: style).write(to: URL(fileURLWithPath: path))
        return try MapSnapshotter(options: BaseMapTests().options(style: path)).render().image
    }

    /// The street map with every building 20 levels darker (fill and outline, each channel).
    static func darkerBuildings() throws -> MapImage {
        try streetMap { style in
            try editLayer("building", in: &style) { paint in
                paint["fill-color"] = "#c5bcb5"          // #d9d0c9 − 20
                paint["fill-outline-color"] = "#b0a297"  // #c4b6ab − 20
            }
        }
    }

    /// The street map with road names in #777777 instead of #444444.
    static func greyerRoadNames() throws -> MapImage {
        try streetMap { style in
            for id in ["road-name-minor", "road-name-major"] {
                try editLayer(id, in: &style) { paint in
                    guard paint["text-color"] as? String == "#444444" else { return }
                    paint["text-color"] = "#777777"
                }
            }
        }
    }

    private static func editLayer(_ id: String, in style: inout [String: Any],
                                  _ edit: (inout [String: Any]) -> Void) throws {
        guard var layers = style["layers"] as? [[String: Any]],
              let i = layers.firstIndex(where: { $0["id"] as? String == id }) else {
            throw RegressionError("Styles/normal.json has no layer \"\(id)\"")
        }
        var paint = layers[i]["paint"] as? [String: Any] ?? [:]
        let before = paint.description
        edit(&paint)
        guard paint.description != before else { throw RegressionError("layer \"\(id)\" paint unchanged") }
        layers[i]["paint"] = paint
        style["layers"] = layers
    }

    /// A copy of an opaque image with every colour channel moved by `levels` (clamped).
    static func shifted(_ image: MapImage, by levels: Int) -> MapImage {
        let out = Canvas(image)
        for i in stride(from: 0, to: out.pixels.count, by: 4) {
            for c in i..<(i + 3) { out.pixels[c] = UInt8(clamping: Int(out.pixels[c]) + levels) }
        }
        return out.image
    }

    /// A copy of an opaque image with `fraction` of its pixels (rounded up, distinct, chosen
    /// by `SeededGenerator(seed)`) moved by `levels` in each colour channel: up where there
    /// is room, else down. Returns the image and the number of pixels changed.
    static func speckled(_ image: MapImage, fraction: Double, levels: Int, seed: UInt64) -> (MapImage, Int) {
        let out = Canvas(image)
        let total = image.width * image.height
        let count = Int((Double(total) * fraction).rounded(.up))
        var rng = SeededGenerator(seed: seed)
        var order = Array(0..<total)
        for k in 0..<count {
            order.swapAt(k, Int.random(in: k..<total, using: &rng))
            let o = order[k] * 4
            for c in o..<(o + 3) {
                let v = Int(out.pixels[c])
                out.pixels[c] = UInt8(v + levels <= 255 ? v + levels : v - levels)
            }
        }
        return (out.image, count)
    }
}

struct RegressionError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
