import Foundation
import Synchronization
import Testing

/// README.md and docs/*.md run as written: every fenced block whose info string is exactly
/// `sh` runs (`DocumentationRunner`), and a failure names the file, line and command with the
/// block's stderr. Blocks that cannot run offline are `sh skip-test` with a comment saying why.
@Suite struct DocumentationExamplesTests {
    /// README.md and every docs/*.md, relative to the repository root.
    static let markdownFiles: [String] = {
        let docs = ((try? FileManager.default.contentsOfDirectory(atPath: TestPaths.repositoryRoot + "/docs")) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }()

    static func blocks() throws -> [DocumentationBlock] {
        try markdownFiles.flatMap { file in
            let text = try String(contentsOfFile: TestPaths.repositoryRoot + "/" + file, encoding: .utf8)
            return DocumentationBlock.blocks(in: text, file: file)
        }
    }

    @Test func everyShellBlockRuns() throws {
        let mapsnap = try #require(CLIRunner.executable, "mapsnap executable not found; run `swift build --build-tests`")
        // Longest first, so the slowest block starts at once and the rest fill in around it.
        let runnable = try Self.blocks().filter(\.runs).sorted { $0.lines.count > $1.lines.count }
        #expect(runnable.contains { $0.file == "README.md" }, "no `sh` block found in README.md")
        let results = Mutex<[DocumentationRunResult]>([])
        let errors = Mutex<[String]>([])
        // Two at a time: the CI machine has two cores, and each block is a chain of renders.
        let next = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            while true {
                let index = next.withLock { n -> Int in defer { n += 1 }; return n }
                guard index < runnable.count else { return }
                do {
                    let result = try DocumentationRunner.run(runnable[index], mapsnap: mapsnap)
                    results.withLock { $0.append(result) }
                } catch {
                    errors.withLock { $0.append("\(runnable[index]): could not run: \(error)") }
                }
            }
        }
        for error in errors.withLock({ $0 }) {
            Issue.record(Comment(rawValue: error))
        }
        let all = results.withLock { $0 }.sorted { ($0.block.file, $0.block.fenceLine) < ($1.block.file, $1.block.fenceLine) }
        #expect(all.count == runnable.count)
        for result in all where !result.succeeded {
            Issue.record(Comment(rawValue: result.failureMessage))
        }
    }

    @Test func skippedBlocksSayWhy() throws {
        let skipped = try Self.blocks().filter(\.isSkipped)
        #expect(!skipped.isEmpty)
        for block in skipped {
            let first = block.lines.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            #expect(first.trimmingCharacters(in: .whitespaces).hasPrefix("#"),
                    "\(block): a `sh skip-test` block starts with a comment saying why it is not run")
        }
    }

    @Test func onlyKnownShellInfoStrings() throws {
        // `sh skiptest`, `sh  skip-test` or `bash` would silently leave a block unrun.
        for block in try Self.blocks() where block.info.hasPrefix("sh") || block.info.hasPrefix("bash") || block.info == "shell" {
            #expect(block.runs || block.isSkipped, "\(block): use ```sh (run by this test) or ```sh skip-test (with a comment why)")
        }
    }

    @Test func blocksAreFoundWithTheirLines() {
        let markdown = """
        Text
        ```sh
        echo one
        ```
        - a list item:
          ```sh skip-test
          # needs the internet
            indented
          ```
        ```console
        $ not run
        ```
        ```
        synopsis
        ```
        """
        let blocks = DocumentationBlock.blocks(in: markdown, file: "x.md")
        #expect(blocks.map(\.info) == ["sh", "sh skip-test", "console", ""])
        #expect(blocks.map(\.fenceLine) == [2, 6, 10, 13])
        #expect(blocks[0].lines == ["echo one"])
        #expect(blocks[1].lines == ["# needs the internet", "  indented"])
        #expect(blocks[1].fileLine(ofLine: 1) == 8)
        #expect(blocks.map(\.runs) == [true, false, false, false])
    }

    /// A drifted example fails, naming its file, line and command: a block that names a file
    /// the repository does not have, run exactly as the README's blocks are.
    @Test func aDriftedExampleFailsWithItsLineAndCommand() throws {
        let mapsnap = try #require(CLIRunner.executable)
        let markdown = """
        # Example
        ```sh
        mapsnap --version
        mapsnap render --gpx examples/no-such-ride.gpx \\
          --size 200x100 -o ride.png
        echo not reached
        ```
        """
        let block = try #require(DocumentationBlock.blocks(in: markdown, file: "drift.md").first)
        let result = try DocumentationRunner.run(block, mapsnap: mapsnap)
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: result.directory).deletingLastPathComponent().path) }
        #expect(!result.succeeded)
        #expect(!result.stdout.contains("not reached"))
        #expect(result.failedLine == 4 || result.failedLine == 5, "\(result.failureMessage)")
        #expect(result.failedCommand?.contains("examples/no-such-ride.gpx") == true, "\(result.failureMessage)")
        #expect(result.stderr.contains("no-such-ride.gpx"), "\(result.failureMessage)")
        #expect(result.failureMessage.hasPrefix("drift.md:"))
    }

    /// An example that reaches for the network fails promptly and cleanly (the proxies point at
    /// a closed loopback port): exit 3, nothing written, no hang.
    @Test func aFetchFailsPromptly() throws {
        let mapsnap = try #require(CLIRunner.executable)
        let markdown = """
        ```sh
        mapsnap render --source 'http://tiles.invalid/{z}/{x}/{y}.png' --center 60.17,24.94 --zoom 3 -o web.png
        ```
        """
        let block = try #require(DocumentationBlock.blocks(in: markdown, file: "net.md").first)
        let result = try DocumentationRunner.run(block, mapsnap: mapsnap)
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: result.directory).deletingLastPathComponent().path) }
        #expect(!result.timedOut)
        #expect(result.exitCode == 3, "\(result.failureMessage)")
        #expect(!FileManager.default.fileExists(atPath: result.directory + "/web.png"))
        #expect(result.failedLine == 2, "\(result.failureMessage)")
    }
}
