/// Google's `png8`: a palette PNG of at most 256 colours.
///
/// An image of 256 colours or fewer keeps them all (the palette in order of first appearance,
/// so it decodes to exactly the pixels of `png32`). A richer image is quantized by median
/// cut (Heckbert, 1982): the colour histogram is split, box by box, at the population median
/// of the channel with the widest range, always splitting the box whose population × range is
/// largest; each box's entry is its population-weighted mean; pixels take the nearest entry.
/// No dithering: drawn maps are flat areas and sharp edges, where dither noise costs bytes
/// and looks worse. Every step orders by colour value, never by hash order, so the bytes are
/// a function of the pixels alone.
enum PNG8Encoder {
    static func encode(_ canvas: Canvas) throws -> [UInt8] {
        let (palette, indices) = quantize(canvas)
        return try PNGEncoder.encodePalette(IndexedImage(colours: palette, indices: indices), width: canvas.width, height: canvas.height,
                                            maximumIDATLength: PNGEncoder.defaultMaximumIDATLength)
    }

    /// Above this many distinct colours, pixels take their median-cut box's entry instead of
    /// searching the nearest one (imagery has millions; the box entry is close anyway).
    static let nearestSearchLimit = 65_536

    /// The palette (premultiplied RGBA values as laid out in memory) and one index per pixel.
    static func quantize(_ canvas: Canvas, maximumColours: Int = 256) -> (palette: [UInt32], indices: [UInt8]) {
        let count = canvas.width * canvas.height
        let pixels: [UInt32] = canvas.pixels.withUnsafeBytes { raw in
            (0..<count).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self) }
        }
        guard !pixels.isEmpty else { return ([0], []) }
        // Histogram, and the colours in order of first appearance.
        var histogram: [UInt32: Int] = [:]
        var firstSeen: [UInt32] = []
        var run = 0
        for i in 0..<count {
            run += 1
            if i + 1 < count && pixels[i + 1] == pixels[i] { continue }
            if let n = histogram[pixels[i]] {
                histogram[pixels[i]] = n + run
            } else {
                histogram[pixels[i]] = run
                firstSeen.append(pixels[i])
            }
            run = 0
        }
        let palette: [UInt32]
        var lookup: [UInt32: UInt8] = [:]
        if firstSeen.count <= maximumColours {
            palette = firstSeen
            for (i, colour) in palette.enumerated() { lookup[colour] = UInt8(i) }
        } else {
            let entries = histogram.map { Entry(colour: $0.key, count: $0.value) }.sorted { $0.colour < $1.colour }
            let cut = medianCut(entries, boxes: maximumColours)
            palette = cut.palette
            if entries.count <= nearestSearchLimit {
                for entry in entries { lookup[entry.colour] = nearest(entry.colour, in: palette) }
            } else {
                lookup = cut.membership
            }
        }
        // Runs of one colour (most of a drawn map) reuse the previous pixel's index.
        var indices = [UInt8](repeating: 0, count: count)
        var previous = pixels[0]
        var index = lookup[previous] ?? 0
        for i in 0..<count {
            if pixels[i] != previous {
                previous = pixels[i]
                index = lookup[previous] ?? 0
            }
            indices[i] = index
        }
        return (palette, indices)
    }

    struct Entry {
        var colour: UInt32
        var count: Int
    }

    /// Channel `c` (0 red, 1 green, 2 blue, 3 alpha) of a pixel as laid out in memory.
    @inline(__always)
    static func channel(_ colour: UInt32, _ c: Int) -> Int {
        Int((UInt32(littleEndian: colour) >> UInt32(c * 8)) & 0xFF)
    }

    /// Splits the sorted histogram into at most `boxes` boxes; their mean colours, and which
    /// box's entry each colour belongs to.
    static func medianCut(_ entries: [Entry], boxes: Int) -> (palette: [UInt32], membership: [UInt32: UInt8]) {
        var entries = entries
        var ranges: [Range<Int>] = [0..<entries.count]
        var stats = [boxStats(entries[0..<entries.count])]
        while ranges.count < boxes {
            // The box to split: largest population × widest channel range (first on ties).
            var best: Int?
            for i in ranges.indices where stats[i].width > 0 && stats[i].score > (best.map { stats[$0].score } ?? 0) {
                best = i
            }
            guard let best else { break }
            let range = ranges[best]
            let c = stats[best].channel
            // A total order (channel, then colour), so the split does not depend on the sort.
            entries[range].sort { (channel($0.colour, c), $0.colour) < (channel($1.colour, c), $1.colour) }
            let half = (stats[best].population + 1) / 2
            var seen = 0
            var split = range.lowerBound + 1
            for i in range {
                seen += entries[i].count
                if seen >= half {
                    split = i + 1
                    break
                }
            }
            split = min(max(split, range.lowerBound + 1), range.upperBound - 1)
            ranges[best] = range.lowerBound..<split
            ranges.insert(split..<range.upperBound, at: best + 1)
            stats[best] = boxStats(entries[ranges[best]])
            stats.insert(boxStats(entries[ranges[best + 1]]), at: best + 1)
        }
        var palette: [UInt32] = []
        var membership: [UInt32: UInt8] = [:]
        for (i, range) in ranges.enumerated() {
            var sums = [Int](repeating: 0, count: 4)
            var population = 0
            for entry in entries[range] {
                for c in 0..<4 { sums[c] += channel(entry.colour, c) * entry.count }
                population += entry.count
                membership[entry.colour] = UInt8(i)
            }
            // Rounded means of premultiplied values stay premultiplied (each channel ≤ alpha).
            var value: UInt32 = 0
            for c in 0..<4 { value |= UInt32((sums[c] + population / 2) / max(population, 1)) << UInt32(c * 8) }
            palette.append(UInt32(littleEndian: value))
        }
        return (palette, membership)
    }

    /// What choosing the next box to split needs: its widest channel, that channel's range,
    /// its pixel count, and their product.
    struct BoxStats {
        var channel: Int
        var width: Int
        var population: Int
        var score: Int { width * population }
    }

    static func boxStats(_ entries: ArraySlice<Entry>) -> BoxStats {
        let (c, width) = widestChannel(entries)
        return BoxStats(channel: c, width: entries.count > 1 ? width : 0, population: entries.reduce(0) { $0 + $1.count })
    }

    /// The channel with the widest range among `entries`, and that range.
    static func widestChannel(_ entries: ArraySlice<Entry>) -> (channel: Int, width: Int) {
        var lo = [255, 255, 255, 255], hi = [0, 0, 0, 0]
        for entry in entries {
            for c in 0..<4 {
                let v = channel(entry.colour, c)
                lo[c] = min(lo[c], v)
                hi[c] = max(hi[c], v)
            }
        }
        var best = (channel: 0, width: -1)
        for c in 0..<4 where hi[c] - lo[c] > best.width { best = (c, hi[c] - lo[c]) }
        return best
    }

    /// The palette entry closest to `colour` (squared distance over the four premultiplied
    /// channels; the lowest index on ties).
    static func nearest(_ colour: UInt32, in palette: [UInt32]) -> UInt8 {
        let r = channel(colour, 0), g = channel(colour, 1), b = channel(colour, 2), a = channel(colour, 3)
        var best = 0, bestDistance = Int.max
        for (i, entry) in palette.enumerated() {
            let dr = channel(entry, 0) - r, dg = channel(entry, 1) - g, db = channel(entry, 2) - b, da = channel(entry, 3) - a
            let d = dr * dr + dg * dg + db * db + da * da
            if d < bestDistance {
                bestDistance = d
                best = i
            }
        }
        return UInt8(best)
    }
}
