import Foundation
import Testing
@testable import MapSnap

/// A tile source that names no attribution leaves the map without a credit for its data: the
/// render says so, naming the source, unless the caller set the attribution.
@Suite struct UncreditedSourceTests {
    static func options(source: String, attribution: String?) -> MapSnapshotOptions {
        MapSnapshotOptions(width: 120, height: 90, scale: 1, center: LatLng(0.37, -0.53), zoom: 1,
                           style: TestPaths.plainStyle, source: source,
                           attribution: attribution, showsScaleBar: false)
    }

    static func uncredited(_ warnings: [String]) -> [String] {
        warnings.filter { $0.contains("no attribution in its metadata") }
    }

    @Test func aDirectoryOfTilesWithoutCreditIsNamed() throws {
        let dir = try RasterTileGridTests.makeTiles()
        defer { CLIRunner.cleanUp(dir) }
        let snap = try MapSnapshotter(options: Self.options(source: dir, attribution: nil)).render()
        let found = Self.uncredited(snap.warnings)
        #expect(found.count == 1, "\(snap.warnings)")
        #expect(found.first?.hasPrefix(dir) == true, "\(found)")
        #expect(snap.attribution.isEmpty)
    }

    @Test(arguments: ["© The Tile Makers", ""])
    func aGivenAttributionOrNoneIsNotWarnedAbout(attribution: String) throws {
        let dir = try RasterTileGridTests.makeTiles()
        defer { CLIRunner.cleanUp(dir) }
        let snap = try MapSnapshotter(options: Self.options(source: dir, attribution: attribution)).render()
        #expect(Self.uncredited(snap.warnings).isEmpty, "\(snap.warnings)")
    }

    @Test func theBundledDataCarriesItsCredit() throws {
        let o = MapSnapshotOptions(width: 200, height: 150, scale: 1, center: LatLng(60.1699, 24.9384), zoom: 15)
        let snap = try MapSnapshotter(options: o).render()
        #expect(Self.uncredited(snap.warnings).isEmpty, "\(snap.warnings)")
        #expect(snap.attribution.contains("OpenStreetMap"))
    }
}
