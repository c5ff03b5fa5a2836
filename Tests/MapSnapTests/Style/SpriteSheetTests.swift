import Foundation
import Testing
@testable import MapSnap

@Suite struct SpriteSheetTests {
    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("sprites/\(name)"))))
    }

    static func fixture(ratio2x: Bool = false, prefix: String = "") throws -> SpriteSheet {
        let s = ratio2x ? "@2x" : ""
        var sheet = SpriteSheet()
        try sheet.add(index: bytes("test\(s).json"), image: bytes("test\(s).png"), origin: "test\(s)", prefix: prefix,
                      defaultPixelRatio: ratio2x ? 2 : 1)
        return sheet
    }

    @Test func cutsEveryImageOutOfTheSheet() throws {
        let sheet = try Self.fixture()
        #expect(Set(sheet.images.keys) == ["square", "arrow", "stripes", "checker", "shield"])
        let square = try #require(sheet.image(named: "square"))
        #expect(square.image.width == 8 && square.image.height == 8 && square.pixelRatio == 1)
        #expect(square.image.color(atX: 0, y: 0) == Color(rgb: 0xFF0000))
        #expect(square.image.color(atX: 7, y: 7) == Color(rgb: 0xFF0000))
        // The arrow's first column is transparent above the shaft (nothing of the square leaks in).
        let arrow = try #require(sheet.image(named: "arrow"))
        #expect(arrow.image.color(atX: 0, y: 0).alpha == 0)
        #expect(arrow.image.color(atX: 0, y: 3) == Color(red: 40, green: 40, blue: 40))
        #expect(sheet.skippedEntries == 0)
    }

    @Test func highDensitySheetHasTheSameCSSSizes() throws {
        let one = try Self.fixture(), two = try Self.fixture(ratio2x: true)
        for name in one.images.keys {
            let a = try #require(one.image(named: name)), b = try #require(two.image(named: name))
            #expect(b.pixelRatio == 2)
            #expect(b.image.width == 2 * a.image.width)
            #expect(a.width == b.width && a.height == b.height)
        }
    }

    @Test func prefixNamesTheImagesOfAnotherSheet() throws {
        let sheet = try Self.fixture(prefix: "extra:")
        #expect(sheet.image(named: "extra:square") != nil)
        #expect(sheet.image(named: "square") == nil)
    }

    @Test func entriesOutsideTheSheetAreSkippedAndCounted() throws {
        var sheet = SpriteSheet()
        let index = #"{"in": {"x": 0, "y": 0, "width": 8, "height": 8}, "out": {"x": 40, "y": 0, "width": 8, "height": 8}}"#
        try sheet.add(index: Array(index.utf8), image: Self.bytes("test.png"), origin: "t")
        #expect(sheet.image(named: "in") != nil)
        #expect(sheet.image(named: "out") == nil)
        #expect(sheet.skippedEntries == 1)
    }

    @Test(arguments: [
        (#"[1, 2]"#, SpriteError.invalidEntry(origin: "t.json", keyPath: "(root)", reason: "expected an object of images, found array")),
        (#"{"a": {"x": 0, "y": 0, "height": 8}}"#, SpriteError.invalidEntry(origin: "t.json", keyPath: "a.width", reason: "expected an integer")),
        (#"{"a": {"x": -1, "y": 0, "width": 1, "height": 8}}"#,
         SpriteError.invalidEntry(origin: "t.json", keyPath: "a.x", reason: "-1 is not an integer from 0 to 1000000")),
        (#"{"a": {"x": 0, "y": 0, "width": 1.5, "height": 8}}"#,
         SpriteError.invalidEntry(origin: "t.json", keyPath: "a.width", reason: "1.5 is not an integer from 1 to 1000000")),
        (#"{"a": {"x": 0, "y": 0, "width": 1, "height": 1, "pixelRatio": 0}}"#,
         SpriteError.invalidEntry(origin: "t.json", keyPath: "a.pixelRatio", reason: "expected a number above 0, at most 16")),
        (#"{"a": {"x": 0, "y": 0, "width": 1, "height": 1, "sdf": "yes"}}"#,
         SpriteError.invalidEntry(origin: "t.json", keyPath: "a.sdf", reason: "expected true or false")),
        (#"{"a": {"x": 0, "y": 0, "width": 1, "height": 1, "stretchX": [[5, 2]]}}"#,
         SpriteError.invalidEntry(origin: "t.json", keyPath: "a.stretchX[0]", reason: "expected [from, to] with from ≤ to")),
        (#"{"a": {"x": 0, "y": 0, "width": 1, "height": 1, "content": [4, 0, 2, 1]}}"#,
         SpriteError.invalidEntry(origin: "t.json", keyPath: "a.content", reason: "left must be ≤ right and top ≤ bottom")),
    ])
    func malformedIndexNamesTheKey(index: String, expected: SpriteError) throws {
        var sheet = SpriteSheet()
        #expect(throws: expected) { try sheet.add(index: Array(index.utf8), image: Self.bytes("test.png"), origin: "t") }
    }

    @Test func brokenJSONAndImageKeepTheirDecodersErrors() throws {
        var sheet = SpriteSheet()
        let png = try Self.bytes("test.png")
        do throws(SpriteError) {
            try sheet.add(index: Array("{\"a\": ".utf8), image: png, origin: "t")
            Issue.record("expected an error")
        } catch {
            guard case .invalidIndexJSON(let json) = error else { Issue.record("\(error)"); return }
            #expect(json.source == "t.json")
            #expect(json.byteOffset == 6)
            #expect(json.keyPath == "a")
        }
        do throws(SpriteError) {
            try sheet.add(index: Array("{}".utf8), image: Array("not a png".utf8), origin: "t")
            Issue.record("expected an error")
        } catch {
            guard case .invalidImage("t.png", let png) = error else { Issue.record("\(error)"); return }
            #expect(png.description.hasPrefix("t.png: "), "\(png)")
        }
    }

    @Test func stretchAndContentAreKept() throws {
        var sheet = SpriteSheet()
        let index = #"{"s": {"x": 30, "y": 0, "width": 10, "height": 8, "stretchX": [[2, 8]], "stretchY": [[2, 6]], "content": [2, 2, 8, 6], "sdf": true}}"#
        try sheet.add(index: Array(index.utf8), image: Self.bytes("test.png"), origin: "t")
        let s = try #require(sheet.image(named: "s"))
        #expect(s.stretchX == [2...8] && s.stretchY == [2...6])
        #expect(s.content == PixelRect(minX: 2, minY: 2, maxX: 8, maxY: 6))
        #expect(s.sdf)
    }
}

@Suite struct StyleSpriteKeyTests {
    func parse(_ sprite: String) throws -> Style {
        try Style.parse(data: styleJSON(layers: "", extraRoot: "\"sprite\": \(sprite),"), origin: "s.json")
    }

    @Test func oneURLIsTheDefaultSheet() throws {
        #expect(try parse(#""sprites/base""#).sprites == [StyleSprite(id: "default", url: "sprites/base")])
        #expect(try parse("null").sprites.isEmpty)
    }

    @Test func severalSheetsKeepTheirIDs() throws {
        let style = try parse(#"[{"id": "default", "url": "a"}, {"id": "extra", "url": "b"}]"#)
        #expect(style.sprites == [StyleSprite(id: "default", url: "a"), StyleSprite(id: "extra", url: "b")])
        #expect(style.warnings.isEmpty)
    }

    @Test func malformedSpriteKeysAreErrors() {
        #expect(throws: StyleError.wrongType(origin: "s.json", keyPath: "sprite", expected: #"URL string or array of {"id", "url"} objects"#,
                                             found: "number 3")) { try parse("3") }
        #expect(throws: StyleError.missingKey(origin: "s.json", keyPath: "sprite[0].url")) { try parse(#"[{"id": "a"}]"#) }
        #expect(throws: StyleError.invalidValue(origin: "s.json", keyPath: "sprite[1].id", reason: "sprite id \"a\" is used twice")) {
            try parse(#"[{"id": "a", "url": "x"}, {"id": "a", "url": "y"}]"#)
        }
    }
}
