extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: the characters
    /// `CharacterSet.whitespaces` trims (U+0009, Unicode's space separators Zs, and — in
    /// swift-corelibs-foundation — the zero-width space U+200B), found
    /// without Foundation's bridging through `NSString`, which costs tens of thousands of
    /// instructions per call — the metadata of every tile source is read this way.
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        let isSpace = { (s: Unicode.Scalar) in s == "\t" || s == "\u{200B}" || s.properties.generalCategory == .spaceSeparator }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
