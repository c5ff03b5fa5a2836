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
}
