import Dispatch
import Foundation
import Testing
@testable import MapSnap

/// A renderer reused across renders gives the same bytes as a fresh one, and its caches
/// are really used and stay within their limits.
@Suite struct MapRendererTests {
    typealias Scene = DeterminismTests.Scene

    static func png(_ options: MapSnapshotOptions, _ renderer: MapRenderer) throws -> [UInt8] {
        try renderer.render(options).pngData()
    }

    @Test func warmRendererGivesTheBytesOfAFreshOne() throws {
        let warm = MapRenderer()
        for scene in Scene.allCases {
            _ = try Self.png(scene.options, warm)
        }
        let before = warm.statistics
        for scene in Scene.allCases {
            let fresh = try Self.png(scene.options, MapRenderer())
            let reused = try Self.png(scene.options, warm)
            let same = fresh == reused
            #expect(same, "\(scene): a warm renderer changed the output")
        }
        let after = warm.statistics
        #expect(after.preparedStyleMisses == before.preparedStyleMisses, "every style was prepared before")
        #expect(after.preparedStyleHits == before.preparedStyleHits + Scene.allCases.count)
        #expect(after.tileCacheHits > before.tileCacheHits, "repeated renders must find their tiles decoded")
        #expect(after.tileCacheMisses == before.tileCacheMisses, "no tile was decoded twice")
    }

    @Test func sharedAcrossThreadsGivesTheSameBytes() throws {
        let expected = try Scene.allCases.map { try Self.png($0.options, MapRenderer()) }
        let renderer = MapRenderer()
        let jobs = Array(repeating: Array(Scene.allCases.indices), count: 2).flatMap { $0 }
        let results = Locked([Int: [UInt8]]())
        let failures = Locked([String]())
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            let scene = Scene.allCases[jobs[i]]
            do {
                let bytes = try Self.png(scene.options, renderer)
                if bytes != expected[jobs[i]] { failures.withLock { $0.append("\(scene) (job \(i))") } }
                results.withLock { $0[i] = bytes }
            } catch {
                failures.withLock { $0.append("\(scene): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(results.withLock { $0.count } == jobs.count)
    }

    @Test func tileCacheStaysWithinItsBudget() throws {
        let budget = 3 << 20
        let renderer = MapRenderer(configuration: .init(decodedTileCacheBytes: budget))
        // Different places, so each render decodes new tiles.
        for (i, center) in [LatLng(60.1699, 24.9450), LatLng(60.1650, 24.9300), LatLng(60.1780, 24.9520),
                            LatLng(48.85, 2.35), LatLng(35.68, 139.69)].enumerated() {
            _ = try renderer.render(MapSnapshotOptions(width: 300, height: 200, center: center, zoom: 15 - Double(i)))
            #expect(renderer.statistics.tileCacheBytes <= budget)
        }
        #expect(renderer.statistics.tileCacheMisses > 0)
    }

    @Test func noCacheStillRendersTheSame() throws {
        let options = Scene.helsinkiVector.options
        let uncached = MapRenderer(configuration: .init(decodedTileCacheBytes: 0, maximumPreparedStyles: 0))
        let a = try Self.png(options, uncached)
        let b = try Self.png(options, uncached)
        let c = try Self.png(options, MapRenderer())
        #expect(a == b && b == c)
        #expect(uncached.statistics.tileCacheHits == 0 && uncached.statistics.tileCacheBytes == 0)
        #expect(uncached.statistics.preparedStyleHits == 0)
    }

    @Test func anEditedStyleFileIsReadAgain() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/style.json"
        func write(_ color: String) throws {
            try Data("{\"version\": 8, \"sources\": {}, \"layers\": [{\"id\": \"bg\", \"type\": \"background\", \"paint\": {\"background-color\": \"\(color)\"}}]}".utf8)
                .write(to: URL(fileURLWithPath: path))
        }
        let renderer = MapRenderer()
        var options = MapSnapshotOptions(width: 64, height: 64, center: LatLng(60.17, 24.94), zoom: 12)
        options.style = path
        try write("#123456")
        #expect(Array(try renderer.render(options).image.pixels[0..<4]) == [0x12, 0x34, 0x56, 0xFF])
        try write("#abcdef")
        // Same size: only the modification time tells the edit apart (set it clearly later).
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 10)], ofItemAtPath: path)
        #expect(Array(try renderer.render(options).image.pixels[0..<4]) == [0xAB, 0xCD, 0xEF, 0xFF])
    }

    @Test func aStyleErrorIsNotRemembered() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/style.json"
        try Data("{\"version\": 8, \"sources\": {}, \"layers\": [".utf8).write(to: URL(fileURLWithPath: path))
        let renderer = MapRenderer()
        var options = MapSnapshotOptions(width: 64, height: 64, center: LatLng(60.17, 24.94), zoom: 12)
        options.style = path
        #expect(throws: (any Error).self) { try renderer.render(options) }
        // Fixed on disk: the next render reads it again.
        try Data("{\"version\": 8, \"sources\": {}, \"layers\": [{\"id\": \"bg\", \"type\": \"background\", \"paint\": {\"background-color\": \"#123456\"}}]}".utf8)
            .write(to: URL(fileURLWithPath: path))
        let snapshot = try renderer.render(options)
        #expect(Array(snapshot.image.pixels[0..<4]) == [0x12, 0x34, 0x56, 0xFF])
    }
}
