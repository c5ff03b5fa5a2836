import Testing
@testable import MapSnap

@Suite struct HTTPOriginTests {
    @Test func originsAndHostKeys() throws {
        let a = try #require(HTTPOrigin("HTTPS://Tiles.Example.org/1/2/3.png"))
        #expect(a.scheme == "https" && a.host == "tiles.example.org" && a.port == 443)
        #expect(a.hostKey == "tiles.example.org:443")
        #expect(HTTPOrigin("http://127.0.0.1:8080/x")?.hostKey == "127.0.0.1:8080")
        #expect(HTTPOrigin("file:///etc/passwd") == nil)
        #expect(HTTPOrigin("not a url") == nil)
    }

    /// (from, to, allows cross-origin, followed?)
    @Test(arguments: [
        ("http://a.example/1.png", "http://a.example/2.png", false, true),
        ("http://a.example/1.png", "https://a.example/1.png", false, true),  // upgrade, same host
        ("http://a.example:8080/1.png", "https://a.example:8080/1.png", false, true),
        ("http://a.example/1.png", "https://a.example:8443/1.png", false, false),
        ("https://a.example/1.png", "http://a.example/1.png", false, false),  // downgrade
        ("https://a.example/1.png", "http://a.example/1.png", true, false),  // never, even when allowed
        ("http://a.example/1.png", "http://b.example/1.png", false, false),
        ("http://a.example/1.png", "http://b.example/1.png", true, true),
        ("http://a.example/1.png", "http://a.example:81/1.png", false, false),
        ("https://a.example/1.png", "ftp://a.example/1.png", true, false),
    ])
    func redirectPolicy(from: String, to: String, allowsCrossOrigin: Bool, followed: Bool) throws {
        let origin = try #require(HTTPOrigin(from))
        let refusal = origin.refusal(forRedirectTo: to, allowsCrossOrigin: allowsCrossOrigin)
        #expect((refusal == nil) == followed, "\(refusal ?? "followed")")
    }
}
