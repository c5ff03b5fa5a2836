import Foundation
import Testing
@testable import MapSnap

/// Temporaries carry their writer's process id (`.NAME.mapsnap-PID-XXXXXX.tmp`): the next run
/// removes a dead process's at once instead of after ten minutes, and the ones this process
/// is writing are listed for the CLI's signal handler.
@Suite struct AtomicFileTemporaryNameTests {
    /// The id of a process that has exited (and been reaped): no process has it now, unless
    /// the system reused it in between, which the caller checks.
    static func deadProcessID() throws -> pid_t {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        return p.processIdentifier
    }

    @Test(arguments: [
        (".map.png.mapsnap-123-Ab3xYz.tmp", true), (".a.mapsnap-1-000000.tmp", true),
        (".map.png.mapsnap--Ab3xYz.tmp", false), (".map.png.mapsnap-12x-Ab3xYz.tmp", false),
        (".map.png.mapsnap-123-Ab3xY.tmp", false), (".mapsnap-123-Ab3xYz.tmp", false),
        ("map.png.mapsnap-123-Ab3xYz.tmp", false), (".map.png.mapsnap-123-Ab3xYz.tmpx", false),
        (".map.png.mapsnap-0-Ab3xYz.tmp", false), (".map.png.mapsnap-99999999999-Ab3xYz.tmp", false),
        (".o.mbtiles.mapsnap-123-Ab3xYz.tmp-journal", true), (".o.mbtiles.mapsnap-123-Ab3xYz.tmp-wal", true),
        (".o.mbtiles.mapsnap-123-Ab3xYz-journal", false),
    ])
    func names(name: String, isTemporary: Bool) {
        #expect(AtomicFile.isTemporaryName(name) == isTemporary)
    }

    /// A young temporary of a dead process goes at once; one of a running process (here:
    /// process 1) or of this one stays until it is old, this process's own for good.
    @Test func deadProcessesTemporariesGoAtOnce() throws {
        let dir = try makeTemporaryDirectory("atomic-pid")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dead = try Self.deadProcessID()
        try #require(kill(dead, 0) != 0 && errno == ESRCH, "pid \(dead) was reused")
        let deadOne = ".map.png.mapsnap-\(dead)-AAAAAA.tmp"
        let living = ".map.png.mapsnap-1-BBBBBB.tmp"
        let mine = ".map.png.mapsnap-\(getpid())-CCCCCC.tmp"
        let otherFile = ".other.png.mapsnap-\(dead)-DDDDDD.tmp"
        for name in [deadOne, living, mine, otherFile] {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data([1])))
        }
        #expect(AtomicFile.removeStaleTemporaries(for: dir + "/map.png") == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [living, mine, otherFile].sorted())
        #expect(AtomicFile.removeStaleTemporaries(in: dir) == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [living, mine].sorted())
        // An hour later the running process's is stale too (its id may be a reused one);
        // this process's own never is.
        let hourAgo = Date(timeIntervalSinceNow: -3600)
        for name in [living, mine] { try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: dir + "/" + name) }
        #expect(AtomicFile.removeStaleTemporaries(in: dir) == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [mine])
    }

    /// A temporary is listed while it is written and not after (the signal handler's
    /// removal runs in the CLI: tests in this process write temporaries in parallel).
    @Test func temporariesInFlightAreListed() throws {
        let dir = try makeTemporaryDirectory("atomic-inflight")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try TemporaryFile(destination: dir + "/region.pmtiles")
        let name = (file.path as NSString).lastPathComponent
        #expect(name.hasPrefix(".region.pmtiles.mapsnap-\(getpid())-") && name.hasSuffix(".tmp"), "\(name)")
        #expect(AtomicFile.temporariesInFlight.contains(file.path))
        try AtomicFile.write([1, 2, 3], to: dir + "/map.png")
        #expect(!AtomicFile.temporariesInFlight.contains { $0.hasPrefix(dir + "/.map.png") })
        file.discard()
        #expect(!AtomicFile.temporariesInFlight.contains(file.path))
    }

    /// MBTilesWriter opens its temporary again by path (SQLite): once a signal handler has
    /// removed it, that open fails and creates nothing, so no temporary (or journal) is left
    /// by a `convert` interrupted between creating its temporary and opening the database.
    @Test func aRemovedTemporaryIsNotCreatedAgainBySQLite() throws {
        let dir = try makeTemporaryDirectory("atomic-sqlite-reopen")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try TemporaryFile(destination: dir + "/out.mbtiles")
        defer { file.discard() }
        #expect(unlink(file.path) == 0)
        #expect(throws: MBTilesError.self) { try SQLiteConnection(path: file.path, mode: .openExisting) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
        // The mode that creates (tests' fixtures) would have made it again.
        _ = try SQLiteConnection(path: file.path, mode: .createForTesting)
        #expect(FileManager.default.fileExists(atPath: file.path))
    }
}
