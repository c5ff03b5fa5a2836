import Foundation
import MapSnap

/// `mapsnap compare ACTUAL.png EXPECTED.png`: one comparison, parsed from the arguments
/// after `compare` and runnable without printing, so tests can drive it in-process.
/// The comparing itself is the library's `ImageComparator`, shared with `MapSnapTesting`.
struct CompareCommand: Equatable {
    var actualPath: String
    var expectedPath: String
    /// Per-pixel YIQ threshold, 0…1.
    var threshold = ImageComparator.defaultThreshold
    /// Allowed differing pixels; exact match (`.pixels(0)`) by default.
    var tolerance: DiffTolerance = .pixels(0)
    var includeAntiAliasing = false
    /// Where to write the diff image, if anywhere.
    var diffPath: String?
    /// Report as one JSON object instead of a summary line.
    var json = false

    /// Largest input file accepted (bytes); a PNG over this is refused before reading.
    static let maxFileSize = 512 << 20

    static let help = """
        USAGE: mapsnap compare ACTUAL.png EXPECTED.png [options]

        Compares two PNG images perceptually (YIQ colour distance, anti-aliasing forgiven).

        OPTIONS:
          --threshold T     per-pixel colour tolerance, 0 (exact) to 1 (default \(ImageComparator.defaultThreshold))
          --max-diff N|P%   differing pixels allowed: a count or a percentage (default 0)
          --include-aa      count anti-aliased pixels as differences
          --diff OUT.png    write a diff image (red: differs, yellow: anti-aliasing)
          --json            print the result as one JSON object

        EXIT STATUS: 0 images match, 1 images differ, 2 bad input, 3 could not write the diff
        """

    static let options = OptionTable(valued: ["--threshold", "--max-diff", "--diff"],
                                     switches: ["--include-aa", "--json", "--help"], aliases: ["-h": "--help"])

    /// Runs `compare` with the arguments after the subcommand name; returns the exit code.
    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        let command: CompareCommand
        do {
            let args = try options.parse(arguments)
            if args.has("--help") {
                Output.out(help)
                return 0
            }
            command = try CompareCommand(args)
        } catch {
            Output.error("compare: \(error)")
            return 2
        }
        let outcome = command.run()
        if !outcome.output.isEmpty { Output.out(outcome.output) }
        if let message = outcome.errorMessage { Output.error("compare: \(message)") }
        return outcome.exitCode
    }

    init(actualPath: String, expectedPath: String) {
        self.actualPath = actualPath
        self.expectedPath = expectedPath
    }

    /// Parses the arguments after `compare` (flags anywhere, `--flag=value` or `--flag value`).
    init(arguments: [String]) throws(CLIError) {
        try self.init(CompareCommand.options.parse(arguments[...]))
    }

    init(_ args: ParsedArguments) throws(CLIError) {
        guard args.positionals.count == 2 else {
            let n = args.positionals.count
            throw .usage(n < 2 ? "expected ACTUAL.png and EXPECTED.png, got \(n) image path\(n == 1 ? "" : "s")"
                               : "unexpected argument '\(args.positionals[2])': compare takes exactly two images")
        }
        self.init(actualPath: args.positionals[0], expectedPath: args.positionals[1])
        if let v = args.last("--threshold") {
            guard let t = Double(v), t.isFinite, t >= 0, t <= 1 else {
                throw .usage("--threshold '\(v)': expected a number from 0 to 1")
            }
            threshold = t
        }
        if let v = args.last("--max-diff") { tolerance = try CompareCommand.parseTolerance(v) }
        if let v = args.last("--diff") {
            guard !v.isEmpty else { throw .usage("--diff '': expected a file path") }
            // The diff image is a PNG: a name that says otherwise would mislabel it.
            if let ext = ImageFormat.fileExtension(of: v), ext != "png" {
                throw .usage("--diff \(v): mapsnap cannot write .\(ext) images here; the diff image is PNG (name it .png)")
            }
            diffPath = v
        }
        includeAntiAliasing = args.has("--include-aa")
        json = args.has("--json")
    }

    /// `N` (a pixel count) or `P%` (a percentage, 0…100).
    static func parseTolerance(_ v: String) throws(CLIError) -> DiffTolerance {
        if v.hasSuffix("%") {
            guard let p = Double(v.dropLast()), p.isFinite, p >= 0, p <= 100 else {
                throw .usage("--max-diff '\(v)': expected a percentage from 0% to 100%")
            }
            return .percent(p)
        }
        guard let n = Int(v), n >= 0 else {
            throw .usage("--max-diff '\(v)': expected a pixel count or a percentage like 0.5%")
        }
        return .pixels(n)
    }

    /// What `run()` asks the shell to print and return.
    struct Outcome: Equatable {
        /// 0 match, 1 mismatch, 2 bad input, 3 the diff image could not be written.
        var exitCode: Int32
        /// The summary line or JSON object for stdout (empty on error).
        var output: String
        /// A one-line message for stderr, naming the file or flag.
        var errorMessage: String?
    }

    /// Reads both images, compares them, writes the diff image if asked, and reports what
    /// to print and return. Never prints or exits.
    func run() -> Outcome {
        let actual: MapImage, expected: MapImage
        do {
            actual = try CompareCommand.loadPNG(actualPath)
            expected = try CompareCommand.loadPNG(expectedPath)
        } catch {
            return Outcome(exitCode: 2, output: "", errorMessage: error.description)
        }
        let comparator = ImageComparator(threshold: threshold, includeAntiAliasing: includeAntiAliasing)
        let difference: ImageDifference
        do {
            difference = try comparator.compare(actual: actual, expected: expected, producingDiffImage: diffPath != nil)
        } catch {
            return Outcome(exitCode: 2, output: "",
                           errorMessage: "size mismatch: \(actualPath) is \(actual.width)×\(actual.height), \(expectedPath) is \(expected.width)×\(expected.height)")
        }
        if let diffPath, let image = difference.diffImage {
            do {
                try AtomicFile.write(try image.pngData(), to: diffPath)
            } catch {
                return Outcome(exitCode: 3, output: "", errorMessage: "--diff: \(error)")
            }
        }
        let match = difference.isWithin(tolerance)
        let output = json ? jsonReport(difference, match: match) : textReport(difference, match: match)
        return Outcome(exitCode: match ? 0 : 1, output: output, errorMessage: nil)
    }

    private func textReport(_ d: ImageDifference, match: Bool) -> String {
        var s = (match ? "match: " : "mismatch: ") + d.summary
        if tolerance != .pixels(0) || !match { s += " (allowed: \(tolerance))" }
        if let diffPath { s += "; diff written to \(diffPath)" }
        return s
    }

    /// Keys in a fixed order so the output is byte-stable.
    private func jsonReport(_ d: ImageDifference, match: Bool) -> String {
        var fields: [(String, String)] = [
            ("actual", JSONWriter.quoted(actualPath)), ("expected", JSONWriter.quoted(expectedPath)),
            ("width", "\(d.width)"), ("height", "\(d.height)"),
            ("match", match ? "true" : "false"),
            ("differingPixels", "\(d.differingPixelCount)"),
            ("differingPercentage", "\(d.differingPercentage)"),
            ("antiAliasedPixels", "\(d.antiAliasedPixelCount)"),
            ("maxDelta", "\(d.maxDelta)"), ("threshold", "\(threshold)"),
        ]
        switch tolerance {
        case .pixels(let n): fields.append(("maxDiffPixels", "\(n)"))
        case .percent(let p): fields.append(("maxDiffPercent", "\(p)"))
        }
        fields.append(("diff", diffPath.map(JSONWriter.quoted) ?? "null"))
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// Reads and decodes a PNG, refusing files above `maxFileSize` before reading them.
    static func loadPNG(_ path: String) throws(LoadError) -> MapImage {
        if let problem = InputPath.problem(path, .file) { throw LoadError(description: "\(path): \(problem)") }
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw LoadError(description: "\(path): " + (exists ? "cannot read file" : "no such file"))
        }
        guard size <= maxFileSize else {
            throw LoadError(description: "\(path): file is \(size) bytes, above the \(maxFileSize)-byte limit")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw LoadError(description: "\(path): cannot read file")
        }
        do {
            return try MapImage(pngData: [UInt8](data), origin: path)
        } catch {
            throw LoadError(description: error.description)
        }
    }

    /// A one-line reason an input image could not be loaded (the message names the file).
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }
}
