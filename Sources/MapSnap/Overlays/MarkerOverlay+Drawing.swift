import Foundation

extension MarkerOverlay {
    /// How titles are set: size and halo in points, gap to the marker in points, colours.
    enum Title {
        static let sizePoints = 13.0
        static let haloPoints = 2.0
        static let gapPoints = 3.0
        static let color = Color(rgb: 0x202124)
        static let haloColor = Color.white
    }

    /// How a snippet (the second line under a title) is set, in points.
    enum Snippet {
        static let sizePoints = 11.0
        static let color = Color(rgb: 0x5F6368)
    }

    /// Size of the title's box in pixels (halo included), snippet line below it included;
    /// nil without either, and for a callout (its title is inside the bubble).
    func titleSize(scale: Double, text: TextEngine) -> (width: Double, height: Double)? {
        if case .callout = style { return nil }
        let head = (title ?? "").isEmpty ? nil
            : text.measure(title ?? "", sizePoints: Title.sizePoints, bold: false, scale: scale, haloPoints: Title.haloPoints)
        let tail = (snippet ?? "").isEmpty ? nil
            : text.measure(snippet ?? "", sizePoints: Snippet.sizePoints, bold: false, scale: scale, haloPoints: Title.haloPoints)
        switch (head, tail) {
        case (nil, nil): return nil
        case let (h?, nil): return h
        case let (nil, t?): return t
        case let (h?, t?): return (max(h.width, t.width), h.height + t.height)
        }
    }

    /// The spots a title may take beside the marker's box, best first: right, left, below,
    /// above. Camera fitting reserves room for the first.
    func titleCandidates(beside box: PixelRect, size: (width: Double, height: Double), scale: Double) -> [PixelRect] {
        let gap = Title.gapPoints * scale
        let midY = (box.minY + box.maxY) / 2, midX = (box.minX + box.maxX) / 2
        let w = size.width, h = size.height
        return [
            PixelRect(x: box.maxX + gap, y: midY - h / 2, width: w, height: h),
            PixelRect(x: box.minX - gap - w, y: midY - h / 2, width: w, height: h),
            PixelRect(x: midX - w / 2, y: box.maxY + gap, width: w, height: h),
            PixelRect(x: midX - w / 2, y: box.minY - gap - h, width: w, height: h),
        ]
    }

    /// How far the drawing (shadow and rim included) and the title on its first spot stick
    /// out from the coordinate, in pixels, for camera fitting.
    func fitMargins(scale s: Double, text: TextEngine, icons: IconStore) -> OverlayMargins {
        var m = OverlayMargins()
        switch style {
        case .pin(let size):
            let pin = PinShape(size: size).margins(scale: s)
            m = OverlayMargins(left: pin.left, top: pin.top, right: pin.right, bottom: pin.bottom)
        case .dot(let diameter):
            m = .uniform((diameter / 2 + Self.dotRimPoints) * s)
        case .icon(let path, let anchor):
            // An unreadable icon fails the render when drawn; fitting just ignores it.
            if let image = try? icons.image(at: path) {
                let a = iconAnchor(anchor, image)
                let k = iconPixelScale(s)
                m = OverlayMargins(left: a.x * k, top: a.y * k,
                                   right: (Double(image.width) - a.x) * k, bottom: (Double(image.height) - a.y) * k)
            }
        case .callout:
            let b = CalloutShape(text: title ?? "", scale: s, engine: text).size
            m = OverlayMargins(left: b.width / 2, top: b.height, right: b.width / 2, bottom: 0)
        }
        if let size = titleSize(scale: s, text: text) {
            m.right += size.width + Title.gapPoints * s
        }
        return m
    }

    /// The icon pixel that sits on the coordinate: the style's anchor, else a named one, else
    /// the bottom centre (Google's default).
    private func iconAnchor(_ anchor: PixelPoint?, _ image: Canvas) -> PixelPoint {
        anchor ?? (iconAnchorFraction ?? IconAnchorFraction(x: 0.5, y: 1)).point(width: image.width, height: image.height)
    }

    /// Image pixels per icon pixel at the render's `scale` (device pixels per point).
    private func iconPixelScale(_ scale: Double) -> Double {
        iconScale.isFinite && iconScale > 0 ? scale / iconScale : scale
    }

    /// White rim around a dot marker, in points.
    static let dotRimPoints = 1.5

    /// The box the marker's drawing occupies, which base-map labels and other titles avoid.
    func box(in ctx: OverlayContext) throws(OverlayError) -> PixelRect {
        let at = ctx.camera.point(for: coordinate)
        let scale = ctx.scale
        switch style {
        case .pin(let size):
            let shape = PinShape(size: size)
            let r = shape.headRadius * scale
            return PixelRect(minX: at.x - r, minY: at.y - shape.height * scale, maxX: at.x + r, maxY: at.y)
        case .dot(let diameter):
            let r = (diameter / 2 + Self.dotRimPoints) * scale
            return PixelRect(minX: at.x - r, minY: at.y - r, maxX: at.x + r, maxY: at.y + r)
        case .icon(let path, let anchor):
            let image = try ctx.icons.image(at: path)
            let a = iconAnchor(anchor, image)
            let k = iconPixelScale(scale)
            return PixelRect(x: at.x - a.x * k, y: at.y - a.y * k,
                             width: Double(image.width) * k, height: Double(image.height) * k)
        case .callout:
            let b = CalloutShape(text: title ?? "", scale: scale, engine: ctx.text).size
            return PixelRect(x: at.x - b.width / 2, y: at.y - b.height, width: b.width, height: b.height)
        }
    }

    /// Draws the marker (not its title).
    func draw(in ctx: OverlayContext) throws(OverlayError) {
        let at = ctx.camera.point(for: coordinate)
        let scale = ctx.scale
        let canvas = ctx.canvas
        guard opacity > 0 else { return }
        // Every colour of the marker carries its opacity (1: unchanged).
        let o: (Color) -> Color = { [opacity] c in opacity >= 1 ? c : c.withOpacity(opacity) }
        switch style {
        case .pin(let size):
            let shape = PinShape(size: size)
            let outline = shape.path(tip: at, scale: scale)
            // A soft shadow offset down-right, then the body, then a darker rim.
            canvas.fill(outline.mapPoints { PixelPoint(x: $0.x + 1.2 * scale, y: $0.y + 1.2 * scale) },
                        color: o(Color(red: 0, green: 0, blue: 0, alpha: 50)))
            canvas.fill(outline, color: o(color))
            canvas.stroke(outline, style: StrokeStyle(width: max(1, 1 * scale), join: .round),
                          color: o(MarkerPalette.rim(for: color)))
            let head = PixelPoint(x: at.x, y: at.y - shape.headCenterOffset * scale)
            if let label, !label.isEmpty, shape.labelSize > 0 {
                ctx.text.drawCentered(label, at: head, sizePoints: label.count > 2 ? shape.labelSize * 0.75 : shape.labelSize,
                                      bold: true, color: o(MarkerPalette.label(for: color)), scale: scale, on: canvas)
            } else {
                var dot = Path()
                dot.addCircle(center: head, radius: shape.headRadius * 0.36 * scale)
                canvas.fill(dot, color: o(MarkerPalette.rim(for: color)))
            }
        case .dot(let diameter):
            let r = diameter / 2 * scale
            var circle = Path()
            circle.addCircle(center: at, radius: r + Self.dotRimPoints * scale)
            canvas.fill(circle, color: o(.white))
            var inner = Path()
            inner.addCircle(center: at, radius: r)
            canvas.fill(inner, color: o(color))
            canvas.stroke(circle, style: StrokeStyle(width: 0.8 * scale), color: o(Color(red: 0, green: 0, blue: 0, alpha: 90)))
            if let label, !label.isEmpty, diameter >= 12 {
                ctx.text.drawCentered(label, at: at, sizePoints: diameter * 0.6, bold: true,
                                      color: o(MarkerPalette.label(for: color)), scale: scale, on: canvas)
            }
        case .icon(let path, let anchor):
            let image = try ctx.icons.image(at: path)
            let k = iconPixelScale(scale)
            let w = Double(image.width) * k, h = Double(image.height) * k
            let a = iconAnchor(anchor, image)
            canvas.draw(image, in: PixelRect(x: at.x - a.x * k, y: at.y - a.y * k, width: w, height: h), opacity: min(opacity, 1))
        case .callout:
            CalloutShape(text: title ?? "", scale: scale, engine: ctx.text).draw(tip: at, fill: o(color), opacity: min(opacity, 1),
                                                                                on: canvas)
        }
    }

    /// Draws the title into the box chosen for it (halo included).
    func drawTitle(in rect: PixelRect, _ ctx: OverlayContext) {
        guard opacity > 0 else { return }
        let o: (Color) -> Color = { [opacity] c in opacity >= 1 ? c : c.withOpacity(opacity) }
        var top = rect.minY
        if let title, !title.isEmpty {
            ctx.text.draw(title, in: PixelRect(x: rect.minX, y: top, width: rect.width, height: rect.height),
                          sizePoints: Title.sizePoints, bold: false, color: o(Title.color),
                          haloColor: o(Title.haloColor), haloPoints: Title.haloPoints, scale: ctx.scale, on: ctx.canvas)
            top += ctx.text.measure(title, sizePoints: Title.sizePoints, bold: false, scale: ctx.scale, haloPoints: Title.haloPoints).height
        }
        if let snippet, !snippet.isEmpty {
            ctx.text.draw(snippet, in: PixelRect(x: rect.minX, y: top, width: rect.width, height: rect.maxY - top),
                          sizePoints: Snippet.sizePoints, bold: false, color: o(Snippet.color),
                          haloColor: o(Title.haloColor), haloPoints: Title.haloPoints, scale: ctx.scale, on: ctx.canvas)
        }
    }
}

/// Colours derived from a marker's fill.
enum MarkerPalette {
    /// A darker rim of the same hue.
    static func rim(for c: Color) -> Color {
        Color(red: UInt8(Double(c.red) * 0.62), green: UInt8(Double(c.green) * 0.62),
              blue: UInt8(Double(c.blue) * 0.62), alpha: max(c.alpha, 200))
    }

    /// Black or white, whichever reads better on the fill (WCAG relative luminance).
    static func label(for c: Color) -> Color {
        func lin(_ v: UInt8) -> Double {
            let s = Double(v) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        let l = 0.2126 * lin(c.red) + 0.7152 * lin(c.green) + 0.0722 * lin(c.blue)
        return l > 0.4 ? Color(rgb: 0x202124) : .white
    }
}
