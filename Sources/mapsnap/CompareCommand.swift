import Foundation
import MapSnap

/// `mapsnap compare`: a thin shell over `CompareRequest`, which holds the logic.
enum CompareCommand {
    static let help = CompareRequest.help

    /// Runs `compare` with the arguments after the subcommand name; returns the exit code.
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(help)
            return 0
        }
        let request: CompareRequest
        do {
            request = try CompareRequest(arguments: arguments)
        } catch {
            Output.error("compare: \(error)")
            return 2
        }
        let outcome = request.run()
        if !outcome.output.isEmpty { print(outcome.output) }
        if let message = outcome.errorMessage { Output.error("compare: \(message)") }
        return outcome.exitCode
    }
}
