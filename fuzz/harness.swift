// libFuzzer entry point over mapsnap's untrusted-input decoders. The first byte picks the
// decoder (MVT, PNG (and the encoder round trip), JPEG, gzip/zlib, encoded polyline, Static Maps path syntax, GeoJSON,
// GPX, style JSON, PMTiles directory), the rest is its input. Built and run by
// fuzz/run.sh; not part of the package build.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let which = bytes.first.map { Int($0) % 10 } ?? 0
    let body = Array(bytes.dropFirst())
    switch which {
    case 0:
        if let tile = try? VectorTile(bytes: body) {
            for name in tile.layerNames {
                if let layer = try? tile.layer(named: name) {
                    var g = TileGeometry()
                    for f in layer.features { g.removeAll(); try? f.decodeGeometry(into: &g); _ = f.value(forKey: "class") }
                }
            }
        }
    case 1:
        // Whatever decodes must survive our encoder: encode → decode gives the same pixels.
        if let canvas = try? PNGCodec.decode(body, origin: "fuzz", maxPixelCount: 1 << 20) {
            guard let png = try? PNGCodec.encode(canvas), let back = try? PNGCodec.decode(png, origin: "re-encoded"),
                  back.pixels == canvas.pixels else { fatalError("PNG encode → decode changed the pixels") }
        }
    case 2: _ = try? JPEGCodec.decode(body, origin: "fuzz", maxPixelCount: 1 << 20)
    case 3: _ = try? Gzip.decompress(body, maxOutputBytes: 1 << 20)
    case 4: _ = try? EncodedPolyline.decode(String(decoding: body, as: UTF8.self), precision: 5)
    case 5: _ = try? StaticMapsSyntax.parsePath(String(decoding: body, as: UTF8.self), origin: "fuzz")
    case 6: _ = try? GeoJSON(data: Data(body), source: "fuzz")
    case 7: _ = try? GPX(data: Data(body), source: "fuzz")
    case 8: _ = try? Style.parse(data: Data(body), origin: "fuzz")
    default: _ = try? PMTilesDirectory.decode(body)
    }
    return 0
}
