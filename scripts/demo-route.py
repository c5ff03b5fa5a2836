#!/usr/bin/env python3
"""Computes the README demo walk (examples/helsinki-walk.json) along real streets.

Decodes the bundled Helsinki z14 vector tiles (Data/helsinki.mbtiles), builds a graph of
the walkable `transportation` lines, and joins the waypoints with shortest paths. Data
preparation only (needs `pip install mapbox-vector-tile`); the result is committed.
"""
import gzip, heapq, json, math, os, sqlite3, sys
import mapbox_vector_tile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WAYPOINTS = [  # (title, lat, lon, marker)
    ("Central Station", 60.17095, 24.94140, "A"),
    ("Senate Square", 60.16935, 24.95170, "1"),
    ("Market Square", 60.16785, 24.95230, "2"),
    ("Esplanadi", 60.16770, 24.94760, "3"),
    ("Stockmann", 60.16840, 24.94160, "B"),
]
WALKABLE = {"primary", "secondary", "tertiary", "minor", "service", "path", "pedestrian", "track"}


def tile_to_lonlat(z, x, y, px, py, extent):
    n = 2 ** z
    lon = (x + px / extent) / n * 360 - 180
    my = (y + 1 - py / extent) / n  # mapbox_vector_tile flips y by default
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * my))))
    return lat, lon


def main():
    db = sqlite3.connect(os.path.join(ROOT, "Data", "helsinki.mbtiles"))
    graph = {}

    def key(p):
        return (round(p[0], 6), round(p[1], 6))

    for z, x, tms_y, data in db.execute("select zoom_level, tile_column, tile_row, tile_data from tiles where zoom_level=14"):
        y = (1 << z) - 1 - tms_y
        t = mapbox_vector_tile.decode(gzip.decompress(data))
        layer = t.get("transportation")
        if not layer:
            continue
        extent = layer["extent"]
        for f in layer["features"]:
            if f["properties"].get("class") not in WALKABLE or f["properties"].get("brunnel") == "tunnel":
                continue
            g = f["geometry"]
            lines = [g["coordinates"]] if g["type"] == "LineString" else g["coordinates"] if g["type"] == "MultiLineString" else []
            for line in lines:
                pts = [key(tile_to_lonlat(z, x, y, px, py, extent)) for px, py in line]
                for a, b in zip(pts, pts[1:]):
                    d = math.dist((a[0], a[1] * 0.5), (b[0], b[1] * 0.5))
                    graph.setdefault(a, []).append((b, d))
                    graph.setdefault(b, []).append((a, d))
    nodes = sorted(graph)

    def nearest(lat, lon):
        return min(nodes, key=lambda n: (n[0] - lat) ** 2 + ((n[1] - lon) * 0.5) ** 2)

    def route(a, b):
        dist, prev, heap = {a: 0}, {}, [(0, a)]
        while heap:
            d, n = heapq.heappop(heap)
            if n == b:
                break
            if d > dist.get(n, 1e18):
                continue
            for m, w in graph[n]:
                if d + w < dist.get(m, 1e18):
                    dist[m], prev[m] = d + w, n
                    heapq.heappush(heap, (d + w, m))
        path, n = [b], b
        while n != a:
            n = prev[n]
            path.append(n)
        return path[::-1]

    stops = [nearest(lat, lon) for _, lat, lon, _ in WAYPOINTS]
    coords = [stops[0]]
    for a, b in zip(stops, stops[1:]):
        coords += route(a, b)[1:]
    spec = {
        # Centre and zoom keep the view inside the bundled street data (docs/demo.png).
        "size": "800x600", "scale": 1, "center": [60.1694, 24.9443], "zoom": 16, "style": "normal",
        "paths": [{"coordinates": [[round(a, 6), round(b, 6)] for a, b in coords], "color": "#1a73e8", "width": 5,
                   "casingColor": "#ffffff", "casingWidth": 1.5}],
        "markers": [{"lat": s[0], "lon": s[1], "color": "#34a853" if m == "A" else "#ea4335" if m == "B" else "#fbbc05",
                     **({"size": "mid"} if m not in "AB" else {}), "label": m, "title": t}
                    for (t, _, _, m), s in zip(WAYPOINTS, stops)],
        "caption": "Walk through central Helsinki",
    }
    with open(os.path.join(ROOT, "examples", "helsinki-walk.json"), "w") as f:
        json.dump(spec, f, indent=1)
        f.write("\n")
    print(f"{len(coords)} points", file=sys.stderr)


if __name__ == "__main__":
    main()
