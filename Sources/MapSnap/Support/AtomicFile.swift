import Foundation
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

/// Why an output file could not be written; each case names the destination and the reason.
public enum AtomicFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The temporary file beside `path` could not be created (missing directory, no permission).
    case cannotCreate(path: String, errno: Int32, reason: String)
    /// Writing or syncing failed (disk full, I/O error, a closed pipe).
    case cannotWrite(path: String, errno: Int32, reason: String)
    /// The final rename over `path` failed.
    case cannotRename(path: String, errno: Int32, reason: String)
    /// `path` is something a file cannot be written to or replace: a directory, a block
    /// device or a socket (`kind` says which).
    case notAFile(path: String, kind: String)

    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        switch self {
        case let .cannotCreate(path, _, reason): return "cannot create \(path): \(reason)"
        case let .cannotWrite(path, _, reason): return "cannot write \(path): \(reason)"
        case let .cannotRename(path, _, reason): return "cannot replace \(path): \(reason)"
        case let .notAFile(path, kind): return "cannot write \(path): it is \(kind)"
        }
    }

    /// The system's reason alone, without the path ("No space left on device").
    public var reason: String {
        switch self {
        case let .cannotCreate(_, _, reason), let .cannotWrite(_, _, reason), let .cannotRename(_, _, reason): return reason
        case let .notAFile(_, kind): return "it is \(kind)"
        }
    }
}

/// Writes whole output files so that readers see either the old contents or the new, never
/// a truncated file — without ever replacing something that is not a regular file.
///
/// What `path` is decides how it is written:
///
/// | `path` is                        | written by                                            |
/// |----------------------------------|-------------------------------------------------------|
/// | new, or a regular file           | temporary beside it (below), fsync, rename            |
/// | a FIFO or character device       | opening it and writing in place (`/dev/null`, a pipe) |
/// | a symbolic link                  | as its target is (the link is kept)                   |
/// | a directory, block device, socket| nothing: `AtomicFileError.notAFile`                   |
///
/// A replaced regular file keeps its permission bits (and, when the process may, its owner);
/// a new file gets `0666` minus the umask, like any file a program creates.
///
/// A temporary is named `.NAME.mapsnap-PID-XXXXXX.tmp`: hidden, beside NAME, with the
/// writer's process id. A process killed between creating and renaming it leaves it behind;
/// `removeStaleTemporaries` (which every CLI write runs first) deletes one whose process no
/// longer runs at once, and any left for `staleTemporaryAge` (a process id reused, or a
/// writer in another PID namespace sharing the folder). The temporaries this process is
/// writing are listed (`temporariesInFlight`), so that the CLI's SIGINT/SIGTERM handler
/// removes them before it exits. Names of the older form `.NAME.tmp-XXXXXX` are still
/// recognised and removed by age.
package enum AtomicFile {
    /// Temporaries untouched for this long (seconds) belong to a writer that died: a live one
    /// writes bytes it already holds and renames within moments.
    package static let staleTemporaryAge: Double = 600

    /// The temporaries this process has created and not yet renamed or removed; `closed`
    /// once a signal handler removed them (the process is ending: no new temporary).
    private struct Registry {
        var paths = Set<String>()
        var closed = false
    }
    private static let inFlight = Locked(Registry())

    /// The paths of the temporaries this process is writing now.
    package static var temporariesInFlight: [String] { inFlight.withLock { Array($0.paths) } }

    /// Deletes every temporary this process is writing, and the files SQLite keeps beside
    /// one it writes (`-journal`, `-wal`, `-shm`: `convert` to MBTiles) — a signal handler's
    /// last act: the writes never finish. Returns how many temporaries were removed.
    ///
    /// The files are removed under the registry's lock, which `createTemporary` holds from
    /// listing a temporary to creating it, and the registry is closed: no temporary can be
    /// created after this ran, so none appears once it is done (a writer that opens its
    /// temporary again by path, as SQLite does, must not create it: `SQLiteConnection`'s
    /// `openExisting`).
    @discardableResult
    package static func removeTemporariesInFlight() -> Int {
        inFlight.withLock { registry -> Int in
            registry.closed = true
            defer { registry.paths.removeAll() }
            for path in registry.paths { for sidecar in sidecarSuffixes { unlink(path + sidecar) } }
            return registry.paths.reduce(0) { $0 + (unlink($1) == 0 ? 1 : 0) }
        }
    }

    /// Files a library writing a temporary keeps beside it (SQLite's journals).
    private static let sidecarSuffixes = ["-journal", "-wal", "-shm"]

    /// Takes `path` off the in-flight list (renamed into place, or removed).
    static func settled(_ path: String) {
        _ = inFlight.withLock { $0.paths.remove(path) }
    }

    /// Writes `bytes` to `path` as the table above says. On failure a temporary is removed
    /// and a replaced file is untouched.
    ///
    /// - Parameter followsSymbolicLinks: false replaces a symbolic link itself instead of
    ///   writing to its target (for caches, whose entries must never point elsewhere).
    package static func write(_ bytes: [UInt8], to path: String, followsSymbolicLinks: Bool = true) throws(AtomicFileError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            try replace(path, with: bytes, keeping: nil, reportedAs: path)
            return
        }
        var destination = path
        if fileType(info) == S_IFLNK {
            // A dangling link, or one we must not follow, is replaced like a new path.
            guard followsSymbolicLinks, stat(path, &info) == 0 else {
                try replace(path, with: bytes, keeping: nil, reportedAs: path)
                return
            }
            if fileType(info) == S_IFREG {
                guard let resolved = realPath(path) else {
                    let e = errno
                    throw .cannotCreate(path: path, errno: e, reason: reason(e))
                }
                destination = resolved
            }
        }
        switch fileType(info) {
        case S_IFREG: try replace(destination, with: bytes, keeping: info, reportedAs: path)
        case S_IFIFO, S_IFCHR: try writeInPlace(bytes, to: path)
        case S_IFDIR: throw .notAFile(path: path, kind: "a directory")
        case S_IFBLK: throw .notAFile(path: path, kind: "a block device")
        case S_IFSOCK: throw .notAFile(path: path, kind: "a socket")
        default: throw .notAFile(path: path, kind: "not a regular file")
        }
    }

    /// Writes all of `bytes` to an open descriptor (standard output), retrying short and
    /// interrupted writes. `name` names the destination in errors ("standard output").
    package static func write(_ bytes: [UInt8], toDescriptor fd: Int32, name: String) throws(AtomicFileError) {
        let failed = writeAll(bytes, to: fd)
        if failed != 0 { throw .cannotWrite(path: name, errno: failed, reason: reason(failed)) }
    }

    /// True for names this type gives its temporaries: `.NAME.mapsnap-PID-XXXXXX.tmp`, or
    /// the older `.NAME.tmp-XXXXXX`.
    package static func isTemporaryName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { temporaryName($0) != nil }
    }

    /// What a temporary's name says about its writer.
    private enum TemporaryName: Equatable {
        /// `.NAME.mapsnap-PID-XXXXXX.tmp`; `nameEnd` is where NAME ends (the dot before `mapsnap`).
        case process(pid_t, nameEnd: Int)
        /// `.NAME.tmp-XXXXXX`, from before the process id was in the name.
        case legacy(nameEnd: Int)
    }

    /// Parses a temporary's name from its UTF-8 bytes (or one of its sidecars',
    /// `….tmp-journal`); nil for any other name.
    private static func temporaryName(_ whole: UnsafeBufferPointer<UInt8>) -> TemporaryName? {
        // Every temporary's name is hidden: the test most names fail, made first (a folder of
        // finished maps is read at every write).
        guard whole.count > 1, whole[0] == UInt8(ascii: ".") else { return nil }
        var chars = whole
        for sidecar in sidecarSuffixes {
            let s = sidecar.utf8
            if chars.count > s.count, chars.suffix(s.count).elementsEqual(s), chars.dropLast(s.count).suffix(4).elementsEqual(".tmp".utf8) {
                chars = UnsafeBufferPointer(rebasing: chars.dropLast(s.count))
                break
            }
        }
        guard chars.count > 1, chars[0] == UInt8(ascii: ".") else { return nil }
        let legacy = ".tmp-".utf8
        if chars.count > 1 + legacy.count + 6,
           chars[(chars.count - 6 - legacy.count)..<(chars.count - 6)].elementsEqual(legacy),
           chars.suffix(6).allSatisfy({ temporaryAlphabet.contains($0) }) {
            return .legacy(nameEnd: chars.count - 6 - legacy.count)
        }
        // ".mapsnap-" PID "-" XXXXXX ".tmp" at the end, NAME not empty before it.
        let tail = ".tmp".utf8, marker = ".mapsnap-".utf8
        guard chars.count > 1 + marker.count + 1 + 1 + 6 + tail.count, chars.suffix(tail.count).elementsEqual(tail) else { return nil }
        let suffixStart = chars.count - tail.count - 6
        guard chars[suffixStart..<(chars.count - tail.count)].allSatisfy({ temporaryAlphabet.contains($0) }),
              chars[suffixStart - 1] == UInt8(ascii: "-") else { return nil }
        var digitsStart = suffixStart - 1
        var pid: Int64 = 0, scale: Int64 = 1
        while digitsStart > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(chars[digitsStart - 1]), scale <= 1_000_000_000 {
            digitsStart -= 1
            pid += Int64(chars[digitsStart] - UInt8(ascii: "0")) * scale
            scale *= 10
        }
        guard digitsStart < suffixStart - 1, pid > 0, pid <= Int64(Int32.max),
              digitsStart - marker.count >= 2,
              chars[(digitsStart - marker.count)..<digitsStart].elementsEqual(marker) else { return nil }
        return .process(pid_t(pid), nameEnd: digitsStart - marker.count)
    }

    /// True when a process `pid` exists (it may belong to another user: `EPERM`).
    private static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Deletes temporaries left in `directory` by writers that died; with `name`, only those
    /// of that file. Returns how many were removed. A temporary whose process no longer runs
    /// goes at once; one of another running process, or of the older name form, once older
    /// than `age` seconds; this process's own are kept (it may be writing them). Errors are
    /// ignored: this is housekeeping before a write, not the write itself.
    ///
    /// Every write runs this over its directory, which may hold many thousands of finished
    /// maps: names are read as bytes (`readdir`) and only a temporary's becomes a string.
    @discardableResult
    package static func removeStaleTemporaries(in directory: String, of name: String? = nil,
                                              olderThan age: Double = staleTemporaryAge) -> Int {
        guard let stream = opendir(directory) else { return 0 }
        defer { closedir(stream) }
        let wanted = name.map { Array(("." + $0).utf8) }
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
        let now = Date().timeIntervalSince1970
        let me = getpid()
        var removed = 0
        while let entry = readdir(stream) {
            let raw = UnsafeRawPointer(entry).advanced(by: nameOffset)
            let bytes = UnsafeBufferPointer(start: raw.assumingMemoryBound(to: UInt8.self),
                                            count: strlen(raw.assumingMemoryBound(to: CChar.self)))
            guard let parsed = temporaryName(bytes) else { continue }
            let nameEnd: Int
            switch parsed {
            case .process(_, let end), .legacy(let end): nameEnd = end
            }
            if let wanted, !(nameEnd == wanted.count && bytes.prefix(nameEnd).elementsEqual(wanted)) { continue }
            let full = (directory as NSString).appendingPathComponent(String(decoding: bytes, as: UTF8.self))
            var info = stat()
            guard lstat(full, &info) == 0, fileType(info) == S_IFREG else { continue }
            let old = now - Double(info.st_mtim.tv_sec) >= age
            let stale: Bool
            switch parsed {
            case .legacy: stale = old
            case .process(let pid, _): stale = pid != me && (old || !isRunning(pid))
            }
            if stale, unlink(full) == 0 { removed += 1 }
        }
        return removed
    }

    /// Deletes the stale temporaries of the file at `path` (see the other overload).
    @discardableResult
    package static func removeStaleTemporaries(for path: String, olderThan age: Double = staleTemporaryAge) -> Int {
        let (directory, base) = split(path)
        return removeStaleTemporaries(in: directory, of: base, olderThan: age)
    }

    // MARK: Strategies

    /// Temporary beside `destination`, fsync, rename over it. `existing` is the file being
    /// replaced (its mode and owner are kept); nil for a new file.
    private static func replace(_ destination: String, with bytes: [UInt8], keeping existing: stat?,
                                reportedAs path: String) throws(AtomicFileError) {
        let (fd, tempPath) = try createTemporary(beside: destination, reportedAs: path, flags: O_WRONLY)
        var failure: AtomicFileError?
        let written = writeAll(bytes, to: fd)
        if written != 0 {
            failure = .cannotWrite(path: path, errno: written, reason: reason(written))
        } else {
            if let existing {
                // Only root can give a file away; for anyone else the new file is theirs.
                if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                    _ = fchown(fd, existing.st_uid, existing.st_gid)
                }
                if fchmod(fd, existing.st_mode & 0o777) != 0 {
                    let e = errno
                    failure = .cannotWrite(path: path, errno: e, reason: reason(e))
                }
            }
            if failure == nil, fsync(fd) != 0 {
                let e = errno
                failure = .cannotWrite(path: path, errno: e, reason: reason(e))
            }
        }
        if close(fd) != 0, failure == nil {
            let e = errno
            failure = .cannotWrite(path: path, errno: e, reason: reason(e))
        }
        if failure == nil, rename(tempPath, destination) != 0 {
            let e = errno
            failure = .cannotRename(path: path, errno: e, reason: reason(e))
        }
        if failure != nil { unlink(tempPath) }
        settled(tempPath)
        if let failure { throw failure }
    }

    /// Creates `.NAME.mapsnap-PID-XXXXXX.tmp` beside `destination` (opened with `flags`
    /// besides create and exclusive), lists it in flight, and returns its descriptor and
    /// path. Errors name `path`.
    static func createTemporary(beside destination: String, reportedAs path: String,
                                flags: Int32) throws(AtomicFileError) -> (descriptor: Int32, path: String) {
        let (directory, base) = split(destination)
        let prefix = (directory == "/" ? "/" : directory + "/") + "." + base + ".mapsnap-\(getpid())-"
        var fd: Int32 = -1
        var tempPath = ""
        var generator = SystemRandomNumberGenerator()
        // O_EXCL makes each attempt safe against a concurrent writer picking the same name;
        // mode 0666 lets the umask decide a new file's permissions, as for any created file.
        for _ in 0..<64 {
            let suffix = (0..<6).map { _ in temporaryAlphabet[Int(generator.next(upperBound: UInt(temporaryAlphabet.count)))] }
            tempPath = prefix + String(decoding: suffix, as: UTF8.self) + ".tmp"
            // Listed and created under the lock the signal handler's removal takes: a signal
            // can come before (nothing is created) or after (it is removed), never between.
            let created = inFlight.withLock { registry -> (fd: Int32, errno: Int32) in
                guard !registry.closed else { return (-1, EINTR) }
                let fd = open(tempPath, flags | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
                if fd >= 0 { registry.paths.insert(tempPath) }
                return (fd, fd >= 0 ? 0 : errno)
            }
            fd = created.fd
            errno = created.errno
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else {
            let e = errno
            throw .cannotCreate(path: path, errno: e, reason: reason(e))
        }
        return (fd, tempPath)
    }

    /// Opens a FIFO or character device and writes to it: renaming a file over it would
    /// replace the device node or pipe (as root, `/dev/null` itself).
    private static func writeInPlace(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
        // No O_CREAT: if the node vanished since lstat, fail rather than create a plain file.
        let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            throw .cannotCreate(path: path, errno: e, reason: reason(e))
        }
        let written = writeAll(bytes, to: fd)
        let closed = close(fd) == 0 ? 0 : errno
        if written != 0 { throw .cannotWrite(path: path, errno: written, reason: reason(written)) }
        if closed != 0 { throw .cannotWrite(path: path, errno: closed, reason: reason(closed)) }
    }

    // MARK: Helpers

    private static let temporaryAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// Writes every byte, retrying short and interrupted writes and waiting out a full
    /// non-blocking descriptor; returns 0 or the errno that stopped it.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32 {
        bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return 0 }
            var offset = 0
            while offset < raw.count {
                let n = systemWrite(fd, base + offset, raw.count - offset)
                if n < 0 {
                    let e = errno
                    if e == EINTR { continue }
                    if e == EAGAIN || e == EWOULDBLOCK {
                        var waiter = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&waiter, 1, -1)
                        continue
                    }
                    return e
                }
                offset += n
            }
            return 0
        }
    }

    static func fileType(_ info: stat) -> mode_t { info.st_mode & S_IFMT }

    /// (directory, last component) of a path; "." for a bare name.
    private static func split(_ path: String) -> (String, String) {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        return (directory, path.split(separator: "/").last.map(String.init) ?? "file")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func reason(_ code: Int32) -> String {
        guard let s = strerror(code) else { return "error \(code)" }
        return String(cString: s)
    }
}
