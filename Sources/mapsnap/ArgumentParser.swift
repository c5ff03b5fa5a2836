import MapSnap

/// A small command-line parser: `--name value`, `--name=value`, short aliases, boolean
/// switches and positionals, in the order given (repeatable flags keep their order).
struct ParsedArguments {
    /// Options in command-line order: (canonical name, value or nil for switches).
    var options: [(name: String, value: String?)] = []
    var positionals: [String] = []

    func values(_ name: String) -> [String] { options.filter { $0.name == name }.compactMap(\.value) }
    func last(_ name: String) -> String? { values(name).last }
    func has(_ name: String) -> Bool { options.contains { $0.name == name } }
}

/// Describes the options one subcommand accepts.
struct OptionTable {
    /// Options that take a value, by canonical long name (`--size`).
    var valued: Set<String>
    /// Switches that take no value.
    var switches: Set<String>
    /// Short aliases (`-o` → `--output`).
    var aliases: [String: String] = [:]

    func parse(_ args: ArraySlice<String>) throws(CLIError) -> ParsedArguments {
        var out = ParsedArguments()
        var i = args.startIndex
        var onlyPositionals = false
        while i < args.endIndex {
            let a = args[i]
            i += 1
            if onlyPositionals || a == "-" || !a.hasPrefix("-") {
                out.positionals.append(a)
                continue
            }
            if a == "--" { onlyPositionals = true; continue }
            var name = a
            var inline: String?
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                name = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            // Messages name the flag as the user typed it (`-o`, not `--output`).
            let typed = name
            if let long = aliases[name] { name = long }
            if switches.contains(name) {
                if inline != nil { throw CLIError.usage("\(typed) takes no value") }
                out.options.append((name, nil))
            } else if valued.contains(name) {
                if let v = inline {
                    out.options.append((name, v))
                } else {
                    guard i < args.endIndex else { throw CLIError.usage("\(typed) needs a value") }
                    out.options.append((name, args[i]))
                    i += 1
                }
            } else {
                let known = (valued.union(switches)).sorted()
                let hint = Suggestion.hint(for: name, among: known, maxDistance: 3, quote: "")
                throw CLIError.usage("unknown option \(a)\(hint)")
            }
        }
        return out
    }
}
