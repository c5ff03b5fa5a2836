import Foundation

extension MapSnapshotter {
    /// Renders with `options.basemap`: the options it sets up (`Basemap.apply(to:)`, with a
    /// Protomaps `{build}` resolved first), its warnings before the render's, and the render's
    /// failures to reach the provider told as the base map's (a removed Protomaps build says
    /// how to pick a current one).
    func render(_ basemap: Basemap) throws(RenderError) -> MapSnapshot {
        var options = self.options
        options.basemap = nil
        var warnings: [String] = []
        if basemap.followsOpenStreetMapTilePolicy && basemap.contact == nil {
            warnings.append("--basemap osm: OpenStreetMap's tile policy asks for a way to reach you: "
                            + "give --contact EMAIL (or set MAPSNAP_CONTACT); it is sent in the User-Agent")
        }
        var archive: String?
        if basemap.name == .protomaps {
            var http = options.http
            http.userAgent = basemap.userAgent
            let resolved: (url: String, warnings: [String])
            do {
                resolved = try basemap.archiveURL(http: http, deadline: .after(seconds: options.renderTimeout))
            } catch {
                throw RenderError.basemap(error)
            }
            archive = resolved.url
            warnings += resolved.warnings
        }
        basemap.apply(to: &options, archive: archive)
        let snapshot: MapSnapshot
        do {
            snapshot = try MapSnapshotter(options: options, renderer: renderer).render()
        } catch {
            throw Self.basemapError(error, basemap: basemap, url: archive ?? basemap.url)
        }
        return MapSnapshot(image: snapshot.image, camera: snapshot.camera, warnings: warnings + snapshot.warnings,
                           attribution: snapshot.attribution, baseMapTiles: snapshot.baseMapTiles,
                           coverage: snapshot.coverage, encoderThreads: snapshot.encoderThreads)
    }

    /// A failure to open the provider's style or source, told as the base map's.
    static func basemapError(_ error: RenderError, basemap: Basemap, url: String) -> RenderError {
        let name = basemap.name.rawValue
        let variable = "MAPSNAP_BASEMAP_\(name.uppercased())_URL"
        let shown = URLRedaction.redact(url)
        switch error {
        case .remoteStyleNotFound:
            return .basemap(.notFound(name: name, url: shown, variable: variable))
        case .source(_, _, .resource(.network(_, let reason))) where reason.contains("HTTP 404"):
            return .basemap(.notFound(name: name, url: shown, variable: variable))
        case .styleUnavailable(let e):
            return .basemap(.unavailable(name: name, reason: e.description, isTransient: e.isTransient))
        case .source(_, _, let e):
            let transient: Bool
            if case .resource(let r) = e { transient = r.isTransient } else { transient = true }
            let why: String
            if case .resource(let r) = e { why = r.description } else { why = "\(shown): \(e.description)" }
            return .basemap(.unavailable(name: name, reason: why, isTransient: transient))
        default:
            return error
        }
    }
}
