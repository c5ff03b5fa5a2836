import Foundation
import Testing
@testable import MapSnap

/// Every render setting the CLI takes goes through `RenderSpecBuilder`, so a flag and the
/// JSON key or server parameter for the same setting are parsed and checked in one place.
struct CLIFlagRoutingTests {
    /// The lines of `Sources/mapsnap` that assign a builder's options, or its directions,
    /// directly — the flags that bypassed the builder.
    static func bypassingLines() throws -> [String] {
        let folder = TestPaths.repositoryRoot + "/Sources/mapsnap"
        var found: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), code.range(of: #"\b(b|builder|defaults)\.(options|directions)\.[A-Za-z.]+\s*="#,
                                                         options: .regularExpression) != nil else { continue }
                found.append("\(name):\(number + 1): \(code)")
            }
        }
        return found
    }

    @Test func noFlagBypassesTheBuilder() throws {
        let lines = try Self.bypassingLines()
        #expect(lines.isEmpty, "set these through a RenderSpecBuilder method (Inputs/RenderSpecBuilder+Limits.swift):\n\(lines.joined(separator: "\n"))")
    }

    /// The builder's limits answer with the messages the CLI has always printed.
    @Test(arguments: [
        ("--timeout", "0", "--timeout 0: expected seconds, more than 0 and at most 600"),
        ("--timeout", "nan", "--timeout nan: expected seconds, more than 0 and at most 600"),
        ("--max-connections", "65", "--max-connections 65: expected a whole number 1-64"),
        ("--max-size", "0", "--max-size 0: expected a whole number of pixels 1-65536"),
        ("--max-pixels", "268435457", "--max-pixels 268435457: expected a whole number of pixels 1-268435456"),
        ("--render-timeout", "-1", "--render-timeout -1: expected seconds from 0 (no limit) to 86400"),
    ])
    func limitsAreChecked(flag: String, value: String, message: String) {
        var b = RenderSpecBuilder()
        do {
            switch flag {
            case "--timeout": try b.setHTTPTimeout(value, origin: flag)
            case "--max-connections": try b.setMaximumConnections(value, origin: flag)
            case "--max-size": try b.setMaximumPixelSize(value, origin: flag)
            case "--max-pixels": try b.setMaximumPixelCount(value, origin: flag)
            default: try b.setRenderTimeout(value, origin: flag)
            }
            Issue.record("\(flag) \(value) was accepted")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func limitsAreSet() throws {
        var b = RenderSpecBuilder()
        try b.setHTTPTimeout("2.5", origin: "--timeout")
        try b.setMaximumConnections("3", origin: "--max-connections")
        try b.setMaximumPixelSize("1000", origin: "--max-size")
        try b.setMaximumPixelCount("1000000", origin: "--max-pixels")
        try b.setRenderTimeout("0", origin: "--render-timeout")
        b.setOffline(true)
        b.setAllowsCrossOriginRedirects(true)
        b.setCacheDirectory("/tmp/c")
        b.setDataDirectory("/tmp/d")
        b.setShowsSteps(true)
        let o = b.options
        #expect(o.http.timeout == 2.5 && o.http.maxConcurrentRequests == 3 && o.maximumPixelSize == 1000)
        #expect(o.maximumPixelCount == 1_000_000 && o.renderTimeout == nil)
        #expect(o.http.offline && o.http.allowsCrossOriginRedirects && o.http.cacheDirectory == "/tmp/c")
        #expect(o.dataDirectory == "/tmp/d" && b.directions.showsSteps)
        try b.setRenderTimeout("12", origin: "--render-timeout")
        #expect(b.options.renderTimeout == 12)
    }
}
