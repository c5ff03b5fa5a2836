import Foundation
import MapSnap

/// `batch --report FILE.jsonl`: one JSON line per job, written the moment the job finishes
/// (in the order jobs finish), so that a batch killed part way — even by SIGKILL — keeps the
/// result of every job it finished. Each line is one `write` of a whole line:
///
/// ```
/// {"line":3,"output":"maps/0003.png","exit":0,"error":null,"warnings":["…"]}
/// ```
///
/// `line` is the job's line in JOBS.jsonl, `output` the file it writes (written only when
/// `exit` is 0), `exit` the status the job alone would give (see `mapsnap batch --help`),
/// `error` its message or null, `warnings` every warning it met (also those printed only
/// once for the batch, and those `-q` hides).
final class BatchReport: Sendable {
    let path: String
    private let descriptor: Int32
    /// The first failed write (reported when the batch ends; the jobs still run).
    private let failure = Locked<String?>(nil)

    /// Creates (or truncates) the report; a report that cannot be made is a runtime failure
    /// before any job runs.
    init(path: String) throws(CLIError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0o666)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw .runtime("--report \(path): cannot create: \(reason)")
        }
        self.path = path
        descriptor = fd
    }

    /// Appends one job's line.
    func record(line: Int, output: String, exit code: Int32, error: String?, warnings: [String]) {
        let fields = [
            "\"line\":\(line)", "\"output\":\(JSONWriter.quoted(output))", "\"exit\":\(code)",
            "\"error\":\(error.map(JSONWriter.quoted) ?? "null")",
            "\"warnings\":[\(warnings.map(JSONWriter.quoted).joined(separator: ","))]",
        ]
        let bytes = Array(("{" + fields.joined(separator: ",") + "}\n").utf8)
        failure.withLock { first in
            do throws(AtomicFileError) {
                try AtomicFile.write(bytes, toDescriptor: descriptor, name: "--report \(path)")
            } catch {
                if first == nil { first = error.description }
            }
        }
    }

    /// Closes the report; the first write that failed, as a runtime failure.
    func finish() throws(CLIError) {
        let closed = close(descriptor) == 0 ? nil : String(cString: strerror(errno))
        if let message = failure.withLock({ $0 }) { throw .runtime(message) }
        if let closed { throw .runtime("--report \(path): \(closed)") }
    }
}
