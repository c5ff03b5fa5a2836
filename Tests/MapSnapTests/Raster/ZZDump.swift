import Testing
import Foundation
@testable import MapSnap

@Test func zzDumpVisual() throws {
    let c = Canvas(width: 400, height: 300, fill: .white)
    let styles: [(LineCap, LineJoin)] = [(.butt, .miter), (.round, .round), (.square, .bevel)]
    for (i, (cap, join)) in styles.enumerated() {
        var p = Path()
        let ox = Double(i) * 130 + 20
        p.move(to: PixelPoint(x: ox, y: 120))
        p.line(to: PixelPoint(x: ox + 40, y: 30))
        p.line(to: PixelPoint(x: ox + 60, y: 110))
        p.line(to: PixelPoint(x: ox + 100, y: 108))
        p.line(to: PixelPoint(x: ox + 20, y: 100))
        c.stroke(p, style: StrokeStyle(width: 14, cap: cap, join: join), color: Color(rgba: 0x0000FF80))
        c.stroke(p, style: StrokeStyle(width: 1), color: .black)
    }
    var circle = Path()
    circle.addCircle(center: PixelPoint(x: 80, y: 210), radius: 50)
    c.stroke(circle, style: StrokeStyle(width: 6, dash: [20, 8, 2, 8]), color: Color(rgba: 0xCC0000FF))
    var star = Path()
    for k in 0..<5 {
        let a = Double(k) * 4 * Double.pi / 5 - Double.pi / 2
        let pt = PixelPoint(x: 220 + 60 * cos(a), y: 210 + 60 * sin(a))
        if k == 0 { star.move(to: pt) } else { star.line(to: pt) }
    }
    star.close()
    c.fill(star, color: Color(rgba: 0x00AA00FF), rule: .evenOdd)
    for k in 0..<12 {
        var l = Path()
        l.move(to: PixelPoint(x: 300, y: 160 + Double(k) * 10))
        l.line(to: PixelPoint(x: 390, y: 165 + Double(k) * 10.7))
        c.stroke(l, style: StrokeStyle(width: 0.3 + Double(k) * 0.25, cap: .round), color: .black)
    }
    let data = Data(c.pixels)
    try data.write(to: URL(fileURLWithPath: "/tmp/raster-dump.rgba"))
}
