import Foundation
import Testing
@testable import MapSnap

/// A fresh directory under the system temp dir, removed by the caller.
func makeTemporaryDirectory(_ tag: String) throws -> String {
    let path = NSTemporaryDirectory() + "mapsnap-\(tag)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite struct AtomicFileTests {
    @Test func writesAndReplacesWithoutLeavingTemporaries() throws {
        let dir = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/out.png"
        try AtomicFile.write([1, 2, 3], to: path)
        try AtomicFile.write([4, 5], to: path)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == [4, 5])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.png"])
    }

    @Test func emptyFile() throws {
        let dir = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AtomicFile.write([], to: dir + "/empty")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/empty")).isEmpty)
    }

    @Test func missingDirectoryNamesThePath() throws {
        let path = "/nonexistent-mapsnap-dir/sub/out.png"
        do {
            try AtomicFile.write([1], to: path)
            Issue.record("wrote into a missing directory")
        } catch {
            guard case let .cannotCreate(p, code, _) = error else { Issue.record("\(error)"); return }
            #expect(p == path && code == ENOENT)
            #expect(error.description.hasPrefix("cannot create \(path): "))
        }
    }

    /// Renaming a file over a directory fails; the temporary must be cleaned up.
    @Test func failedRenameRemovesTheTemporary() throws {
        let dir = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/taken", withIntermediateDirectories: false)
        #expect(throws: AtomicFileError.self) { try AtomicFile.write([1], to: dir + "/taken") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["taken"])
    }

    @Test func readOnlyDirectoryIsPermissionDenied() throws {
        guard getuid() != 0 else { return }  // root ignores directory permissions
        let dir = try makeTemporaryDirectory("atomic")
        defer {
            chmod(dir, 0o755)
            try? FileManager.default.removeItem(atPath: dir)
        }
        chmod(dir, 0o555)
        #expect(throws: AtomicFileError.cannotCreate(path: dir + "/x", errno: EACCES, reason: String(cString: strerror(EACCES)))) {
            try AtomicFile.write([1], to: dir + "/x")
        }
    }
}
