import Foundation
import Testing
@testable import MapSnap

/// One golden per script: the same name as a caption, as a marker title and as a base-map
/// label along a curved road (`symbol-placement: line`, Noto Sans Bold asked for, so the
/// script's Bold face where one is bundled). Shaped by HarfBuzz, ordered by FriBiDi; every
/// golden was looked at next to `hb-view` renderings of its string.
@Suite struct ScriptGoldenTests {
    /// (golden name, text).
    static let samples: [(String, String)] = [
        ("arabic", "القاهرة الجديدة"),
        ("persian", "خیابان ولیعصر"),
        ("urdu", "لاہور کینٹ"),
        ("hebrew", "תל אביב-יפו"),
        ("mixed-rtl", "Cairo القاهرة 2024"),
        ("devanagari", "नई दिल्ली"),
        ("bengali", "ঢাকা বিভাগ"),
        ("tamil", "சென்னை நகரம்"),
        ("malayalam", "തിരുവനന്തപുരം"),
        ("thai", "กรุงเทพมหานคร"),
        ("khmer", "ភ្នំពេញ"),
        ("myanmar", "ရန်ကုန်မြို့"),
        ("tibetan", "ལྷ་ས་གྲོང་ཁྱེར"),
        ("ethiopic", "አዲስ አበባ"),
        ("georgian", "თბილისი"),
    ]

    /// A z0 tile with one road named `name`: an arc of radius 150 px (at zoom 1) across the
    /// upper-left z1 tile, which the 256-pt image shows whole.
    static func curvedRoadTile(named name: String) -> [UInt8] {
        let zz = MVTTestTiles.zigzag
        var points: [(Int64, Int64)] = []
        for i in 0...20 {
            let angle = (-140 + Double(i) * 5) * Double.pi / 180
            // Tile units: 8 per pixel of the 512-px zoom-1 world.
            points.append((Int64(((128 + 150 * cos(angle)) * 8).rounded()), Int64(((340 + 150 * sin(angle)) * 8).rounded())))
        }
        var geometry: [UInt64] = [MVTTestTiles.command(1, 1), zz(points[0].0), zz(points[0].1),
                                  MVTTestTiles.command(2, UInt64(points.count - 1))]
        for (a, b) in zip(points, points.dropFirst()) { geometry += [zz(b.0 - a.0), zz(b.1 - a.1)] }
        return MVTTestTiles.tile([MVTTestTiles.layer(
            name: "roads", keys: ["name"], values: [MVTTestTiles.stringValue(name)],
            features: [.init(type: 2, tags: [0, 0], geometry: geometry)])])
    }

    static func render(_ text: String) throws -> MapSnapshot {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let style = try MVTTestTiles.labelStyle(for: curvedRoadTile(named: text), in: dir, sourceLayer: "roads",
                                                layout: #""symbol-placement": "line""#)
        // The road itself under its label, so the golden shows the text following it.
        let json = try String(contentsOfFile: style, encoding: .utf8).replacingOccurrences(
            of: #"{"id": "names""#,
            with: ##"{"id": "road", "type": "line", "source": "t", "source-layer": "roads", "paint": {"line-color": "#f4c869", "line-width": 14}}, {"id": "names""##)
        try Data(json.utf8).write(to: URL(fileURLWithPath: style))
        // The image is the upper-left z1 tile: world pixels 0–256 at zoom 1.
        var o = MapSnapshotOptions(width: 256, height: 256, scale: 2, center: LatLng(66.51326044311186, -90), zoom: 1,
                                   overlays: [.marker(MarkerOverlay(coordinate: LatLng(76, -120), style: .dot(diameter: 10),
                                                                    color: Color(rgb: 0xEA4335), title: text))],
                                   style: style, attribution: "", showsScaleBar: false, caption: text)
        o.padding = 0
        return try MapSnapshotter(options: o).render()
    }

    @Test(arguments: samples.map { [$0.0, $0.1] })
    func captionTitleAndLineLabel(_ sample: [String]) throws {
        let snapshot = try Self.render(sample[1])
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
        Golden.expect(snapshot.image, named: "script-" + sample[0], in: "Text")
    }

    /// The bundled Helsinki tiles and world data with labels in Arabic (`language=ar` reads
    /// `name:ar`, which the data has for the city itself: هلسنكي, joined, right to left; the
    /// rest falls back to the local names).
    @Test func helsinkiInArabic() throws {
        var o = MapSnapshotOptions(width: 320, height: 200, scale: 2, center: LatLng(60.1699, 24.9384), zoom: 13,
                                   style: "normal")
        o.language = "ar"
        o.dataDirectory = ""
        let snapshot = try MapSnapshotter(options: o).render()
        #expect(!snapshot.warnings.contains { $0.contains("no bundled font") }, "\(snapshot.warnings)")
        Golden.expect(snapshot.image, named: "helsinki-ar-z13", in: "Text")
    }
}
