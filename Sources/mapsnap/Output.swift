import Foundation
import MapSnap

/// stderr/stdout helpers for the CLI (the library never prints).
///
/// Writes go through `AtomicFile.write(_:toDescriptor:name:)`: a closed or full standard
/// output is an error the caller sees (the PNG) or ignores (messages), never a trap.
enum Output {
    static func error(_ message: String) {
        text("mapsnap: error: \(oneLine(message))\n", to: STDERR_FILENO)
    }

    static func warning(_ message: String) {
        text("mapsnap: warning: \(oneLine(message))\n", to: STDERR_FILENO)
    }

    /// A progress line on stderr (`mapsnap serve: listening on …`).
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("mapsnap: \(oneLine(message))\n".utf8))
    }

    static func out(_ s: String) {
        text(s + "\n", to: STDOUT_FILENO)
    }

    /// Text for standard error as is, without a newline (the batch progress line).
    static func rawNoNewline(_ s: String) {
        text(s, to: STDERR_FILENO)
    }

    /// Text for standard error as is (the usage after a missing command).
    static func raw(_ s: String) {
        text(s + "\n", to: STDERR_FILENO)
    }

    /// Writes the PNG to standard output; a closed pipe or full disk is a runtime failure.
    static func png(_ bytes: [UInt8]) throws(CLIError) {
        do {
            try AtomicFile.write(bytes, toDescriptor: STDOUT_FILENO, name: "standard output")
        } catch {
            throw .runtime(error.description)
        }
    }

    /// Errors are one line: newlines inside a message (e.g. from a nested error) are folded.
    static func oneLine(_ s: String) -> String {
        s.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A message that cannot be written (stdout closed by `| head`) is dropped: there is
    /// nobody left to tell.
    private static func text(_ s: String, to descriptor: Int32) {
        try? AtomicFile.write(Array(s.utf8), toDescriptor: descriptor, name: "")
    }
}
