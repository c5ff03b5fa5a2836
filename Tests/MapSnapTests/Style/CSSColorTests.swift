import Testing
@testable import MapSnap

@Suite struct CSSColorTests {
    @Test(arguments: [
        ("#f00", Color(red: 255, green: 0, blue: 0)),
        ("#F00", Color(red: 255, green: 0, blue: 0)),
        ("#f008", Color(red: 255, green: 0, blue: 0, alpha: 0x88)),
        ("#1a2B3c", Color(red: 0x1A, green: 0x2B, blue: 0x3C)),
        ("#1a2b3c80", Color(red: 0x1A, green: 0x2B, blue: 0x3C, alpha: 0x80)),
        ("  #ffffff  ", Color.white),
        ("rgb(255, 128, 0)", Color(red: 255, green: 128, blue: 0)),
        ("rgb(157,169,177)", Color(red: 157, green: 169, blue: 177)),
        ("rgba(0, 0, 0, 0.5)", Color(red: 0, green: 0, blue: 0, alpha: 128)),
        ("rgba(100%, 0%, 50%, 1)", Color(red: 255, green: 0, blue: 128)),
        ("rgb(255 0 0 / 50%)", Color(red: 255, green: 0, blue: 0, alpha: 128)),
        ("rgb(300, -5, 0)", Color(red: 255, green: 0, blue: 0)),
        ("hsl(0, 100%, 50%)", Color(red: 255, green: 0, blue: 0)),
        ("hsl(120, 100%, 25%)", Color(red: 0, green: 128, blue: 0)),
        ("hsl(240deg, 100%, 50%)", Color(red: 0, green: 0, blue: 255)),
        ("hsl(-120, 100%, 50%)", Color(red: 0, green: 0, blue: 255)),
        ("hsla(0,0%,85%,0.53)", Color(red: 217, green: 217, blue: 217, alpha: 135)),
        ("hsl(0, 0%, 100%)", Color.white),
        ("RebeccaPurple", Color(rgb: 0x663399)),
        ("transparent", Color.clear),
        ("lightgoldenrodyellow", Color(rgb: 0xFAFAD2)),
    ])
    func parses(text: String, expected: Color) {
        #expect(CSSColor.parse(text)?.color == expected)
    }

    @Test(arguments: [
        "", "#", "#ff", "#fffff", "#ggg", "#1234567", "rgb(1,2)", "rgb(1,2,3,4,5)", "rgb(a,b,c)",
        "hsl(0, x, 50%)", "notacolor", "rgb(1,2,3", "url(x)", "rgb(1,,3)", "rgb(nan, 0, 0)",
        String(repeating: "a", count: 10_000),
    ])
    func rejects(text: String) {
        #expect(CSSColor.parse(text) == nil)
    }

    @Test func namedColourTableIsComplete() {
        // CSS Color 4 defines 148 names (transparent is handled separately).
        #expect(CSSColor.named.count == 148)
        #expect(CSSColor.named["grey"] == CSSColor.named["gray"])
    }

    @Test func interpolatesPremultiplied() {
        let red = StyleColor(red: 1, green: 0, blue: 0)
        let clear = StyleColor.transparent
        let mid = red.interpolated(to: clear, fraction: 0.5)
        // Fading to transparent keeps the hue instead of darkening towards black.
        #expect(mid.color == Color(red: 255, green: 0, blue: 0, alpha: 128))
        let grey = StyleColor.black.interpolated(to: .white, fraction: 0.5).color
        #expect(grey == Color(red: 128, green: 128, blue: 128))
    }
}
