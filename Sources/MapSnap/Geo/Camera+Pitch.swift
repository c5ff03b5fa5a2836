import Foundation

/// A tilted view, in MapLibre GL's perspective.
///
/// MapLibre's camera looks at the centre from `eyeDistance` = 0.5 / tan(fov/2) image heights
/// (fov 0.6435 rad, see `Camera+Distance.swift`), tilted by the pitch about the centre, then
/// turned by the bearing: its projection matrix is
/// perspective × translate(0, 0, −D) × rotateX(pitch) × rotateZ(−bearing) × translate(−centre).
/// On the ground plane that is a homography of the flat (turned, untilted) image: with
/// (u, v) a flat pixel's offset from the centre, s = sin pitch, c = cos pitch,
///
///     x = W/2 + u / (1 − v·s/D)      y = H/2 + v·c / (1 − v·s/D)
///
/// so the centre keeps its scale, rows stay rows, and the ground's scale on image row y is
/// `groundScale(atRow:)` = 1 + (y − H/2)·tan(pitch)/D, linear in y and 0 on the horizon.
///
/// Far away the ground shrinks: the image is drawn in horizontal bands (`pitchBands`), each
/// from a north-up frame at its own zoom, and nothing beyond `farGroundScale` is drawn —
/// the rows above it are sky.
extension Camera {
    /// The steepest pitch mapsnap draws, degrees (MapLibre allows 85 too).
    public static let maximumPitch = 85.0

    /// The ground scale (relative to the centre's) at which the ground ends and the sky
    /// begins: 2^−3.5, about 1/11 — three zoom levels and a half below the centre, as far as
    /// a band of its own can be drawn from tiles three levels lower.
    static let farGroundScale = 0.08838834764831845

    /// Whether the view is tilted.
    var isPitched: Bool { pitch != 0 }

    /// The same view untilted (centre, zoom, heading kept).
    var flat: Camera {
        var c = self
        c.pitch = 0
        return c
    }

    /// Device pixels from the eye to the centre: 1.5 image heights, whatever the pitch.
    var eyeDistance: Double { Camera.distancePerHeight * Double(pixelHeight) }

    private var pitchSinCos: (sin: Double, cos: Double) {
        let r = pitch * .pi / 180
        return (sin(r), cos(r))
    }

    /// The homography from the flat image's pixels (`flat`) to this image's.
    var pitchTransform: PixelTransform {
        let (s, c) = pitchSinCos
        let w = Double(pixelWidth), h = Double(pixelHeight), dist = eyeDistance
        // With u = x − W/2, v = y − H/2:  X = u + (W/2)(1 − v·s/D),  Y = c·v + (H/2)(1 − v·s/D),
        // depth = 1 − v·s/D.
        let d = c - h * s / (2 * dist)
        return PixelTransform(a: 1, b: 0, c: -w * s / (2 * dist), d: d,
                              tx: w * h * s / (4 * dist), ty: h / 2 - d * h / 2,
                              g: 0, h: -s / dist, i: 1 + s * h / (2 * dist))
    }

    /// The depth (1 at the centre; 1 / ground scale) of a world point: ≤ 0 behind the eye.
    func depth(forWorld p: WorldPoint) -> Double {
        isPitched ? pitchTransform.depth(flat.pixel(forWorld: p)) : 1
    }

    /// The ground's scale on image row `y`, relative to the centre's (≤ 0 above the horizon).
    func groundScale(atRow y: Double) -> Double {
        1 + (y - Double(pixelHeight) / 2) * tan(pitch * .pi / 180) / eyeDistance
    }

    /// The image row where the ground's scale is `k` (the inverse of `groundScale(atRow:)`).
    func row(forGroundScale k: Double) -> Double {
        Double(pixelHeight) / 2 + (k - 1) * eyeDistance / tan(pitch * .pi / 180)
    }

    /// Rows above the far limit, drawn as sky (0 when the ground reaches the top).
    var skyRows: Int {
        guard isPitched else { return 0 }
        return Int(min(Double(pixelHeight), max(0, row(forGroundScale: Camera.farGroundScale).rounded(.up))))
    }

    /// Depth below which geometry lies under the image's bottom edge: half the bottom row's.
    var minimumDrawnDepth: Double { 0.5 / groundScale(atRow: Double(pixelHeight)) }

    /// The flat image's pixel seen at image pixel `p` (rows above the far limit: the far
    /// limit's row).
    func flatPixel(forImagePixel p: PixelPoint) -> PixelPoint {
        let c = pitchSinCos.cos
        let w = Double(pixelWidth), h = Double(pixelHeight)
        let k = max(Camera.farGroundScale, groundScale(atRow: p.y))
        let yy = (k - 1) * eyeDistance / tan(pitch * .pi / 180)
        // Inverting x = W/2 + u·k, y = H/2 + v·c·k (k = 1 / depth, see the type's comment).
        return PixelPoint(x: (p.x - w / 2) / k + w / 2, y: yy / (c * k) + h / 2)
    }

    /// The world point under image pixel `p` (unwrapped; the far limit above it).
    func worldPoint(forImagePixel p: PixelPoint) -> WorldPoint {
        let f = flatPixel(forImagePixel: p)
        let c = centerWorld, s = worldSize
        var dx = f.x - Double(pixelWidth) / 2, dy = f.y - Double(pixelHeight) / 2
        if isRotated {
            let (cs, sn) = headingCosSin
            (dx, dy) = (cs * dx - sn * dy, sn * dx + cs * dy)
        }
        return WorldPoint(x: c.x + dx / s, y: c.y + dy / s)
    }

    /// The world rectangle around the ground a pitched camera shows (bottom corners and the
    /// top corners or the far limit's).
    var pitchedWorldRect: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let w = Double(pixelWidth), h = Double(pixelHeight), top = Double(skyRows)
        let corners = [PixelPoint(x: 0, y: top), PixelPoint(x: w, y: top), PixelPoint(x: 0, y: h), PixelPoint(x: w, y: h)]
            .map(worldPoint(forImagePixel:))
        return (corners.map(\.x).min() ?? 0, corners.map(\.y).min() ?? 0, corners.map(\.x).max() ?? 0, corners.map(\.y).max() ?? 0)
    }

    /// The horizontal bands a pitched image is drawn in, nearest (bottom) first.
    ///
    /// Band *j* holds the rows whose ground scale rounds to 2^−j (within a factor √2 either
    /// way) and is drawn from a north-up frame at zoom z − j: far bands load fewer tiles of
    /// lower zooms, and their style widths and sizes are those of their zoom. Band zooms stay
    /// in 0…22 (bands that would leave it merge). Empty for a flat camera.
    var pitchBands: [PitchBand] {
        guard isPitched else { return [] }
        let h = pixelHeight
        let bottomScale = groundScale(atRow: Double(h))
        func level(_ k: Double) -> Int { Int((-log2(k)).rounded()) }
        let nearest = level(bottomScale), farthest = level(Camera.farGroundScale * 1.0001)
        var bands: [PitchBand] = []
        var lower = h
        var j = nearest
        while lower > skyRows, j <= farthest {
            // Rows of band j: down to where the scale reaches 2^(−j−0.5).
            let boundary = j >= farthest ? Double(skyRows) : row(forGroundScale: pow(2, -Double(j) - 0.5))
            var upper = Int(min(Double(lower), max(Double(skyRows), boundary.rounded())))
            let bandZoom = zoom - Double(j)
            // At zoom 0 every farther band would have the same frame: this one takes them in.
            if bandZoom <= 0 { upper = skyRows }
            if upper < lower {
                bands.append(band(rows: upper..<lower, zoom: min(22, max(0, bandZoom))))
            }
            lower = upper
            j += 1
        }
        return bands
    }

    /// The band of image rows `rows`, drawn from a north-up frame at `frameZoom` that holds
    /// its ground with two frame pixels to spare.
    private func band(rows: Range<Int>, zoom frameZoom: Double) -> PitchBand {
        let w = Double(pixelWidth)
        let corners = [PixelPoint(x: 0, y: Double(rows.lowerBound)), PixelPoint(x: w, y: Double(rows.lowerBound)),
                       PixelPoint(x: 0, y: Double(rows.upperBound)), PixelPoint(x: w, y: Double(rows.upperBound))]
            .map(worldPoint(forImagePixel:))
        let minX = corners.map(\.x).min() ?? 0, maxX = corners.map(\.x).max() ?? 0
        let minY = corners.map(\.y).min() ?? 0, maxY = corners.map(\.y).max() ?? 0
        let frameWorldSize = WebMercator.worldSize(zoom: frameZoom, scale: scale)
        let fw = (maxX - minX) * frameWorldSize + 4, fh = (maxY - minY) * frameWorldSize + 4
        var centre = WebMercator.unproject(WorldPoint(x: (minX + maxX) / 2, y: min(1, max(0, (minY + maxY) / 2))))
        centre.longitude = Camera.normalizedLongitude(centre.longitude)
        let frame = Camera(center: centre, zoom: frameZoom, width: max(1, Int((fw / scale).rounded(.up))),
                           height: max(1, Int((fh / scale).rounded(.up))), scale: scale)
        // Frame pixel → world → this camera's flat pixel (affine), then the tilt.
        let fc = frame.centerWorld, c = centerWorld, s = worldSize
        // The frame's centre may be a whole world away from ours (longitudes normalised).
        let fcx = nearestCopy(fc.x, to: c.x)
        let m = s / frame.worldSize
        let ox = -m * Double(frame.pixelWidth) / 2 + (fcx - c.x) * s
        let oy = -m * Double(frame.pixelHeight) / 2 + (fc.y - c.y) * s
        let (cs, sn) = isRotated ? headingCosSin : (1, 0)
        let toFlat = PixelTransform(a: cs * m, b: -sn * m, c: sn * m, d: cs * m,
                                    tx: cs * ox + sn * oy + Double(pixelWidth) / 2,
                                    ty: -sn * ox + cs * oy + Double(pixelHeight) / 2)
        return PitchBand(rows: rows, camera: frame, toImage: pitchTransform.after(toFlat))
    }
}
