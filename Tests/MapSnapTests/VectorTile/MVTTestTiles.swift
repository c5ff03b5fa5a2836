import Foundation
@testable import MapSnap

/// Builds small MVT tiles by hand for corpus tests.
enum MVTTestTiles {
    struct Feature {
        var id: UInt64? = nil
        var type: UInt64
        var tags: [UInt64] = []
        var geometry: [UInt64]
    }

    static func layer(
        name: String? = "l", version: UInt64? = 2, extent: UInt64? = 4096, keys: [String] = [],
        values: [[UInt8]] = [], features: [Feature]
    ) -> [UInt8] {
        var w = ProtobufWriter()
        if let name { w.writeString(1, name) }
        for f in features {
            var fw = ProtobufWriter()
            if let id = f.id { fw.writeVarintField(1, id) }
            if !f.tags.isEmpty { fw.writePacked(2, f.tags) }
            fw.writeVarintField(3, f.type)
            fw.writePacked(4, f.geometry)
            w.writeBytes(2, fw.bytes)
        }
        for k in keys { w.writeString(3, k) }
        for v in values { w.writeBytes(4, v) }
        if let extent { w.writeVarintField(5, extent) }
        if let version { w.writeVarintField(15, version) }
        return w.bytes
    }

    static func tile(_ layers: [[UInt8]]) -> [UInt8] {
        var w = ProtobufWriter()
        for l in layers { w.writeBytes(3, l) }
        return w.bytes
    }

    static func stringValue(_ s: String) -> [UInt8] {
        var w = ProtobufWriter()
        w.writeString(1, s)
        return w.bytes
    }

    static func command(_ id: UInt64, _ count: UInt64) -> UInt64 { id | count << 3 }

    /// Zigzag-encodes a geometry coordinate delta.
    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }

    /// Writes `tile` as the one z0 tile of a `z/x/y` directory in `dir`, and a style drawing
    /// the labels of its layer `sourceLayer` (black, 16-px Noto Sans Bold on white, with the
    /// extra `layout` properties given as JSON members); returns the style's path.
    static func labelStyle(for tile: [UInt8], in dir: String, sourceLayer: String, layout: String) throws -> String {
        try FileManager.default.createDirectory(atPath: "\(dir)/tiles/0/0", withIntermediateDirectories: true)
        try Data(tile).write(to: URL(fileURLWithPath: "\(dir)/tiles/0/0/0.pbf"))
        let json = """
        {"version": 8, "sources": {"t": {"type": "vector", "url": "tiles"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
          {"id": "names", "type": "symbol", "source": "t", "source-layer": "\(sourceLayer)",
           "layout": {"text-field": "{name}", "text-size": 16, "text-font": ["Noto Sans Bold"], \(layout)},
           "paint": {"text-color": "#000000"}}]}
        """
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/style.json"))
        return dir + "/style.json"
    }
}
