import Foundation

/// stderr/stdout helpers for the CLI (the library never prints).
enum Output {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("mapsnap: error: \(oneLine(message))\n".utf8))
    }

    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("mapsnap: warning: \(oneLine(message))\n".utf8))
    }

    /// A progress line on stderr (`mapsnap serve: listening on …`).
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("mapsnap: \(oneLine(message))\n".utf8))
    }

    static func out(_ s: String) {
        FileHandle.standardOutput.write(Data((s + "\n").utf8))
    }

    /// Errors are one line: newlines inside a message (e.g. from a nested error) are folded.
    static func oneLine(_ s: String) -> String {
        s.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
