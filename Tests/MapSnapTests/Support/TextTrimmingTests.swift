import Foundation
import Testing
@testable import MapSnap

/// `trimmingSpaces` and `EnvironmentVariables`: the Foundation-free replacements must
/// answer as `trimmingCharacters(in: .whitespaces)` and `ProcessInfo.environment` do.
struct TextTrimmingTests {
    @Test(arguments: ["", " ", "\t \t", "abc", "  abc  ", "\ta b\t", "\u{00A0}x\u{2003}", "\u{3000}漢字\u{3000}",
                      " line\n", "\nx\n", "x\r\n", "  é  ", "\u{200B}x\u{200B}"])
    func trimsWhatFoundationTrims(text: String) {
        #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
        #expect(text[...].trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
    }

    /// The syntaxes' trim (colours, `--path` fields, URLs) drops ASCII spaces, tabs, CR and
    /// LF — a CRLF line ending too, which is one `Character` — and nothing else.
    @Test(arguments: [("", ""), (" \t\r\n", ""), ("  red ", "red"), ("\r\n0xff0000\r\n", "0xff0000"),
                      ("\ta b\n", "a b"), ("\u{00A0}x\u{00A0}", "\u{00A0}x\u{00A0}"), ("é\r\n", "é")])
    func trimsASCIIWhitespace(text: String, trimmed: String) {
        #expect(text.trimmingASCIIWhitespace() == trimmed)
        #expect(text[...].trimmingASCIIWhitespace() == trimmed)
    }

    @Test func processVariablesAreThoseOfProcessInfo() {
        let environment = ProcessInfo.processInfo.environment
        for name in ["PATH", "HOME", "MAPSNAP_NO_SUCH_VARIABLE_42"] {
            #expect(EnvironmentVariables.process[name] == environment[name], "\(name)")
        }
    }

    @Test func fixedVariablesIgnoreTheProcess() {
        let fixed: EnvironmentVariables = ["HOME": "/h"]
        #expect(fixed["HOME"] == "/h")
        #expect(fixed["PATH"] == nil)
        #expect(EnvironmentVariables([:])["HOME"] == nil)
    }
}
