import Foundation

/// The folder of a user's regions: tile archives (`NAME.pmtiles`, `NAME.mbtiles`) that
/// `mapsnap data extract` and `mapsnap data build` write, and that every render uses
/// without flags where they cover the view. Beside an archive, `NAME.places` holds the
/// region's address and point-of-interest index (when it was built from OpenStreetMap data).
///
/// Where it is, first that applies: an explicit folder (`--data-dir`, a server's
/// `dataDirectory`), `$MAPSNAP_DATA`, `$XDG_DATA_HOME/mapsnap`, `~/.local/share/mapsnap`.
/// A folder that does not exist simply holds no regions.
public struct DataDirectory: Sendable, Equatable, CustomStringConvertible {
    /// The folder's path (it may not exist yet).
    public let path: String

    /// The data directory at `path`, as given.
    public init(path: String) { self.path = path }

    /// The data directory a command uses: `explicit` when given, else from the environment.
    package static func resolve(explicit: String?, environment: EnvironmentVariables = .process) -> DataDirectory {
        if let explicit, !explicit.isEmpty { return DataDirectory(path: explicit) }
        if let dir = environment["MAPSNAP_DATA"], !dir.isEmpty { return DataDirectory(path: dir) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return DataDirectory(path: (xdg as NSString).appendingPathComponent("mapsnap"))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return DataDirectory(path: (home as NSString).appendingPathComponent(".local/share/mapsnap"))
    }

    /// The data directory a command uses: `explicit` when given, else `$MAPSNAP_DATA`, else
    /// `$XDG_DATA_HOME/mapsnap`, else `~/.local/share/mapsnap`.
    public static func resolve(explicit: String? = nil) -> DataDirectory { resolve(explicit: explicit, environment: .process) }

    /// The folder's path.
    public var description: String { path }

    /// File name extensions of region archives.
    static let archiveExtensions = ["pmtiles", "mbtiles"]
    /// The extension of a region's place index file.
    public static let placeIndexExtension = "places"

    /// The archive files in the folder, sorted by name (empty when the folder is missing).
    /// Temporaries (`.NAME…`) and anything else are ignored.
    package func archivePaths() -> [String] { files(withExtensions: Self.archiveExtensions) }

    /// The files of the folder with one of these extensions (any case), not hidden, sorted
    /// by name, as paths; empty when the folder is missing.
    func files(withExtensions extensions: [String]) -> [String] {
        // A missing folder (the usual case: no regions) is told by one stat, not by the error
        // Foundation builds for a failed listing.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
              let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        return names.filter { name in
            !name.hasPrefix(".") && extensions.contains((name as NSString).pathExtension.lowercased())
        }.sorted().map { (path as NSString).appendingPathComponent($0) }
    }

    /// The names of the regions in the folder (archive file names without their extension),
    /// sorted, without opening them.
    public func regionNames() -> [String] {
        archivePaths().map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
    }

    /// The regions in the folder, sorted by name; archives that cannot be opened come back
    /// as problems (one line each, naming the file), never as an error for the whole folder.
    package func regions() -> (regions: [Region], problems: [String]) {
        var out: [Region] = [], problems: [String] = []
        for file in archivePaths() {
            do {
                out.append(try Region(path: file))
            } catch {
                problems.append("data directory \(path): \(error); the file is not used")
            }
        }
        return (out, problems)
    }

    /// Where a region named `name` is written (`NAME.pmtiles`).
    package func archivePath(forRegion name: String) -> String {
        (path as NSString).appendingPathComponent("\(name).pmtiles")
    }

    /// A string that changes when a region is added, removed or rewritten: names, sizes and
    /// modification times (a prepared style that mosaics the regions is kept while it holds).
    package func stamp() -> String {
        archivePaths().map { file -> String in
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\((file as NSString).lastPathComponent):\(size):\(modified)"
        }.joined(separator: "|")
    }

    /// Whether `name` may name a region: letters, digits, `-`, `_` and `.`, not starting with
    /// a dot, at most 100 characters (it becomes a file name).
    package static func isValidRegionName(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= 100, !name.hasPrefix(".") else { return false }
        return name.unicodeScalars.allSatisfy { s in
            (s.properties.isAlphabetic || s.properties.numericType != nil || "-_.".unicodeScalars.contains(s)) && s.value > 32
        }
    }
}

/// One region of a data directory: a tile archive and what it declares.
public struct Region: Sendable {
    /// The archive's file name without its extension (`paris` for `paris.pmtiles`).
    public let name: String
    /// The archive's path.
    public let path: String
    /// Whether its tiles are vector tiles.
    public let isVector: Bool
    /// Its vector schema, when it can be told (OpenMapTiles or Protomaps).
    package let schema: VectorTileSchema?
    /// Where it has tiles (nil: the archive declares no bounds — taken as the whole world).
    package let bounds: TileSourceMetadata.Bounds?
    /// The zooms its tiles span.
    public let minZoom: Int, maxZoom: Int
    /// The archive's size in bytes.
    public let sizeBytes: Int64
    /// Where its tiles came from (`mapsnap:origin` in its metadata: the extract's source and
    /// area, or the `.osm.pbf` it was built from), when recorded.
    public let origin: String?
    /// The credit its metadata carries.
    public let attribution: String?
    /// `NAME.places` beside the archive, when present: its address and POI index.
    public let placeIndexPath: String?
    /// The opened archive.
    package let source: any TileSource

    /// Opens the archive at `path`.
    package init(path: String) throws(TileSourceError) {
        source = try TileSources.open(path)
        self.path = path
        let file = (path as NSString).lastPathComponent
        name = (file as NSString).deletingPathExtension
        let m = source.metadata
        isVector = m.format.isVector
        schema = VectorTileSchema.identify(source)
        bounds = m.bounds
        minZoom = m.minZoom
        maxZoom = m.maxZoom
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        sizeBytes = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        origin = m.extra["mapsnap:origin"]
        attribution = m.attribution
        let index = ((path as NSString).deletingPathExtension as NSString).appendingPathExtension(DataDirectory.placeIndexExtension) ?? ""
        placeIndexPath = FileManager.default.isReadableFile(atPath: index) ? index : nil
    }

    /// The bounds as `W,S,E,N` text, or `world` when the archive declares none.
    public var boundsText: String {
        guard let b = bounds else { return "world" }
        func f(_ v: Double) -> String { String(format: "%.4f", v) }
        return "\(f(b.southWest.longitude)),\(f(b.southWest.latitude)),\(f(b.northEast.longitude)),\(f(b.northEast.latitude))"
    }

    /// The schema's name for listings: `OpenMapTiles`, `Protomaps (v4)`, `raster` or `unknown`.
    public var schemaName: String {
        guard isVector else { return "raster" }
        return schema?.description ?? "unknown"
    }
}
