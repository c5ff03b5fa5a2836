#if canImport(Glibc)
import Glibc
private func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int { Glibc.write(fd, p, n) }
#elseif canImport(Musl)
import Musl
private func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int { Musl.write(fd, p, n) }
#elseif canImport(Darwin)
import Darwin
private func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int { Darwin.write(fd, p, n) }
#endif

/// Why an atomic write failed; each case names the destination path and the system's reason.
public enum AtomicFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The temporary file beside `path` could not be created (missing directory, no permission).
    case cannotCreate(path: String, errno: Int32, reason: String)
    /// Writing or syncing the temporary file failed (disk full, I/O error).
    case cannotWrite(path: String, errno: Int32, reason: String)
    /// The final rename over `path` failed (e.g. `path` is a directory).
    case cannotRename(path: String, errno: Int32, reason: String)

    public var description: String {
        switch self {
        case let .cannotCreate(path, _, reason): return "cannot create \(path): \(reason)"
        case let .cannotWrite(path, _, reason): return "cannot write \(path): \(reason)"
        case let .cannotRename(path, _, reason): return "cannot replace \(path): \(reason)"
        }
    }
}

/// Writes whole files so that readers see either the old contents or the new, never a
/// truncated file: the bytes go to a temporary file in the same directory (same file system,
/// so `rename` is atomic), which is fsynced and then renamed over the destination.
public enum AtomicFile {
    /// Atomically replaces (or creates) `path` with `bytes`, mode 0644. On failure the
    /// temporary file is removed and the destination is untouched.
    public static func write(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        let base = path.split(separator: "/").last.map(String.init) ?? "file"
        let prefix: String = directory == "/" ? "/" : directory + "/"
        let templateString: String = prefix + "." + base + ".tmp-XXXXXX"
        var template: [CChar] = Array(templateString.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buf -> Int32 in
            guard let base = buf.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else {
            let e = errno
            throw .cannotCreate(path: path, errno: e, reason: reason(e))
        }
        let tempPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: AtomicFileError?
        let written = bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return 0 }
            var offset = 0
            while offset < raw.count {
                let n = systemWrite(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return 0
        }
        if written != 0 {
            failure = .cannotWrite(path: path, errno: written, reason: reason(written))
        } else if fchmod(fd, 0o644) != 0 || fsync(fd) != 0 {
            let e = errno
            failure = .cannotWrite(path: path, errno: e, reason: reason(e))
        }
        if close(fd) != 0, failure == nil {
            let e = errno
            failure = .cannotWrite(path: path, errno: e, reason: reason(e))
        }
        if failure == nil, rename(tempPath, path) != 0 {
            let e = errno
            failure = .cannotRename(path: path, errno: e, reason: reason(e))
        }
        if let failure {
            unlink(tempPath)
            throw failure
        }
    }

    private static func reason(_ code: Int32) -> String {
        guard let s = strerror(code) else { return "error \(code)" }
        return String(cString: s)
    }
}
