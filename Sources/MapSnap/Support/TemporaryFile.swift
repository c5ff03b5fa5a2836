import Foundation

/// An output file written in pieces, at any offsets and from any thread, that appears at its
/// destination only when complete: `AtomicFile`'s guarantee for files too large to hold in
/// memory (a region extracted from a planet archive).
///
/// The bytes go to a temporary `.NAME.mapsnap-PID-XXXXXX.tmp` beside the destination (the
/// name `AtomicFile` gives its temporaries, so `AtomicFile.removeStaleTemporaries` deletes one
/// left by a killed process, and the CLI's signal handler this process's own); `commit()`
/// syncs it and renames it over the destination.
/// `discard()`, or dropping the last reference without committing, deletes it. Only a new
/// path or a regular file (or a link to one) can be written: a FIFO or device cannot be
/// replaced by renaming, and a file written in pieces cannot be streamed into one.
package final class TemporaryFile: Sendable {
    /// Where the file appears on `commit()`, as given.
    package let destination: String
    /// The temporary's path (hidden, beside the destination).
    package let path: String
    private let descriptor: Int32
    /// The file replaced, whose mode and owner the new one keeps (nil: a new file).
    private let replaced: stat?
    /// The resolved destination (a symbolic link's target).
    private let target: String
    private enum State { case open, committed, discarded }
    private let state = Locked(State.open)

    /// Creates the temporary beside `destination`.
    package init(destination: String) throws(AtomicFileError) {
        self.destination = destination
        var info = stat()
        var existing: stat?
        var target = destination
        if lstat(destination, &info) == 0 {
            if AtomicFile.fileType(info) == S_IFLNK, stat(destination, &info) == 0, AtomicFile.fileType(info) == S_IFREG,
               let resolved = AtomicFile.realPath(destination) {
                target = resolved
            }
            switch AtomicFile.fileType(info) {
            case S_IFREG: existing = info
            case S_IFLNK: existing = nil  // a dangling link is replaced like a new path
            case S_IFDIR: throw .notAFile(path: destination, kind: "a directory")
            case S_IFIFO: throw .notAFile(path: destination, kind: "a FIFO (a file written in pieces needs a regular file)")
            case S_IFCHR: throw .notAFile(path: destination, kind: "a character device")
            case S_IFBLK: throw .notAFile(path: destination, kind: "a block device")
            case S_IFSOCK: throw .notAFile(path: destination, kind: "a socket")
            default: throw .notAFile(path: destination, kind: "not a regular file")
            }
        }
        let (fd, temp) = try AtomicFile.createTemporary(beside: target, reportedAs: destination, flags: O_RDWR)
        descriptor = fd
        path = temp
        replaced = existing
        self.target = target
    }

    /// Writes `bytes` at `offset` (the file grows as needed; gaps read as zeros).
    package func write(_ bytes: some Collection<UInt8>, at offset: UInt64) throws(AtomicFileError) {
        let failed = bytes.withContiguousStorageIfAvailable { buffer in Self.pwriteAll(descriptor, UnsafeRawBufferPointer(buffer), offset) }
            ?? Array(bytes).withUnsafeBytes { Self.pwriteAll(descriptor, $0, offset) }
        if failed != 0 { throw .cannotWrite(path: destination, errno: failed, reason: AtomicFile.reason(failed)) }
    }

    /// `count` bytes at `offset` of what was written so far.
    package func read(at offset: UInt64, count: Int) throws(AtomicFileError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return pread(descriptor, base + done, count - done, off_t(offset) + off_t(done))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let e = n == 0 ? EIO : errno
                throw .cannotWrite(path: destination, errno: e, reason: n == 0 ? "read back past the end" : AtomicFile.reason(e))
            }
            done += n
        }
        return buffer
    }

    /// Syncs the temporary and renames it over the destination (keeping a replaced file's
    /// permissions). On failure the temporary is deleted and the destination untouched.
    package func commit() throws(AtomicFileError) {
        let proceed = state.withLock { s -> Bool in
            guard s == .open else { return false }
            s = .committed
            return true
        }
        guard proceed else { throw .cannotWrite(path: destination, errno: EBADF, reason: "already committed or discarded") }
        var failure: AtomicFileError?
        if let replaced {
            if replaced.st_uid != geteuid() || replaced.st_gid != getegid() { _ = fchown(descriptor, replaced.st_uid, replaced.st_gid) }
            if fchmod(descriptor, replaced.st_mode & 0o777) != 0 {
                let e = errno
                failure = .cannotWrite(path: destination, errno: e, reason: AtomicFile.reason(e))
            }
        }
        if failure == nil, fsync(descriptor) != 0 {
            let e = errno
            failure = .cannotWrite(path: destination, errno: e, reason: AtomicFile.reason(e))
        }
        if close(descriptor) != 0, failure == nil {
            let e = errno
            failure = .cannotWrite(path: destination, errno: e, reason: AtomicFile.reason(e))
        }
        if failure == nil, rename(path, target) != 0 {
            let e = errno
            failure = .cannotRename(path: destination, errno: e, reason: AtomicFile.reason(e))
        }
        if failure != nil { unlink(path) }
        AtomicFile.settled(path)
        if let failure { throw failure }
    }

    /// Deletes the temporary (nothing appears at the destination). Safe to call twice.
    package func discard() {
        let open = state.withLock { s -> Bool in
            guard s == .open else { return false }
            s = .discarded
            return true
        }
        guard open else { return }
        close(descriptor)
        unlink(path)
        AtomicFile.settled(path)
    }

    deinit { discard() }

    /// Writes every byte at `offset`, retrying short and interrupted writes; 0 or the errno.
    private static func pwriteAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ offset: UInt64) -> Int32 {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = pwrite(fd, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += n
        }
        return 0
    }
}
