import Foundation
import Testing
@testable import MapSnap

/// The cache's folders are private, and a cache root other users can write is never used:
/// they could plant the tiles (or styles) the next render draws (issue 32).
@Suite struct TileCachePermissionTests {
    private let tile = TileID(z: 3, x: 2, y: 1)!

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    /// A new cache root and every folder below it are 0700, whatever the umask allows.
    @Test func foldersAreMadePrivate() throws {
        let root = try TileFixtures.temporaryDirectory() + "/cache/tiles"
        let cache = TileCache(directory: root, cacheKey: "k")
        try cache.store([1, 2, 3], for: tile)
        for folder in [root, root + "/k", root + "/k/3", root + "/k/3/2"] {
            #expect(Self.mode(folder) == 0o700, "\(folder): \(String(Self.mode(folder), radix: 8))")
        }
    }

    /// A world-writable root (here 0777, and /tmp-like 1777) is not used: a store is refused
    /// with the reason, and an entry someone planted there is not read.
    @Test(arguments: [0o777, 0o1777] as [mode_t])
    func aRootOthersCanWriteIsNotUsed(mode: mode_t) throws {
        let root = try TileFixtures.temporaryDirectory() + "/shared"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        #expect(chmod(root, mode) == 0)
        let planted = TileCache(directory: root, cacheKey: "k")
        // Planted as the owner would have stored it, before the root was opened up.
        #expect(chmod(root, 0o700) == 0)
        try planted.store([6, 6, 6], for: tile)
        #expect(chmod(root, mode) == 0)
        let cache = TileCache(directory: root, cacheKey: "k")
        #expect(cache.lookup(tile) == nil)
        #expect(throws: TileCacheError.sharedDirectory(path: root, mode: UInt32(S_IFDIR | mode))) {
            try cache.store([1], for: tile)
        }
        #expect(HTTPTileSource.cacheDirectoryProblem(root)?.contains("writable by other users") == true)
        #expect(HTTPTileSource.cacheDirectoryProblem(try TileFixtures.temporaryDirectory()) == nil)
    }

    /// The CLI refuses `--cache-dir` naming such a folder: exit 2, the flag and the reason.
    @Test func theCLIRefusesASharedCacheDir() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/shared", withIntermediateDirectories: true)
        #expect(chmod(dir + "/shared", 0o777) == 0)
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(["--marker", "60.17,24.94", "--cache-dir", "shared", "-o", "map.png"]), in: dir)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines.count == 1 && r.stderr.contains("--cache-dir shared") && r.stderr.contains("writable by other users"), "\(r)")
        #expect(CLIRunner.listing(dir) == ["shared"])
    }
}
