import Testing
@testable import MapSnap

/// `Canvas.isOpaque` reads alphas eight pixels at a time: one translucent pixel anywhere —
/// in a full group of eight or in the tail — makes the canvas not opaque.
@Suite struct CanvasOpacityTests {
    @Test func oneTranslucentPixelAnywhereIsFound() {
        for (width, height) in [(1, 1), (3, 1), (8, 1), (9, 2), (5, 5), (17, 3)] {
            let opaque = Canvas(width: width, height: height, fill: Color(red: 10, green: 20, blue: 30))
            #expect(opaque.isOpaque, "\(width)×\(height)")
            for k in 0..<(width * height) {
                for alpha: UInt8 in [0, 254] {
                    let canvas = Canvas(width: width, height: height, fill: Color(red: 10, green: 20, blue: 30))
                    canvas.pixels[k * 4 + 3] = alpha
                    #expect(!canvas.isOpaque, "\(width)×\(height), pixel \(k), alpha \(alpha)")
                }
            }
        }
    }
}
