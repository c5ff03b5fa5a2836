/// Failures the CLI reports, each mapped to the SPEC's exit codes.
enum CLIError: Error, CustomStringConvertible {
    /// Bad usage or bad input: exit 2.
    case usage(String)
    /// Bad input detected by the library (message already names the file/flag): exit 2.
    case input(String)
    /// Runtime failure (I/O, missing source): exit 3.
    case runtime(String)
    /// The map could be drawn but some of its base-map tiles failed, and `--strict` asked for
    /// all of them: exit 4, nothing written.
    case incomplete(String)

    var exitCode: Int32 {
        switch self {
        case .usage, .input: return 2
        case .runtime: return 3
        case .incomplete: return 4
        }
    }

    var description: String {
        switch self {
        case .usage(let m), .input(let m), .runtime(let m), .incomplete(let m): return m
        }
    }

    /// The exit status of several outcomes (a batch's jobs): a runtime failure (3) is worse
    /// than bad input (2), which is worse than an incomplete map (4), than success (0).
    static func worst(_ codes: some Sequence<Int32>) -> Int32 {
        let severity: [Int32: Int] = [0: 0, 4: 1, 2: 2, 3: 3]
        return codes.max { severity[$0, default: 3] < severity[$1, default: 3] } ?? 0
    }
}
