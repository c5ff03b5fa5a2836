import MapSnapTesting
import Dispatch
import Foundation
import Testing
@testable import MapSnap

/// The promise golden tests rest on: the same inputs give the same PNG bytes whatever the
/// thread count, the order in which tiles arrive, or what else the process renders at the
/// same time (the glyph cache and font library are shared process-wide).
///
/// Scenes are small (≤ 400×300) because the suite runs in a debug build on few cores.
@Suite struct DeterminismTests {
    /// Scenes over real data: the bundled Helsinki vector map and a raster tile directory.
    enum Scene: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// `normal` style on the bundled Helsinki MBTiles, a cased route and titled markers.
        case helsinkiVector
        /// A style with one `raster` layer over the z12–13 PNG tile fixture, fractional zoom.
        case helsinkiRaster
        /// Like `helsinkiVector` at scale 2 and a fitted camera (glyphs at another size).
        case helsinkiVectorRetina
        /// Overlays only, on a plain background: CJK title (fallback face), dashes, polygon.
        case overlaysOnly
        /// `normal` style, two 3,000-point routes (cased above roads, translucent above
        /// labels): their fills are made on another thread while the base map is drawn.
        case longRoutes
        /// Shaped text: Arabic labels (`language=ar`), titles in Arabic, Devanagari and Thai,
        /// a mixed-direction caption.
        case complexScripts

        var testDescription: String { rawValue }

        var options: MapSnapshotOptions {
            let route = [LatLng(60.1712, 24.9414), LatLng(60.1686, 24.9445), LatLng(60.1675, 24.9521),
                         LatLng(60.1651, 24.9558), LatLng(60.1620, 24.9532)]
            let markers: [Overlay] = [
                .marker(MarkerOverlay(coordinate: route[0], label: "A", title: "Rautatientori")),
                .marker(MarkerOverlay(coordinate: route[4], color: Color(rgb: 0x34A853), label: "B", title: "Kaivopuisto")),
                .marker(MarkerOverlay(coordinate: LatLng(60.1680, 24.9560), style: .dot(diameter: 10),
                                      color: Color(rgb: 0x4285F4), title: "Kauppatori – Salutorget")),
            ]
            let path = Overlay.path(PathOverlay(coordinates: route, color: Color(rgba: 0x1A73E8E0), width: 5,
                                                casingColor: Color(rgb: 0xFFFFFF)))
            switch self {
            case .helsinkiVector:
                return MapSnapshotOptions(width: 400, height: 300, center: LatLng(60.1675, 24.9480), zoom: 14.6,
                                          overlays: [path] + markers, caption: "Keskusta 1,2 km")
            case .helsinkiRaster:
                var o = MapSnapshotOptions(width: 360, height: 260, center: LatLng(60.1700, 24.9425), zoom: 13.3,
                                           overlays: [path, markers[0], markers[1]],
                                           style: TestPaths.fixture("styles/raster.json"))
                o.attribution = "© OpenStreetMap contributors"
                return o
            case .helsinkiVectorRetina:
                return MapSnapshotOptions(width: 200, height: 150, scale: 2, padding: 16,
                                          overlays: [path, markers[0], markers[2]])
            case .complexScripts:
                var o = MapSnapshotOptions(width: 300, height: 200, center: LatLng(60.1699, 24.9384), zoom: 13,
                                           overlays: [
                                            .marker(MarkerOverlay(coordinate: route[0], label: "A", title: "محطة القطار")),
                                            .marker(MarkerOverlay(coordinate: route[2], style: .pin(.mid), title: "नई दिल्ली")),
                                            .marker(MarkerOverlay(coordinate: route[4], style: .dot(diameter: 10), title: "กรุงเทพ")),
                                           ], caption: "Cairo القاهرة 2024")
                o.language = "ar"
                return o
            case .overlaysOnly:
                let ring = [LatLng(60.166, 24.940), LatLng(60.170, 24.950), LatLng(60.164, 24.956)]
                return MapSnapshotOptions(width: 240, height: 180, center: LatLng(60.167, 24.948), zoom: 14,
                                          overlays: [
                                            .polygon(PolygonOverlay(rings: [ring])),
                                            .path(PathOverlay(coordinates: route, width: 3, dash: [6, 4])),
                                            .marker(MarkerOverlay(coordinate: route[2], style: .pin(.mid), title: "ヘルシンキ 中央駅")),
                                          ],
                                          style: TestPaths.plainStyle, attribution: "test", showsScaleBar: true)
            case .longRoutes:
                let wiggle = (0..<3_000).map { i -> LatLng in
                    let t = Double(i) / 2_999
                    return LatLng(60.1675 + 0.002 * sin(t * 11) + 0.00004 * sin(t * 900), 24.938 + 0.02 * t)
                }
                let cased = PathOverlay(coordinates: wiggle, color: Color(rgb: 0x1A73E8), width: 4,
                                        casingColor: Color(rgb: 0xFFFFFF), casingWidth: 1.5, level: .aboveRoads)
                let above = PathOverlay(coordinates: wiggle.map { LatLng($0.latitude - 0.0015, $0.longitude) },
                                        color: Color(rgba: 0xD9302590), width: 6, join: .miter)
                return MapSnapshotOptions(width: 400, height: 300, center: LatLng(60.1675, 24.9480), zoom: 14.6,
                                          overlays: [.path(cased), .path(above), markers[0]])
            }
        }
    }

    /// Remembers how many tiles each load asked the order hook about, so a test can prove
    /// the hook was really exercised (a scene with one tile would prove nothing).
    final class OrderLog: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [Int] = []
        func record(_ n: Int) { lock.lock(); counts.append(n); lock.unlock() }
        var largest: Int { lock.lock(); defer { lock.unlock() }; return counts.max() ?? 0 }
    }

    /// A permutation of `0..<n` from `seed` (Fisher–Yates over SplitMix64).
    static func shuffled(_ n: Int, seed: UInt64) -> [Int] {
        var g = SeededGenerator(seed: seed &+ UInt64(n))
        var a = Array(0..<n)
        a.shuffle(using: &g)
        return a
    }

    func png(_ scene: Scene, threads: Int? = nil, order: (@Sendable (Int) -> [Int])? = nil) throws -> [UInt8] {
        var o = scene.options
        o.maximumThreads = threads
        o.tileLoadOrder = order
        let snapshot = try MapSnapshotter(options: o).render()
        return try snapshot.pngData()
    }

    /// Index of the first differing byte, for a readable failure.
    func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
        let i = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) ?? min(a.count, b.count)
        return "first difference at byte \(i) (sizes \(a.count) and \(b.count))"
    }

    @Test(arguments: [Scene.helsinkiVector, .helsinkiRaster])
    func sceneDrawsRealTilesWithoutWarnings(_ scene: Scene) throws {
        // Guards the other tests against comparing two empty maps: the tiles must be there.
        let snapshot = try MapSnapshotter(options: scene.options).render()
        // The vector scene reaches past the bundled street data's bounds: only that is said.
        #expect(snapshot.warnings == [snapshot.coverage.warning].compactMap { $0 }, "\(snapshot.warnings)")
        var colors = Set<UInt32>()
        let px = snapshot.image.pixels
        var i = 0
        while i + 3 < px.count {
            colors.insert(UInt32(px[i]) << 16 | UInt32(px[i + 1]) << 8 | UInt32(px[i + 2]))
            i += 4 * 7
        }
        #expect(colors.count > 40, "only \(colors.count) colours: the base map did not draw")
    }

    @Test(arguments: [Scene.helsinkiVector, .helsinkiRaster, .longRoutes, .complexScripts])
    func threadCountDoesNotChangeBytes(_ scene: Scene) throws {
        let reference = try png(scene, threads: 1)
        for threads in [2, 8, nil] as [Int?] {
            let bytes = try png(scene, threads: threads)
            // A plain Bool: `#expect(a == b)` on PNG arrays makes Swift Testing diff them on
            // failure, which is quadratic in their length (minutes for 100 kB).
            let equal = bytes == reference
            #expect(equal, "\(threads.map(String.init) ?? "default") threads: \(firstDifference(bytes, reference))")
        }
    }

    @Test(arguments: [Scene.helsinkiVector, .helsinkiRaster])
    func tileArrivalOrderDoesNotChangeBytes(_ scene: Scene) throws {
        let reference = try png(scene, threads: 1)
        // Fixed by default so CI is reproducible; MAPSNAP_TEST_SEED explores other orders.
        let base = ProcessInfo.processInfo.environment["MAPSNAP_TEST_SEED"].flatMap { UInt64($0) } ?? 20_261_129
        print("DeterminismTests.tileArrivalOrder(\(scene.rawValue)) seed base \(base)")
        // Order 0 is the reverse of tile order; orders 1…3 are seeded shuffles.
        for k in 0...3 {
            let seed = base &+ UInt64(k)
            let log = OrderLog()
            let order: @Sendable (Int) -> [Int] = { n in
                log.record(n)
                // Reversed first, so at least one order surely differs from the natural one.
                return k == 0 ? Array((0..<n).reversed()) : DeterminismTests.shuffled(n, seed: seed)
            }
            for threads in [1, 4] {
                let bytes = try png(scene, threads: threads, order: order)
                // A plain Bool: `#expect(a == b)` on PNG arrays makes Swift Testing diff them on
                // failure, which is quadratic in their length (minutes for 100 kB).
                let equal = bytes == reference
                #expect(equal, "seed \(seed), order #\(k), \(threads) threads: \(firstDifference(bytes, reference))")
            }
            #expect(log.largest >= 2, "the scene loads \(log.largest) tile(s): arrival order untested")
        }
    }

    @Test func seededShuffleIsAPermutation() {
        for n in [0, 1, 2, 7, 64] {
            let p = Self.shuffled(n, seed: 42)
            #expect(p.sorted() == Array(0..<n))
            #expect(Self.shuffled(n, seed: 42) == p, "same seed, same order")
        }
        #expect(Self.shuffled(64, seed: 1) != Self.shuffled(64, seed: 2))
    }

    @Test func repeatedRendersAreIdentical() throws {
        let first = try png(.overlaysOnly)
        for _ in 0..<3 {
            let again = try png(.overlaysOnly)
            // A plain Bool: `#expect(a == b)` on PNG arrays makes Swift Testing diff them on
            // failure, which is quadratic in their length (minutes for 100 kB).
            let equal = again == first
            #expect(equal, "\(firstDifference(again, first))")
        }
    }

    @Test func concurrentRendersOfDifferentScenesMatchSequentialOnes() throws {
        let scenes = Scene.allCases
        let jobs = scenes + scenes  // every scene twice, so equal scenes also race each other
        // Start cold, so threads race to rasterise and insert the same glyphs (the scenes
        // render with `MapRenderer.shared`, whose glyph cache this is). The cache's contract
        // is that its content never changes output, so clearing it is harmless to suites
        // running beside this one.
        MapRenderer.shared.text.renderer.cache.removeAll()
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var bytes: [[UInt8]?]
            var errors: [String] = []
            init(_ n: Int) { bytes = Array(repeating: nil, count: n) }
        }
        let results = Results(jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            do {
                let b = try png(jobs[i], threads: 2)
                results.lock.lock(); results.bytes[i] = b; results.lock.unlock()
            } catch {
                results.lock.lock(); results.errors.append("\(jobs[i]): \(error)"); results.lock.unlock()
            }
        }
        #expect(results.errors.isEmpty, "\(results.errors)")
        for (i, scene) in jobs.enumerated() {
            let sequential = try png(scene, threads: 1)
            let concurrent = try #require(results.bytes[i])
            // A plain Bool: `#expect(a == b)` on PNG arrays makes Swift Testing diff them on
            // failure, which is quadratic in their length (minutes for 100 kB).
            let equal = concurrent == sequential
            #expect(equal, "\(scene.rawValue) (job \(i)): \(firstDifference(concurrent, sequential))")
        }
    }
}
