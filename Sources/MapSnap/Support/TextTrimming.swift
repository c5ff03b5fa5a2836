/// The project's one trim: every "drop the spaces around a field" goes through
/// `trimming(while:)`, with the two sets of spaces the inputs use named below.
extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: the characters
    /// `CharacterSet.whitespaces` trims (U+0009, Unicode's space separators Zs, and — in
    /// swift-corelibs-foundation — the zero-width space U+200B), found
    /// without Foundation's bridging through `NSString`, which costs tens of thousands of
    /// instructions per call — the metadata of every tile source is read this way.
    func trimmingSpaces() -> String {
        trimming { s in s == "\t" || s == "\u{200B}" || s.properties.generalCategory == .spaceSeparator }
    }

    /// The text without leading and trailing ASCII spaces, tabs, carriage returns and line
    /// feeds: the separators of the CLI and URL syntaxes (colours, `--path` fields, styles).
    func trimmingASCIIWhitespace() -> String {
        trimming { s in s == " " || s == "\t" || s == "\n" || s == "\r" }
    }

    /// The text without the leading and trailing Unicode scalars for which `isSpace` holds.
    func trimming(while isSpace: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
