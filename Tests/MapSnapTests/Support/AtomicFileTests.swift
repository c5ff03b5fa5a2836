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

/// Outputs that are not regular files are written in place, never replaced (issue #10: as
/// root, `-o /dev/null` once replaced the device node with a PNG).
@Suite struct AtomicFileSpecialFileTests {
    private func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    @Test func devNullStaysADevice() throws {
        try AtomicFile.write([1, 2, 3], to: "/dev/null")
        #expect(fileType("/dev/null") == S_IFCHR)
        #expect(AtomicFile.removeStaleTemporaries(in: "/dev", of: "null", olderThan: 0) == 0)
    }

    /// A private null device (root only: mknod), so a regression cannot touch the real one.
    @Test func characterDeviceIsWrittenNotReplaced() throws {
        let dir = try makeTemporaryDirectory("atomic-dev")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/null"
        // Device 1:3 (null); dev_t encodes small major:minor as major << 8 | minor.
        guard mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 else { return }  // not root
        try AtomicFile.write([9, 9, 9], to: path)
        #expect(fileType(path) == S_IFCHR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["null"])
    }

    @Test func fifoIsWrittenInPlace() throws {
        let dir = try makeTemporaryDirectory("atomic-fifo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/pipe"
        #expect(mkfifo(path, 0o600) == 0)
        let received = ReceivedBytes()
        let reader = Thread {
            // Opening for reading waits for the writer, then reads to its close.
            received.set(FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data())
        }
        reader.start()
        try AtomicFile.write(Array(repeating: 7, count: 100_000), to: path)
        for _ in 0..<500 where !received.isSet { usleep(10_000) }
        #expect(received.bytes == Array(repeating: 7, count: 100_000))
        #expect(fileType(path) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["pipe"])
    }

    @Test func fullDeviceIsAWriteError() {
        #expect(throws: AtomicFileError.cannotWrite(path: "/dev/full", errno: ENOSPC, reason: String(cString: strerror(ENOSPC)))) {
            try AtomicFile.write([1], to: "/dev/full")
        }
    }

    @Test func descriptorWriteReportsAFullDisk() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(throws: AtomicFileError.cannotWrite(path: "standard output", errno: ENOSPC, reason: String(cString: strerror(ENOSPC)))) {
            try AtomicFile.write([1, 2], toDescriptor: fd, name: "standard output")
        }
    }

    @Test func directoryIsRefusedUpFront() throws {
        let dir = try makeTemporaryDirectory("atomic-dir")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: AtomicFileError.notAFile(path: dir, kind: "a directory")) { try AtomicFile.write([1], to: dir) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func replacedFileKeepsItsMode() throws {
        let dir = try makeTemporaryDirectory("atomic-mode")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/out.png"
        try AtomicFile.write([1], to: path)
        chmod(path, 0o444)
        try AtomicFile.write([2, 3], to: path)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o444)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == [2, 3])
    }

    /// A new file gets 0666 minus the umask, like any created file (it was forced to 0644).
    @Test func newFileFollowsTheUmask() throws {
        let dir = try makeTemporaryDirectory("atomic-umask")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Read, not set: umask is process-wide and tests run in parallel.
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        let mask = try #require(line.flatMap { mode_t($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) })
        try AtomicFile.write([1], to: dir + "/new.png")
        var info = stat()
        #expect(stat(dir + "/new.png", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o666 & ~mask)
    }

    @Test func symbolicLinkIsWrittenThroughOrReplaced() throws {
        let dir = try makeTemporaryDirectory("atomic-link")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AtomicFile.write([1], to: dir + "/target.png")
        #expect(symlink("target.png", dir + "/link.png") == 0)
        try AtomicFile.write([2], to: dir + "/link.png")
        #expect(fileType(dir + "/link.png") == S_IFLNK)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/target.png"))) == [2])
        // A cache replaces the link itself and leaves its target alone.
        try AtomicFile.write([3], to: dir + "/link.png", followsSymbolicLinks: false)
        #expect(fileType(dir + "/link.png") == S_IFREG)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/target.png"))) == [2])
    }

    @Test(arguments: [
        (".map.png.tmp-Ab3xYz", true), (".a.tmp-000000", true), ("map.png", false), (".map.png.tmp-abc", false),
        (".map.png.tmp-abc-de", false), (".tmp-abcdef", false), ("x.tmp-abcdef", false),
    ])
    func temporaryNames(name: String, isTemporary: Bool) {
        #expect(AtomicFile.isTemporaryName(name) == isTemporary)
    }

    /// A writer killed between creating and renaming its temporary leaves it behind; the next
    /// run removes old ones and leaves young ones (a concurrent writer's) alone.
    @Test func staleTemporariesAreRemoved() throws {
        let dir = try makeTemporaryDirectory("atomic-stale")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let old = dir + "/.map.png.tmp-OLD123", young = dir + "/.map.png.tmp-NEW123"
        let other = dir + "/.other.png.tmp-OLD456", keep = dir + "/notes.txt"
        for path in [old, young, other, keep] { #expect(FileManager.default.createFile(atPath: path, contents: Data([1]))) }
        let hourAgo = Date(timeIntervalSinceNow: -3600)
        for path in [old, other, keep] { try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: path) }
        #expect(AtomicFile.removeStaleTemporaries(for: dir + "/map.png") == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [".map.png.tmp-NEW123", ".other.png.tmp-OLD456", "notes.txt"])
        #expect(AtomicFile.removeStaleTemporaries(in: dir) == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [".map.png.tmp-NEW123", "notes.txt"])
    }

    /// Names that only look like a temporary (wrong length, wrong marker, a name that merely
    /// starts like this file's) are never removed, however old.
    @Test func nearMissNamesAreKept() throws {
        let dir = try makeTemporaryDirectory("atomic-near")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let names = [".map.png.tmp-OLD12", ".map.png.tmp-OLD1234", ".map.png.tmpXOLD123", ".map.png2.tmp-OLD123",
                     "map.png.tmp-OLD123", ".map.png.tmp-OLD12!", ".map.pn.tmp-OLD123", ".map.png.tmp-ÄLD123"]
        let hourAgo = Date(timeIntervalSinceNow: -3600)
        for name in names + [".map.png.tmp-OLD123"] {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data([1])))
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: dir + "/" + name)
        }
        #expect(AtomicFile.removeStaleTemporaries(for: dir + "/map.png") == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == names.sorted())
        // Without a name, the well-formed temporaries of other files go too.
        #expect(AtomicFile.removeStaleTemporaries(in: dir) == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
                == names.filter { $0 != ".map.png2.tmp-OLD123" && $0 != ".map.pn.tmp-OLD123" }.sorted())
    }
}

/// Bytes handed from a reader thread to the test.
private final class ReceivedBytes: @unchecked Sendable {
    private var data: Data?
    private let lock = NSLock()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return data != nil }
    var bytes: [UInt8] { lock.lock(); defer { lock.unlock() }; return [UInt8](data ?? Data()) }
}
