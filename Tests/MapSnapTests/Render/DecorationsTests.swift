import Foundation
import Testing
@testable import MapSnap

/// The attribution and scale bar on images of every size: the credit stays whole and legible
/// on a thumbnail, and the scale bar gives way where it has no room.
@Suite struct DecorationsTests {
    static let credit = "© OpenStreetMap contributors · GSHHG, GeoNames"

    static func decorations(width: Int, height: Int, scale: Double = 1) -> Decorations {
        Decorations(camera: Camera(center: LatLng(60.1699, 24.9384), zoom: 15, width: width, height: height, scale: scale),
                    canvas: Canvas(width: Int(Double(width) * scale), height: Int(Double(height) * scale)),
                    text: MapRenderer.shared.text)
    }

    /// Every line of the credit as laid out fits the width it was laid out in.
    static func fits(_ d: Decorations, _ l: Decorations.AttributionLayout) -> Bool {
        let m = d.text.measure(credit, sizePoints: l.sizePoints, bold: false, scale: d.scale, haloPoints: 0,
                               maxWidthPixels: l.maxWidth)
        return m.width <= l.maxWidth + 0.5
    }

    @Test func anOrdinaryImageKeepsTheUsualCreditAndScaleBar() throws {
        let d = Self.decorations(width: 600, height: 400)
        let l = try #require(d.attributionLayout(Self.credit))
        #expect(l.sizePoints == Decorations.attributionSize)
        #expect(l.maxWidth == d.attributionMaxWidth)
        #expect(Self.fits(d, l))
        #expect(d.scaleBarLayout(beside: l.rect) != nil)
    }

    @Test(arguments: [(64, 64, 1.0), (96, 96, 1.0), (64, 48, 2.0), (80, 60, 1.0)])
    func aThumbnailCreditWidensOrShrinksToFit(width: Int, height: Int, scale: Double) throws {
        let d = Self.decorations(width: width, height: height, scale: scale)
        let l = try #require(d.attributionLayout(Self.credit))
        // At 10 pt within the usual width a word overflows (the text would be cut at the left edge).
        let usual = d.text.measure(Self.credit, sizePoints: Decorations.attributionSize, bold: false, scale: scale,
                                   haloPoints: 0, maxWidthPixels: d.attributionMaxWidth)
        #expect(usual.width > d.attributionMaxWidth + 0.5)
        #expect(Self.fits(d, l), "size \(l.sizePoints) pt, width \(l.maxWidth)")
        // Taking the whole width first, then smaller type.
        #expect(l.maxWidth > d.attributionMaxWidth)
        #expect(l.sizePoints >= Decorations.minimumAttributionSize)
        #expect(l.rect.minX >= 0 && l.rect.maxX <= Double(d.canvas.width))
        // The bottom row is the credit's: no scale bar under or beside it.
        if let bar = d.scaleBarLayout(beside: l.rect) { #expect(!bar.box.intersects(l.rect)) }
    }

    @Test func theScaleBarGivesWayToTheCredit() throws {
        let d = Self.decorations(width: 64, height: 64)
        let l = try #require(d.attributionLayout(Self.credit))
        #expect(d.scaleBarLayout(beside: nil) != nil)
        #expect(d.scaleBarLayout(beside: l.rect) == nil)
    }

    /// A credit of several lines on a 140×100 map reaches into the bar's row: the bar gets shorter
    /// (a rounder distance) and ends before the credit instead of running under its box.
    @Test func aScaleBarShortensToEndBeforeTheCredit() throws {
        let d = Self.decorations(width: 140, height: 100)
        let l = try #require(d.attributionLayout(Self.credit))
        let widest = try #require(d.scaleBarLayout(beside: nil))
        #expect(widest.box.intersects(l.rect), "the case needs a credit in the bar's way: \(widest.box) \(l.rect)")
        let bar = try #require(d.scaleBarLayout(beside: l.rect))
        #expect(!bar.box.intersects(l.rect))
        #expect(bar.bar.pixels < widest.bar.pixels && bar.bar.pixels >= 8)
    }

    @Test func aScaleBarThatDoesNotFitTheImageIsLeftOut() {
        // 33×17 pt at @3x: the bar's label would stick out of the top.
        let d = Self.decorations(width: 33, height: 17, scale: 3)
        #expect(d.scaleBarLayout(beside: nil) == nil)
        #expect(Self.decorations(width: 200, height: 100, scale: 3).scaleBarLayout(beside: nil) != nil)
    }

    /// Drawn: a 64×64 render's bottom-left corner is the credit's white box, not the scale
    /// bar's dark ink.
    @Test func aThumbnailDrawsTheCreditAcrossTheBottom() throws {
        let d = Self.decorations(width: 64, height: 64)
        d.draw(attribution: Self.credit, caption: nil, scaleBar: true)
        let l = try #require(d.attributionLayout(Self.credit))
        #expect(l.rect.minX < 8, "the credit spans the width: \(l.rect)")
        let bottomLeft = d.canvas.color(atX: Int(l.rect.minX.rounded(.up)) + 1, y: 62)
        #expect(bottomLeft.alpha > 0 && bottomLeft.red > 200, "\(bottomLeft)")
    }
}
