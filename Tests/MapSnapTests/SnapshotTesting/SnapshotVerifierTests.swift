import Foundation
import Testing
@testable import MapSnap
@testable import MapSnapTesting

/// A small deterministic picture: a grey ramp band on top, a red square on flat light grey.
/// (The square stays off the ramp: pixelmatch-style AA detection rightly forgives a pixel
/// between a darker and a brighter neighbour, so a shifted edge on a ramp would not count.)
private func picture(squareAt x0: Int = 4) -> MapImage {
    let c = Canvas(width: 24, height: 16, fill: Color(rgb: 0xDDDDDD))
    for y in 0..<16 {
        for x in 0..<24 {
            let i = (y * 24 + x) * 4
            if y < 3 {
                let v = UInt8(x * 10)
                c.pixels[i] = v; c.pixels[i + 1] = v; c.pixels[i + 2] = v
            }
            if (x0..<(x0 + 6)).contains(x) && (5..<11).contains(y) {
                c.pixels[i] = 220; c.pixels[i + 1] = 20; c.pixels[i + 2] = 20
            }
        }
    }
    return c.image
}

@Suite struct SnapshotVerifierTests {
    @Test func missingGoldenIsRecordedAndFails() throws {
        let dir = try makeTemporaryDirectory("snap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let message = verifySnapshot(of: picture(), named: "ramp", goldenDirectory: dir + "/goldens",
                                     failureDirectory: dir + "/failures", record: .missing, filePath: #filePath)
        #expect(message == "snapshot 'ramp': recorded new snapshot at \(dir)/goldens/ramp.png; verify it and re-run")
        #expect(FileManager.default.fileExists(atPath: dir + "/goldens/ramp.png"))
        // Second run compares against what was recorded.
        #expect(verifySnapshot(of: picture(), named: "ramp", goldenDirectory: dir + "/goldens",
                               failureDirectory: dir + "/failures", record: .missing, filePath: #filePath) == nil)
    }

    @Test func recordAllRewritesAndFails() throws {
        let dir = try makeTemporaryDirectory("snap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = verifySnapshot(of: picture(), named: "r", goldenDirectory: dir, record: .missing, filePath: #filePath)
        let message = verifySnapshot(of: picture(squareAt: 10), named: "r", goldenDirectory: dir, record: .all, filePath: #filePath)
        #expect(message?.contains("re-recorded") == true && message?.contains("MAPSNAP_RECORD") == true)
        #expect(verifySnapshot(of: picture(squareAt: 10), named: "r", goldenDirectory: dir, record: .missing, filePath: #filePath) == nil)
    }

    @Test func mismatchWritesExpectedActualAndDiff() throws {
        let dir = try makeTemporaryDirectory("snap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = verifySnapshot(of: picture(), named: "m", goldenDirectory: dir + "/g", failureDirectory: dir + "/f",
                           record: .missing, filePath: #filePath)
        let message = try #require(verifySnapshot(of: picture(squareAt: 5), named: "m", goldenDirectory: dir + "/g",
                                                  failureDirectory: dir + "/f", record: .missing, filePath: #filePath))
        #expect(message.hasPrefix("snapshot 'm' does not match \(dir)/g/m.png: 12 differing pixels"))
        for file in ["expected.png", "actual.png", "diff.png"] {
            #expect(message.contains("\(dir)/f/m/\(file)"))
            #expect(FileManager.default.fileExists(atPath: "\(dir)/f/m/\(file)"))
        }
        // Within tolerance it passes and clears the stale artefacts.
        #expect(verifySnapshot(of: picture(squareAt: 5), named: "m", maxDiff: .pixels(12), goldenDirectory: dir + "/g",
                               failureDirectory: dir + "/f", record: .missing, filePath: #filePath) == nil)
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/f/m"))
    }

    @Test func sizeMismatchFails() throws {
        let dir = try makeTemporaryDirectory("snap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = verifySnapshot(of: picture(), named: "s", goldenDirectory: dir, failureDirectory: dir + "/f",
                           record: .missing, filePath: #filePath)
        let message = verifySnapshot(of: Canvas(width: 3, height: 3, fill: .white).image, named: "s", goldenDirectory: dir,
                                     failureDirectory: dir + "/f", record: .missing, filePath: #filePath)
        #expect(message?.contains("size mismatch: actual is 3×3, expected is 24×16") == true)
    }

    @Test func pngBytesAreRecordedVerbatim() throws {
        let dir = try makeTemporaryDirectory("snap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let png = try picture().pngData()
        _ = verifySnapshot(ofPNG: png, named: "bytes", goldenDirectory: dir, record: .missing, filePath: #filePath)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/bytes.png"))) == png)
        #expect(verifySnapshot(ofPNG: [1, 2, 3], named: "bytes", goldenDirectory: dir, record: .missing, filePath: #filePath)?
            .contains("not a PNG file") == true)
    }

    @Test func defaultLocationsFollowTheTestFile() {
        let v = SnapshotVerifier(name: "a/../b c", filePath: #filePath, goldenDirectory: nil, failureDirectory: nil)
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
        #expect(v.goldenPath == here + "/__Snapshots__/SnapshotVerifierTests/a_.._b_c.png")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        #expect(v.failureDirectory == root + "/.build/snapshot-failures/SnapshotVerifierTests/a_.._b_c")
    }

    @Test(arguments: [("..", "_.."), ("", "_"), ("ok-name_1.x", "ok-name_1.x"), ("é/x", "__x")])
    func namesAreSanitised(_ name: String, _ file: String) {
        #expect(SnapshotVerifier.sanitized(name) == file)
    }

    /// A committed golden through the public Swift Testing entry point. It lives in the
    /// package's excluded `Goldens/` folder: a `__Snapshots__` folder inside a target makes
    /// SwiftPM warn about unhandled files unless Package.swift excludes it.
    @Test func committedGolden() {
        let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Goldens/SnapshotTesting/SnapshotVerifierTests").path
        expectSnapshot(of: picture(), named: "ramp-with-square", goldenDirectory: goldens)
    }
}
