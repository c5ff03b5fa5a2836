import Foundation

/// Finds mapsnap's bundled resource folders (`Fonts/`, `Styles/`, `Data/`) from any working
/// directory. The one search every part of the library uses (fonts, styles, the bundled
/// tiles, the place indexes, tilemaker's profile), tried in this order:
///
/// 1. beside the running executable, the installed layout: `PREFIX/bin/mapsnap` reads
///    `PREFIX/share/mapsnap/<Folder>` (symbolic links to the executable are resolved first,
///    so a link in `/usr/local/bin` to an unpacked tarball finds the tarball's `share/`);
/// 2. `$MAPSNAP_RESOURCES/<Folder>` (a container, or resources kept elsewhere);
/// 3. the checkout this file was compiled in, but only for an executable that lives inside
///    that checkout (`.build/debug/mapsnap`, the test runner) or in the SwiftPM build folder
///    holding the checkout (a package that depends on MapSnap: its checkout of it sits in
///    `SCRATCH/checkouts/`, its executables in `SCRATCH/<triple>/debug/`). An installed copy therefore never reads a checkout by accident,
///    and deleting or moving the checkout cannot change what an installed binary draws.
enum ResourceLocator {
    /// Where an installed executable's resources live, relative to the folder holding it.
    static let installedRelativePath = "../share/mapsnap"

    /// The folder `name` that contains `probe`, or the list of places searched.
    static func directory(
        named name: String, probe: String,
        environment: EnvironmentVariables = .process,
        executablePaths: [String] = ResourceLocator.executablePaths(),
        sourceFile: String = #filePath
    ) -> Result<String, ResourceNotFound> {
        var searched: [String] = []
        for root in roots(environment: environment, executablePaths: executablePaths, sourceFile: sourceFile) {
            let folder = normalized(root + "/" + name)
            if searched.contains(folder) { continue }
            searched.append(folder)
            if access(folder + "/" + probe, R_OK) == 0 { return .success(folder) }
        }
        return .failure(ResourceNotFound(folder: name, searched: searched))
    }

    /// The file `name` at the top of the first resource root that has it (`BUILD`, written by
    /// scripts/install.sh beside `Styles/`), or nil.
    static func file(
        named name: String,
        environment: EnvironmentVariables = .process,
        executablePaths: [String] = ResourceLocator.executablePaths(),
        sourceFile: String = #filePath
    ) -> String? {
        for root in roots(environment: environment, executablePaths: executablePaths, sourceFile: sourceFile) {
            let path = normalized(root + "/" + name)
            if access(path, R_OK) == 0 { return path }
        }
        return nil
    }

    /// The directories that may hold resource folders, in the order they are tried. Plain
    /// string paths, not `URL`s: `mapsnap --version` looks here and its start-up is measured.
    static func roots(environment: EnvironmentVariables, executablePaths: [String], sourceFile: String) -> [String] {
        var roots: [String] = []
        let executables = executablePaths.filter { !$0.isEmpty }.map(normalized)
        for executable in executables {
            roots.append(parent(executable) + "/" + installedRelativePath)
        }
        if let resources = environment["MAPSNAP_RESOURCES"], !resources.isEmpty {
            roots.append(resources)
        }
        // Sources/MapSnap/Support/ResourceLocator.swift → the repository root is four levels up.
        var checkout = normalized(sourceFile)
        for _ in 0..<4 { checkout = parent(checkout) }
        // A dependency's checkout sits in the consumer's build folder (`SCRATCH/checkouts/mapsnap`,
        // SCRATCH being `.build` or any `--scratch-path`), beside the executables built there.
        let scratch = checkout.range(of: "/checkouts/", options: .backwards).map { String(checkout[..<$0.lowerBound]) }
        let builtHere = executables.contains { exe in
            exe.hasPrefix(checkout == "/" ? "/" : checkout + "/") || scratch.map { exe.hasPrefix($0 + "/") } == true
        }
        if builtHere { roots.append(checkout) }
        return roots
    }

    /// `path` made absolute (against the working directory) with `.`, `..` and repeated
    /// slashes resolved lexically.
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        // Appended by hand: `joined(separator:)` on substrings costs a generic-metadata
        // lookup (~0.3 M instructions) at its first use, and this runs at start-up.
        if parts.isEmpty { return "/" }
        var out = ""
        for part in parts {
            out += "/"
            out += part
        }
        return out
    }

    /// The folder holding `path` (`/` for `/x`).
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The running executable's path, symbolic links resolved: `/proc/self/exe` (Linux), and
    /// `argv[0]` (either may be missing). Worked out once: it does not change while the process runs.
    static func executablePaths() -> [String] { runningExecutablePaths }

    private static let runningExecutablePaths: [String] = {
        var paths: [String] = []
        if let exe = realPath("/proc/self/exe") { paths.append(exe) }
        if let argv0 = CommandLine.arguments.first, !argv0.isEmpty, argv0.contains("/"),
           let resolved = realPath(argv0), !paths.contains(resolved) {
            paths.append(resolved)
        }
        return paths
    }()

    /// `realpath(3)`: absolute, every symbolic link resolved; nil when the path does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// A bundled resource folder that could not be found.
public struct ResourceNotFound: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder looked for: `Fonts`, `Styles` or `Data`.
    public var folder: String
    /// Every directory tried, in order, each once.
    public var searched: [String]
    /// One line naming what failed, where and how to fix it: the message the CLI prints.
    public var description: String {
        let places = searched.isEmpty ? "" : " (searched \(searched.joined(separator: ", ")))"
        return "cannot find mapsnap's \(folder)/ folder\(places); install mapsnap with its resources "
            + "(scripts/install.sh or the .deb/tarball from scripts/package.sh put them in PREFIX/share/mapsnap "
            + "beside PREFIX/bin/mapsnap) or set MAPSNAP_RESOURCES to the directory that contains \(folder)/"
    }
}
