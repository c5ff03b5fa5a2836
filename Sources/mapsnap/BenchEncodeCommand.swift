import Foundation
import MapSnap

/// `mapsnap bench-encode IN.png`: times the production PNG encoder alone, for the S3
/// scenario of `Benchmarks/` (which needs the encode time without the render around it).
/// Hidden: not listed in `mapsnap --help`.
enum BenchEncodeCommand {
    static let help = """
    USAGE: mapsnap bench-encode IN.png [--repeat N] [-o OUT.png]

    Decodes IN.png once, encodes the canvas N times (default 5) with mapsnap's PNG encoder,
    allowed one thread per core as after a render, and prints one JSON object:
    {"width","height","median_ms","min_ms","max_ms","bytes"}.
    -o writes the encoded PNG.
    """

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try OptionTable(valued: ["--repeat", "-o"], switches: ["--help"], aliases: ["-h": "--help"]).parse(arguments)
        if args.has("--help") { Output.out(help); return }
        guard args.positionals.count == 1, let path = args.positionals.first else {
            throw .usage("bench-encode: expected one IN.png (see mapsnap bench-encode --help)")
        }
        var repeats = 5
        if let text = args.last("--repeat") {
            guard let n = Int(text), (1...10_000).contains(n) else {
                throw .usage("bench-encode: --repeat \(text): expected a count from 1 to 10000")
            }
            repeats = n
        }
        let canvas: Canvas
        do {
            canvas = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), origin: path)
        } catch let error as PNGError {
            throw .input("\(error)")
        } catch {
            throw .runtime("\(path): \(error.localizedDescription)")
        }
        // What a render gives its encoder by default (MapSnapshotOptions.maximumThreads nil).
        canvas.maximumThreads = ProcessInfo.processInfo.activeProcessorCount
        var times: [Double] = []
        var png: [UInt8] = []
        let clock = ContinuousClock()
        for _ in 0..<repeats {
            do {
                let elapsed = try clock.measure { png = try PNGCodec.encode(canvas) }
                times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            } catch {
                throw .runtime("\(error)")
            }
        }
        if let out = args.last("-o") {
            do { try AtomicFile.write(png, to: out) } catch { throw .runtime("\(out): \(error)") }
        }
        times.sort()
        let median = times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
        func ms(_ v: Double) -> String { String(format: "%.3f", v) }
        Output.out("{\"width\": \(canvas.width), \"height\": \(canvas.height), \"median_ms\": \(ms(median)), "
                   + "\"min_ms\": \(ms(times[0])), \"max_ms\": \(ms(times[times.count - 1])), \"bytes\": \(png.count)}")
    }
}
