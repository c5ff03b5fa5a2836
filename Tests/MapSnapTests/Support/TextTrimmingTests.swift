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
