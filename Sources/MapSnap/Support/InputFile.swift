import Foundation

/// read(2), named apart from `InputFile.read` (inside the type, that name means the method).
private func readChunk(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// Why a user's file could not be read. `reason` says why without the path, for stage errors
/// that name the path as the user wrote it; `description` says both.
enum InputFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(path: String)
    case permissionDenied(path: String)
    /// A directory, FIFO, socket or device: `kind` names it.
    case notRegularFile(path: String, kind: String)
    /// Larger than the caller's limit; `byteCount` is the size when the file system said it.
    case tooLarge(path: String, byteCount: Int?, limit: Int)
    case readFailed(path: String, reason: String)

    var path: String {
        switch self {
        case let .notFound(path), let .permissionDenied(path), let .notRegularFile(path, _),
             let .tooLarge(path, _, _), let .readFailed(path, _):
            return path
        }
    }

    var reason: String {
        switch self {
        case .notFound: return "no such file"
        case .permissionDenied: return "permission denied"
        case let .notRegularFile(_, kind): return "is \(kind), not a regular file"
        case let .tooLarge(_, count?, limit): return "\(count) bytes is more than the limit of \(limit)"
        case let .tooLarge(_, nil, limit): return "larger than the limit of \(limit) bytes"
        case let .readFailed(_, reason): return reason
        }
    }

    var description: String { "\(path): \(reason)" }
}

/// Reads whole user files (specs, GeoJSON, GPX, styles, job lists, images to compare, icons),
/// the one way mapsnap does it:
/// - only regular files: a directory, device or FIFO is refused by name. The file is opened
///   with `O_NONBLOCK`, so a FIFO with no writer cannot hang the open, and is then checked
///   with `fstat` before anything is read;
/// - a size cap checked against the file's size before reading, and again while reading
///   (a file may grow), so nothing above `limit` is ever held in memory;
/// - errors that name the path and the reason.
enum InputFile {
    static func read(_ path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw .notFound(path: path)
            case EACCES, EPERM: throw .permissionDenied(path: path)
            default: throw .readFailed(path: path, reason: systemMessage(code))
            }
        }
        defer { _ = close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .readFailed(path: path, reason: systemMessage(errno)) }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else { throw .notRegularFile(path: path, kind: kindName(type)) }
        let size = Int(status.st_size)
        guard size <= limit else { throw .tooLarge(path: path, byteCount: size, limit: limit) }

        // One byte of room past the expected size shows whether the file grew.
        var buffer = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while true {
            if count == buffer.count {
                guard buffer.count <= limit else { throw .tooLarge(path: path, byteCount: nil, limit: limit) }
                let more = Swift.min(Swift.max(buffer.count, 1 << 16), limit + 1 - buffer.count)
                buffer.append(contentsOf: repeatElement(0, count: more))
            }
            let n = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return readChunk(fd, base + count, raw.count - count)
            }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .readFailed(path: path, reason: systemMessage(code))
            }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { throw .tooLarge(path: path, byteCount: nil, limit: limit) }
        buffer.removeLast(buffer.count - count)
        return buffer
    }

    private static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "a special file"
        }
    }

    private static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text).lowercased()
    }
}
