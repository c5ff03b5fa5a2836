import Dispatch
import Foundation
import MapSnap

/// `mapsnap batch JOBS.jsonl --out-dir DIR [--jobs N]`: many renders from JSON Lines.
enum BatchCommand {
    static let help = """
    USAGE: mapsnap batch JOBS.jsonl --out-dir DIR [--jobs N] [--render-timeout SEC]
                         [--allow-missing-tiles] [--format NAME] [--quality N] [-q]

    Renders one map per line of JOBS.jsonl (each line a JSON render spec, see
    docs/spec-format.md). A job's "output" names its file inside DIR (its last path
    component; names that are empty, '-', start with '-' or '.', or hold control or
    bidirectional-formatting characters are refused); without one the file is NNNN.png
    (.jpg, .webp for those formats) after the line number. A job's "format" and "quality"
    win over --format and --quality, which win over the output name's extension (see
    mapsnap render --help). Jobs run in parallel (default: one per core); output bytes do
    not depend on N. A failing job is reported with its line number and the others still
    run; the exit code is the worst of all jobs. A job whose base-map tiles all failed
    fails (exit 3) unless --allow-missing-tiles; --render-timeout is per job (default
    300 seconds; 0 = no limit), as for render.
    """

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try OptionTable(valued: ["--out-dir", "--jobs", "--render-timeout", "--format", "--quality"],
                                   switches: ["--help", "--quiet", "--allow-missing-tiles"],
                                   aliases: ["-h": "--help", "-q": "--quiet", "-j": "--jobs"]).parse(arguments)
        if args.has("--help") { Output.out(help); return }
        guard args.positionals.count == 1, let jobsPath = args.positionals.first else {
            throw .usage("batch: expected one JOBS.jsonl file")
        }
        guard let outDir = args.last("--out-dir") else { throw .usage("batch: missing --out-dir DIR") }
        var parallelism = ProcessInfo.processInfo.activeProcessorCount
        if let j = args.last("--jobs") {
            guard let n = Int(j), n >= 1, n <= 256 else { throw .usage("--jobs \(j): expected 1-256") }
            parallelism = n
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: outDir, isDirectory: &isDir), isDir.boolValue else {
            throw .runtime("--out-dir \(outDir): no such directory")
        }
        // No flag: the default; "0": no limit (nil).
        let renderTimeout: Double? = try args.last("--render-timeout").map(RenderCommand.renderTimeout) ?? RenderCommand.defaultRenderTimeout
        let allowMissingTiles = args.has("--allow-missing-tiles")
        var defaults = RenderSpecBuilder()
        do {
            if let f = args.last("--format") { try defaults.setFormat(f, origin: "--format") }
            if let q = args.last("--quality") { try defaults.setQuality(q, origin: "--quality") }
        } catch {
            throw .usage("\(error)")
        }
        let jobs = try loadJobs(jobsPath, format: defaults.format, quality: defaults.quality)
        let quiet = args.has("--quiet")
        AtomicFile.removeStaleTemporaries(in: outDir)
        if !quiet {
            for job in jobs {
                if case .success(let spec) = job.spec { spec.warnings.forEach { Output.warning("\(jobsPath):\(job.line): \($0)") } }
            }
        }
        let results = Results(count: jobs.count)
        // Workers pull job indices in order; each job's bytes do not depend on which worker ran it.
        let next = Results.Counter()
        DispatchQueue.concurrentPerform(iterations: min(parallelism, max(jobs.count, 1))) { _ in
            while let i = next.take(below: jobs.count) {
                let job = jobs[i]
                var spec: RenderSpec
                switch job.spec {
                case .failure(let error):
                    results.set(i, 2, error.message)
                    continue
                case .success(let s):
                    spec = s
                }
                spec.options.renderTimeout = renderTimeout
                let path = (outDir as NSString).appendingPathComponent(job.outputName)
                do {
                    try RenderCommand.render(spec, to: path, quiet: quiet, allowMissingTiles: allowMissingTiles)
                    results.set(i, 0, nil)
                } catch let error as CLIError {
                    results.set(i, error.exitCode, "\(jobsPath):\(job.line): \(error.description)")
                } catch {
                    results.set(i, 3, "\(jobsPath):\(job.line): \(error)")
                }
            }
        }
        var worst: Int32 = 0
        for (code, message) in results.all {
            if let message { Output.error(message) }
            worst = max(worst, code)
        }
        if worst != 0 { throw worst == 2 ? .input("\(results.failures) of \(jobs.count) jobs failed") : .runtime("\(results.failures) of \(jobs.count) jobs failed") }
        if !quiet { Output.out("rendered \(jobs.count) maps into \(outDir)") }
    }

    /// One non-blank line of the jobs file: its 1-based line number and its spec, or why the
    /// line was rejected (already naming `file:line`).
    struct Job: Sendable {
        var line: Int
        var spec: Result<RenderSpec, JobError>
        /// The file name inside the output directory: the spec's `output` (last component
        /// only, so jobs cannot write outside DIR) or `NNNN.png` after the line number.
        var outputName: String
    }

    struct JobError: Error, Sendable {
        var message: String
    }

    /// Reads the jobs file; each line is parsed on its own (`RenderSpec.loadJobs`), so one bad
    /// line fails only its job (the others still render, as the help promises) and every job
    /// keeps its line number for messages and default file names.
    static func loadJobs(_ path: String, format: ImageFormat? = nil, quality: Int? = nil) throws(CLIError) -> [Job] {
        let specs: [RenderSpec.Job]
        do {
            specs = try RenderSpec.loadJobs(path: path, resolver: BundledPlaces())
        } catch {
            throw .input(error.description)
        }
        var jobs: [Job] = []
        // Output name → line that claimed it first: two jobs writing one file would race, and
        // which one wins would depend on the worker count.
        var claimed: [String: Int] = [:]
        for job in specs {
            let source = "\(path):\(job.line)"
            switch job.result {
            case .success(var spec):
                spec.format = spec.format ?? format
                spec.quality = spec.quality ?? quality
                let name = spec.output.map { ($0 as NSString).lastPathComponent }
                    ?? String(format: "%04d.", job.line) + spec.outputFormat(fileName: nil).fileExtension
                if let problem = problem(withOutputName: name) {
                    let message = "\(source): output \"\(printable(name))\": \(problem)"
                    jobs.append(Job(line: job.line, spec: .failure(JobError(message: message)), outputName: name))
                } else if let first = claimed[name] {
                    let message = "\(source): output \"\(name)\" is already written by line \(first)"
                    jobs.append(Job(line: job.line, spec: .failure(JobError(message: message)), outputName: name))
                } else {
                    claimed[name] = job.line
                    jobs.append(Job(line: job.line, spec: .success(spec), outputName: name))
                }
            case .failure(let error):
                // Library messages start with the origin they were given ("jobs.jsonl:3: …").
                let text = error.description
                jobs.append(Job(line: job.line, spec: .failure(JobError(message: text.hasPrefix(source) ? text : "\(source): \(text)")),
                                outputName: ""))
            }
        }
        return jobs
    }

    /// Why `name` may not name a file in the output directory, or nil when it may. Names are
    /// refused that another tool or a terminal would misread: `-` and a leading `-` (taken
    /// for standard output or an option), a leading `.` (hidden, and the prefix of
    /// `AtomicFile`'s temporaries), and control, bidirectional-formatting or other invisible
    /// characters (which can make a listing show another name than the file has).
    static func problem(withOutputName name: String) -> String? {
        if name.isEmpty || name == "/" { return "empty file name" }
        if name == "-" { return "standard output is not available in batch; name a file" }
        if name.hasPrefix("-") { return "a file name may not start with '-'" }
        if name.hasPrefix(".") { return "a file name may not start with '.'" }
        if name.utf8.count > 255 { return "file name longer than 255 bytes" }
        for scalar in name.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
                return "file name holds the invisible or control character U+\(String(scalar.value, radix: 16, uppercase: true))"
            default: continue
            }
        }
        return nil
    }

    /// `name` with control and format characters shown as `\u{…}`, for messages.
    static func printable(_ name: String) -> String {
        name.unicodeScalars.map { scalar -> String in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
                return "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default:
                return String(scalar)
            }
        }.joined()
    }

    /// Per-job outcomes, reported in job order after all finish.
    final class Results: @unchecked Sendable {
        private var items: [(Int32, String?)]
        private let lock = NSLock()
        init(count: Int) { items = Array(repeating: (0, nil), count: count) }
        func set(_ i: Int, _ code: Int32, _ message: String?) {
            lock.lock(); items[i] = (code, message); lock.unlock()
        }
        var all: [(Int32, String?)] { lock.lock(); defer { lock.unlock() }; return items }
        var failures: Int { all.filter { $0.0 != 0 }.count }

        final class Counter: @unchecked Sendable {
            private var value = 0
            private let lock = NSLock()
            func take(below limit: Int) -> Int? {
                lock.lock(); defer { lock.unlock() }
                guard value < limit else { return nil }
                value += 1
                return value - 1
            }
        }
    }
}
