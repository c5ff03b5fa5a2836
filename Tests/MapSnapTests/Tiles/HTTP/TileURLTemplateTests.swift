import Foundation
import Testing
@testable import MapSnap

@Suite struct TileURLTemplateTests {
    /// (template, z, x, y, scale, expected URL)
    @Test(arguments: [
        ("https://{s}.tile.example.org/{z}/{x}/{y}.png", 2, 1, 3, 1.0, "https://b.tile.example.org/2/1/3.png"),
        ("https://{s}.tile.example.org/{z}/{x}/{y}.png", 2, 0, 0, 1.0, "https://a.tile.example.org/2/0/0.png"),
        ("https://{s}.tile.example.org/{z}/{x}/{y}.png", 2, 1, 1, 1.0, "https://c.tile.example.org/2/1/1.png"),
        ("https://t.example.org/{z}/{x}/{y}{r}.png", 5, 17, 10, 2.0, "https://t.example.org/5/17/10@2x.png"),
        ("https://t.example.org/{z}/{x}/{y}{r}.png", 5, 17, 10, 1.5, "https://t.example.org/5/17/10.png"),
        ("https://t.example.org/{z}/{x}/{y}{r}.png", 5, 17, 10, 4.0, "https://t.example.org/5/17/10@2x.png"),
        ("http://tms.example.org/{z}/{x}/{-y}.jpg", 3, 2, 1, 1.0, "http://tms.example.org/3/2/6.jpg"),
        ("http://tms.example.org/{z}/{x}/{-y}.jpg", 0, 0, 0, 1.0, "http://tms.example.org/0/0/0.jpg"),
        // Bing's documented example: level 3, x 3, y 5 → "213".
        ("http://ecn.example.org/a{quadkey}.jpeg?g=1", 3, 3, 5, 1.0, "http://ecn.example.org/a213.jpeg?g=1"),
        ("http://ecn.example.org/a{quadkey}.jpeg", 0, 0, 0, 1.0, "http://ecn.example.org/a.jpeg"),
        ("HTTPS://T.example.org/{z}/{x}/{y}", 22, 4194303, 0, 1.0, "HTTPS://T.example.org/22/4194303/0"),
    ])
    func expansion(template: String, z: Int, x: Int, y: Int, scale: Double, expected: String) throws {
        let t = try TileURLTemplate(template)
        let tile = try #require(TileID(z: z, x: x, y: y))
        #expect(t.expand(tile, scale: scale) == expected)
    }

    @Test func subdomainIsAFixedFunctionOfTheTile() throws {
        let t = try TileURLTemplate("https://{s}.example.org/{z}/{x}/{y}.png", subdomains: ["t0", "t1"])
        let tile = try #require(TileID(z: 10, x: 500, y: 301))
        let first = t.expand(tile, scale: 1)
        for _ in 0..<5 { #expect(t.expand(tile, scale: 1) == first) }
        #expect(first == "https://t1.example.org/10/500/301.png")
        // Horizontal neighbours alternate hosts.
        let right = try #require(TileID(z: 10, x: 501, y: 301))
        #expect(t.subdomain(for: right) == "t0")
    }

    /// (template, subdomains, words the reason must contain)
    @Test(arguments: [
        ("ftp://example.org/{z}/{x}/{y}.png", ["a"], "http"),
        ("example.org/{z}/{x}/{y}.png", ["a"], "http"),
        ("http://example.org/{z}/{x}.png", ["a"], "{y}"),
        ("http://example.org/tiles.png", ["a"], "{z}"),
        ("http://example.org/{z}/{x}/{y", ["a"], "unclosed"),
        ("http://example.org/{zoom}/{x}/{y}", ["a"], "{zoom}"),
        ("http://{s}.example.org/{z}/{x}/{y}", [], "subdomain"),
        ("http:///{z}/{x}/{y}", ["a"], "host"),
    ] as [(String, [String], String)])
    func invalidTemplatesSayWhy(template: String, subdomains: [String], word: String) {
        do {
            _ = try TileURLTemplate(template, subdomains: subdomains)
            Issue.record("accepted \(template)")
        } catch {
            guard case .invalidTemplate(let t, let reason) = error else { Issue.record("\(error)"); return }
            #expect(t == template)
            #expect(reason.contains(word), "\(reason)")
            #expect(error.description.contains(template))
        }
    }

    @Test func pathExtensionGivesTheFormat() throws {
        #expect(try TileURLTemplate("https://x.org/{z}/{x}/{y}.PNG?key=1").pathExtension == "png")
        #expect(try TileURLTemplate("https://x.org/{z}/{x}/{y}").pathExtension == nil)
        #expect(try HTTPTileSource(template: "https://x.org/{z}/{x}/{y}.pbf").metadata.format == .mvt)
        #expect(try HTTPTileSource(template: "https://x.org/{z}/{x}/{y}.jpg").metadata.format == .jpg)
    }
}
