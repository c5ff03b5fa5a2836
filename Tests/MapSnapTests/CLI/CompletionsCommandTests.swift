import Foundation
import Testing
@testable import mapsnap

/// `mapsnap completions bash|zsh|fish` and `mapsnap manpage`: generated from the command
/// catalog, so every command and every option the parsers accept shows up, and each script
/// is valid for its shell.
@Suite struct CompletionsCommandTests {
    /// The shell's path, when it is installed (zsh and fish are optional).
    static func shell(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `program arguments` with `input` as a file argument's contents; returns exit code and stderr.
    static func check(_ program: String, _ arguments: [String], script: String, suffix: String) throws -> (Int32, String) {
        let dir = TestPaths.temporaryDirectory()
        defer { CLIRunner.cleanUp(dir) }
        let file = dir + "/script" + suffix
        try CLIRunner.write(script, to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments + [file]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test(arguments: [("bash", ["-n"]), ("zsh", ["-n"]), ("fish", ["--no-execute"])])
    func eachScriptIsValidForItsShellAndNamesEveryOption(shell: String, syntaxCheck: [String]) throws {
        let r = try CLIRunner.run(["completions", shell])
        #expect(r.exitCode == 0, "\(r)")
        let script = r.stdoutText
        for command in CommandCatalog.commands {
            #expect(script.contains(command.path.last ?? ""), "\(shell) script lacks \(command.name)")
            for option in command.longOptions {
                // fish names long options without their dashes (`-l size`).
                let spelled = shell == "fish" ? "-l \(option.dropFirst(2))" : option
                #expect(script.contains(spelled), "\(shell) script lacks \(command.name) \(option)")
            }
        }
        // The bundled styles are offered for --style.
        #expect(script.contains("normal terrain") || script.contains("hybrid normal"), "\(script.prefix(300))")
        guard let program = Self.shell(shell) else { return }  // the syntax check needs the shell
        let (status, errors) = try Self.check(program, syntaxCheck, script: script, suffix: shell == "fish" ? ".fish" : "")
        #expect(status == 0 && errors.isEmpty, "\(shell) rejects the script: \(errors)")
    }

    @Test func bashCompletesCommandsOptionsAndStyles() throws {
        guard let bash = Self.shell("bash") else { return }
        let script = try CLIRunner.run(["completions", "bash"]).stdoutText
        // Drive the function as bash's completion would: COMP_WORDS and COMP_CWORD set, read COMPREPLY.
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let probe = script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _mapsnap; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
            let dir = TestPaths.temporaryDirectory()
            defer { CLIRunner.cleanUp(dir) }
            try CLIRunner.write(probe, to: dir + "/probe.sh")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: bash)
            process.arguments = [dir + "/probe.sh"]
            process.currentDirectoryURL = URL(fileURLWithPath: dir)
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["mapsnap", "re"]) == ["render"])
        #expect(try complete(["mapsnap", "data", "ex"]) == ["extract"])
        #expect(try complete(["mapsnap", "render", "--fractional"]) == ["--fractional-zoom"])
        #expect(try complete(["mapsnap", "render", "--style", "ter"]) == ["terrain"])
        #expect(try complete(["mapsnap", "completions", "f"]) == ["fish"])
        #expect(try complete(["mapsnap", "data", "extract", "--max"]) == ["--maxzoom"])
    }

    @Test func anUnknownShellIsBadUsage() throws {
        let r = try CLIRunner.run(["completions", "powershell"])
        #expect(r.exitCode == 2)
        #expect(r.stderrLines.count == 1 && r.stderr.contains("bash, zsh or fish"), "\(r)")
        #expect(r.stdout.isEmpty)
    }

    @Test func helpTextsDescribeEveryOptionTheyAccept() {
        // The scripts' descriptions come from the help lines: an option missing from its
        // command's help would be offered without one (and is undocumented).
        for command in CommandCatalog.commands {
            for option in command.longOptions where option != "--help" {
                let alias = command.shortAlias(of: option)
                let mentioned = command.help.contains(option) || alias.map { command.help.contains($0 + " ") || command.help.contains($0 + "]") } == true
                #expect(!command.documentation(of: option).text.isEmpty || mentioned, "\(command.name) --help does not describe \(option)")
            }
        }
    }

    @Test func theManPageIsValidRoffAndCoversEveryCommand() throws {
        let r = try CLIRunner.run(["manpage", "--date", "2025-01-31"])
        #expect(r.exitCode == 0, "\(r)")
        let page = r.stdoutText
        #expect(page.contains(".TH MAPSNAP 1 \"2025-01-31\""))
        for command in CommandCatalog.commands {
            #expect(page.contains(".SS mapsnap \(command.name)\n"), "no section for \(command.name)")
            for option in command.longOptions where command.help.contains(option) {
                #expect(page.contains(ManPage.escape(option)), "\(command.name) \(option) is missing from the page")
            }
        }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES"] {
            #expect(page.contains(".SH \(section)\n"))
        }
        #expect(page.unicodeScalars.allSatisfy { $0.isASCII }, "roff input should be ASCII (non-ASCII as \\[uXXXX])")
        guard let groff = Self.shell("groff") else { return }
        let (status, warnings) = try Self.check(groff, ["-man", "-Tutf8", "-ww", "-z"], script: page, suffix: ".1")
        #expect(status == 0 && warnings.isEmpty, "groff: \(warnings)")
    }
}
