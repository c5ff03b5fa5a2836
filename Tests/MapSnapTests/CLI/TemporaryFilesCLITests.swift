import Foundation
import Testing
@testable import MapSnap

/// Temporaries of a killed run: the next run removes a dead process's at once, and SIGINT or
/// SIGTERM makes mapsnap remove its own before it exits.
@Suite struct TemporaryFilesCLITests {
    /// A young temporary of `map.png` left by a process that no longer runs is gone after the
    /// next render of `map.png` (before: it stayed ten minutes); a live process's stays.
    @Test func renderRemovesADeadProcesssTemporaryAtOnce() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let dead = try AtomicFileTemporaryNameTests.deadProcessID()
        try #require(kill(dead, 0) != 0 && errno == ESRCH, "pid \(dead) was reused")
        let left = ".map.png.mapsnap-\(dead)-AbCdEf.tmp", living = ".map.png.mapsnap-1-GhIjKl.tmp"
        for name in [left, living] { try CLIRunner.write("half a PNG", to: dir + "/" + name) }
        let r = try CLIRunner.run(RenderCommandTests.renderArgs(["--marker", "60.17,24.94", "-o", "map.png"]), in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(CLIRunner.listing(dir).sorted() == [living, "map.png"].sorted())
    }

    /// `convert` killed while it writes: the temporary output is gone, the exit status says
    /// which signal, nothing is written. The input is a slow (but in-budget) MBTiles view.
    @Test(arguments: [SIGINT, SIGTERM])
    func aKilledConvertLeavesNoTemporary(signalNumber: Int32) throws {
        let input = try HostileTiles.mbtiles(MBTilesReadBudgetTests.heavyView(work: 4_000, rows: 2_000))
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(CLIRunner.executable))
        process.arguments = ["convert", input, "out.mbtiles"]
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        let deadline = Date().addingTimeInterval(TestEnvironment.seconds(30))
        var writing = false
        while Date() < deadline, process.isRunning {
            if CLIRunner.listing(dir).contains(where: { $0.hasPrefix(".out.mbtiles.mapsnap-\(process.processIdentifier)-") }) {
                writing = true
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(writing, "no temporary seen: \(CLIRunner.listing(dir))")
        kill(process.processIdentifier, signalNumber)
        if finished.wait(timeout: .now() + TestEnvironment.seconds(20)) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            Issue.record("convert did not stop on signal \(signalNumber)")
        }
        #expect(process.terminationStatus == 128 + signalNumber && process.terminationReason == .exit,
                "status \(process.terminationStatus), \(process.terminationReason == .exit ? "exit" : "uncaught signal")")
        #expect(CLIRunner.listing(dir).isEmpty, "\(CLIRunner.listing(dir))")
    }
}
