import Dispatch
import Foundation
import MapSnap

/// `mapsnap batch JOBS.jsonl --out-dir DIR [--jobs N] [--shard K/N]`: many renders from
/// JSON Lines, sharing one renderer (styles, sources, decoded tiles, glyphs) across jobs.
enum BatchCommand {
    static let help = """
    USAGE: mapsnap batch JOBS.jsonl --out-dir DIR [--jobs N] [--shard K/N]
                         [--render-timeout SEC] [--allow-missing-tiles] [--require-detail] [--strict]
                         [--max-cost N] [--format NAME] [--quality N] [--data-dir DIR]
                         [--report FILE.jsonl] [-q]

    Renders one map per line of JOBS.jsonl (each line a JSON render spec, see
    docs/spec-format.md) into DIR, made (with its parents) when missing. A job's
    "output" names its file inside DIR (its last path
    component; names that are empty, '-', start with '-' or '.', or hold control or
    bidirectional-formatting characters are refused); without one the file is NNNN.png
    (.jpg, .webp for those formats) after the line number. A job's "format" and
    "quality" win over --format and --quality, which win over the output name's
    extension (see mapsnap render --help). Jobs run in parallel (default: one per core); output bytes do
    not depend on N. A failing job is reported with its line number and the others still
    run; the exit code is the worst of all jobs. A job whose base-map tiles all failed
    fails (exit 3) unless --allow-missing-tiles, and with --require-detail so does a job
    whose view has too little detailed map data. A job some of whose base-map tiles failed
    is written with a warning naming its line (printed even with -q); with --strict it
    fails instead (exit 4 unless a job failed worse: 3 beats 2 beats 4). --render-timeout
    (default 300 seconds) and --max-cost (default 1e9 pixel operations) are per job, 0
    meaning no limit, as for render. --data-dir names the regions the bundled
    styles draw (default $MAPSNAP_DATA, else $XDG_DATA_HOME/mapsnap, else
    ~/.local/share/mapsnap), as for render; place names and addresses in jobs resolve
    through its regions' indexes, the bundled Helsinki index and GeoNames.

    --report FILE.jsonl writes one JSON line per job the moment it finishes, so a batch that
    is killed keeps every result it had: {"line":3,"output":"DIR/0003.png","exit":0,
    "error":null,"warnings":[…]} — the job's line, its file (written when exit is 0), the
    status it alone would give, its error message and every warning it met (-q or not).

    --shard K/N renders only the K-th of N slices of the jobs (every N-th non-blank line,
    starting with the K-th; K from 1 to N), so N machines given the same file and K = 1…N
    write, together, exactly the files one unsharded run writes. On a terminal a progress
    line shows jobs done, rate and time left (not with -q or when stderr is not a terminal).
    A warning many jobs share (a source without attribution, say) is printed once, with the
    first job that met it, and the repeats are counted at the end; -q prints no warnings.
    """

    static let options = OptionTable(valued: ["--out-dir", "--jobs", "--render-timeout", "--shard", "--format", "--quality", "--data-dir",
                                              "--max-cost", "--report"],
                                     switches: ["--help", "--quiet", "--allow-missing-tiles", "--require-detail", "--strict"],
                                     aliases: ["-h": "--help", "-q": "--quiet", "-j": "--jobs"])

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try options.parse(arguments)
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
        let shard = try args.last("--shard").map(parseShard)
        try InputPath.check(jobsPath, .file, label: "batch:")
        try InputPath.checkOptionalDirectory(outDir, label: "--out-dir")
        if let dir = args.last("--data-dir") { try InputPath.checkOptionalDirectory(dir, label: "--data-dir") }
        // No flag: the default; "0": no limit (nil).
        let renderTimeout: Double? = try args.last("--render-timeout").map(RenderCommand.renderTimeout) ?? RenderCommand.defaultRenderTimeout
        let maximumCost = try args.last("--max-cost").map(RenderCommand.maximumCost) ?? DrawingCost.defaultLimit
        let allowMissingTiles = args.has("--allow-missing-tiles")
        let requireDetail = args.has("--require-detail")
        let strict = args.has("--strict")
        // Resolved once, so every job of the run draws the same regions.
        let dataDirectory = DataDirectory.resolve(explicit: args.last("--data-dir")).path
        let quiet = args.has("--quiet")
        var defaults = RenderSpecBuilder()
        do {
            if let f = args.last("--format") { try defaults.setFormat(f, origin: "--format") }
            if let q = args.last("--quality") { try defaults.setQuality(q, origin: "--quality") }
        } catch {
            throw .usage("\(error)")
        }
        let format = Format(format: defaults.format, quality: defaults.quality)
        // Place names and addresses of every job: the data directory's region indexes, the
        // bundled Helsinki index, then the gazetteer (opened once, on the first name).
        let places = DataDirectory.resolve(explicit: args.last("--data-dir")).placeResolver()
        let jobs: RenderJobs
        do {
            jobs = try RenderJobs(path: jobsPath)
        } catch {
            throw .input(error.description)
        }
        // Every job's file name, read from its "output" alone: duplicates are refused the same
        // way on every shard, and a shard parses only its own jobs' specs.
        let names = outputNames(jobs, format: format.format)
        try makeOutputDirectory(outDir)
        let selected = shard.map { jobs.shard($0.k, of: $0.n) } ?? Array(0..<jobs.count)
        let report = try args.last("--report").map { path throws(CLIError) in try BatchReport(path: path) }
        AtomicFile.removeStaleTemporaries(in: outDir)
        // Per-job outcomes (exit code, message), reported in job order after all finish.
        let results = Locked([(code: Int32, message: String?)](repeating: (0, nil), count: selected.count))
        let progress = Progress(total: selected.count, enabled: !quiet && isatty(STDERR_FILENO) == 1)
        let repeats = RepeatedWarnings()
        // Workers pull jobs in order; each job's bytes do not depend on which worker ran it.
        // The cores are shared out between the jobs running at once: a job that would split
        // its fills, tile decoding and encoding over every core only adds thread hand-offs
        // when every core already runs a job (bytes never depend on thread counts).
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let threadsPerJob = max(1, cores / max(1, min(parallelism, selected.count)))
        Parallel.forEach(selected.count, maxThreads: parallelism) { k in
            let i = selected[k]
            let source = "\(jobsPath):\(jobs.lineNumber(of: i))"
            let outcome = runJob(i, jobs: jobs, name: names[i], source: source, outDir: outDir,
                                 renderTimeout: renderTimeout, maximumCost: maximumCost, dataDirectory: dataDirectory, threads: threadsPerJob, quiet: quiet,
                                 allowMissingTiles: allowMissingTiles, requireDetail: requireDetail, strict: strict, format: format, places: places,
                                 progress: progress, repeats: repeats)
            results.withLock { $0[k] = (outcome.code, outcome.message) }
            report?.record(line: jobs.lineNumber(of: i), output: (outDir as NSString).appendingPathComponent(names[i].file),
                           exit: outcome.code, error: outcome.message, warnings: outcome.warnings)
            progress.jobFinished()
        }
        progress.finish()
        try report?.finish()
        if !quiet { places.problems.forEach(Output.warning) }
        if !quiet, let note = repeats.summary { Output.warning(note) }
        let outcomes = results.withLock { $0 }
        for case let (_, message?) in outcomes { Output.error(message) }
        let worst = CLIError.worst(outcomes.map(\.code))
        let scope = shard.map { " (shard \($0.k)/\($0.n))" } ?? ""
        if worst != 0 {
            let summary = "\(outcomes.filter { $0.code != 0 }.count) of \(selected.count) jobs failed\(scope)"
            switch worst {
            case 2: throw .input(summary)
            case 4: throw .incomplete(summary)
            default: throw .runtime(summary)
            }
        }
        if !quiet { Output.out("rendered \(selected.count) maps into \(outDir)\(scope)") }
    }

    /// Creates `--out-dir` (and its parents) when missing, once the jobs have been read: a
    /// file where it or a parent should be is bad usage (exit 2), a folder that cannot be
    /// made (permissions, a full disk) a runtime failure (exit 3).
    static func makeOutputDirectory(_ path: String) throws(CLIError) {
        var ancestor = path
        while !ancestor.isEmpty, ancestor != "/", ancestor != "." {
            var info = stat()
            if stat(ancestor, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw .input("--out-dir \(path): \(ancestor == path ? "is a file" : "\(ancestor) is a file"), not a directory")
                }
                break
            }
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .runtime("--out-dir \(path): cannot create the directory: \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
        }
    }

    /// `K/N` with 1 ≤ K ≤ N ≤ 1,000,000.
    static func parseShard(_ text: String) throws(CLIError) -> (k: Int, n: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, k >= 1, k <= n else {
            throw .usage("--shard \(text): expected K/N with 1 ≤ K ≤ N, e.g. 2/8")
        }
        return (k, n)
    }

    /// `--format` and `--quality`: what jobs that name no format or quality get.
    struct Format: Sendable {
        var format: ImageFormat?
        var quality: Int?
    }

    /// The file name of each job: its output's last path component, or `NNNN.EXT` after its
    /// line number, EXT from the job's format, else `format`, else png; a name claimed by an
    /// earlier job is marked as such.
    static func outputNames(_ jobs: RenderJobs, format: ImageFormat? = nil) -> [Name] {
        var claimed: [String: Int] = [:]
        return (0..<jobs.count).map { i in
            let line = jobs.lineNumber(of: i)
            // A format that does not parse is reported when the job is parsed; png meanwhile.
            let own = jobs.stringMember("format", of: i).flatMap { try? ImageFormat(name: $0) }
            let fileExtension = (own ?? format)?.fileExtension ?? "png"
            let name = jobs.stringMember("output", of: i).map { ($0 as NSString).lastPathComponent }
                ?? String(format: "%04d.", line) + fileExtension
            if let first = claimed[name] { return Name(file: name, firstClaimedBy: first) }
            claimed[name] = line
            return Name(file: name, firstClaimedBy: nil)
        }
    }

    struct Name: Sendable {
        var file: String
        /// The line of an earlier job writing the same file (two jobs writing one file would
        /// race, and which one wins would depend on the worker count).
        var firstClaimedBy: Int?
    }

    /// What one job came to: its exit code, its message naming its line, every warning it met.
    struct Outcome: Sendable {
        var code: Int32
        var message: String?
        var warnings: [String] = []
    }

    /// Parses and renders one job; its outcome as an exit code and a message naming its line.
    static func runJob(_ i: Int, jobs: RenderJobs, name: Name, source: String, outDir: String,
                       renderTimeout: Double?, maximumCost: Double?, dataDirectory: String, threads: Int, quiet: Bool, allowMissingTiles: Bool,
                       requireDetail: Bool, strict: Bool, format: Format, places: PlaceResolver,
                       progress: Progress, repeats: RepeatedWarnings) -> Outcome {
        if let problem = problem(withOutputName: name.file) {
            return Outcome(code: 2, message: "\(source): output \"\(printable(name.file))\": \(problem)")
        }
        if let first = name.firstClaimedBy {
            return Outcome(code: 2, message: "\(source): output \"\(name.file)\" is already written by line \(first)")
        }
        var spec: RenderSpec
        switch jobs.spec(at: i, resolver: places) {
        case .failure(let error):
            // Library messages start with the origin they were given ("jobs.jsonl:3: …").
            let text = error.description
            return Outcome(code: 2, message: text.hasPrefix(source) ? text : "\(source): \(text)")
        case .success(let s):
            spec = s
        }
        if let refusal = RenderCommand.bulkDownloadRefusal(spec.options) {
            return Outcome(code: 2, message: "\(source): \(refusal)")
        }
        var met: [String] = spec.warnings
        let warn = { (message: String) in
            if repeats.isFirst(message) { progress.print { Output.warning("\(source): \(message)") } }
        }
        if !quiet { spec.warnings.forEach(warn) }
        spec.options.renderTimeout = renderTimeout
        spec.options.maximumDrawingCost = maximumCost
        spec.options.dataDirectory = dataDirectory
        spec.options.maximumThreads = spec.options.maximumThreads ?? threads
        spec.format = spec.format ?? format.format
        spec.quality = spec.quality ?? format.quality
        if let problem = spec.outputNameProblem(fileName: name.file) {
            return Outcome(code: 2, message: "\(source): output \(problem)", warnings: met)
        }
        let path = (outDir as NSString).appendingPathComponent(name.file)
        do {
            try RenderCommand.render(spec, to: path, quiet: quiet, allowMissingTiles: allowMissingTiles, requireDetail: requireDetail,
                                     strict: strict, warn: warn,
                                     alwaysWarn: { message in progress.print { Output.warning("\(source): \(message)") } },
                                     collect: { met.append($0) })
            return Outcome(code: 0, warnings: met)
        } catch {
            return Outcome(code: error.exitCode, message: "\(source): \(error.description)", warnings: met)
        }
    }

    /// The progress line on a terminal: `batch: 120/400 jobs, 35.2/s, 0:08 left`, redrawn
    /// in place at most ten times a second; warnings are printed above it.
    final class Progress: Sendable {
        private struct State {
            var done = 0
            var lastDraw = 0.0
            var drawn = false
        }
        private let total: Int
        private let enabled: Bool
        private let start = Date()
        private let state = Locked(State())

        init(total: Int, enabled: Bool) {
            self.total = total
            self.enabled = enabled
        }

        func jobFinished() {
            state.withLock { s in
                s.done += 1
                let now = Date().timeIntervalSince(start)
                guard enabled, now - s.lastDraw >= 0.1 || s.done == total else { return }
                s.lastDraw = now
                s.drawn = true
                Output.rawNoNewline("\r\u{1B}[2K" + line(done: s.done, elapsed: now))
            }
        }

        /// Runs `body` (which prints a line) with the progress line cleared and redrawn after.
        func print(_ body: () -> Void) {
            state.withLock { s in
                if enabled && s.drawn { Output.rawNoNewline("\r\u{1B}[2K") }
                body()
                if enabled && s.drawn {
                    Output.rawNoNewline(line(done: s.done, elapsed: Date().timeIntervalSince(start)))
                }
            }
        }

        /// Clears the line, so the summary starts on a clean one.
        func finish() {
            state.withLock { s in
                if enabled && s.drawn { Output.rawNoNewline("\r\u{1B}[2K") }
                s.drawn = false
            }
        }

        private func line(done: Int, elapsed: Double) -> String {
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            var text = "batch: \(done)/\(total) jobs"
            if rate > 0 {
                text += String(format: ", %.1f/s", rate)
                let left = Int((Double(total - done) / rate).rounded())
                text += done < total ? ", \(left / 60):\(String(format: "%02d", left % 60)) left" : ""
            }
            return text
        }
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
}

/// Warnings already printed in this batch. Many jobs over the same tiles or style get the same
/// warning (a source without attribution, a remote sprite left out); it is printed once, with
/// the first job that met it, and the repeats are counted in one line at the end. A warning
/// about one job's own input differs in its text and is always printed.
final class RepeatedWarnings: Sendable {
    private let state = Locked((seen: Set<String>(), repeats: 0))

    /// Whether `message` is new to this batch (and so to be printed); a repeat is counted.
    func isFirst(_ message: String) -> Bool {
        state.withLock { s in
            if s.seen.insert(message).inserted { return true }
            s.repeats += 1
            return false
        }
    }

    /// The end-of-batch line for the repeats not printed, or nil when there were none.
    var summary: String? {
        let n = state.withLock { $0.repeats }
        guard n > 0 else { return nil }
        return "\(n) more \(n == 1 ? "warning" : "warnings") repeated one printed above for an earlier job and \(n == 1 ? "was" : "were") not printed again"
    }
}
