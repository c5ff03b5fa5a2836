import Testing
@testable import MapSnap

@Suite struct DeadlineTests {
    @Test func noneNeverPasses() {
        #expect(!Deadline.none.hasPassed)
        #expect(Deadline.none.remainingSeconds == nil)
        #expect(Deadline.after(seconds: nil) == .none)
        #expect(Deadline.after(seconds: .infinity) == .none)
        #expect(Deadline.after(seconds: .nan) == .none)
    }

    @Test func zeroOrNegativeHasPassed() {
        #expect(Deadline.after(seconds: 0).hasPassed)
        #expect(Deadline.after(seconds: -5).hasPassed)
        #expect(Deadline.after(seconds: 0).remainingSeconds == 0)
    }

    @Test func laterDeadlinesSortAfter() throws {
        let soon = Deadline.after(seconds: 10), later = Deadline.after(seconds: 1000)
        #expect(!soon.hasPassed)
        #expect(soon < later && later < .none && !(Deadline.none < soon))
        #expect(Deadline.earliest(later, soon) == soon)
        #expect(Deadline.earliest(.none, soon) == soon)
        let left = try #require(later.remainingSeconds)
        #expect(left > 900 && left <= 1000)
    }
}
