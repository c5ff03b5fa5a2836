import Foundation
import Testing
@testable import MapSnap

/// What one run of the `mapsnap` binary did.
struct CLIResult: CustomStringConvertible {
    var exitCode: Int32
    var stdout: [UInt8]
    var stderr: String
    /// The temporary working directory the command ran in (removed by `CLIRunner.cleanUp`).
    var directory: String
    /// True when the run was killed for exceeding the timeout.
    var timedOut: Bool

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    /// The non-empty lines written to stderr.
    var stderrLines: [String] { stderr.split(whereSeparator: \.isNewline).map(String.init) }

    var description: String {
        "exit \(exitCode)\(timedOut ? " (timed out)" : "")\nstderr: \(stderr)\nstdout: \(stdoutText.prefix(2_000))"
    }
}

/// Runs the built `mapsnap` executable in a temporary working directory with a hard timeout,
/// so CLI tests exercise the real argument parsing, exit codes and file output.
enum CLIRunner {
    /// Longest a single command may run before it is killed; renders in the tests take well
    /// under a second, so hitting this means a hang, not a slow machine (longer in a
    /// sanitized build).
    static let timeoutSeconds = TestEnvironment.seconds(60)

    /// The `mapsnap` binary: `$MAPSNAP_CLI_UNDER_TEST` when set (to run the CLI tests against
    /// another build, e.g. to see a new test fail on the binary before a change), else beside
    /// the test bundle (SwiftPM puts products and the test bundle in the same directory), else
    /// `.build/debug` of this checkout.
    static let executable: String? = {
        let fm = FileManager.default
        var candidates: [String] = []
        if let chosen = ProcessInfo.processInfo.environment["MAPSNAP_CLI_UNDER_TEST"], !chosen.isEmpty { return chosen }
        if let first = CommandLine.arguments.first {
            let url = URL(fileURLWithPath: first).resolvingSymlinksInPath()
            // `…/debug/mapsnapPackageTests.xctest` on Linux; walk up a few levels in case the
            // bundle is a directory (`…/Contents/MacOS/…` elsewhere).
            var dir = url.deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(dir.appendingPathComponent("mapsnap").path)
                dir = dir.deletingLastPathComponent()
            }
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("mapsnap").path)
        candidates.append(TestPaths.repositoryRoot + "/.build/debug/mapsnap")
        return candidates.first { path in
            var isDir: ObjCBool = false
            return fm.fileExists(atPath: path, isDirectory: &isDir) && !isDir.boolValue && fm.isExecutableFile(atPath: path)
        }
    }()

    /// Runs `mapsnap arguments…` with `workingDirectory` (a fresh temporary directory when nil)
    /// as its current directory. Standard input is an empty pipe, so a command that reads it by
    /// mistake sees end-of-file instead of hanging. `standardOutput` replaces the captured
    /// stdout pipe (e.g. `/dev/full`); `stdout` is then empty.
    ///
    /// The command sees the test process's environment with `environment` on top; unless it
    /// says otherwise, `MAPSNAP_DATA` names a folder that does not exist, so regions in the
    /// developer's own data directory never reach a test.
    static func run(_ arguments: [String], in workingDirectory: String? = nil,
                    standardOutput: FileHandle? = nil, environment: [String: String] = [:]) throws -> CLIResult {
        guard let executable else {
            throw CLIRunnerError("mapsnap executable not found near \(CommandLine.arguments.first ?? "?"); run `swift build --build-tests`")
        }
        let directory = workingDirectory ?? TestPaths.temporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["MAPSNAP_DATA"] = "/nonexistent/mapsnap-test-data"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let outcome = try ChildProcess.run(process, timeoutSeconds: timeoutSeconds, standardOutput: standardOutput)
        return CLIResult(exitCode: outcome.status, stdout: [UInt8](outcome.stdout),
                         stderr: String(decoding: outcome.stderr, as: UTF8.self),
                         directory: directory, timedOut: outcome.timedOut)
    }

    /// Removes a run's working directory (restoring write permission first).
    static func cleanUp(_ directory: String) {
        chmod(directory, 0o755)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Names in `directory`, sorted, hidden files included (atomic-write temporaries are
    /// dot-files, and a leftover one is exactly what the tests look for).
    static func listing(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// Decodes a PNG the CLI wrote, recording an issue (and returning nil) when it is not one.
    static func decodePNG(_ bytes: [UInt8], origin: String, sourceLocation: SourceLocation = #_sourceLocation) -> Canvas? {
        do {
            return try PNGCodec.decode(bytes, origin: origin)
        } catch {
            Issue.record("\(origin) is not a valid PNG: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Reads and decodes a PNG file.
    static func decodePNG(atPath path: String, sourceLocation: SourceLocation = #_sourceLocation) -> Canvas? {
        guard let data = FileManager.default.contents(atPath: path) else {
            Issue.record("\(path) was not written", sourceLocation: sourceLocation)
            return nil
        }
        return decodePNG([UInt8](data), origin: path, sourceLocation: sourceLocation)
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

struct CLIRunnerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
