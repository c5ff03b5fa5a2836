import Foundation
import Testing
@testable import MapSnap

@Suite struct InputFileTests {
    @Test func readsARegularFileUpToTheLimit() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ten.bin"
        try Data((0..<10).map { UInt8($0) }).write(to: URL(fileURLWithPath: path))
        #expect(try InputFile.read(path, limit: 10) == (0..<10).map { UInt8($0) })
        #expect(throws: InputFileError.tooLarge(path: path, byteCount: 10, limit: 9)) { try InputFile.read(path, limit: 9) }
        let empty = dir + "/empty"
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(try InputFile.read(empty, limit: 0) == [])
    }

    @Test func refusesWhatIsNotARegularFile() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: InputFileError.notFound(path: dir + "/nope")) { try InputFile.read(dir + "/nope", limit: 100) }
        #expect(throws: InputFileError.notFound(path: dir + "/nope/x")) { try InputFile.read(dir + "/nope/x", limit: 100) }
        #expect(throws: InputFileError.notRegularFile(path: dir, kind: "a directory")) { try InputFile.read(dir, limit: 100) }
        #expect(throws: InputFileError.notRegularFile(path: "/dev/null", kind: "a device")) { try InputFile.read("/dev/null", limit: 100) }
    }

    /// A FIFO with no writer would block a plain open(2) forever; it must fail at once.
    @Test func fifoFailsInsteadOfHanging() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe.geojson"
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(throws: InputFileError.notRegularFile(path: fifo, kind: "a FIFO (named pipe)")) { try InputFile.read(fifo, limit: 100) }
        #expect(throws: RenderSpecError.unreadableFile(origin: "--geojson", path: fifo, reason: "is a FIFO (named pipe), not a regular file")) {
            var builder = RenderSpecBuilder()
            try builder.loadGeoJSON(path: fifo, origin: "--geojson")
        }
    }

    @Test(.enabled(if: getuid() != 0, "root reads everything"))
    func unreadableFileSaysPermissionDenied() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/secret"
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0)
        #expect(throws: InputFileError.permissionDenied(path: path)) { try InputFile.read(path, limit: 100) }
    }
}
