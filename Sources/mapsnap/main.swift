import Foundation
import MapSnap

/// mapsnap's entry point: dispatches subcommands and maps errors to exit codes
/// (0 ok, 1 compare mismatch, 2 bad usage/input, 3 runtime failure).
let version = MapSnapBuildInfo.version

let usage = """
mapsnap \(version) — static map images from vector tiles, raster tiles or built-in world data

USAGE:
  mapsnap render [options] -o OUT.png      render a map (mapsnap render --help)
  mapsnap compare ACTUAL.png EXPECTED.png [--threshold T] [--max-diff N|P%] [--diff OUT.png]
  mapsnap batch JOBS.jsonl --out-dir DIR [--jobs N]
  mapsnap serve [--listen HOST:PORT] [--config FILE]   serve the Static Maps HTTP API
  mapsnap info SOURCE                      describe a tile source
  mapsnap convert IN OUT                   MBTiles <-> PMTiles (OUT's extension decides)
  mapsnap data extract|build|list|remove   regions of your own city, offline (mapsnap data --help)
  mapsnap completions bash|zsh|fish        print a shell completion script
  mapsnap --help | --version [--all]       --version: the commit and the C libraries' versions

Run 'mapsnap COMMAND --help' for a command's options.
"""

// A closed pipe must be a write error (exit 3), not a silent death by SIGPIPE.
signal(SIGPIPE, SIG_IGN)

let arguments = CommandLine.arguments

// Malloc's policy for this process (ProcessMemory): before anything allocates much.
ProcessMemory.configure(command: arguments.count >= 2 ? arguments[1] : "")

guard arguments.count >= 2 else {
    Output.raw(usage)
    exit(2)
}

let command = arguments[1]
let rest = arguments.dropFirst(2)
// A killed run leaves no temporary behind: the commands that write files (serve drains on these
// signals instead; --version, whose start-up time is benchmarked, writes nothing).
if ["render", "batch", "convert", "data", "compare", "bench-encode"].contains(command) { Interruptions.shared.install() }
do {
    switch command {
    case "render": try RenderCommand.run(rest)
    case "compare": exit(CompareCommand.run(rest))
    case "batch": try BatchCommand.run(rest)
    case "info": try InfoCommand.run(rest)
    case "serve": try ServeCommand.run(rest)
    case "convert": try ConvertCommand.run(rest)
    case "data": try DataCommand.run(rest)
    case "completions": try CompletionsCommand.run(rest)
    case "bench-encode": try BenchEncodeCommand.run(rest)  // hidden: for Benchmarks/ (S3)
    case "manpage": try ManPageCommand.run(rest)  // hidden: for scripts/install.sh and package.sh
    case "--help", "-h", "help": Output.out(usage)
    case "--version", "-V": try VersionCommand.run(rest)
    default:
        let known = CommandCatalog.topLevelNames
        let hint = Suggestion.hint(for: command, among: known, quote: "'")
        throw CLIError.usage("unknown command '\(command)'\(hint); see mapsnap --help")
    }
} catch let error as CLIError {
    Output.error(error.description)
    exit(error.exitCode)
}
exit(0)
