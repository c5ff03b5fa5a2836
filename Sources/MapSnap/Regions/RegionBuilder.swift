import Foundation

/// `mapsnap data build`: turns an OpenStreetMap extract (`.osm.pbf`) into a region of the
/// data directory — `NAME.pmtiles` (OpenMapTiles-schema vector tiles, z0–14) and
/// `NAME.places` (its address and POI index).
///
/// The tiles are made by Debian's tilemaker 2.2 with the OpenMapTiles config and process
/// file its package ships (FTWPL-licensed examples in `/usr/share/doc/tilemaker/examples`),
/// under mapsnap's own process file (`Data/tilemaker/process.lua`: the `name`, `name_en`,
/// `name:xx` fields the bundled styles read). Before tilemaker runs, mapsnap writes
/// (1) a copy of the extract without references to objects it lacks (tilemaker stops on a
/// clipped extract's dangling node references), its ids numbered from 1, and (2) the sea polygons from the extract's
/// coastlines (`CoastlineWater`) as the shapefile the config's `ocean` layer reads.
///
/// Atomic: everything is written under a temporary folder in the output's folder and renamed
/// into place at the end; a failure leaves nothing behind.
package enum RegionBuilder {
    /// What a build made.
    package struct Result: Sendable {
        package var archivePath: String
        package var placeIndexPath: String
        package var tileCount: Int
        package var places: PlaceIndexBuilder.Summary
        package var seaPolygons: Int
        package var bounds: CoastlineWater.Box
    }

    /// Where Debian's tilemaker keeps its OpenMapTiles example profile.
    package static let debianExamples = "/usr/share/doc/tilemaker/examples"

    /// tilemaker's path on `PATH`, or nil.
    package static func findTilemaker(environment: EnvironmentVariables = .process) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/tilemaker"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Builds `output` (a `.pmtiles` path) and the `.places` beside it from `pbf`.
    /// - Parameter origin: recorded as `mapsnap:origin` (the extract's name and the date).
    package static func build(pbf: String, output: String, origin: String,
                              tilemaker: String) throws(RegionBuildError) -> Result {
        guard case .success(let dataDir) = ResourceLocator.directory(named: "Data", probe: "tilemaker/process.lua") else {
            throw .profileMissing(path: "Data/tilemaker/process.lua")
        }
        let ownProcess = dataDir + "/tilemaker/process.lua"
        let omtProcess = debianExamples + "/process-openmaptiles.lua", omtConfig = debianExamples + "/config-openmaptiles.json"
        for file in [omtProcess, omtConfig] where !FileManager.default.isReadableFile(atPath: file) {
            throw .profileMissing(path: file)
        }
        let reader: OSMPBFReader
        do { reader = try OSMPBFReader(path: pbf) } catch { throw .badExtract(path: pbf, error) }

        let folder = (output as NSString).deletingLastPathComponent.isEmpty ? "." : (output as NSString).deletingLastPathComponent
        let base = ((output as NSString).lastPathComponent as NSString).deletingPathExtension
        let indexPath = (folder as NSString).appendingPathComponent("\(base).\(DataDirectory.placeIndexExtension)")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(path: folder, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        removeAbandonedWorkFolders(in: folder, region: base)
        let work = (folder as NSString).appendingPathComponent(".\(base).build-\(getpid())")
        try? FileManager.default.removeItem(atPath: work)
        do {
            try FileManager.default.createDirectory(atPath: work + "/coastline", withIntermediateDirectories: true)
        } catch {
            throw .io(path: work, reason: "cannot create a work folder: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(atPath: work) }

        do {
            // The area: the header's bounding box, else the extent of the nodes.
            let box = try bounds(of: reader)
            // The place index.
            let (index, summary) = try PlaceIndexBuilder.build(pbf: reader)
            try write(index.encode(), to: work + "/index.places")
            // The sea.
            let sea = try CoastlineWater.polygons(pbf: reader, box: box)
            let shapes = ShapefileWriter.encode(sea)
            try write(shapes.shp, to: work + "/coastline/water_polygons.shp")
            try write(shapes.shx, to: work + "/coastline/water_polygons.shx")
            try write(shapes.dbf, to: work + "/coastline/water_polygons.dbf")
            // The extract, without dangling references.
            try writeCleanCopy(reader, bounds: box, to: work + "/clean.osm.pbf")
            // tilemaker, one thread (its output order follows its memory layout otherwise),
            // with every file at a fixed relative path in the work folder.
            for (from, to) in [(omtConfig, "config.json"), (omtProcess, "process-openmaptiles.lua"), (ownProcess, "process.lua")] {
                try copy(from, to: work + "/" + to)
            }
            try runTilemaker(tilemaker, in: work, box: box)
            // PMTiles with mapsnap's metadata.
            let tiles = try convert(mbtiles: work + "/out.mbtiles", to: work + "/out.pmtiles", origin: origin)
            // Into place: the index first, so an archive never appears without its index.
            try rename(work + "/index.places", to: indexPath)
            do { try rename(work + "/out.pmtiles", to: output) } catch {
                try? FileManager.default.removeItem(atPath: indexPath)
                throw error
            }
            return Result(archivePath: output, placeIndexPath: indexPath, tileCount: tiles, places: summary,
                          seaPolygons: sea.count, bounds: box)
        } catch let error as RegionBuildError {
            throw error
        } catch let error as OSMPBFError {
            throw .badExtract(path: pbf, error)
        } catch {
            throw .io(path: output, reason: "\(error)")
        }
    }

    // MARK: Steps

    /// Removes `.NAME.build-PID` folders left by builds that were killed (their process is
    /// gone); a build still running keeps its folder.
    static func removeAbandonedWorkFolders(in folder: String, region: String) {
        let prefix = ".\(region).build-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
            }
        }
    }

    static func bounds(of reader: OSMPBFReader) throws(OSMPBFError) -> CoastlineWater.Box {
        if let b = reader.header.bounds {
            return CoastlineWater.Box(south: b.southWest.latitude, west: b.southWest.longitude,
                                      north: b.northEast.latitude, east: b.northEast.longitude)
        }
        var box = CoastlineWater.Box(south: 90, west: 180, north: -90, east: -180)
        try reader.scan(nodes: { n in
            guard n.coordinate.isValid else { return }
            box.south = min(box.south, n.coordinate.latitude); box.north = max(box.north, n.coordinate.latitude)
            box.west = min(box.west, n.coordinate.longitude); box.east = max(box.east, n.coordinate.longitude)
        })
        guard box.south < box.north, box.west < box.east else {
            throw .malformed(blob: 0, fileOffset: 0, part: "extract", detail: "no nodes, so no area to build")
        }
        return box
    }

    /// Copies the extract, dropping way nodes, relation members and relations that refer
    /// to objects the extract does not hold (and ways left with fewer than two nodes), and
    /// numbering nodes, ways and relations 1, 2, 3… in id order: tilemaker 2.2's memory
    /// grows with the largest node id, and no output depends on ids.
    static func writeCleanCopy(_ reader: OSMPBFReader, bounds box: CoastlineWater.Box, to path: String) throws {
        var nodeIDs: [Int64] = []
        try reader.scan(nodes: { nodeIDs.append($0.id) })
        nodeIDs = sortedUnique(nodeIDs)
        var wayIDs: [Int64] = [], relationMembers: [(id: Int64, members: [OSMRelation.Member])] = []
        try reader.scan(ways: { w in
            if w.refs.lazy.filter({ nodeIDs.sortedIndex(of: $0) != nil }).prefix(2).count == 2 { wayIDs.append(w.id) }
        }, relations: { r in relationMembers.append((r.id, r.members)) })
        wayIDs = sortedUnique(wayIDs)
        // Relations with a node or way member the copy keeps (super-relations of those too).
        var relationIDs = sortedUnique(relationMembers.filter { r in
            r.members.contains { m in
                m.type == .node ? nodeIDs.sortedIndex(of: m.id) != nil : m.type == .way && wayIDs.sortedIndex(of: m.id) != nil
            }
        }.map(\.id))
        let withRelationMembers = relationMembers.filter { r in
            r.members.contains { $0.type == .relation && relationIDs.sortedIndex(of: $0.id) != nil }
        }.map(\.id)
        relationIDs = sortedUnique(relationIDs + withRelationMembers)
        relationMembers = []

        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw RegionBuildError.io(path: path, reason: "cannot create the file")
        }
        defer { try? handle.close() }
        var failure: Error?
        var writer = OSMPBFWriter(bounds: (LatLng(latitude: box.south, longitude: box.west), LatLng(latitude: box.north, longitude: box.east))) { bytes in
            guard failure == nil else { return }
            do { try handle.write(contentsOf: Data(bytes)) } catch { failure = error }
        }
        func renumbered(_ id: Int64, in ids: [Int64]) -> Int64? { ids.sortedIndex(of: id).map { Int64($0) + 1 } }
        try reader.scan(nodes: { n in
            var n = n
            guard let id = renumbered(n.id, in: nodeIDs) else { return }
            n.id = id
            writer.add(n)
        }, ways: { w in
            var w = w
            guard let id = renumbered(w.id, in: wayIDs) else { return }
            w.id = id
            w.refs = w.refs.compactMap { renumbered($0, in: nodeIDs) }
            writer.add(w)
        }, relations: { r in
            var r = r
            guard let id = renumbered(r.id, in: relationIDs) else { return }
            r.id = id
            r.members = r.members.compactMap { m in
                var m = m
                switch m.type {
                case .node: m.id = renumbered(m.id, in: nodeIDs) ?? 0
                case .way: m.id = renumbered(m.id, in: wayIDs) ?? 0
                case .relation: m.id = renumbered(m.id, in: relationIDs) ?? 0
                }
                return m.id == 0 ? nil : m
            }
            if !r.members.isEmpty { writer.add(r) }
        })
        writer.finish()
        if let failure { throw RegionBuildError.io(path: path, reason: "\(failure.localizedDescription)") }
    }

    private static func sortedUnique(_ ids: [Int64]) -> [Int64] {
        var ids = ids
        if zip(ids, ids.dropFirst()).contains(where: { $0 >= $1 }) { ids.sort() }
        var out: [Int64] = []
        out.reserveCapacity(ids.count)
        for id in ids where out.last != id { out.append(id) }
        return out
    }

    static func runTilemaker(_ tilemaker: String, in work: String, box: CoastlineWater.Box) throws(RegionBuildError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tilemaker)
        process.currentDirectoryURL = URL(fileURLWithPath: work)
        let bbox = [box.west, box.south, box.east, box.north].map { String(format: "%.7f", $0) }.joined(separator: ",")
        process.arguments = ["--input", "clean.osm.pbf", "--output", "out.mbtiles", "--config", "config.json",
                             "--process", "process.lua", "--bbox", bbox, "--threads", "1"]
        var environment = ProcessInfo.processInfo.environment
        environment["MAPSNAP_OMT_PROCESS"] = "process-openmaptiles.lua"
        process.environment = environment
        let logPath = work + "/tilemaker.log"
        guard FileManager.default.createFile(atPath: logPath, contents: nil), let log = FileHandle(forWritingAtPath: logPath) else { throw .io(path: logPath, reason: "cannot create the log") }
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .io(path: tilemaker, reason: "cannot run: \(error.localizedDescription)")
        }
        process.waitUntilExit()
        try? log.close()
        guard process.terminationReason == .exit, process.terminationStatus == 0,
              FileManager.default.fileExists(atPath: work + "/out.mbtiles") else {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            // The last lines that say something (progress lines end in carriage returns).
            let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
                .map { $0.trimmingSpaces() }.filter { !$0.isEmpty && !$0.hasPrefix("Block ") }
            throw .tilemakerFailed(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                                   log: String(lines.suffix(3).joined(separator: " | ").suffix(400)))
        }
    }

    /// The MBTiles tilemaker wrote, as PMTiles with the region's attribution and origin.
    static func convert(mbtiles: String, to output: String, origin: String) throws -> Int {
        let source = try MBTilesSource(path: mbtiles)
        var metadata = source.metadata
        metadata.attribution = "© OpenStreetMap contributors"
        metadata.extra["mapsnap:origin"] = origin
        var writer = PMTilesWriter(format: metadata.format, tileCompression: .gzip, metadata: metadata)
        try source.forEachStoredTile { tile, stored in
            let data = Gzip.isGzip(stored) ? stored : try Gzip.compress(Gzip.decompressIfNeeded(stored))
            try writer.add(tile, data: data)
        }
        try writer.write(to: output)
        return writer.tileCount
    }

    private static func write(_ bytes: [UInt8], to path: String) throws(RegionBuildError) {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw .io(path: path, reason: "cannot write")
        }
    }

    private static func copy(_ from: String, to: String) throws(RegionBuildError) {
        do { try FileManager.default.copyItem(atPath: from, toPath: to) } catch {
            throw .io(path: from, reason: "cannot copy: \(error.localizedDescription)")
        }
    }

    private static func rename(_ from: String, to: String) throws(RegionBuildError) {
        guard Foundation.rename(from, to) == 0 else {
            throw .io(path: to, reason: String(cString: strerror(errno)))
        }
    }
}
