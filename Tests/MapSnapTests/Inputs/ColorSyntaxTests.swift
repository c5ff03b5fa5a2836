import Testing
@testable import MapSnap

@Suite struct ColorSyntaxTests {
    @Test(arguments: [
        ("0xFF8800", Color(rgb: 0xFF8800)),
        ("0xff880080", Color(rgba: 0xFF880080)),
        ("0X00FF00", Color(rgb: 0x00FF00)),
        ("#f80", Color(rgb: 0xFF8800)),
        ("#FF8800", Color(rgb: 0xFF8800)),
        ("#ff880000", Color(rgba: 0xFF880000)),
        ("red", Color(rgb: 0xFF0000)),
        ("Blue", Color(rgb: 0x0000FF)),
        (" white ", Color(rgb: 0xFFFFFF)),
        ("GRAY", Color(rgb: 0x808080)),
    ])
    func parsesAcceptedForms(text: String, expected: Color) throws {
        #expect(try ColorSyntax.parse(text) == expected)
    }

    @Test func allTenGoogleNamesAreKnown() throws {
        for name in ["black", "brown", "green", "purple", "yellow", "blue", "gray", "orange", "red", "white"] {
            _ = try ColorSyntax.parse(name)
        }
        #expect(ColorSyntax.namedColors.count == 10)
    }

    @Test(arguments: ["0xFF88", "0xFF88001", "#ff88", "#gg0000", "FF8800", "0x", "#", "grey", "rgb(1,2,3)", "0xFF88ZZ", "#ｆｆｆ"])
    func rejectsMalformed(text: String) {
        #expect(throws: ColorSyntaxError.invalid(text: text)) { try ColorSyntax.parse(text) }
    }

    @Test func emptyIsItsOwnError() {
        #expect(throws: ColorSyntaxError.empty) { try ColorSyntax.parse("  ") }
        #expect(ColorSyntaxError.invalid(text: "grey").description.hasPrefix("\"grey\" is not a colour"))
    }
}
