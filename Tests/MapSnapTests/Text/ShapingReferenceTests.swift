import Foundation
import Testing
@testable import MapSnap

/// mapsnap's shaping equals HarfBuzz's own `hb-shape` for strings in every bundled script:
/// the glyph ids, offsets and advances of the laid-out text (what is drawn), converted back
/// to font units, against `hb-shape --font-funcs=ot` on the same font file. `hb-shape`
/// (Debian libharfbuzz-bin) is run when installed; otherwise the committed `hb-shape.tsv`
/// (made by `make-expected.sh` beside it, its HarfBuzz version in its first line) stands in.
@Suite struct ShapingReferenceTests {
    static let fixtures = TextFixtures.repositoryRoot + "/Tests/MapSnapTests/Fixtures/Shaping"

    /// (font file, text) pairs of `strings.tsv`.
    static let cases: [(font: String, text: String)] = {
        guard let table = try? String(contentsOfFile: fixtures + "/strings.tsv", encoding: .utf8) else { return [] }
        return table.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let parts = line.split(separator: "\t", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }()

    /// `hb-shape`'s output per (font, text) from the committed file.
    static let committed: [String: String] = {
        guard let table = try? String(contentsOfFile: fixtures + "/hb-shape.tsv", encoding: .utf8) else { return [:] }
        var out: [String: String] = [:]
        for line in table.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t")
            if parts.count == 3 { out[parts[0] + "\t" + parts[1]] = String(parts[2]) }
        }
        return out
    }()

    /// The HarfBuzz version line the committed file was made with.
    static let committedVersion: String? = {
        guard let table = try? String(contentsOfFile: fixtures + "/hb-shape.tsv", encoding: .utf8),
              let first = table.split(separator: "\n").first, first.hasPrefix("# ") else { return nil }
        return first.dropFirst(2).split(separator: ";").first.map(String.init)
    }()

    /// `hb-shape` on PATH, or nil.
    static let hbShape: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/hb-shape" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs `hb-shape` as `make-expected.sh` does.
    static func runHBShape(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(hbShape))
        process.arguments = arguments
        process.environment = ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let outcome = try ChildProcess.run(process, timeoutSeconds: 30)
        #expect(outcome.status == 0, "hb-shape \(arguments): \(String(decoding: outcome.stderr, as: UTF8.self))")
        return String(decoding: outcome.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theSetCoversTheScripts() {
        #expect(Self.cases.count >= 30)
        #expect(Set(Self.cases.map(\.font)).count >= 24)
        #expect(Self.committed.count == Self.cases.count)
    }

    /// The layout mapsnap draws, as `hb-shape` prints it: `[gid@x,y+advance|…]` in font units
    /// (offsets only when not zero), left to right.
    static func mapsnapOutput(font: String, text: String) throws -> String {
        let fonts = try #require(TextFixtures.fonts)
        let preferred = font.contains("-Bold") ? fonts.bold : fonts.regular
        // At 1000 px an em, a pixel is a thousandth of an em: converted back exactly.
        let layout = TextLayout(text, face: preferred, fonts: fonts, options: TextLayoutOptions(sizePixels: 1000))
        #expect(layout.missingCharacters.isEmpty, "\(text)")
        #expect(layout.lines.count == 1)
        var parts: [String] = []
        for g in layout.glyphs {
            #expect(g.face.path.hasSuffix("/" + font), "\(text): drawn in \(g.face.path), expected \(font)")
            let units = Double(g.face.unitsPerEm) / 1000
            func u(_ v: Double) -> Int { Int((v * units).rounded()) }
            var s = "\(g.glyph)"
            if g.offset.x != 0 || g.offset.y != 0 { s += "@\(u(g.offset.x)),\(u(-g.offset.y))" }
            parts.append(s + "+\(u(g.advance))")
        }
        return "[" + parts.joined(separator: "|") + "]"
    }

    @Test(arguments: cases.map { [$0.font, $0.text] })
    func glyphsAndAdvancesEqualHBShape(_ fontAndText: [String]) throws {
        let font = fontAndText[0], text = fontAndText[1]
        let reference: String
        if Self.hbShape != nil {
            reference = try Self.runHBShape(["--font-funcs=ot", "--no-glyph-names", "--no-clusters",
                                             TextFixtures.repositoryRoot + "/Fonts/" + font, text])
        } else {
            reference = try #require(Self.committed[font + "\t" + text], "no line for \(text) in hb-shape.tsv")
        }
        #expect(try Self.mapsnapOutput(font: font, text: text) == reference, "\(text) in \(font)")
    }

    /// When the installed hb-shape is the version the file was made with, the file is what
    /// it prints (a stale or hand-edited file fails here).
    @Test func committedFileIsHBShapeOutput() throws {
        guard Self.hbShape != nil else { return }
        let version = try Self.runHBShape(["--version"]).split(separator: "\n").first.map(String.init)
        guard version == Self.committedVersion else { return }
        for (font, text) in Self.cases.prefix(6) {
            let live = try Self.runHBShape(["--font-funcs=ot", "--no-glyph-names", "--no-clusters",
                                            TextFixtures.repositoryRoot + "/Fonts/" + font, text])
            #expect(Self.committed[font + "\t" + text] == live, "\(text)")
        }
    }
}
