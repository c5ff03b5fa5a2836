import Foundation
import MapSnap

/// Hidden `mapsnap manpage [--date YYYY-MM-DD]`: prints mapsnap(1) in roff, generated from the
/// `--help` texts (`ManPage`). The date defaults to the last commit's (SOURCE_DATE_EPOCH), so a
/// package built twice from one commit carries the same page.
enum ManPageCommand {
    static let options = OptionTable(valued: ["--date"], switches: ["--help"], aliases: ["-h": "--help"])

    static func run(_ arguments: ArraySlice<String>) throws(CLIError) {
        let args = try options.parse(arguments)
        if args.has("--help") { Output.out("USAGE: mapsnap manpage [--date YYYY-MM-DD]   (prints mapsnap(1) in roff)"); return }
        if let extra = args.positionals.first { throw .usage("manpage: unexpected argument '\(extra)'") }
        var date = args.last("--date")
        if date == nil, let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap(Double.init) {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = "yyyy-MM-dd"
            date = f.string(from: Date(timeIntervalSince1970: epoch))
        }
        guard let date, date.count == 10, date.allSatisfy({ $0.isNumber || $0 == "-" }) else {
            throw .usage("manpage: --date YYYY-MM-DD (or SOURCE_DATE_EPOCH) is needed")
        }
        let page = ManPage.roff(version: MapSnapBuildInfo.version, date: date)
        Output.out(page.hasSuffix("\n") ? String(page.dropLast()) : page)
    }
}
