/// The page `GET /` serves: what the API takes, the styles this server has, and a live
/// example image rendered by the server itself.
enum LandingPage {
    /// The example map of the page (and of the README's acceptance check).
    static let exampleQuery = "center=Helsinki&zoom=13&size=600x400&markers=color:red%7Clabel:H%7CHelsinki"

    static func html(configuration: ServerConfiguration) -> String {
        let styles = configuration.styles.keys.sorted().map { "<code>\(escape($0))</code>" }.joined(separator: ", ")
        let keyNote = configuration.apiKeys.isEmpty ? "" :
            "<p>This server needs an API key: add <code>&amp;key=…</code> or send <code>X-API-Key</code>. The example below shows only with a key.</p>"
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>mapsnap Static Maps API</title>
        <style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}
        code,pre{background:#f3f3f3;border-radius:3px;padding:0 .2em}pre{padding:.6em;overflow-x:auto}
        img{max-width:100%;border:1px solid #ccc}</style></head><body>
        <h1>mapsnap Static Maps API</h1>
        <p>Static map images over HTTP, with the Google Maps Static API's parameters: change only the host of a Google URL.</p>
        \(keyNote)
        <p><img src="/maps/api/staticmap?\(escape(exampleQuery))" width="600" height="400" alt="Example map of Helsinki"></p>
        <pre>GET /maps/api/staticmap?\(escape(exampleQuery.replacingOccurrences(of: "%7C", with: "|")))</pre>
        <h2>Endpoints</h2>
        <ul>
        <li><code>GET /maps/api/staticmap?…</code> and <code>GET /staticmap?…</code>: <code>center</code>, <code>zoom</code>, <code>size</code>, <code>scale</code>, <code>maptype</code>, <code>markers</code>, <code>path</code>, <code>visible</code>, <code>format</code> (Google's syntax). <code>HEAD</code> too.</li>
        <li><code>POST /render</code>: a JSON render spec (mapsnap's docs/spec-format.md) as the body; no file paths.</li>
        <li><code>GET /health</code> (liveness), <code>GET /ready</code> (readiness), <code>GET /metrics</code> (Prometheus).</li>
        </ul>
        <p>Styles (<code>maptype=</code>): \(styles); default <code>\(escape(configuration.defaultStyle))</code>. Google's <code>roadmap</code>, <code>terrain</code>, <code>satellite</code> and <code>hybrid</code> pick the bundled style of that kind when it is served.</p>
        <p>Limits per request: at most \(configuration.limits.maximumImageSide) pixels per side, \(configuration.limits.maximumPixelCount) pixels, \(configuration.limits.maximumOverlayCount) overlays, \(configuration.limits.maximumPointCount) points.</p>
        <p>Images carry an <code>ETag</code> (send it back in <code>If-None-Match</code> for a <code>304</code>), <code>Cache-Control: public, max-age=\(configuration.cacheMaxAgeSeconds)</code> and <code>X-Mapsnap-Detail</code>: the share of the image with detailed map data (0.00–1.00). Errors are one line of text, or JSON with <code>Accept: application/json</code>.</p>
        </body></html>

        """
    }

    /// Text for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        text.reduce(into: "") { out, c in out += entities[c] ?? String(c) }
    }

    /// The characters HTML gives a meaning, as entities.
    private static let entities: [Character: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
    ]
}
