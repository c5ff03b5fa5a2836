import Foundation
import Synchronization

/// Runs a child process to its end for a test: standard output and error are drained on their
/// own threads while it runs (a PNG on stdout is larger than a pipe's buffer and would
/// otherwise block the child forever), standard input is at end-of-file, and a child still
/// running after `timeoutSeconds` is killed. The one way `CLIRunner` and the documentation
/// examples run their commands.
enum ChildProcess {
    struct Outcome {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var timedOut: Bool
    }

    /// Runs `process` (executable, arguments, environment and directory already set);
    /// `standardOutput`, when given, receives stdout instead of the captured `Outcome.stdout`.
    static func run(_ process: Process, timeoutSeconds: Double, standardOutput: FileHandle? = nil) throws -> Outcome {
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        process.standardOutput = standardOutput ?? outPipe
        process.standardError = errPipe
        process.standardInput = inPipe

        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        let outBox = Box(), errBox = Box()
        let drained = DispatchGroup()
        for (pipe, box) in [(outPipe, outBox), (errPipe, errBox)] {
            let handle = pipe.fileHandleForReading
            drained.enter()
            Thread.detachNewThread {
                box.set(handle.readDataToEndOfFile())
                drained.leave()
            }
        }
        try process.run()
        try? inPipe.fileHandleForWriting.close()
        // Our copy of the write end must go, or the reader never sees end-of-file.
        if standardOutput != nil { try? outPipe.fileHandleForWriting.close() }

        var timedOut = false
        if finished.wait(timeout: .now() + timeoutSeconds) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
        }
        // The child is gone; its pipe ends close, so the readers finish promptly.
        _ = drained.wait(timeout: .now() + 10)
        return Outcome(status: process.terminationStatus, stdout: outBox.get(), stderr: errBox.get(), timedOut: timedOut)
    }

    /// Bytes read on a reader thread, handed to the waiting test.
    private final class Box: Sendable {
        private let data = Mutex(Data())
        func set(_ d: Data) { data.withLock { $0 = d } }
        func get() -> Data { data.withLock { $0 } }
    }
}
