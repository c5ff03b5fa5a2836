import Testing
@testable import MapSnap

/// `Parallel.map`: every index once, results in index order, on any number of threads.
struct ParallelTests {
    @Test(arguments: [nil, 1, 2, 7] as [Int?])
    func mapKeepsIndexOrder(maxThreads: Int?) {
        #expect(Parallel.map(0, maxThreads: maxThreads) { $0 }.isEmpty)
        #expect(Parallel.map(1, maxThreads: maxThreads) { "\($0)" } == ["0"])
        #expect(Parallel.map(500, maxThreads: maxThreads) { $0 * $0 } == (0..<500).map { $0 * $0 })
    }
}
