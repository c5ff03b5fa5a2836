import Foundation
@testable import MapSnap

/// Loopback stand-ins for the providers of the named base maps, each with its provider's URL
/// layout and real tiles from the fixtures, and the environment that points `Basemap` at them
/// (`MAPSNAP_BASEMAP_<NAME>_URL`).
enum BasemapStandIns {
    /// OpenFreeMap's layout: `/styles/NAME` (a MapLibre style whose `openmaptiles` source is a
    /// TileJSON URL, with glyphs and a sprite), `/planet` (the TileJSON) and dated tile paths
    /// `/planet/DATE/{z}/{x}/{y}.pbf`, here out of the Helsinki OpenMapTiles fixture. Each style
    /// has its own background and road colours, so the three can be told apart.
    static func openFreeMap() throws -> (site: TestSite, server: LocalHTTPServer) {
        let site = TestSite()
        site.tiles = try MBTilesSource(path: TileFixtures.helsinkiMBTiles)
        let server = try LocalHTTPServer { request, _ in
            // Dated tile paths, as OpenFreeMap's TileJSON names them.
            var request = request
            if request.path.hasPrefix("/planet/20250101_001001_pt/") {
                request.path = "/tiles/" + request.path.dropFirst("/planet/20250101_001001_pt/".count)
            }
            return site.response(to: request)
        }
        let base = server.baseURL
        let colours = ["liberty": ("#f8f4f0", "#ffffff"), "positron": ("#f2f3f0", "#dddddd"), "bright": ("#f8f4f0", "#fc8a3b")]
        for (name, (background, road)) in colours {
            site.put("/styles/\(name)", text: """
            {"version": 8, "name": "\(name)",
             "sources": {"openmaptiles": {"type": "vector", "url": "\(base)/planet"}},
             "glyphs": "\(base)/fonts/{fontstack}/{range}.pbf",
             "sprite": "\(base)/sprites/ofm_f384/ofm",
             "layers": [
              {"id": "background", "type": "background", "paint": {"background-color": "\(background)"}},
              {"id": "water", "type": "fill", "source": "openmaptiles", "source-layer": "water", "paint": {"fill-color": "#9ecae1"}},
              {"id": "building", "type": "fill", "source": "openmaptiles", "source-layer": "building", "paint": {"fill-color": "#d9d0c9"}},
              {"id": "road", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
               "paint": {"line-color": "\(road)", "line-width": 3}}
             ]}
            """)
        }
        site.put("/planet", text: """
        {"tilejson": "3.0.0", "tiles": ["\(base)/planet/20250101_001001_pt/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": 14,
         "attribution": "<a href=\\"https://openfreemap.org\\">OpenFreeMap</a> <a href=\\"https://www.openmaptiles.org/\\">&copy; OpenMapTiles</a> Data from <a href=\\"https://www.openstreetmap.org/copyright\\">OpenStreetMap</a>",
         "vector_layers": [{"id": "water"}, {"id": "building"}, {"id": "transportation"}]}
        """)
        try site.putTestSprite(at: "/sprites/ofm_f384/ofm")
        return (site, server)
    }

    /// The raster tiles of `Fixtures/helsinki-raster-z12-13`: the real tile where the fixture
    /// has it, any other `/{z}/{x}/{y}.png` answered with one of them (so a view needing many
    /// distinct tiles gets them), as tile.openstreetmap.org
    /// answers: `Cache-Control: max-age=60` unless `cacheControl` says otherwise, an `ETag`
    /// per tile and `304` to a matching `If-None-Match`. `delay` holds each answer, so
    /// concurrent requests overlap.
    static func openStreetMap(cacheControl: String = "max-age=60", delay: TimeInterval = 0) throws -> LocalHTTPServer {
        let root = TestPaths.fixture("helsinki-raster-z12-13")
        let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".png") }.sorted()
        let tiles = try files.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + $0))) }
        let byPath = Dictionary(uniqueKeysWithValues: zip(files.map { "/" + $0 }, tiles))
        return try LocalHTTPServer { request, _ in
            let parts = request.path.dropFirst().replacingOccurrences(of: ".png", with: "").split(separator: "/").compactMap { Int($0) }
            guard parts.count == 3, !tiles.isEmpty else { return .status(404) }
            let tag = "\"t\(parts[0])-\(parts[1])-\(parts[2])\""
            var response: LocalHTTPServer.Response
            if request.headers["if-none-match"] == tag {
                response = LocalHTTPServer.Response(status: 304)
            } else {
                response = .ok(byPath[request.path] ?? tiles[(parts[1] + parts[2]) % tiles.count], contentType: "image/png")
            }
            response.headers += [("Cache-Control", cacheControl), ("ETag", tag)]
            response.delay = delay
            return response
        }
    }

    /// Protomaps' layout: `/builds.json` listing dated builds (the newest is `20260102`; an
    /// older and a non-archive key besides) and `/20260102.pmtiles`, the Protomaps-schema
    /// Helsinki fixture, by range requests.
    static func protomaps() throws -> (site: TestSite, server: LocalHTTPServer) {
        let site = TestSite()
        try site.put("/20260102.pmtiles", file: TestPaths.fixture("helsinki-protomaps.pmtiles"), type: "application/octet-stream")
        site.put("/builds.json", text: """
        [{"key": "20251231.pmtiles", "size": 1, "uploaded": "2025-12-31T05:00:00Z"},
         {"key": "20260102.pmtiles", "size": 2, "uploaded": "2026-01-02T05:00:00Z"},
         {"key": "notes.txt", "size": 3, "uploaded": "2026-01-03T05:00:00Z"}]
        """)
        return (site, try site.start())
    }

    /// The environment naming the stand-ins' URLs for the base maps given.
    static func environment(openFreeMap: LocalHTTPServer? = nil, openStreetMap: LocalHTTPServer? = nil,
                            protomaps: LocalHTTPServer? = nil) -> [String: String] {
        var env: [String: String] = [:]
        if let s = openFreeMap {
            for name in ["liberty", "positron", "bright"] { env["MAPSNAP_BASEMAP_\(name.uppercased())_URL"] = s.baseURL + "/styles/\(name)" }
        }
        if let s = openStreetMap { env["MAPSNAP_BASEMAP_OSM_URL"] = s.baseURL + "/{z}/{x}/{y}.png" }
        if let s = protomaps {
            env["MAPSNAP_BASEMAP_PROTOMAPS_URL"] = s.baseURL + "/{build}.pmtiles"
            env["MAPSNAP_BASEMAP_PROTOMAPS_BUILDS_URL"] = s.baseURL + "/builds.json"
        }
        return env
    }
}
