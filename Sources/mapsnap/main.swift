import Foundation
import MapSnap

/// mapsnap's entry point: dispatches subcommands and maps errors to exit codes
/// (0 ok, 1 compare mismatch, 2 bad usage/input, 3 runtime failure).
let version = "0.1.0"

let usage = """
mapsnap \(version) — static map images from vector tiles, raster tiles or built-in world data

USAGE:
  mapsnap render [options] -o OUT.png      render a map (mapsnap render --help)
  mapsnap compare ACTUAL.png EXPECTED.png [--threshold T] [--max-diff N|P%] [--diff OUT.png]
  mapsnap batch JOBS.jsonl --out-dir DIR [--jobs N]
  mapsnap serve [--listen HOST:PORT] [--config FILE]   serve the Static Maps HTTP API
  mapsnap info SOURCE                      describe a tile source
  mapsnap convert IN.mbtiles OUT.pmtiles   repackage tiles as PMTiles
  mapsnap --help | --version

Run 'mapsnap COMMAND --help' for a command's options.
"""

// A closed pipe must be a write error (exit 3), not a silent death by SIGPIPE.
signal(SIGPIPE, SIG_IGN)

// Malloc for a render's buffers. Buffers of 1 MiB or more (canvases, PNG rows, a
// million-point route's arrays) are mapped on their own and returned to the system when
// freed: glibc's default raises this threshold after the first such buffer is freed, so
// later large temporaries stay in the heap and the peak resident size grows by their sum (a
// 1M-point route: 212 → 147 MiB). Smaller ones — a decoded 256-px tile is 256 KiB — come
// from the heap, which grows and shrinks in steps of several MiB: every mmap, munmap or
// heap growth takes the address space's lock for writing, and the other threads' page
// faults wait for it (decoding tiles on two threads, one mmap per tile, spent milliseconds
// asleep in page faults; the S1 route image −6 ms, a 1M-point route's peak +4 MiB).
// `mallopt` and its parameters (M_TRIM_THRESHOLD −1, M_TOP_PAD −2, M_MMAP_THRESHOLD −3)
// live in malloc.h, which Swift's Glibc module does not import; the function is looked up
// in the C library (RTLD_DEFAULT is the null handle).
if let symbol = dlsym(nil, "mallopt") {
    let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    _ = mallopt(-3, 1 << 20)   // M_MMAP_THRESHOLD
    _ = mallopt(-2, 4 << 20)   // M_TOP_PAD
    _ = mallopt(-1, 8 << 20)   // M_TRIM_THRESHOLD
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    Output.raw(usage)
    exit(2)
}

let command = arguments[1]
let rest = arguments.dropFirst(2)
do {
    switch command {
    case "render": try RenderCommand.run(rest)
    case "compare": exit(CompareCommand.run(rest))
    case "batch": try BatchCommand.run(rest)
    case "info": try InfoCommand.run(rest)
    case "serve": try ServeCommand.run(rest)
    case "convert": try ConvertCommand.run(rest)
    case "bench-encode": try BenchEncodeCommand.run(rest)  // hidden: for Benchmarks/ (S3)
    case "--help", "-h", "help": Output.out(usage)
    case "--version", "-V": Output.out("mapsnap \(version)")
    default:
        let known = ["render", "compare", "batch", "info", "convert", "serve"]
        let hint = known.min { editDistance($0, command) < editDistance($1, command) }
            .flatMap { editDistance($0, command) <= 2 ? " (did you mean '\($0)'?)" : nil } ?? ""
        throw CLIError.usage("unknown command '\(command)'\(hint); see mapsnap --help")
    }
} catch let error as CLIError {
    Output.error(error.description)
    exit(error.exitCode)
}
exit(0)
