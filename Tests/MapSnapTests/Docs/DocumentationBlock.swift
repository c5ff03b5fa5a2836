import Foundation

/// A fenced code block of a Markdown file, as the documentation tests read it.
///
/// The convention (README.md and docs/*.md): a block whose info string is exactly `sh` is run
/// by `DocumentationExamplesTests`; `sh skip-test` marks a block that cannot run offline from a
/// checkout (the internet, a server, Docker, the user's own files, minutes of work) and must
/// start with a comment saying why; any other info string, or none, is never run.
struct DocumentationBlock: Sendable, CustomStringConvertible {
    /// The Markdown file, relative to the repository root (`README.md`, `docs/testing.md`).
    var file: String
    /// 1-based line of the opening fence.
    var fenceLine: Int
    /// The info string after the opening fence, trimmed (`sh`, `sh skip-test`, `swift`, ``).
    var info: String
    /// The block's lines with the fence's indentation removed.
    var lines: [String]

    /// 1-based line in `file` of the block's `index`-th line (0-based).
    func fileLine(ofLine index: Int) -> Int { fenceLine + 1 + index }

    var runs: Bool { info == "sh" }
    var isSkipped: Bool { info == "sh skip-test" }

    var description: String { "\(file):\(fenceLine) (```\(info))" }

    /// Every fenced block (``` fences, possibly indented inside a list) of `markdown`.
    /// An unclosed block is returned up to the end of the file, so a broken fence is seen.
    static func blocks(in markdown: String, file: String) -> [DocumentationBlock] {
        var result: [DocumentationBlock] = []
        var open: (line: Int, indent: Int, info: String, lines: [String])?
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let rest = line.dropFirst(indent)
            if var block = open {
                if rest.hasPrefix("```") && rest.drop { $0 == "`" }.allSatisfy(\.isWhitespace) {
                    result.append(DocumentationBlock(file: file, fenceLine: block.line, info: block.info, lines: block.lines))
                    open = nil
                } else {
                    // Content keeps its own indentation beyond the fence's.
                    let removable = min(block.indent, line.prefix { $0 == " " }.count)
                    block.lines.append(String(line.dropFirst(removable)))
                    open = block
                }
            } else if rest.hasPrefix("```") {
                let info = rest.drop { $0 == "`" }.trimmingCharacters(in: .whitespaces)
                open = (index + 1, indent, info, [])
            }
        }
        if let block = open {
            result.append(DocumentationBlock(file: file, fenceLine: block.line, info: block.info, lines: block.lines))
        }
        return result
    }
}
