import Foundation

/// Every command the CLI dispatches, with the option table it parses with and the help text
/// it prints: the one list the shell completions and the man page are generated from, so
/// they cannot drift from what the commands accept.
struct CommandEntry {
    /// What a command's positional arguments are, for completion.
    enum Operands: Equatable {
        case none
        /// File names.
        case files
        /// One of these words, then nothing.
        case words([String])
    }

    /// `["render"]`, `["data", "extract"]`.
    var path: [String]
    /// One line for `--help`, completion menus and the man page.
    var summary: String
    var help: String
    var options: OptionTable
    var operands: Operands

    var name: String { path.joined(separator: " ") }

    /// The long options, sorted (`--help` included).
    var longOptions: [String] { options.valued.union(options.switches).sorted() }

    /// Whether `option` (canonical long name) takes a value.
    func takesValue(_ option: String) -> Bool { options.valued.contains(option) }

    /// The short alias of `option` (`-o` for `--output`), if any.
    func shortAlias(of option: String) -> String? {
        options.aliases.filter { $0.value == option }.keys.sorted().first
    }

    /// The option's line in the help text, split into its value placeholder (`FILE.json`,
    /// `WxH`) and description; both empty when the help does not describe it.
    func documentation(of option: String) -> (placeholder: String, text: String) {
        for raw in help.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = Substring(raw.drop { $0 == " " })
            if let alias = shortAlias(of: option), line.hasPrefix(alias + ", ") { line = line.dropFirst(alias.count + 2) }
            guard line.hasPrefix(option) else { continue }
            let after = line.dropFirst(option.count)
            guard after.isEmpty || after.first == " " || after.first == "=" else { continue }
            // `--size WxH            image size…`: a placeholder, two or more spaces, the text.
            let rest = after.drop { $0 == " " || $0 == "=" }
            if let gap = rest.range(of: "  ") {
                let placeholder = rest[..<gap.lowerBound].trimmingCharacters(in: .whitespaces)
                let text = rest[gap.upperBound...].trimmingCharacters(in: .whitespaces)
                // A lone word before the gap is the placeholder only for options taking a value.
                return takesValue(option) ? (placeholder, text) : ("", (placeholder + " " + text).trimmingCharacters(in: .whitespaces))
            }
            return takesValue(option) ? (String(rest), "") : ("", String(rest))
        }
        return ("", "")
    }

    /// What an option's value is, from its placeholder in the help: a file, a folder, a style
    /// (a bundled name or a file) or free text.
    enum ValueKind: Equatable { case file, directory, style, text }

    func valueKind(of option: String) -> ValueKind {
        let placeholder = documentation(of: option).placeholder
        if option == "--style" { return .style }
        if placeholder.contains("DIR") { return .directory }
        if placeholder.contains("FILE") || placeholder.contains("SOURCE") || placeholder.contains("BASE") { return .file }
        return .text
    }
}

/// The CLI's commands, in `--help` order.
enum CommandCatalog {
    static let shells = ["bash", "zsh", "fish"]

    static let commands: [CommandEntry] = [
        CommandEntry(path: ["render"], summary: "render a map to an image", help: RenderCommand.help,
                     options: RenderCommand.options, operands: .none),
        CommandEntry(path: ["compare"], summary: "compare two PNG images perceptually", help: CompareCommand.help,
                     options: CompareCommand.options, operands: .files),
        CommandEntry(path: ["batch"], summary: "render every job of a JSON Lines file", help: BatchCommand.help,
                     options: BatchCommand.options, operands: .files),
        CommandEntry(path: ["serve"], summary: "serve the Static Maps HTTP API", help: ServeCommand.help,
                     options: ServeCommand.options, operands: .none),
        CommandEntry(path: ["info"], summary: "describe a tile source", help: InfoCommand.help,
                     options: InfoCommand.options, operands: .files),
        CommandEntry(path: ["convert"], summary: "repackage a tile archive", help: ConvertCommand.help,
                     options: ConvertCommand.options, operands: .files),
        CommandEntry(path: ["data", "extract"], summary: "cut a region out of a tile archive into the data directory",
                     help: DataExtractCommand.help, options: DataExtractCommand.options, operands: .files),
        CommandEntry(path: ["data", "build"], summary: "build a region from an OpenStreetMap extract (tilemaker)",
                     help: DataBuildCommand.help, options: DataBuildCommand.options, operands: .files),
        CommandEntry(path: ["data", "index"], summary: "build a place index from an OpenStreetMap extract",
                     help: DataBuildCommand.indexHelp, options: DataBuildCommand.indexOptions, operands: .files),
        CommandEntry(path: ["data", "list"], summary: "list the regions of the data directory",
                     help: DataCommand.listHelp, options: DataCommand.listOptions, operands: .none),
        CommandEntry(path: ["data", "remove"], summary: "remove a region from the data directory",
                     help: DataCommand.removeHelp, options: DataCommand.removeOptions, operands: .none),
        CommandEntry(path: ["completions"], summary: "print a shell completion script", help: CompletionsCommand.help,
                     options: CompletionsCommand.options, operands: .words(shells)),
    ]

    /// The top-level command names, in order (`data` once).
    static var topLevelNames: [String] {
        var names: [String] = []
        for c in commands where !names.contains(c.path[0]) { names.append(c.path[0]) }
        return names
    }

    /// The subcommands of `group` (`data` → extract, build, …).
    static func subcommands(of group: String) -> [CommandEntry] {
        commands.filter { $0.path.count == 2 && $0.path[0] == group }
    }
}
