import Foundation

/// What this copy of mapsnap is: its version, the commit it was installed from and (in
/// `MapSnapBuildInfo+Libraries.swift`) the C libraries it runs with. `mapsnap --version` prints
/// it; a user comparing renders from two machines needs it, since exact pixels depend on the
/// FreeType and codec versions.
public enum MapSnapBuildInfo {
    /// mapsnap's version (the release tag), also sent in the HTTP `User-Agent`.
    public static let version = "0.1.0"

    /// The commit this copy was installed or packaged from, as scripts/install.sh and
    /// scripts/package.sh record it in `share/mapsnap/BUILD` (a `-dirty` suffix when that
    /// checkout had uncommitted changes); nil for a binary run from its build folder, where
    /// no such record exists (the checkout's current commit need not be what was built).
    public static var commit: String? {
        commit(buildFile: ResourceLocator.file(named: "BUILD"))
    }

    /// The bundled resource folder `folder` (`Styles`, `Fonts`, `Data`) that holds `probe`,
    /// found as every render finds it: `PREFIX/share/mapsnap` beside the executable, then
    /// `$MAPSNAP_RESOURCES`, then the checkout of a binary built in one.
    public static func resourceFolder(_ folder: String, containing probe: String) -> Result<String, ResourceNotFound> {
        ResourceLocator.directory(named: folder, probe: probe)
    }

    /// The `commit` line of a BUILD file (`commit 0123abc…`), or nil.
    static func commit(buildFile path: String?) -> String? {
        guard let path, let data = FileManager.default.contents(atPath: path), data.count <= 4096 else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0] == "commit" else { continue }
            let value = parts[1].trimmingSpaces()
            // A hash, perhaps with -dirty: nothing else is passed on as a commit.
            let allowed = Set("0123456789abcdef-dirty")
            if !value.isEmpty, value.count <= 64, value.allSatisfy({ allowed.contains($0) }) { return value }
        }
        return nil
    }
}
