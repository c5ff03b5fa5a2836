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
}
