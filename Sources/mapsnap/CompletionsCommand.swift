import Foundation
import MapSnap

/// `mapsnap completions bash|zsh|fish`: prints a completion script for the shell, generated
/// from the commands' option tables and help texts (`CompletionScript`).
enum CompletionsCommand {
    static let help = """
    USAGE: mapsnap completions bash|zsh|fish

    Prints a shell completion script: commands, options, file and folder arguments, and the
    bundled style names for --style. Installed by scripts/install.sh; by hand:
      mapsnap completions bash > ~/.local/share/bash-completion/completions/mapsnap
      mapsnap completions zsh > ~/.zfunc/_mapsnap      (a folder on $fpath)
      mapsnap completions fish > ~/.config/fish/completions/mapsnap.fish
    """

    static let options = OptionTable(valued: [], switches: ["--help"], aliases: ["-h": "--help"])

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try options.parse(arguments)
        if args.has("--help") { Output.out(help); return }
        guard args.positionals.count == 1, let shell = args.positionals.first else {
            throw .usage("completions: expected one shell: bash, zsh or fish (see mapsnap completions --help)")
        }
        guard let script = CompletionScript(styles: bundledStyles()).text(for: shell) else {
            throw .usage("completions: unknown shell '\(shell)'; expected bash, zsh or fish")
        }
        Output.out(script.hasSuffix("\n") ? String(script.dropLast()) : script)
    }

    /// The bundled style names (`normal`, `terrain`…): the `.json` files of the Styles folder,
    /// or none when it is not found (the script then completes file names only).
    static func bundledStyles() -> [String] {
        guard case .success(let dir) = MapSnapBuildInfo.resourceFolder("Styles", containing: "normal.json") else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }
}
