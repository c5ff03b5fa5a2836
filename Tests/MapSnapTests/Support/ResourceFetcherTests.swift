import Foundation
import Testing
@testable import MapSnap

@Suite struct ResourceFetcherTests {
    @Test func relativeAbsoluteAndFileURLLocations() throws {
        let dir = TestPaths.temporaryDirectory()
        try Data("abc".utf8).write(to: URL(fileURLWithPath: dir + "/a b.json"))
        let fetcher = LocalResourceFetcher(baseDirectory: dir)
        #expect(try fetcher.fetch("a b.json", limit: 10) == Array("abc".utf8))
        #expect(try fetcher.fetch(dir + "/a b.json", limit: 10) == Array("abc".utf8))
        #expect(try fetcher.fetch("file://" + dir + "/a%20b.json", limit: 10) == Array("abc".utf8))
        #expect(try fetcher.fetch("file://localhost" + dir + "/a b.json", limit: 10) == Array("abc".utf8))
    }

    @Test func missingIsNilAndProblemsThrow() throws {
        let dir = TestPaths.temporaryDirectory()
        try Data("abcdef".utf8).write(to: URL(fileURLWithPath: dir + "/big"))
        let fetcher = LocalResourceFetcher(baseDirectory: dir)
        #expect(try fetcher.fetch("nope.json", limit: 10) == nil)
        #expect(throws: ResourceError.tooLarge(location: "big", limit: 3)) { try fetcher.fetch("big", limit: 3) }
        #expect(throws: ResourceError.remote(location: "https://example.com/sprite.json")) {
            try fetcher.fetch("https://example.com/sprite.json", limit: 10)
        }
        #expect(throws: ResourceError.unreadable(location: dir, reason: "is a directory, not a regular file")) {
            try fetcher.fetch(dir, limit: 10)
        }
    }

    /// What a style names resolves against its folder or its URL; a remote document may only
    /// name remote things.
    @Test(arguments: [
        ("sprites/bright", "/styles", "/styles/sprites/bright"),
        ("/abs/sprite", "/styles", "/abs/sprite"),
        ("sprites/bright", nil, "sprites/bright"),
        ("sprites/bright", "https://h.example/styles/style.json", "https://h.example/styles/sprites/bright"),
        ("../tiles.json?key=k", "https://h.example/styles/style.json", "https://h.example/tiles.json?key=k"),
        ("/tiles.json", "https://h.example/styles/style.json", "https://h.example/tiles.json"),
        ("https://other.example/s", "https://h.example/styles/style.json", "https://other.example/s"),
        ("//cdn.example/s.json", "https://h.example/styles/style.json", "https://cdn.example/s.json"),
        ("./a/../b/{z}/{x}/{y}.pbf", "http://127.0.0.1:8080/x/y.json?k=1#f", "http://127.0.0.1:8080/x/b/{z}/{x}/{y}.pbf"),
        ("../../../../t.json", "https://h.example/a/s.json", "https://h.example/t.json"),
        ("?v=2", "https://h.example/a/s.json?v=1", "https://h.example/a/s.json?v=2"),
    ] as [(String, String?, String)])
    func locationsResolve(location: String, base: String?, expected: String) throws {
        #expect(try ResourceLocation.resolve(location, against: base) == expected)
    }

    @Test(arguments: ["file:///etc/passwd", "mbtiles://x.mbtiles", "file:x"])
    func remoteDocumentsCannotNameLocalFiles(location: String) {
        #expect(throws: ResourceError.self) { try ResourceLocation.resolve(location, against: "https://h.example/style.json") }
    }

    @Test func kindsAreCheckedOnTheFirstBytes() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        let html = Array("<!DOCTYPE html><title>Quota</title>".utf8)
        #expect(ResourceKind.json.rejection(of: Array("\u{FEFF} \n {\"a\": 1}".utf8)) == nil)
        #expect(ResourceKind.json.rejection(of: html) == "expected JSON, got 35 bytes starting '<!DOCTYPE html><title>Qu'")
        #expect(ResourceKind.json.rejection(of: []) == "expected JSON, got an empty body")
        #expect(ResourceKind.png.rejection(of: png) == nil)
        #expect(ResourceKind.png.rejection(of: jpeg) != nil)
        #expect(ResourceKind.image.rejection(of: jpeg) == nil)
        #expect(ResourceKind.image.rejection(of: html)?.hasPrefix("expected a PNG or JPEG image") == true)
        #expect(ResourceKind.bytes.rejection(of: html) == nil)
    }

    @Test func aLocalFileOfTheWrongKindIsInvalid() throws {
        let dir = TestPaths.temporaryDirectory()
        try Data("<html>".utf8).write(to: URL(fileURLWithPath: dir + "/sprite.json"))
        let fetcher = LocalResourceFetcher(baseDirectory: dir)
        #expect(throws: ResourceError.invalid(location: "sprite.json", reason: "expected JSON, got 6 bytes starting '<html>'")) {
            try fetcher.fetch("sprite.json", kind: .json, limit: 100)
        }
    }
}
