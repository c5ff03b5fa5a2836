/// Writes polygons as an ESRI shapefile (`.shp`, `.shx` and a `.dbf` with one numeric `id`
/// column): the form tilemaker reads extra layers from. Coordinates are longitude/latitude
/// (WGS 84); outer rings are clockwise and holes counter-clockwise, as the format says.
/// Deterministic: the `.dbf` date is fixed.
package enum ShapefileWriter {
    /// A polygon: its outer ring and holes, each closed (first point repeated at the end).
    package struct Polygon: Sendable, Equatable {
        package var rings: [[LatLng]]
        package init(rings: [[LatLng]]) { self.rings = rings }
    }

    /// The three files' bytes.
    package static func encode(_ polygons: [Polygon]) -> (shp: [UInt8], shx: [UInt8], dbf: [UInt8]) {
        var records: [[UInt8]] = []
        var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for polygon in polygons {
            let points = polygon.rings.flatMap { $0 }
            var r = Bytes()
            r.le32(5)  // polygon
            let xs = points.map(\.longitude), ys = points.map(\.latitude)
            let b = (xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0)
            box = (min(box.minX, b.0), min(box.minY, b.1), max(box.maxX, b.2), max(box.maxY, b.3))
            r.double(b.0); r.double(b.1); r.double(b.2); r.double(b.3)
            r.le32(Int32(polygon.rings.count))
            r.le32(Int32(points.count))
            var start = 0
            for ring in polygon.rings {
                r.le32(Int32(start))
                start += ring.count
            }
            for p in points {
                r.double(p.longitude)
                r.double(p.latitude)
            }
            records.append(r.bytes)
        }
        if polygons.isEmpty { box = (0, 0, 0, 0) }
        func header(fileBytes: Int) -> Bytes {
            var h = Bytes()
            h.be32(9994)
            for _ in 0..<5 { h.be32(0) }
            h.be32(Int32(fileBytes / 2))
            h.le32(1000)
            h.le32(5)
            h.double(box.minX); h.double(box.minY); h.double(box.maxX); h.double(box.maxY)
            for _ in 0..<4 { h.double(0) }
            return h
        }
        let shpLength = 100 + records.reduce(0) { $0 + 8 + $1.count }
        var shp = header(fileBytes: shpLength)
        var shx = header(fileBytes: 100 + 8 * records.count)
        var offset = 100
        for (i, record) in records.enumerated() {
            shx.be32(Int32(offset / 2))
            shx.be32(Int32(record.count / 2))
            shp.be32(Int32(i + 1))
            shp.be32(Int32(record.count / 2))
            shp.bytes.append(contentsOf: record)
            offset += 8 + record.count
        }
        // dBASE III: one numeric field `id` of 10 digits.
        var dbf = Bytes()
        dbf.bytes.append(contentsOf: [0x03, 70, 1, 1])  // version, date 1970-01-01
        dbf.le32(Int32(records.count))
        dbf.bytes.append(contentsOf: [UInt8(65 & 0xFF), 0])  // header: 32 + 32 + 1 bytes
        dbf.bytes.append(contentsOf: [11, 0])  // record: deletion flag + 10
        dbf.bytes.append(contentsOf: [UInt8](repeating: 0, count: 20))
        var field = Array("id".utf8) + [UInt8](repeating: 0, count: 9)
        field += Array("N".utf8) + [0, 0, 0, 0, 10, 0] + [UInt8](repeating: 0, count: 14)
        dbf.bytes.append(contentsOf: field)
        dbf.bytes.append(0x0D)
        for i in 0..<records.count {
            let text = String(i)
            dbf.bytes.append(0x20)
            dbf.bytes.append(contentsOf: [UInt8](repeating: 0x20, count: 10 - text.utf8.count) + Array(text.utf8))
        }
        dbf.bytes.append(0x1A)
        return (shp.bytes, shx.bytes, dbf.bytes)
    }

    private struct Bytes {
        var bytes: [UInt8] = []
        mutating func be32(_ v: Int32) {
            let u = UInt32(bitPattern: v)
            bytes.append(contentsOf: [UInt8(u >> 24 & 0xFF), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)])
        }
        mutating func le32(_ v: Int32) {
            let u = UInt32(bitPattern: v)
            bytes.append(contentsOf: [UInt8(u & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u >> 16 & 0xFF), UInt8(u >> 24 & 0xFF)])
        }
        mutating func double(_ v: Double) {
            let u = v.bitPattern
            for i in 0..<8 { bytes.append(UInt8(u >> (8 * UInt64(i)) & 0xFF)) }
        }
    }
}
