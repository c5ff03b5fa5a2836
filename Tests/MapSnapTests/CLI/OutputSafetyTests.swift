import Foundation
import Testing
@testable import MapSnap

/// Where the CLI writes (issue #10): special files are written in place, never replaced;
/// a closed or full standard output is exit 3; kept modes; stale temporaries cleaned.
@Suite struct OutputSafetyTests {
    static let marker = ["--marker", "60.17,24.94"]

    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    @Test func devNullIsWrittenNotReplaced() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(Self.marker + ["-o", "/dev/null"]), in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr.isEmpty)
        #expect(Self.fileType("/dev/null") == S_IFCHR)
    }

    /// `render`, `convert` and `compare --diff` into a FIFO: the reader gets the bytes and
    /// the FIFO stays a FIFO.
    @Test(arguments: ["render", "convert", "compare"])
    func fifoReceivesTheOutput(command: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        // Named as the output's format: an extension mapsnap cannot write is refused.
        let name = command == "convert" ? "out.pmtiles" : "out.png"
        let fifo = dir + "/" + name
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = FIFOReader(path: fifo)
        let arguments: [String]
        switch command {
        case "render": arguments = RenderCommandTests.renderArgs(Self.marker + ["-o", name])
        case "convert": arguments = ["convert", InfoCommandTests.mbtiles, name]
        default: arguments = ["compare", CompareCommandTests.fixture("one_pixel"), CompareCommandTests.fixture("base"), "--diff", name]
        }
        let r = try CLIRunner.run(arguments, in: dir)
        #expect([0, 1].contains(r.exitCode), "\(r)")
        let bytes = received.wait()
        let magic: [UInt8] = command == "convert" ? Array("PMTiles".utf8) : [0x89, 0x50, 0x4E, 0x47]
        #expect(bytes.starts(with: magic), "\(command) wrote \(bytes.count) bytes")
        #expect(Self.fileType(fifo) == S_IFIFO)
        #expect(CLIRunner.listing(dir) == [name])
    }

    @Test func fullStandardOutputExitsThree() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(Self.marker + ["-o", "-"]), in: dir, standardOutput: full)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderrLines == ["mapsnap: error: cannot write standard output: \(String(cString: strerror(ENOSPC)))"])
    }

    @Test func closedPipeExitsThree() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(Self.marker + ["-o", "-"]), in: dir,
                                  standardOutput: pipe.fileHandleForWriting)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderrLines == ["mapsnap: error: cannot write standard output: \(String(cString: strerror(EPIPE)))"])
    }

    @Test func fullDeviceAsOutputExitsThree() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(Self.marker + ["-o", "/dev/full"]), in: dir)
        #expect(r.exitCode == 3, "\(r)")
        #expect(r.stderrLines.count == 1 && r.stderr.contains("/dev/full"), "\(r)")
        #expect(Self.fileType("/dev/full") == S_IFCHR)
    }

    /// A read-only existing output is replaced (the directory is writable) and stays read-only.
    @Test func replacedOutputKeepsItsMode() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        try CLIRunner.write("old", to: dir + "/map.png")
        chmod(dir + "/map.png", 0o440)
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(Self.marker + ["-o", "map.png"]), in: dir)
        #expect(r.exitCode == 0, "\(r)")
        var info = stat()
        #expect(stat(dir + "/map.png", &info) == 0 && info.st_mode & 0o777 == 0o440)
        #expect(CLIRunner.decodePNG(atPath: dir + "/map.png")?.width == 120)
    }

    /// Temporaries of a run killed mid-write are removed by the next run once stale; a young
    /// one (a concurrent writer's) and other files are left alone.
    @Test func staleTemporariesAreCleanedOnStart() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        for name in [".map.png.tmp-Kill3d", ".map.png.tmp-Fresh1", ".other.png.tmp-Kill3d"] {
            try CLIRunner.write("partial", to: dir + "/" + name)
        }
        let hourAgo = Date(timeIntervalSinceNow: -3600)
        for name in [".map.png.tmp-Kill3d", ".other.png.tmp-Kill3d"] {
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: dir + "/" + name)
        }
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(Self.marker + ["-o", "map.png"]), in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(CLIRunner.listing(dir) == [".map.png.tmp-Fresh1", ".other.png.tmp-Kill3d", "map.png"])
    }
}

/// Reads a FIFO to its end on a thread of its own (opening it waits for the writer).
final class FIFOReader: @unchecked Sendable {
    private var data: Data?
    private let done = DispatchSemaphore(value: 0)
    private let path: String

    init(path: String) {
        self.path = path
        Thread.detachNewThread { [self] in
            data = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile()
            done.signal()
        }
    }

    /// The bytes read; empty if nothing arrived within 30 seconds (the reader is then
    /// released by opening and closing the write end, so no thread stays blocked).
    func wait() -> [UInt8] {
        guard done.wait(timeout: .now() + 30) == .success else {
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            return []
        }
        return [UInt8](data ?? Data())
    }
}
