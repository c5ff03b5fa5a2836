import MapSnap

#if canImport(XCTest)
import XCTest

/// XCTest assertion: fails the test (`XCTFail`) when `image` does not match its golden.
/// See `verifySnapshot` for where goldens live and what a failure writes.
public func assertSnapshot(of image: MapImage, named name: String, threshold: Double = ImageComparator.defaultThreshold,
                           maxDiff: DiffTolerance = .pixels(0), includeAntiAliasing: Bool = false,
                           goldenDirectory: String? = nil,
                           file: StaticString = #filePath, line: UInt = #line) {
    switch snapshotPNG(of: image, named: name) {
    case .success(let png):
        assertSnapshot(ofPNG: png, named: name, threshold: threshold, maxDiff: maxDiff, includeAntiAliasing: includeAntiAliasing,
                       goldenDirectory: goldenDirectory, file: file, line: line)
    case .failure(let failure):
        XCTFail(failure.text, file: file, line: line)
    }
}

/// XCTest assertion for encoded PNG bytes.
public func assertSnapshot(ofPNG png: [UInt8], named name: String, threshold: Double = ImageComparator.defaultThreshold,
                           maxDiff: DiffTolerance = .pixels(0), includeAntiAliasing: Bool = false,
                           goldenDirectory: String? = nil,
                           file: StaticString = #filePath, line: UInt = #line) {
    if let message = verifySnapshot(ofPNG: png, named: name, threshold: threshold, maxDiff: maxDiff,
                                    includeAntiAliasing: includeAntiAliasing, goldenDirectory: goldenDirectory,
                                    filePath: "\(file)") {
        XCTFail(message, file: file, line: line)
    }
}
#endif

#if canImport(Testing)
import Testing

/// Swift Testing expectation: records an issue at the call site when `image` does not match
/// its golden. See `verifySnapshot` for where goldens live and what a failure writes.
public func expectSnapshot(of image: MapImage, named name: String, threshold: Double = ImageComparator.defaultThreshold,
                           maxDiff: DiffTolerance = .pixels(0), includeAntiAliasing: Bool = false,
                           goldenDirectory: String? = nil,
                           sourceLocation: SourceLocation = #_sourceLocation) {
    switch snapshotPNG(of: image, named: name) {
    case .success(let png):
        expectSnapshot(ofPNG: png, named: name, threshold: threshold, maxDiff: maxDiff, includeAntiAliasing: includeAntiAliasing,
                       goldenDirectory: goldenDirectory, sourceLocation: sourceLocation)
    case .failure(let failure):
        Issue.record(Comment(rawValue: failure.text), sourceLocation: sourceLocation)
    }
}

/// Swift Testing expectation for encoded PNG bytes.
public func expectSnapshot(ofPNG png: [UInt8], named name: String, threshold: Double = ImageComparator.defaultThreshold,
                           maxDiff: DiffTolerance = .pixels(0), includeAntiAliasing: Bool = false,
                           goldenDirectory: String? = nil,
                           sourceLocation: SourceLocation = #_sourceLocation) {
    if let message = verifySnapshot(ofPNG: png, named: name, threshold: threshold, maxDiff: maxDiff,
                                    includeAntiAliasing: includeAntiAliasing, goldenDirectory: goldenDirectory,
                                    filePath: sourceLocation.filePath) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}
#endif
