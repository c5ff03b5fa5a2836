import Testing
@testable import MapSnap

@Suite struct ResponseCacheTests {
    func entry(_ size: Int, _ byte: UInt8 = 1) -> ResponseCache.Entry {
        ResponseCache.Entry(contentType: "image/png", body: HTTPBody([UInt8](repeating: byte, count: size)), note: "")
    }

    @Test func leastRecentlyUsedImagesLeaveFirstWithinTheBudget() {
        let cache = ResponseCache(budget: 1_000)
        cache.store(entry(100, 1), for: "a")
        cache.store(entry(100, 2), for: "b")
        cache.store(entry(100, 3), for: "c")
        #expect(cache.entry(for: "a")?.body.array.first == 1)  // a is now the most recent
        for i in 0..<8 { cache.store(entry(100), for: "filler\(i)") }
        // 1,100 bytes stored: one image leaves, and b is the least recently used.
        #expect(cache.statistics.bytes <= 1_000)
        #expect(cache.entry(for: "b") == nil)
        #expect(cache.entry(for: "a") != nil)
        let stats = cache.statistics
        #expect(stats.hits == 2 && stats.misses == 1)
    }

    @Test func replacingAnImageCountsItsBytesOnce() {
        let cache = ResponseCache(budget: 1_000)
        cache.store(entry(100), for: "a")
        cache.store(entry(120), for: "a")
        #expect(cache.statistics.bytes == 120 && cache.statistics.count == 1)
    }

    @Test func oneHugeImageDoesNotEmptyTheCacheAndZeroTurnsItOff() {
        let cache = ResponseCache(budget: 1_000)
        cache.store(entry(100), for: "a")
        cache.store(entry(200), for: "huge")  // over an eighth of the budget
        #expect(cache.entry(for: "huge") == nil && cache.entry(for: "a") != nil)
        let off = ResponseCache(budget: 0)
        off.store(entry(1), for: "a")
        #expect(off.entry(for: "a") == nil && off.statistics.misses == 0)
    }
}
