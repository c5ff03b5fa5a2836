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

/// Deterministic xorshift64* generator; tests print the seed so a failure can be replayed.
struct InputsSeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E3779B97F4A7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545F4914F6CDD1D
    }
}
