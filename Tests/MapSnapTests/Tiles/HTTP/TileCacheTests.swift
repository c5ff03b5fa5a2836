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
    func defaultDirectory(environment: [String: String], expected: String) {
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
        #expect(throws: AtomicFileError.self) { try cache.store([1], for: tile) }
    }
}
