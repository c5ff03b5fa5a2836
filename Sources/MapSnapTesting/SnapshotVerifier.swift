import Foundation
import MapSnap

/// How a snapshot check treats its golden file.
public enum SnapshotRecordMode: Sendable, Equatable {
    /// Compare; record only a missing golden (and fail).
    case missing
    /// Re-record every golden (and fail, so nothing passes silently).
    case all

    /// `MAPSNAP_RECORD=1` (or `all`, `true`, `yes`) re-records; anything else compares.
    public static var fromEnvironment: SnapshotRecordMode {
        let value = ProcessInfo.processInfo.environment["MAPSNAP_RECORD"]?.lowercased() ?? ""
        return ["1", "all", "true", "yes"].contains(value) ? .all : .missing
    }
}

/// Checks `image` against its golden PNG and returns a failure message, or `nil` when it
/// matches. The XCTest and Swift Testing assertions both wrap this.
///
/// Goldens live beside the test file, in `__Snapshots__/<TestFileName>/<name>.png`, unless
/// `goldenDirectory` is given. A missing golden is recorded and reported as a failure; so is
/// every golden under `MAPSNAP_RECORD=1`. On a mismatch `expected.png`, `actual.png` and
/// `diff.png` are written to `<package>/.build/snapshot-failures/<TestFileName>/<name>/` (or
/// `failureDirectory/<name>/`) and their paths are in the message.
///
/// - Parameters:
///   - threshold: per-pixel YIQ tolerance (see `ImageComparator`).
///   - maxDiff: differing pixels allowed; exact match by default.
///   - filePath: the test file, `#filePath`; locates goldens and the package root.
public func verifySnapshot(of image: MapImage, named name: String, threshold: Double = ImageComparator.defaultThreshold,
                           maxDiff: DiffTolerance = .pixels(0), includeAntiAliasing: Bool = false,
                           goldenDirectory: String? = nil, failureDirectory: String? = nil,
                           record: SnapshotRecordMode = .fromEnvironment, filePath: String) -> String? {
    switch snapshotPNG(of: image, named: name) {
    case .success(let png):
        return verifySnapshot(ofPNG: png, named: name, threshold: threshold, maxDiff: maxDiff,
                              includeAntiAliasing: includeAntiAliasing, goldenDirectory: goldenDirectory,
                              failureDirectory: failureDirectory, record: record, filePath: filePath)
    case .failure(let failure):
        return failure.text
    }
}

/// Why a snapshot's image could not be encoded, as its failure message.
struct SnapshotEncodingFailure: Error {
    let text: String
}

/// `image` as the PNG bytes a snapshot compares and records: every image check is the PNG
/// check of these bytes.
func snapshotPNG(of image: MapImage, named name: String) -> Result<[UInt8], SnapshotEncodingFailure> {
    do { return .success(try image.pngData()) } catch {
        return .failure(SnapshotEncodingFailure(text: "snapshot '\(name)': cannot encode the image: \(error)"))
    }
}

/// `verifySnapshot` for PNG bytes (recorded as given, compared after decoding).
///
/// The image variant goes through here too: what is compared is exactly what a recording
/// would write, so a golden always matches the render it was recorded from, translucent
/// pixels included (premultiplied → PNG → premultiplied may re-round them).
public func verifySnapshot(ofPNG png: [UInt8], named name: String, threshold: Double = ImageComparator.defaultThreshold,
                           maxDiff: DiffTolerance = .pixels(0), includeAntiAliasing: Bool = false,
                           goldenDirectory: String? = nil, failureDirectory: String? = nil,
                           record: SnapshotRecordMode = .fromEnvironment, filePath: String) -> String? {
    let actual: MapImage
    do { actual = try MapImage(pngData: png, origin: "snapshot '\(name)' (actual)") } catch { return "\(error)" }
    return SnapshotVerifier(name: name, filePath: filePath, goldenDirectory: goldenDirectory,
                            failureDirectory: failureDirectory)
        .verify(actual: actual, actualPNG: png, threshold: threshold, maxDiff: maxDiff,
                includeAntiAliasing: includeAntiAliasing, record: record)
}

/// Paths and the record/compare/report logic for one named snapshot.
struct SnapshotVerifier {
    let name: String
    let goldenPath: String
    let failureDirectory: String

    init(name: String, filePath: String, goldenDirectory: String?, failureDirectory: String?) {
        let safeName = SnapshotVerifier.sanitized(name)
        self.name = name
        let testFile = URL(fileURLWithPath: filePath)
        let testName = testFile.deletingPathExtension().lastPathComponent
        let goldens = goldenDirectory.map { URL(fileURLWithPath: $0) }
            ?? testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__").appendingPathComponent(testName)
        goldenPath = goldens.appendingPathComponent(safeName + ".png").path
        let failures = failureDirectory.map { URL(fileURLWithPath: $0) }
            ?? SnapshotVerifier.packageRoot(from: testFile).appendingPathComponent(".build/snapshot-failures")
                .appendingPathComponent(testName)
        self.failureDirectory = failures.appendingPathComponent(safeName).path
    }

    func verify(actual: MapImage, actualPNG: [UInt8], threshold: Double, maxDiff: DiffTolerance,
                includeAntiAliasing: Bool, record: SnapshotRecordMode) -> String? {
        let fm = FileManager.default
        if record == .all || !fm.fileExists(atPath: goldenPath) {
            if let error = write(actualPNG, to: goldenPath) { return error }
            return record == .all
                ? "snapshot '\(name)': re-recorded \(goldenPath) because MAPSNAP_RECORD is set; verify it, unset MAPSNAP_RECORD and re-run"
                : "snapshot '\(name)': recorded new snapshot at \(goldenPath); verify it and re-run"
        }
        let expectedPNG: [UInt8]
        let expected: MapImage
        do {
            expectedPNG = [UInt8](try Data(contentsOf: URL(fileURLWithPath: goldenPath)))
            expected = try MapImage(pngData: expectedPNG, origin: goldenPath)
        } catch {
            return "snapshot '\(name)': cannot read golden: \(error)"
        }
        let comparator = ImageComparator(threshold: threshold, includeAntiAliasing: includeAntiAliasing)
        let difference: ImageDifference
        do {
            difference = try comparator.compare(actual: actual, expected: expected, producingDiffImage: true)
        } catch {
            let written = writeFailure(expectedPNG: expectedPNG, actualPNG: actualPNG, diff: nil)
            return "snapshot '\(name)': \(error) (golden \(goldenPath))" + written
        }
        if difference.isWithin(maxDiff) {
            try? fm.removeItem(atPath: failureDirectory)
            return nil
        }
        let written = writeFailure(expectedPNG: expectedPNG, actualPNG: actualPNG, diff: difference.diffImage)
        return "snapshot '\(name)' does not match \(goldenPath): \(difference.summary), allowed \(maxDiff)" + written
            + "; rendered with " + Self.libraries
    }

    /// The C libraries of this process and their versions (`mapsnap --version`): pixels
    /// depend on FreeType's rasterizer and the codecs, so a golden recorded with other
    /// versions can differ without any change to mapsnap.
    static let libraries = MapSnapBuildInfo.libraryVersions()
        .map { "\($0.name) \($0.version ?? "(unavailable)")" }.joined(separator: ", ")

    /// Writes the failure artefacts and returns the clause listing them.
    private func writeFailure(expectedPNG: [UInt8], actualPNG: [UInt8], diff: MapImage?) -> String {
        var files: [(String, [UInt8])] = [("expected.png", expectedPNG), ("actual.png", actualPNG)]
        if let diff, let png = try? diff.pngData() { files.append(("diff.png", png)) }
        var paths: [String] = []
        for (file, bytes) in files {
            let path = failureDirectory + "/" + file
            if let error = write(bytes, to: path) { return "; also failed to save artefacts: \(error)" }
            paths.append(path)
        }
        return "; wrote " + paths.joined(separator: ", ")
    }

    private func write(_ bytes: [UInt8], to path: String) -> String? {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try AtomicFile.write(bytes, to: path)
            return nil
        } catch {
            return "snapshot '\(name)': cannot write \(path): \(error)"
        }
    }

    /// The nearest ancestor of the test file holding `Package.swift`; the temporary
    /// directory when there is none (e.g. a test file moved out of its package).
    static func packageRoot(from testFile: URL) -> URL {
        var dir = testFile.deletingLastPathComponent()
        while dir.path != "/" && !dir.path.isEmpty {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: NSTemporaryDirectory())
    }

    /// Snapshot names become file names: anything but letters, digits, `.`, `-`, `_` turns
    /// into `_`, so a name can never climb out of the snapshot directory.
    static func sanitized(_ name: String) -> String {
        let mapped = String(name.unicodeScalars.map { u -> Character in
            let ok = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9") || u == "-" || u == "_" || u == "."
            return ok ? Character(u) : "_"
        })
        return mapped.isEmpty || mapped.allSatisfy({ $0 == "." }) ? "_" + mapped : mapped
    }
}
