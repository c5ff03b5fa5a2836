import Testing
@testable import MapSnap

@Test func canvasStartsTransparent() {
    let c = Canvas(width: 2, height: 2)
    #expect(c.color(atX: 1, y: 1) == .clear)
}
