/// Failures the CLI reports, each mapped to the SPEC's exit codes.
enum CLIError: Error, CustomStringConvertible {
    /// Bad usage or bad input: exit 2.
    case usage(String)
    /// Bad input detected by the library (message already names the file/flag): exit 2.
    case input(String)
    /// Runtime failure (I/O, missing source): exit 3.
    case runtime(String)

    var exitCode: Int32 {
        switch self {
        case .usage, .input: return 2
        case .runtime: return 3
        }
    }

    var description: String {
        switch self {
        case .usage(let m), .input(let m), .runtime(let m): return m
        }
    }
}
