import Foundation
import Synchronization

/// Renders maps and keeps what renders can share: parsed styles with their sources opened,
/// decoded tiles, and (through the text engine) fonts, rasterised glyphs and text layouts.
///
/// One renderer serves any number of renders, from any number of threads at once; keep one
/// per process (a batch job, a server) rather than one per image. `MapSnapshotter` uses
/// `MapRenderer.shared` unless given another. Output never depends on what is cached: the
/// same options give the same bytes from a fresh renderer or a warm one.
///
/// ```swift
/// let renderer = MapRenderer()
/// for route in routes {
///     var options = MapSnapshotOptions(width: 800, height: 600)
///     options.overlays = [.path(PathOverlay(coordinates: route))]
///     try renderer.render(options).write(to: "\(route.id).png")
/// }
/// ```
public final class MapRenderer: Sendable {
    /// What a renderer draws text with, and limits of what it keeps between renders. Each
    /// renderer owns what these settings shape (its fonts, its caches): two renderers with
    /// different configurations in one process never see each other's.
    public struct Configuration: Sendable, Hashable {
        /// Memory for decoded tiles, estimated (default 256 MiB; 0 keeps none).
        public var decodedTileCacheBytes: Int
        /// Prepared styles (parsed, sources opened) kept (default 32).
        public var maximumPreparedStyles: Int
        /// A folder laid out like the bundled `Fonts/` (the same file names) to draw text
        /// with; nil (the default) draws with the bundled fonts, found where mapsnap is
        /// installed or in `$MAPSNAP_RESOURCES`.
        public var fontsDirectory: String?
        /// Rasterised glyphs kept (default 8192).
        public var glyphCacheEntries: Int
        /// Memory for rasterised glyphs, coverage bytes (default 32 MiB).
        public var glyphCacheBytes: Int

        /// Limits for a renderer; the defaults suit a batch job or a server.
        public init(decodedTileCacheBytes: Int = 256 << 20, maximumPreparedStyles: Int = 32, fontsDirectory: String? = nil,
                    glyphCacheEntries: Int = 8192, glyphCacheBytes: Int = 32 << 20) {
            self.decodedTileCacheBytes = decodedTileCacheBytes
            self.maximumPreparedStyles = maximumPreparedStyles
            self.fontsDirectory = fontsDirectory
            self.glyphCacheEntries = glyphCacheEntries
            self.glyphCacheBytes = glyphCacheBytes
        }
    }

    /// The renderer `MapSnapshotter` uses when it is given none.
    public static let shared = MapRenderer()

    /// Counters of what renders found in the renderer's caches (for logs and metrics).
    public struct Statistics: Sendable, Hashable {
        /// Renders that found their style prepared / had to prepare it.
        public var preparedStyleHits = 0, preparedStyleMisses = 0
        /// Tiles found decoded / read and decoded.
        public var tileCacheHits = 0, tileCacheMisses = 0
        /// Memory held by decoded tiles (estimated bytes).
        public var tileCacheBytes = 0
    }

    /// What the caches have served so far.
    public var statistics: Statistics {
        Statistics(preparedStyleHits: styleHits.load(ordering: .relaxed),
                   preparedStyleMisses: styleMisses.load(ordering: .relaxed),
                   tileCacheHits: tiles.hits, tileCacheMisses: tiles.misses, tileCacheBytes: tiles.currentBytes)
    }

    /// The limits this renderer was made with.
    public let configuration: Configuration
    /// The text engine: the one this renderer was made with (tests), or its own, loaded on
    /// first use from `configuration` — so making a renderer costs nothing, and a command
    /// can load the fonts on one thread while it prepares the style on another.
    var text: TextEngine {
        textEngine.withLock { engine in
            if let engine { return engine }
            let loaded = TextEngine.loading(
                fontsDirectory: configuration.fontsDirectory,
                glyphs: GlyphCache(maxEntries: configuration.glyphCacheEntries, maxBytes: configuration.glyphCacheBytes))
            engine = loaded
            return loaded
        }
    }
    private let textEngine: Locked<TextEngine?>
    let tiles: DecodedTileCache
    let sources: TileSourceRegistry
    private let setups: Locked<PreparedStyles>
    private let styleHits = Atomic<Int>(0)
    private let styleMisses = Atomic<Int>(0)

    /// A renderer with empty caches, drawing text with the fonts `configuration` names.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, text: nil)
    }

    /// A renderer drawing text with `text`'s fonts (tests: a renderer without fonts); nil
    /// uses the bundled fonts.
    init(configuration: Configuration = Configuration(), text: TextEngine?) {
        self.configuration = configuration
        textEngine = Locked(text)
        tiles = DecodedTileCache(capacityBytes: configuration.decodedTileCacheBytes)
        sources = TileSourceRegistry()
        setups = Locked(PreparedStyles())
    }

    /// Renders one image. Throws `RenderError` for invalid options or unusable inputs;
    /// recoverable problems (a skipped tile, an unsupported style property) become warnings
    /// on the snapshot.
    public func render(_ options: MapSnapshotOptions) throws(RenderError) -> MapSnapshot {
        try MapSnapshotter(options: options, renderer: self).render()
    }

    /// Loads the fonts now (they load on first use otherwise): the CLI calls it on another
    /// thread while it reads its inputs and prepares the style.
    package func loadFonts() {
        _ = text
    }

    /// Whether the style `options` name is prepared and kept (`preparedStyle` then returns
    /// at once).
    func hasPreparedStyle(for options: MapSnapshotOptions) -> Bool {
        hasPreparedStyle(setupKey(options))
    }

    /// Whether the style of `key` is prepared and kept.
    func hasPreparedStyle(_ key: BaseMapSetup.Key) -> Bool {
        setups.withLock { $0.entries[key] }?.isCurrent ?? false
    }

    /// The `FileStamp`s, as they are now, of the local files that the kept setups of the style
    /// file `style` read from inside it (its sources, its sprite sheet), sorted; "" while none
    /// is kept. A server puts it into its `ETag`s, so that replacing such a file changes them
    /// (from the second render of the style on: the files are known once it is prepared).
    package func styleFilesStamp(style: String) -> String {
        let files = setups.withLock { s in
            s.entries.filter { $0.key.style == style }.values.reduce(into: Set<String>()) { $0.formUnion($1.localFiles.keys) }
        }
        return files.sorted().map { $0 + "=" + (FileStamp.of($0) ?? "none") }.joined(separator: "|")
    }

    /// What a prepared style depends on, for `options`: made once per render (it lists the
    /// data directory) and passed to `hasPreparedStyle` and `preparedStyle`.
    func setupKey(_ options: MapSnapshotOptions) -> BaseMapSetup.Key {
        var http = options.http
        http.scale = options.scale
        // Regions draw under the bundled styles without --source; the stamp notices a region
        // added, removed or rewritten since the style was prepared.
        var dataDirectory: String?, stamp = ""
        // `roadmap`, `Normal`: the bundled style they name (a file of that name wins).
        let style = FileManager.default.fileExists(atPath: options.style) ? options.style : BundledStyle.resolve(options.style) ?? options.style
        if options.source == nil, options.dataDirectory != "", BaseMapSetup.builtinStyles.contains(style) {
            let dir = DataDirectory.resolve(explicit: options.dataDirectory)
            stamp = dir.stamp()
            if !stamp.isEmpty { dataDirectory = dir.path }
        }
        // A local source or DEM file replaced since the style was prepared is opened again.
        let sourceFiles = [options.source, options.demSource].map { location -> String in
            guard let location, !ResourceLocation.isRemote(location) else { return "" }
            return FileStamp.of(location) ?? ""
        }
        return BaseMapSetup.Key(style: style, styleFileStamp: Self.fileStamp(style), sourceFileStamps: sourceFiles,
                                source: options.source, demSource: options.demSource,
                                demEncoding: options.demEncoding, sprite: options.sprite,
                                pixelRatio: options.scale, http: http,
                                customization: StyleCustomization(rules: options.mapStyles, language: options.language),
                                dataDirectory: dataDirectory, regionsStamp: stamp)
    }

    /// The style named by `options` with its sources resolved: from the cache, or
    /// prepared now (what it fetches over the network by `deadline`) and remembered — unless
    /// something could not be fetched this time (then the next render tries again).
    func preparedStyle(for options: MapSnapshotOptions, deadline: Deadline = .none) throws(RenderError) -> BaseMapSetup {
        try preparedStyle(setupKey(options), deadline: deadline)
    }

    /// The style of `key`, from the cache or prepared now (see `preparedStyle(for:deadline:)`).
    func preparedStyle(_ key: BaseMapSetup.Key, deadline: Deadline = .none) throws(RenderError) -> BaseMapSetup {
        if let hit = setups.withLock({ $0.entries[key] }) {
            if hit.isCurrent {
                styleHits.add(1, ordering: .relaxed)
                return hit
            }
            // A file the style names was replaced: forget the setup and prepare it again.
            setups.withLock { s in
                s.entries[key] = nil
                s.order.removeAll { $0 == key }
            }
        }
        styleMisses.add(1, ordering: .relaxed)
        // Prepared outside the lock; two threads missing at once prepare equal setups.
        let setup = try BaseMapSetup(key: key, sources: sources, deadline: deadline)
        guard !setup.isIncomplete else { return setup }
        let limit = max(configuration.maximumPreparedStyles, 0)
        setups.withLock { s in
            guard limit > 0, s.entries[key] == nil else { return }
            if s.order.count >= limit {
                s.entries[s.order.removeFirst()] = nil
            }
            s.entries[key] = setup
            s.order.append(key)
        }
        return setup
    }

    /// Size and modification time of a style file, so that an edited file is read again;
    /// nil for the bundled styles and paths that do not exist.
    static func fileStamp(_ style: String) -> String? {
        guard style.contains("/") || style.hasSuffix(".json") else { return nil }
        return FileStamp.of(style)
    }

    private struct PreparedStyles {
        var entries: [BaseMapSetup.Key: BaseMapSetup] = [:]
        /// Keys in insertion order, oldest first, for eviction.
        var order: [BaseMapSetup.Key] = []
    }
}

/// Tile sources opened by a renderer, by location and network options, each with a
/// process-unique id that keys its decoded tiles.
final class TileSourceRegistry: Sendable {
    struct Opened: Sendable {
        let id: Int
        let source: any TileSource
    }

    private struct Key: Hashable {
        let location: String
        let http: HTTPTileSource.Options
        /// The file's `FileStamp` (nil for URLs): a file replaced on disk is opened anew,
        /// with a new id, so no decoded tile of the old one is drawn for it.
        let fileStamp: String?
    }

    private static let nextID = Atomic<Int>(1)
    /// Most sources kept open; the oldest is forgotten first (renders holding it keep it).
    static let capacity = 256
    private let opened = Locked<(entries: [Key: Opened], order: [Key])>(([:], []))

    /// Gives `source` an id without remembering it (sources opened outside the registry).
    static func register(_ source: any TileSource) -> Opened {
        Opened(id: nextID.wrappingAdd(1, ordering: .relaxed).oldValue, source: source)
    }

    /// The source at `location` (a file, directory, URL template, remote PMTiles archive or
    /// TileJSON URL), opened once; what opening fetches over the network ends by `deadline`.
    func open(_ location: String, http: HTTPTileSource.Options, deadline: Deadline = .none) throws(TileSourceError) -> Opened {
        // Network options matter only to URLs: a file is one source whatever they are.
        let lower = location.lowercased()
        let isURL = lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("pmtiles://http")
        let key = Key(location: location, http: isURL ? http : HTTPTileSource.Options(),
                      fileStamp: isURL ? nil : FileStamp.of(location))
        if let hit = opened.withLock({ $0.entries[key] }) { return hit }
        let source = try TileSources.open(location, httpOptions: http, deadline: deadline)
        let fresh = Self.register(source)
        return opened.withLock { s in
            if let existing = s.entries[key] { return existing }
            if s.order.count >= Self.capacity { s.entries[s.order.removeFirst()] = nil }
            s.entries[key] = fresh
            s.order.append(key)
            return fresh
        }
    }
}
