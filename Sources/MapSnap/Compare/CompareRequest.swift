import Foundation

/// One `mapsnap compare` invocation, parsed from command-line arguments and runnable without
/// printing, so the CLI stays a thin shell and tests can drive the whole command in-process.
///
/// ```
/// mapsnap compare ACTUAL.png EXPECTED.png [--threshold T] [--max-diff N|P%]
///                 [--include-aa] [--diff OUT.png] [--json]
/// ```
public struct CompareRequest: Sendable, Equatable {
    public var actualPath: String
    public var expectedPath: String
    /// Per-pixel YIQ threshold, 0…1.
    public var threshold: Double = 0.1
    /// Allowed differing pixels; exact match (`.pixels(0)`) by default.
    public var tolerance: DiffTolerance = .pixels(0)
    public var includeAntiAliasing = false
    /// Where to write the diff image, if anywhere.
    public var diffPath: String?
    /// Report as one JSON object instead of a summary line.
    public var json = false

    /// Largest input file accepted (bytes); a PNG over this is refused before reading.
    public static let maxFileSize = 512 << 20

    public static let help = """
        USAGE: mapsnap compare ACTUAL.png EXPECTED.png [options]

        Compares two PNG images perceptually (YIQ colour distance, anti-aliasing forgiven).

        OPTIONS:
          --threshold T     per-pixel colour tolerance, 0 (exact) to 1 (default 0.1)
          --max-diff N|P%   differing pixels allowed: a count or a percentage (default 0)
          --include-aa      count anti-aliased pixels as differences
          --diff OUT.png    write a diff image (red: differs, yellow: anti-aliasing)
          --json            print the result as one JSON object

        EXIT STATUS: 0 images match, 1 images differ, 2 bad input, 3 could not write the diff
        """

    public init(actualPath: String, expectedPath: String) {
        self.actualPath = actualPath
        self.expectedPath = expectedPath
    }

    /// Parses the arguments after `compare`. Flags may come anywhere; `--flag=value` and
    /// `--flag value` are both accepted.
    public init(arguments: [String]) throws(CompareRequestError) {
        var positionals: [String] = []
        var threshold = 0.1, tolerance = DiffTolerance.pixels(0)
        var includeAA = false, json = false
        var diffPath: String?
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            guard arg.hasPrefix("--") else {
                if arg.hasPrefix("-") && arg != "-" { throw .unknownFlag(arg) }
                positionals.append(arg)
                continue
            }
            var name = arg, inline: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            func value() throws(CompareRequestError) -> String {
                if let inline { return inline }
                guard i < arguments.count else { throw .missingValue(flag: name) }
                i += 1
                return arguments[i - 1]
            }
            switch name {
            case "--threshold":
                let v = try value()
                guard let t = Double(v), t.isFinite, t >= 0, t <= 1 else {
                    throw .invalidValue(flag: name, value: v, reason: "expected a number from 0 to 1")
                }
                threshold = t
            case "--max-diff":
                tolerance = try CompareRequest.parseTolerance(try value())
            case "--diff":
                let v = try value()
                guard !v.isEmpty else { throw .invalidValue(flag: name, value: v, reason: "expected a file path") }
                diffPath = v
            case "--include-aa", "--json":
                guard inline == nil else { throw .invalidValue(flag: name, value: inline ?? "", reason: "takes no value") }
                if name == "--json" { json = true } else { includeAA = true }
            default:
                throw .unknownFlag(arg)
            }
        }
        guard positionals.count == 2 else {
            throw positionals.count < 2 ? .missingImages(given: positionals.count) : .unexpectedArgument(positionals[2])
        }
        self.init(actualPath: positionals[0], expectedPath: positionals[1])
        self.threshold = threshold
        self.tolerance = tolerance
        self.includeAntiAliasing = includeAA
        self.diffPath = diffPath
        self.json = json
    }

    /// `N` (a pixel count) or `P%` (a percentage, 0…100).
    static func parseTolerance(_ v: String) throws(CompareRequestError) -> DiffTolerance {
        if v.hasSuffix("%") {
            guard let p = Double(v.dropLast()), p.isFinite, p >= 0, p <= 100 else {
                throw .invalidValue(flag: "--max-diff", value: v, reason: "expected a percentage from 0% to 100%")
            }
            return .percent(p)
        }
        guard let n = Int(v), n >= 0 else {
            throw .invalidValue(flag: "--max-diff", value: v, reason: "expected a pixel count or a percentage like 0.5%")
        }
        return .pixels(n)
    }

    /// Reads both images, compares them, writes the diff image if asked, and reports what
    /// the CLI should print and return. Never prints or exits.
    public func run() -> CompareOutcome {
        let actual: Canvas, expected: Canvas
        do {
            actual = try CompareRequest.loadPNG(actualPath)
            expected = try CompareRequest.loadPNG(expectedPath)
        } catch {
            return CompareOutcome(exitCode: 2, output: "", errorMessage: error.message)
        }
        let comparator = ImageComparator(threshold: threshold, includeAntiAliasing: includeAntiAliasing)
        let difference: ImageDifference
        do {
            difference = try comparator.compare(actual: actual, expected: expected, producingDiffImage: diffPath != nil)
        } catch {
            return CompareOutcome(exitCode: 2, output: "",
                                  errorMessage: "size mismatch: \(actualPath) is \(actual.width)×\(actual.height), \(expectedPath) is \(expected.width)×\(expected.height)")
        }
        if let diffPath, let image = difference.diffImage {
            do {
                try AtomicFile.write(try PNGCodec.encode(image), to: diffPath)
            } catch {
                return CompareOutcome(exitCode: 3, output: "", errorMessage: "--diff: \(error)")
            }
        }
        let match = difference.isWithin(tolerance)
        let output = json ? jsonReport(difference, match: match) : textReport(difference, match: match)
        return CompareOutcome(exitCode: match ? 0 : 1, output: output, errorMessage: nil)
    }

    private func textReport(_ d: ImageDifference, match: Bool) -> String {
        var s = (match ? "match: " : "mismatch: ") + d.summary
        if tolerance != .pixels(0) || !match { s += " (allowed: \(tolerance))" }
        if let diffPath { s += "; diff written to \(diffPath)" }
        return s
    }

    /// Keys in a fixed order so the output is byte-stable.
    private func jsonReport(_ d: ImageDifference, match: Bool) -> String {
        var report: JSONObject = [
            "actual": .string(actualPath), "expected": .string(expectedPath),
            "width": .number(Double(d.width)), "height": .number(Double(d.height)),
            "match": .bool(match),
            "differingPixels": .number(Double(d.differingPixelCount)),
            "differingPercentage": .number(d.differingPercentage),
            "antiAliasedPixels": .number(Double(d.antiAliasedPixelCount)),
            "maxDelta": .number(d.maxDelta), "threshold": .number(threshold),
        ]
        switch tolerance {
        case .pixels(let n): report["maxDiffPixels"] = .number(Double(n))
        case .percent(let p): report["maxDiffPercent"] = .number(p)
        }
        report["diff"] = diffPath.map(JSONValue.string) ?? .null
        return JSONWriter.text(.object(report))
    }

    /// Reads and decodes a PNG, refusing files above `maxFileSize` before reading them.
    static func loadPNG(_ path: String) throws(CompareLoadError) -> Canvas {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: maxFileSize)
        } catch {
            throw CompareLoadError(message: error.description)
        }
        do {
            return try PNGCodec.decode(bytes, origin: path)
        } catch {
            throw CompareLoadError(message: error.description)
        }
    }
}

/// A one-line reason an input image could not be loaded (the message names the file).
struct CompareLoadError: Error {
    let message: String
}

/// What `CompareRequest.run()` asks the CLI to print and return.
public struct CompareOutcome: Sendable, Equatable {
    /// 0 match, 1 mismatch, 2 bad input, 3 the diff image could not be written.
    public var exitCode: Int32
    /// The summary line or JSON object for stdout (empty on error).
    public var output: String
    /// A one-line message for stderr, naming the file or flag.
    public var errorMessage: String?

    public init(exitCode: Int32, output: String, errorMessage: String?) {
        self.exitCode = exitCode
        self.output = output
        self.errorMessage = errorMessage
    }
}

/// Bad `mapsnap compare` arguments; each message names the flag or argument.
public enum CompareRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownFlag(String)
    case missingValue(flag: String)
    case invalidValue(flag: String, value: String, reason: String)
    case missingImages(given: Int)
    case unexpectedArgument(String)

    public var description: String {
        switch self {
        case .unknownFlag(let f): return "unknown option '\(f)' (see mapsnap compare --help)"
        case .missingValue(let f): return "\(f) needs a value"
        case let .invalidValue(f, v, reason): return "\(f) '\(v)': \(reason)"
        case .missingImages(let n): return "expected ACTUAL.png and EXPECTED.png, got \(n) image path\(n == 1 ? "" : "s")"
        case .unexpectedArgument(let a): return "unexpected argument '\(a)': compare takes exactly two images"
        }
    }
}
