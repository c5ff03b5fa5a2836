import Foundation

/// Paths to files under `Tests/MapSnapTests/Fixtures/`, found from this source file so tests
/// run from any working directory.
enum InputsFixtures {
    static let directory: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent() // Inputs
        url.deleteLastPathComponent() // MapSnapTests
        return url.appendingPathComponent("Fixtures").path
    }()

    static func path(_ relative: String) -> String { directory + "/" + relative }

    static func data(_ relative: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(relative)))
    }
}
