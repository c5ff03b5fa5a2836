/// Loads the sprite sheets a style names, for one render pixel ratio.
///
/// For each sheet, `BASE@2x.json` + `BASE@2x.png` are tried first at a pixel ratio of 2 or
/// more, `BASE.json` + `BASE.png` first below that, and the other pair when the first is
/// missing (icons are then resampled to size). A query string stays at the end
/// (`…/sprite?key=k` → `…/sprite@2x.json?key=k`).
///
/// A sheet that cannot be had (missing files, a remote URL that could not be fetched now or
/// is not in the cache offline) leaves its icons and patterns out with one warning; a sheet that is there but malformed is an
/// error, since it is bad input that would otherwise draw wrong.
enum SpriteLoader {
    /// - Parameters:
    ///   - override: replaces the `default` sheet (or the style's only sheet): a local copy
    ///     of a remote sprite (`--sprite`, a spec's `sprite`).
    static func load(_ style: Style, override: String?, pixelRatio: Double, fetcher: any ResourceFetching,
                     overrideFetcher: any ResourceFetching, warnings: inout [String]) throws(SpriteError) -> SpriteSheet {
        var sheets = style.sprites.map { (sprite: $0, fetcher: fetcher, given: false) }
        if let override {
            let slot = sheets.firstIndex { $0.sprite.id == StyleSprite.defaultID } ?? (sheets.count == 1 ? 0 : nil)
            let id = slot.map { sheets[$0].sprite.id } ?? StyleSprite.defaultID
            let entry = (sprite: StyleSprite(id: id, url: override), fetcher: overrideFetcher, given: true)
            if let slot { sheets[slot] = entry } else { sheets.insert(entry, at: 0) }
        }
        var out = SpriteSheet()
        for (sprite, fetcher, given) in sheets {
            let prefix = sprite.id == StyleSprite.defaultID ? "" : sprite.id + ":"
            let variants = pixelRatio >= 2 ? ["@2x", ""] : ["", "@2x"]
            let shown = URLRedaction.redact(sprite.url)
            var loaded = false
            do {
                for v in variants {
                    guard let index = try fetcher.fetch(location(sprite.url, v, ".json"), kind: .json, limit: SpriteSheet.maximumIndexBytes),
                          let image = try fetcher.fetch(location(sprite.url, v, ".png"), kind: .png, limit: SpriteSheet.maximumImageBytes)
                    else { continue }
                    try out.add(index: index, image: image, origin: URLRedaction.redact(location(sprite.url, v, "")), prefix: prefix,
                                defaultPixelRatio: v.isEmpty ? 1 : 2)
                    loaded = true
                    break
                }
            } catch let error as SpriteError {
                throw error
            } catch let error as ResourceError {
                if case .remote = error, !given {
                    warnings.append("sprite \(shown): remote sprites are not fetched; icons and patterns are left out (give a local copy with --sprite PATH)")
                    continue
                }
                // Offline first: a sheet the network cannot give now costs its icons, not the map.
                if error.isTransient, !given {
                    warnings.append("sprite \(error); icons and patterns are left out")
                    continue
                }
                throw SpriteError.unreadable(origin: error.location, reason: error.reason)
            } catch {
                throw SpriteError.unreadable(origin: shown, reason: "\(error)")
            }
            if !loaded {
                let what = given ? "--sprite \(shown)" : "sprite \(shown)"
                warnings.append("\(what): no \(URLRedaction.redact(location(sprite.url, "", ".json"))) and .png (nor @2x); icons and patterns are left out")
            }
        }
        if out.skippedEntries > 0 {
            warnings.append("sprite: \(out.skippedEntries) images lie outside their sheet and are left out")
        }
        return out
    }

    /// `base` + variant + extension, keeping a query string at the end.
    static func location(_ base: String, _ variant: String, _ ext: String) -> String {
        if let q = base.firstIndex(of: "?") {
            return String(base[..<q]) + variant + ext + String(base[q...])
        }
        return base + variant + ext
    }
}
