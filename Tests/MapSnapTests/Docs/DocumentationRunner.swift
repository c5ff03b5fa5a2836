import Foundation
import Synchronization

/// What running one documentation block did.
struct DocumentationRunResult: Sendable {
    var block: DocumentationBlock
    var exitCode: Int32
    var timedOut: Bool
    var stdout: String
    var stderr: String
    /// The failing command as bash saw it, and its line in the Markdown file.
    var failedCommand: String?
    var failedLine: Int?
    /// The folder the block ran in (kept on failure, removed on success).
    var directory: String

    var succeeded: Bool { exitCode == 0 && !timedOut }

    /// One message naming the file, line and command, with the block's stderr.
    var failureMessage: String {
        let location = "\(block.file):\(failedLine ?? block.fenceLine)"
        let command = failedCommand.map { "\n  command: \($0)" } ?? ""
        let what = timedOut ? "timed out" : "exit \(exitCode)"
        return "\(location): a `sh` example failed (\(what)), run in \(directory)\(command)\n  stderr:\n\(stderr.isEmpty ? "(empty)" : stderr)"
    }
}

/// Runs `sh` blocks of the documentation the way a user would type them at the repository's
/// root: `bash -e` in a fresh folder holding a symbolic link to every top-level entry of the
/// repository (so `examples/…` and `Data/…` resolve and outputs land in the folder), with the
/// test build's `mapsnap` first on `PATH`, an empty `MAPSNAP_DATA`, and every HTTP proxy
/// variable pointing at a closed loopback port, so an example that reaches for the network
/// fails at once instead of depending on it.
enum DocumentationRunner {
    /// Longest a block may run; the slowest takes a few seconds in a debug build.
    static let timeoutSeconds = TestEnvironment.seconds(120)

    /// A closed loopback port (discard, not served) for the proxy variables.
    static let deadProxy = "http://127.0.0.1:9"

    static func run(_ block: DocumentationBlock, mapsnap: String, repositoryRoot: String = TestPaths.repositoryRoot) throws -> DocumentationRunResult {
        let fm = FileManager.default
        let base = TestPaths.temporaryDirectory()
        let work = base + "/work"
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        for entry in try fm.contentsOfDirectory(atPath: repositoryRoot).sorted() where entry != ".build" {
            try fm.createSymbolicLink(atPath: work + "/" + entry, withDestinationPath: repositoryRoot + "/" + entry)
        }
        try fm.createDirectory(atPath: base + "/data", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: base + "/cache", withIntermediateDirectories: true)

        // The ERR trap writes the failing command and its script line to a side file, so the
        // report can name them; the prologue's length maps script lines to Markdown lines.
        let prologue = [
            "exec 3>>\"$DOCS_TEST_TRACE\"",
            "trap 'printf \"%s\\t%s\\n\" \"$LINENO\" \"$BASH_COMMAND\" >&3' ERR",
            "set -e",
        ]
        let script = base + "/block.sh"
        let trace = base + "/trace"
        try Data((prologue + block.lines).joined(separator: "\n").appending("\n").utf8).write(to: URL(fileURLWithPath: script))
        fm.createFile(atPath: trace, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script]
        process.currentDirectoryURL = URL(fileURLWithPath: work)
        var env = ProcessInfo.processInfo.environment
        let binDir = URL(fileURLWithPath: mapsnap).deletingLastPathComponent().path
        env["PATH"] = binDir + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["MAPSNAP_DATA"] = base + "/data"
        env["XDG_CACHE_HOME"] = base + "/cache"
        env["DOCS_TEST_TRACE"] = trace
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] {
            env[name] = deadProxy
        }
        env["no_proxy"] = nil
        env["NO_PROXY"] = nil
        process.environment = env
        let outcome = try ChildProcess.run(process, timeoutSeconds: timeoutSeconds)

        var result = DocumentationRunResult(
            block: block, exitCode: outcome.status, timedOut: outcome.timedOut,
            stdout: String(decoding: outcome.stdout, as: UTF8.self),
            stderr: String(decoding: outcome.stderr, as: UTF8.self),
            directory: work)
        let traced = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        if let first = traced.split(separator: "\n").first {
            let parts = first.split(separator: "\t", maxSplits: 1).map(String.init)
            if let scriptLine = Int(parts[0]), scriptLine > prologue.count {
                result.failedLine = block.fileLine(ofLine: scriptLine - prologue.count - 1)
            }
            result.failedCommand = parts.count > 1 ? parts[1] : nil
        }
        if result.succeeded {
            try? fm.removeItem(atPath: base)
        }
        return result
    }
}
