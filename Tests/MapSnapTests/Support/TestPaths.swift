import Foundation

/// Paths of repository files for tests, from this file's location (no working-directory
/// assumptions).
enum TestPaths {
    /// `Tests/MapSnapTests`.
    static let testsRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
    /// The repository root.
    static let repositoryRoot = URL(fileURLWithPath: testsRoot).deletingLastPathComponent().deletingLastPathComponent().path

    static func fixture(_ relative: String) -> String { testsRoot + "/Fixtures/" + relative }
    static func goldens(_ folder: String) -> String { testsRoot + "/Goldens/" + folder }
    static var plainStyle: String { fixture("styles/plain.json") }

    /// A fresh temporary directory.
    static func temporaryDirectory() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapsnap-tests-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
