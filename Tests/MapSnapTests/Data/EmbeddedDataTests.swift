import Foundation
import Testing

/// The committed `Data/` folder, found from this file's location.
private func dataURL(_ name: String = "", filePath: String = #filePath) -> URL {
    URL(fileURLWithPath: filePath)
        .deletingLastPathComponent()  // Data
        .deletingLastPathComponent()  // MapSnapTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("Data")
        .appendingPathComponent(name)
}

private func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: dataURL(name)))
}

private func lines(_ name: String) throws -> [Substring] {
    let text = try String(contentsOf: dataURL(name), encoding: .utf8)
    // Files end with one newline: splitting keeps no trailing empty line but would
    // keep an empty line in the middle, which would be a build-script bug.
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 }
}

/// Checks on the built embedded datasets that need no decoder: presence, size budget
/// (every CI run clones them), container signatures, and the plain-text tables.
@Suite struct EmbeddedDataTests {
    static let mbtiles = ["world.mbtiles", "world-detail.mbtiles", "relief.mbtiles", "imagery.mbtiles"]
    static let gazetteer = ["places.tsv.gz", "placenames.tsv.gz", "admin1.tsv", "countries.tsv"]

    @Test(arguments: mbtiles)
    func mbtilesAreSQLiteDatabases(_ name: String) throws {
        let header = try bytes(name).prefix(16)
        #expect(Array(header) == Array("SQLite format 3\0".utf8))
    }

    @Test func totalSizeStaysWithinBudget() throws {
        let names = Self.mbtiles + Self.gazetteer
        var total = 0
        for name in names {
            let size = try bytes(name).count
            #expect(size > 1024, "\(name) is suspiciously small: \(size) bytes")
            total += size
        }
        // About 25 MB for z0–7, the rasters and the gazetteer, plus the mid-zoom tiles
        // (world-detail.mbtiles, budgeted at +60 MB by issue 27; see Data/README.md).
        #expect(total < 80_000_000, "embedded data is \(total) bytes")
    }

    @Test(arguments: ["places.tsv.gz", "placenames.tsv.gz"])
    func gazetteerIsReproducibleGzip(_ name: String) throws {
        let gz = try bytes(name)
        try #require(gz.count > 18)
        #expect(gz[0] == 0x1F && gz[1] == 0x8B && gz[2] == 8)  // gzip, deflate
        #expect(gz[4...7].allSatisfy { $0 == 0 }, "a gzip timestamp makes rebuilds differ")
        #expect(gz[3] & 0x08 == 0, "no embedded file name")
    }

    @Test func attributionNamesEveryShippedDataset() throws {
        let rows = try lines("ATTRIBUTION")
        var files: [String] = []
        for row in rows {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            try #require(fields.count == 2, "line '\(row)' is not FILE<TAB>TEXT")
            let text = fields[1]
            // Short enough for the map's credit line; "©" is the one non-ASCII character used.
            #expect(!text.isEmpty && text.count <= 48 && text.allSatisfy { $0.isASCII || $0 == "©" }, "'\(text)'")
            #expect(FileManager.default.fileExists(atPath: dataURL(String(fields[0])).path), "\(fields[0])")
            files.append(String(fields[0]))
        }
        #expect(Set(files) == Set(Self.mbtiles + Self.gazetteer + ["helsinki.mbtiles", "helsinki.places"]))
        #expect(files.count == Set(files).count)
    }

    @Test func countriesTableIsWellFormed() throws {
        let rows = try lines("countries.tsv")
        try #require(rows.count > 200)
        #expect(rows[0] == "iso_a2\tiso_a3\tname\tcapital\tlabel_latitude\tlabel_longitude\tpopulation\tarea_km2\tcontinent")
        var previous = ""
        var byCode: [String: [Substring]] = [:]
        for row in rows.dropFirst() {
            let f = row.split(separator: "\t", omittingEmptySubsequences: false)
            try #require(f.count == 9, "row '\(row)'")
            let code = String(f[0])
            #expect(code.count == 2 && code.allSatisfy { $0.isASCII && $0.isUppercase }, "\(code)")
            #expect(code > previous, "rows must be sorted and unique: \(code) after \(previous)")
            previous = code
            byCode[code] = f
            if f[4].isEmpty {
                #expect(f[5].isEmpty, "\(code): half a label point")
                continue
            }
            // Label points must survive Web Mercator's latitude clamp.
            let lat = try #require(Double(f[4])), lon = try #require(Double(f[5]))
            #expect(abs(lat) <= 85.0511 && abs(lon) <= 180, "\(code): \(lat),\(lon)")
        }
        #expect(byCode["FI"]?[3] == "Helsinki")
        #expect(byCode["AQ"]?[4] == "-78.0000")  // hand-placed: Antarctica has no cities
        #expect(byCode["VA"]?[4].isEmpty == false)  // tiny: placed from the cities500 fallback
    }
}
