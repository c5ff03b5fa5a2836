import Foundation
import Testing
@testable import MapSnap

/// Files written in pieces: nothing at the destination until `commit`, nothing left by
/// `discard` or an abandoned writer, a replaced file keeps its permissions, and paths that
/// cannot be replaced by renaming are refused before anything is written.
@Suite struct TemporaryFileTests {
    @Test func piecesInAnyOrderAppearOnlyOnCommit() throws {
        let dir = try makeTemporaryDirectory("pieces")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/out.bin"
        let file = try TemporaryFile(destination: path)
        try file.write([5, 6, 7], at: 5)
        try file.write([1, 2], at: 0)
        try file.write(ArraySlice([9, 9, 3, 4]).dropFirst(2), at: 2)
        #expect(try file.read(at: 1, count: 4) == [2, 3, 4, 0])
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).allSatisfy { AtomicFile.isTemporaryName($0) })
        try file.commit()
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == [1, 2, 3, 4, 0, 5, 6, 7])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.bin"])
        #expect(throws: AtomicFileError.self) { try file.commit() }
    }

    @Test func discardedOrAbandonedWritesLeaveNothing() throws {
        let dir = try makeTemporaryDirectory("pieces")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try TemporaryFile(destination: dir + "/a.bin")
        try file.write([1], at: 0)
        file.discard()
        file.discard()
        do {
            let abandoned = try TemporaryFile(destination: dir + "/b.bin")
            try abandoned.write([1], at: 0)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aReplacedFileKeepsItsModeAndIsReplacedWhole() throws {
        let dir = try makeTemporaryDirectory("pieces")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/old.bin"
        try AtomicFile.write(Array(repeating: 7, count: 100), to: path)
        chmod(path, 0o640)
        let file = try TemporaryFile(destination: path)
        try file.write([1, 2, 3], at: 0)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))).count == 100, "untouched until commit")
        try file.commit()
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == [1, 2, 3])
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o640)
    }

    @Test func pathsThatCannotBeRenamedOverAreRefused() throws {
        let dir = try makeTemporaryDirectory("pieces")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: AtomicFileError.notAFile(path: dir, kind: "a directory")) { try TemporaryFile(destination: dir) }
        #expect(throws: AtomicFileError.self) { try TemporaryFile(destination: "/dev/null") }
        #expect(throws: AtomicFileError.self) { try TemporaryFile(destination: dir + "/missing/x.bin") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
