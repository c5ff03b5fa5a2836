import Foundation
import Testing
import MapSnap
@testable import MapSnapTesting

/// How the project's own golden images (`Tests/MapSnapTests/Goldens/`) are checked: exactly.
///
/// Renders are byte-identical on a fixed toolchain with the bundled fonts and data, so any
/// changed byte of any decoded RGBA pixel is a regression: threshold 0 (byte-exact per
/// pixel), anti-aliasing not forgiven, no differing pixel allowed. Pixels are compared after
/// decoding, never as PNG bytes, so a change of PNG encoder (filters, compression level)
/// that keeps the image leaves every golden valid.
///
/// `GoldenSensitivityTests` perturbs each kind of golden and proves this check fails.
/// On a mismatch, `expected.png`, `actual.png` and `diff.png` go to
/// `.build/snapshot-failures/<test file>/<name>/` and the message names them;
/// `MAPSNAP_RECORD=1` re-records the golden and fails.
enum Golden {
    static let threshold = 0.0
    static let includeAntiAliasing = true
    static let maxDiff = DiffTolerance.pixels(0)

    /// Records an issue at the caller when `image` differs from `Goldens/<folder>/<name>.png`.
    static func expect(_ image: MapImage, named name: String, in folder: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        expectSnapshot(of: image, named: name, threshold: threshold, maxDiff: maxDiff,
                       includeAntiAliasing: includeAntiAliasing, goldenDirectory: TestPaths.goldens(folder),
                       sourceLocation: sourceLocation)
    }

    /// The same check as `expect`, returning the failure message (nil on a match). Never
    /// records, whatever `MAPSNAP_RECORD` says: a perturbed image must not become a golden.
    static func verify(_ image: MapImage, named name: String, in folder: String, failureDirectory: String,
                       filePath: String = #filePath) -> String? {
        verifySnapshot(of: image, named: name, threshold: threshold, maxDiff: maxDiff,
                       includeAntiAliasing: includeAntiAliasing, goldenDirectory: TestPaths.goldens(folder),
                       failureDirectory: failureDirectory, record: .missing, filePath: filePath)
    }

    /// The committed golden of snapshot `name`, decoded.
    static func load(_ name: String, in folder: String) throws -> MapImage {
        let path = TestPaths.goldens(folder) + "/" + SnapshotVerifier.sanitized(name) + ".png"
        return try MapImage(pngData: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), origin: path)
    }
}
