import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which version of a file is at a path: device, inode, size and modification time (to the
/// nanosecond). A file replaced by another (`mv new old`, a copy, a rewrite) gets another
/// stamp even when size and second match: a new inode, or a new modification time.
/// Caches of what was read from a file (opened sources, prepared styles, `ETag`s) include it,
/// so a data file replaced while a server runs is read again from the next request.
enum FileStamp {
    /// The stamp of the file at `path` (links followed), or nil when there is none.
    static func of(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
