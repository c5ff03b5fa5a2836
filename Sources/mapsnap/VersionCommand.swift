import MapSnap

/// `mapsnap --version [--all]`: mapsnap's version and commit, where its resources are, and one
/// line per C library with the version this process runs with. Start-up time is benchmarked
/// through this command, so HarfBuzz, libcurl and libmicrohttpd (loaded on first use: ~15 ms
/// for libcurl, a few for HarfBuzz and GLib) are only loaded to be asked with `--all`.
enum VersionCommand {
    static let options = OptionTable(valued: [], switches: ["--all"])

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try options.parse(arguments)
        if let extra = args.positionals.first { throw .usage("--version: unexpected argument '\(extra)'") }
        var lines = ["mapsnap \(MapSnapBuildInfo.version) (commit \(MapSnapBuildInfo.commit ?? "unknown: not installed by scripts/install.sh or package.sh"))"]
        switch MapSnapBuildInfo.resourceFolder("Styles", containing: "normal.json") {
        case .success(let styles): lines.append("resources \(String(styles.dropLast("/Styles".count)))")
        case .failure: lines.append("resources not found (see scripts/install.sh or set MAPSNAP_RESOURCES)")
        }
        for library in MapSnapBuildInfo.libraryVersions(loadingOnDemandLibraries: args.has("--all")) {
            lines.append(library.description)
        }
        Output.out(lines.joined(separator: "\n"))
    }
}
