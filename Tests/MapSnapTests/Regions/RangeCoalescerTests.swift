import MapSnapTesting
import Testing
@testable import MapSnap

/// Coalescing many wanted byte ranges into few reads: touching ranges always joined, gaps
/// bridged smallest first within the overfetch budget, reads capped in size.
@Suite struct RangeCoalescerTests {
    typealias Read = RangeCoalescer.Read

    @Test func withoutABudgetOnlyTouchingRangesAreJoined() {
        let reads = RangeCoalescer(overfetch: 0, maxReadBytes: 1 << 20).plan([(0, 10), (10, 5), (20, 5), (25, 1)])
        #expect(reads == [Read(offset: 0, length: 15, pieces: 0..<2), Read(offset: 20, length: 6, pieces: 2..<4)])
    }

    @Test func gapsAreBridgedSmallestFirstWithinTheBudget() {
        // 400 bytes wanted, 10 % is a budget of 40 bytes. Gaps of 1, 30, 50 and 5 bytes:
        // smallest first bridges 1, 5 and 30 (36 bytes); the 50 no longer fits.
        let pieces: [(UInt64, UInt64)] = [(0, 100), (101, 100), (231, 100), (381, 50), (436, 50)]
        let reads = RangeCoalescer(overfetch: 0.1, maxReadBytes: 1 << 20).plan(pieces)
        #expect(reads == [Read(offset: 0, length: 331, pieces: 0..<3), Read(offset: 381, length: 105, pieces: 3..<5)])
    }

    @Test func readsStopAtTheSizeCapButALargeRangeIsReadWhole() {
        let reads = RangeCoalescer(overfetch: 1, maxReadBytes: 250).plan([(0, 100), (100, 100), (200, 100), (300, 1000), (1300, 10)])
        #expect(reads.map(\.length).allSatisfy { $0 <= 250 || $0 == 1000 })
        #expect(reads.contains(Read(offset: 300, length: 1000, pieces: 3..<4)))
        #expect(reads.count == 4)
    }

    @Test func overlappingRangesShareARead() {
        let reads = RangeCoalescer(overfetch: 0, maxReadBytes: 1 << 20).plan([(0, 50), (10, 10), (40, 30), (500, 10)])
        #expect(reads == [Read(offset: 0, length: 70, pieces: 0..<3), Read(offset: 500, length: 10, pieces: 3..<4)])
    }

    @Test func everyRangeIsReadOnceAndTheWasteStaysInTheBudget() {
        let seed: UInt64 = 71
        var g = SeededGenerator(seed: seed)
        for round in 0..<200 {
            var pieces: [(offset: UInt64, length: UInt64)] = []
            var at: UInt64 = g.next() % 1000
            for _ in 0..<(1 + Int(g.next() % 60)) {
                let length = 1 + g.next() % 5000
                pieces.append((at, length))
                at += length + (g.next() % 4 == 0 ? 0 : g.next() % 20_000)
            }
            let overfetch = Double(g.next() % 50) / 100, cap = UInt64(4000 + g.next() % 40_000)
            let reads = RangeCoalescer(overfetch: overfetch, maxReadBytes: cap).plan(pieces)
            let asked = pieces.reduce(0) { $0 + $1.length }
            let read = reads.reduce(0) { $0 + $1.length }
            #expect(read - asked <= UInt64(Double(asked) * overfetch), "seed \(seed) round \(round)")
            #expect(reads.flatMap { Array($0.pieces) } == Array(pieces.indices), "seed \(seed) round \(round)")
            for r in reads {
                #expect(r.length <= cap || r.pieces.count == 1, "seed \(seed) round \(round)")
                for i in r.pieces {
                    #expect(pieces[i].offset >= r.offset && pieces[i].offset + pieces[i].length <= r.offset + r.length)
                }
            }
            #expect(zip(reads, reads.dropFirst()).allSatisfy { $0.offset + $0.length < $1.offset || $0.length + $1.length > cap },
                    "seed \(seed) round \(round): touching reads left apart")
        }
    }
}
