import Foundation

/// Finds mapsnap's bundled resource folders (`Fonts/`, `Styles/`, `Data/`) from any working
/// directory: `$MAPSNAP_RESOURCES/<folder>`, then the directories above the running
/// executable (so `.build/release/mapsnap` finds the checkout it was built in, and an
/// installed `prefix/bin/mapsnap` finds `prefix/…`), then the repository this file was
/// compiled from.
enum ResourceLocator {
    /// The folder `name` that contains `probe`, or the list of places searched.
    static func directory(
        named name: String, probe: String,
        environment: EnvironmentVariables = .process,
        executablePaths: [String] = ResourceLocator.executablePaths(),
        sourceFile: String = #filePath
    ) -> Result<String, ResourceNotFound> {
        var searched: [String] = []
        func check(_ dir: URL) -> String? {
            let folder = dir.appendingPathComponent(name)
            searched.append(folder.path)
            return FileManager.default.isReadableFile(atPath: folder.appendingPathComponent(probe).path) ? folder.path : nil
        }
        if let resources = environment["MAPSNAP_RESOURCES"], !resources.isEmpty,
           let found = check(URL(fileURLWithPath: resources)) {
            return .success(found)
        }
        for executable in executablePaths where !executable.isEmpty {
            var dir = URL(fileURLWithPath: executable).deletingLastPathComponent().standardizedFileURL
            for _ in 0..<64 {  // bounded walk to the filesystem root
                if let found = check(dir) { return .success(found) }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        // Sources/MapSnap/Support/ResourceLocator.swift → the repository root is four levels up.
        var root = URL(fileURLWithPath: sourceFile)
        for _ in 0..<4 { root = root.deletingLastPathComponent() }
        if let found = check(root) { return .success(found) }
        return .failure(ResourceNotFound(folder: name, searched: searched))
    }

    /// The running executable's path from `/proc/self/exe` and `argv[0]` (either may be missing).
    static func executablePaths() -> [String] {
        var paths: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            paths.append(exe)
        }
        if let argv0 = CommandLine.arguments.first, !argv0.isEmpty {
            let url = argv0.hasPrefix("/")
                ? URL(fileURLWithPath: argv0)
                : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(argv0)
            paths.append(url.standardizedFileURL.path)
        }
        return paths
    }
}

/// A bundled resource folder that could not be found.
public struct ResourceNotFound: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder looked for: `Fonts`, `Styles` or `Data`.
    public var folder: String
    /// Every directory tried, in order.
    public var searched: [String]
    /// One line naming what failed, where and why: the message the CLI prints.
    public var description: String {
        "cannot find mapsnap's \(folder)/ folder (searched \(searched.joined(separator: ", "))); set MAPSNAP_RESOURCES to the directory that contains it"
    }
}
