import Foundation
import MapSnap

/// The one rule for files and folders the user names on the command line (README, "Exit
/// codes"): a path that names nothing, the wrong kind of thing (a folder where a file goes,
/// a file where a folder goes, a FIFO or device), or something mapsnap may not open is bad
/// input — exit 2, one line naming the flag (or command) and the path once. Checked before
/// any work starts, so nothing is written. A failure while reading a file that opened (an
/// I/O error) stays a runtime failure (exit 3), reported where it happens.
enum InputPath {
    /// What a path must name.
    enum Kind {
        /// A regular file (or a link to one).
        case file
        /// A directory.
        case directory
        /// A regular file or a directory (a tile source: an archive or a z/x/y folder).
        case fileOrDirectory
    }

    /// Checks that `path` exists, is of `kind` and can be opened; `label` names where it came
    /// from: a flag (`--gpx`) or a command (`info:`), printed before the path.
    static func check(_ path: String, _ kind: Kind, label: String) throws(CLIError) {
        if let problem = problem(path, kind) { throw .input("\(label) \(path): \(problem)") }
    }

    /// Checks a tile source given by `label`: local paths only (URLs and URL templates are
    /// the network's to judge).
    static func checkSource(_ location: String, label: String) throws(CLIError) {
        guard !location.contains("://") else { return }
        try check(location, .fileOrDirectory, label: label)
    }

    /// Checks that `path`, when it exists, is a directory (a data or cache folder that is
    /// made when missing).
    static func checkOptionalDirectory(_ path: String, label: String) throws(CLIError) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT != S_IFDIR { throw .input("\(label) \(path): is \(kindName(info.st_mode)), not a directory") }
    }

    /// Why `path` is not a usable `kind`, or nil when it is.
    static func problem(_ path: String, _ kind: Kind) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            switch errno {
            case EACCES: return "permission denied"
            case ENOENT, ENOTDIR:
                switch kind {
                case .file: return "no such file"
                case .directory: return "no such directory"
                case .fileOrDirectory: return "no such file or directory"
                }
            default: return String(cString: strerror(errno)).lowercased()
            }
        }
        let type = info.st_mode & S_IFMT
        switch (kind, type) {
        case (.file, S_IFREG), (.fileOrDirectory, S_IFREG):
            return access(path, R_OK) == 0 ? nil : "permission denied"
        case (.directory, S_IFDIR), (.fileOrDirectory, S_IFDIR):
            return access(path, R_OK | X_OK) == 0 ? nil : "permission denied"
        case (.directory, _):
            return "is \(kindName(info.st_mode)), not a directory"
        default:
            return "is \(kindName(info.st_mode)), not a \(kind == .file ? "file" : "file or directory")"
        }
    }

    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a file"
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "a special file"
        }
    }
}
