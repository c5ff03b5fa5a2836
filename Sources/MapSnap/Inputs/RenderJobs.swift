/// A JSON Lines batch file (one render spec per line) whose jobs are parsed one at a time,
/// when their turn comes: a million-job file costs its bytes and a line index up front, not
/// a million parsed specs, and a job's GeoJSON or GPX files are read only by the worker that
/// renders it.
///
/// Jobs are the file's non-blank lines, numbered from 0 in file order; each keeps its
/// 1-based line number for messages. `shard(_:of:)` picks a deterministic slice, so several
/// machines can share one file.
public struct RenderJobs: Sendable {
    /// The file, as named in messages.
    public let source: String
    private let bytes: [UInt8]
    private let lines: [JSONLines.Line]
    private let baseDirectory: String?

    /// Reads a jobs file (size-capped, regular files only); relative paths inside resolve
    /// against its directory. Throws when the file cannot be read or holds more than
    /// `RenderSpec.maximumJobCount` jobs.
    public init(path: String) throws(RenderSpecError) {
        let bytes = try RenderSpecBuilder().readFile(path, origin: "batch")
        try self.init(bytes: bytes, source: path, baseDirectory: RenderSpec.directory(of: path))
    }

    /// Jobs from bytes already read; `source` names them in messages.
    public init(bytes: [UInt8], source: String, baseDirectory: String? = nil) throws(RenderSpecError) {
        var lines: [JSONLines.Line] = []
        for line in JSONLines(bytes) {
            guard lines.count < RenderSpec.maximumJobCount else {
                throw .inJob(source: source, line: line.number, message: "more than \(RenderSpec.maximumJobCount) jobs")
            }
            lines.append(line)
        }
        self.source = source
        self.bytes = bytes
        self.lines = lines
        self.baseDirectory = baseDirectory
    }

    /// Number of jobs (non-blank lines).
    public var count: Int { lines.count }

    /// The 1-based line number of job `index`.
    public func lineNumber(of index: Int) -> Int { lines[index].number }

    /// The jobs of slice `k` (1…n) of `n`: every n-th job, starting with job k − 1. The n
    /// slices are disjoint and together hold every job, whatever `n` is.
    public func shard(_ k: Int, of n: Int) -> [Int] {
        guard n >= 1, k >= 1, k <= n, k - 1 < count else { return [] }
        return Array(stride(from: k - 1, to: count, by: n))
    }

    /// The job's `output` member, without reading the rest of the spec; nil when it has
    /// none or the line does not parse (parsing the job reports why).
    public func output(of index: Int) -> String? {
        stringMember("output", of: index)
    }

    /// The job's top-level string member `key` (`output`, `format`), without reading the rest
    /// of the spec; nil when it has none, it is not a string, or the line does not parse.
    public func stringMember(_ wanted: String, of index: Int) -> String? {
        let line = lines[index]
        guard var reader = try? JSONReader(bytes: bytes, range: line.range, source: source, firstLine: line.number),
              (try? reader.peek()) == .object, (try? reader.beginObject()) != nil else { return nil }
        var found: String?
        while let key = try? reader.nextKey() {
            if key == wanted, case .string(let s)? = try? reader.readValue() {
                found = s
            } else if (try? reader.skipValue()) == nil {
                return nil
            }
        }
        return found
    }

    /// Parses job `index` into a spec; `filePaths` says which files it may name.
    public func spec(at index: Int, resolver: (any PlaceResolving)? = nil,
                     defaults: MapSnapshotOptions = MapSnapshotOptions(),
                     filePaths: FilePathPolicy = .unrestricted) -> Result<RenderSpec, RenderSpecError> {
        let line = lines[index]
        var builder = RenderSpecBuilder(options: defaults, resolver: resolver, baseDirectory: baseDirectory)
        builder.filePaths = filePaths
        return RenderSpec.parseJob(bytes: bytes, line: line, source: source, builder: builder)
    }
}
