import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps one on-disk cache folder (`TileCache.directory`) under a size cap, removing the
/// entries used longest ago first.
///
/// "Used" is the entry file's access time, which `TileCache` sets itself (explicitly, with
/// `futimens`) when it stores an entry and each time it serves one, so mount options such as
/// `noatime` or `relatime` do not matter; the modification time stays what freshness reads.
///
/// The trimmer counts the bytes stored since it last looked. When the folder may have grown
/// past the cap, the storing thread walks it (without following links), adds up every entry
/// with its `.meta` file, and removes the least recently used until the total is at most
/// `lowWater` of the cap, so that one walk makes room for many stores. One walk runs at a
/// time per folder; other stores go on meanwhile. A walk of 100 000 entries takes about a
/// second, so caps much below a typical working set make the cache churn — size it for a
/// few days of tiles.
final class TileCacheTrimmer: Sendable {
    /// After a trim the cache holds at most this share of the cap.
    static let lowWater = 0.9

    /// The trimmer of the cache folder at `directory`, shared by every cache of the process.
    static func shared(_ directory: String) -> TileCacheTrimmer {
        registry.withLock { trimmers in
            if let known = trimmers[directory] { return known }
            let made = TileCacheTrimmer(directory: directory)
            trimmers[directory] = made
            return made
        }
    }
    private static let registry = Locked<[String: TileCacheTrimmer]>([:])  // not `Mutex`: see `HostGate.state`

    let directory: String

    private struct State {
        /// Bytes in the folder when last walked plus what was stored since; nil: not walked yet.
        var estimate: Int?
        var walking = false
    }
    private let state = Locked(State())

    init(directory: String) {
        self.directory = directory
    }

    /// What one trim found and did.
    struct Outcome: Equatable, Sendable {
        var removedEntries = 0
        var removedBytes = 0
        /// Bytes left in the folder.
        var remainingBytes = 0
    }

    /// Records `bytes` just stored and trims the folder when it may be over `cap` bytes.
    func stored(_ bytes: Int, cap: Int) {
        let walk = state.withLock { s -> Bool in
            if let estimate = s.estimate { s.estimate = estimate + bytes }
            guard !s.walking, (s.estimate ?? .max) > cap else { return false }
            s.walking = true
            return true
        }
        guard walk else { return }
        let outcome = trim(cap: cap)
        state.withLock { s in
            s.estimate = outcome.remainingBytes
            s.walking = false
        }
    }

    /// Walks the folder and removes least recently used entries until it holds at most
    /// `lowWater × cap` bytes (nothing when it is within `cap`).
    @discardableResult
    func trim(cap: Int) -> Outcome {
        var entries: [Entry] = []
        var total = 0
        walk(directory, depth: 0) { entry in
            entries.append(entry)
            total += entry.bytes
        }
        var outcome = Outcome(remainingBytes: total)
        guard total > cap else { return outcome }
        let target = Int(Double(cap) * Self.lowWater)
        entries.sort { ($0.used, $0.path) < ($1.used, $1.path) }
        for entry in entries where outcome.remainingBytes > target {
            unlink(entry.path)
            unlink(entry.path + ".meta")
            outcome.removedEntries += 1
            outcome.removedBytes += entry.bytes
            outcome.remainingBytes -= entry.bytes
        }
        return outcome
    }

    /// A body (or "absent" marker) with its `.meta` file.
    private struct Entry {
        var path: String
        /// Last use: the access time `TileCache` sets, in seconds.
        var used: Double
        var bytes: Int
    }

    /// Entries below `path` (cache layouts are at most four folders deep).
    private func walk(_ path: String, depth: Int, _ visit: (Entry) -> Void) {
        guard depth <= 6, let stream = opendir(path) else { return }
        defer { closedir(stream) }
        var metas: [String: Int] = [:]
        var found: [Entry] = []
        while let record = readdir(stream) {
            let name = withUnsafeBytes(of: record.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            let child = path + "/" + name
            var info = stat()
            guard lstat(child, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                walk(child, depth: depth + 1, visit)
            case S_IFREG:
                let size = Int(info.st_size)
                if name.hasSuffix(".meta") {
                    metas[String(name.dropLast(5)), default: 0] += size
                } else if !name.hasPrefix("."), name.hasSuffix(".tile") || name.hasSuffix(".body") || name.hasSuffix(".absent") {
                    let used = Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1e9
                    // An empty "absent" marker still costs a block on most file systems.
                    found.append(Entry(path: child, used: used, bytes: max(size, 1)))
                }
            default:
                continue
            }
        }
        for var entry in found {
            let name = String(entry.path.split(separator: "/").last ?? "")
            entry.bytes += metas[name] ?? 0
            visit(entry)
        }
    }
}
