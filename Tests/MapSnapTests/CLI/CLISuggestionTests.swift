import Foundation
import Testing
@testable import MapSnap

/// The CLI's own "did you mean" hints (commands, `data` commands, options) come from the
/// library's one `Suggestion`: case is ignored, and a short name gets a suggestion only
/// within a third of its length in edits, as for styles and base maps.
@Suite struct CLISuggestionTests {
    @Test(arguments: [
        (["RENDER"], "mapsnap: error: unknown command 'RENDER' (did you mean 'render'?); see mapsnap --help"),
        (["data", "LIST"], "mapsnap: error: data: unknown command 'LIST' (did you mean 'list'?); see mapsnap data --help"),
        (["render", "--MARKER", "60.17,24.94"], "mapsnap: error: unknown option --MARKER (did you mean --marker?)"),
        // Two edits from a three-letter name could be a typo of nearly anything: no guess.
        (["render", "--x", "1"], "mapsnap: error: unknown option --x"),
    ])
    func hintsFollowTheLibrarysRule(arguments: [String], expected: String) throws {
        let r = try CLIRunner.run(arguments)
        defer { CLIRunner.cleanUp(r.directory) }
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrLines == [expected])
    }
}
