import Foundation
import Testing
@testable import MapSnap

@Suite struct TileCacheTests {
    private let tile = TileID(z: 3, x: 2, y: 1)!

    @Test func keyIsStableAcrossProcesses() throws {
        let t = try TileURLTemplate("http://127.0.0.1/{z}/{x}/{y}.png")
        // FNV-1a 64 of the template's UTF-8, computed independently (Python) when written.
        #expect(TileCache.key(for: t, scale: 1) == "75220afaf0935ceb")
        #expect(TileCache.key(for: t, scale: 2) == "75220afaf0935ceb")  // no {r}: scale is irrelevant
        let r = try TileURLTemplate("http://127.0.0.1/{z}/{x}/{y}{r}.png")
        #expect(TileCache.key(for: r, scale: 1) != TileCache.key(for: r, scale: 2))
        #expect(TileCache.key(for: r, scale: 1).count == 16)
    }

    /// (environment, expected directory)
    @Test(arguments: [
        (["MAPSNAP_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"], "/c"),
        (["MAPSNAP_CACHE_DIR": "", "XDG_CACHE_HOME": "/x", "HOME": "/h"], "/x/mapsnap/tiles"),
        (["XDG_CACHE_HOME": "", "HOME": "/h"], "/h/.cache/mapsnap/tiles"),
        (["HOME": "/home/u"], "/home/u/.cache/mapsnap/tiles"),
    ])
    func defaultDirectory(variables: [String: String], expected: String) {
        let environment = EnvironmentVariables(variables)
        #expect(TileCache.defaultDirectory(environment: environment) == expected)
        #expect(TileCache(cacheKey: "k", environment: environment).directory == expected)
        #expect(TileCache(directory: "/given", cacheKey: "k", environment: environment).directory == "/given")
    }

    @Test func storeLookupAndAge() throws {
        let cache = TileCache(directory: try TileFixtures.temporaryDirectory(), cacheKey: "k", maxAge: 100, absentMaxAge: 10)
        #expect(cache.lookup(tile) == nil)
        try cache.store([1, 2, 3], for: tile)
        let now = Date()
        #expect(cache.lookup(tile, now: now) == .init(entry: .data([1, 2, 3]), isFresh: true))
        #expect(cache.lookup(tile, now: now.addingTimeInterval(101))?.isFresh == false)
        #expect(cache.dataPath(for: tile).hasSuffix("/k/3/2/1.tile"))

        try cache.storeAbsent(tile)
        #expect(cache.lookup(tile, now: now)?.entry == .absent)
        #expect(!FileManager.default.fileExists(atPath: cache.dataPath(for: tile)))
        #expect(cache.lookup(tile, now: now.addingTimeInterval(11))?.isFresh == false)

        try cache.store([4], for: tile)
        #expect(cache.lookup(tile)?.entry == .data([4]))
        #expect(!FileManager.default.fileExists(atPath: cache.absentPath(for: tile)))
        cache.remove(tile)
        #expect(cache.lookup(tile) == nil)
    }

    @Test func oversizedEntryIsAMiss() throws {
        let cache = TileCache(directory: try TileFixtures.temporaryDirectory(), cacheKey: "k", maxEntryBytes: 4)
        try cache.store([1, 2, 3, 4, 5], for: tile)
        #expect(cache.lookup(tile) == nil)
    }

    @Test func unwritableDirectoryThrows() throws {
        let file = try TileFixtures.temporaryDirectory() + "/plain-file"
        _ = FileManager.default.createFile(atPath: file, contents: Data([1]))
        let cache = TileCache(directory: file, cacheKey: "k")
        #expect(throws: TileCacheError.self) { try cache.store([1], for: tile) }
    }

    /// A link planted anywhere below the cache root (the key folder, a zoom or column
    /// folder) is never followed: writes fail with `.symbolicLink` and nothing reaches the
    /// link's target; reads miss.
    @Test(arguments: [0, 1, 2])
    func symbolicLinkedFoldersAreNotFollowed(depth: Int) throws {
        let root = try TileFixtures.temporaryDirectory()
        let elsewhere = try TileFixtures.temporaryDirectory()
        let cache = TileCache(directory: root, cacheKey: "k")
        let components = ["k", "\(tile.z)", "\(tile.x)"]
        let parent = ([root] + components.prefix(depth)).joined(separator: "/")
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let link = parent + "/" + components[depth]
        // Where a cache following the link would read and write: it already holds a tile.
        let followed = ([elsewhere] + components.dropFirst(depth + 1)).joined(separator: "/")
        try FileManager.default.createDirectory(atPath: followed, withIntermediateDirectories: true)
        try Data([9]).write(to: URL(fileURLWithPath: followed + "/\(tile.y).tile"))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: elsewhere)
        #expect(throws: TileCacheError.symbolicLink(path: link)) { try cache.store([1, 2, 3], for: tile) }
        #expect(throws: TileCacheError.symbolicLink(path: link)) { try cache.storeAbsent(tile) }
        #expect(cache.lookup(tile) == nil)
        cache.remove(tile)
        // Only the planted tile is there: nothing written, renamed or removed through the link.
        let files = (FileManager.default.enumerator(atPath: elsewhere)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".tile") || $0.hasSuffix(".absent") || $0.contains(".tmp-") }
        #expect(files.count == 1, "\(files)")
        #expect(FileManager.default.contents(atPath: followed + "/\(tile.y).tile") == Data([9]))
    }

    /// An entry that is a link, a FIFO or a folder is a miss (a FIFO must not block the read);
    /// storing replaces a linked entry with a file instead of writing through the link.
    @Test func entriesThatAreNotRegularFilesAreMisses() throws {
        let root = try TileFixtures.temporaryDirectory()
        let cache = TileCache(directory: root, cacheKey: "k")
        try cache.store([1], for: tile)
        let path = cache.dataPath(for: tile)
        let outside = try TileFixtures.temporaryDirectory() + "/secret"
        try Data([7, 7, 7]).write(to: URL(fileURLWithPath: outside))

        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside)
        #expect(cache.lookup(tile) == nil)
        try cache.store([4, 5], for: tile)
        #expect(cache.lookup(tile)?.entry == .data([4, 5]))
        #expect(FileManager.default.contents(atPath: outside) == Data([7, 7, 7]))

        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o644) == 0)
        #expect(cache.lookup(tile) == nil)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(cache.lookup(tile) == nil)
        #expect(throws: TileCacheError.self) { try cache.store([1], for: tile) }
    }

    /// Temporaries a killed process left behind are removed when the folder is next written;
    /// a fresh one (a write in progress elsewhere) stays.
    @Test func staleTemporariesAreSweptOnWrite() throws {
        let root = try TileFixtures.temporaryDirectory()
        let cache = TileCache(directory: root, cacheKey: "k")
        try cache.store([1], for: tile)
        let folder = (cache.dataPath(for: tile) as NSString).deletingLastPathComponent
        let stale = folder + "/.7.tile.tmp-AbC123", fresh = folder + "/.8.tile.tmp-XyZ789", other = folder + "/.keep"
        for path in [stale, fresh, other] { try Data([0]).write(to: URL(fileURLWithPath: path)) }
        let old = Date().addingTimeInterval(-2 * TileCache.staleTemporaryAge)
        for path in [stale, other] { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path) }
        // Another cache on the same folder: this process has not swept it yet.
        let sibling = TileCache(directory: root + "/.", cacheKey: "k")
        try sibling.store([2], for: tile)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: fresh))
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(cache.lookup(tile)?.entry == .data([2]))
    }

    // MARK: Size cap (issue 28, finding 10)

    /// Tiles (z 5, x 0, y `n`) of 10 000 bytes each.
    private static func tenKB(_ n: Int) -> [UInt8] { [UInt8](repeating: UInt8(n), count: 10_000) }
    private static func tile(_ n: Int) -> TileID { TileID(z: 5, x: 0, y: n)! }

    @Test func theCapEvictsTheLeastRecentlyUsedFirstAndHolds() throws {
        let dir = try TileFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Room for three tiles and a half; a trim leaves at most 90 % of it (three tiles).
        let cap = 35_000
        let cache = TileCache(directory: dir, cacheKey: "k", maxBytes: cap)
        let resources = TileCache(directory: dir, cacheKey: TileCache.resourceKey, maxBytes: cap)
        func pause() { Thread.sleep(forTimeInterval: 0.01) }
        for n in 0..<3 {
            try cache.store(Self.tenKB(n), for: Self.tile(n))
            pause()
        }
        // Tile 0 is read: now 1 is the least recently used.
        #expect(cache.lookup(Self.tile(0))?.entry == .data(Self.tenKB(0)))
        pause()
        try cache.store(Self.tenKB(3), for: Self.tile(3))
        pause()
        #expect(cache.lookup(Self.tile(1)) == nil, "the least recently used went first")
        #expect(cache.lookup(Self.tile(0)) != nil && cache.lookup(Self.tile(2)) != nil && cache.lookup(Self.tile(3)) != nil)
        pause()
        // A resource shares the cap with the tiles. The lookups just made count as uses, in
        // order: tile 0's is now the oldest.
        try resources.store(Self.tenKB(9), resource: "http://127.0.0.1/style.json")
        #expect(cache.lookup(Self.tile(0)) == nil)
        #expect(resources.lookup(resource: "http://127.0.0.1/style.json") != nil)
        #expect(Self.bytes(in: dir) <= cap, "\(Self.bytes(in: dir)) bytes")
        // Many more stores: the folder never ends above the cap.
        for n in 10..<30 { try cache.store(Self.tenKB(n), for: Self.tile(n)) }
        #expect(Self.bytes(in: dir) <= cap, "\(Self.bytes(in: dir)) bytes")
        #expect(cache.lookup(Self.tile(29)) != nil, "the newest stays")
    }

    @Test func withoutACapNothingIsEvicted() throws {
        let dir = try TileFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cache = TileCache(directory: dir, cacheKey: "k")
        for n in 0..<8 { try cache.store(Self.tenKB(n), for: Self.tile(n)) }
        #expect((0..<8).allSatisfy { cache.lookup(Self.tile($0)) != nil })
    }

    /// Bytes of the regular files below `dir`.
    static func bytes(in dir: String) -> Int {
        var total = 0
        guard let names = FileManager.default.enumerator(atPath: dir) else { return 0 }
        for case let name as String in names {
            if let a = try? FileManager.default.attributesOfItem(atPath: dir + "/" + name), a[.type] as? FileAttributeType == .typeRegular {
                total += (a[.size] as? NSNumber)?.intValue ?? 0
            }
        }
        return total
    }
}
