#!/usr/bin/env python3
"""Generates every benchmark fixture under Benchmarks/.fixtures/ (git-ignored).

Deterministic: one seeded generator per fixture, fixed decimal places, sorted JSON keys,
so the same script writes the same bytes on every machine. Re-running is cheap; files are
rewritten only when the generator's parameters (FIXTURE_VERSION) change.

Usage: gen_fixtures.py REPO_ROOT RASTER_TILE_DIR
"""
import json
import math
import os
import random
import sqlite3
import struct
import sys
import zlib

FIXTURE_VERSION = "10"

# The S1/S5 frame: 800×600 points @2x at zoom 16 (raster tiles at z17, 1600×1200 pixels),
# inside the shared raster tiles and the bundled Helsinki vector tiles.
FRAME = {"center": (60.1705, 24.9443), "zoom": 16, "width": 800, "height": 600, "scale": 2}
ROUTE_COLOR = "#1a73e8"
ROUTE_WIDTH = 4            # points; 8 pixels at @2x
MARKER_COUNT = 20

# S2: the Helsinki base map.
BASEMAP_CENTER = (60.1705, 24.9443)

# S4: a 4096² image that is exactly the whole Web Mercator world at zoom 4 (256 · 2⁴).
STROKE_SIZE = 4096
STROKE_SEGMENTS = 100_000

S5_COUNTS = (100_000, 300_000, 1_000_000)
S5_WIDTH = 2               # points; a thinner line so the dense 1M-point route stays readable
S6_JOBS = 100


# ---------------------------------------------------------------- projection helpers
def world_px(lat, lon, zoom_px):
    """Web Mercator pixel coordinates at a world size of zoom_px pixels."""
    x = (lon + 180.0) / 360.0 * zoom_px
    s = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * zoom_px
    return x, y


def unproject(x, y, zoom_px):
    lon = x / zoom_px * 360.0 - 180.0
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / zoom_px))))
    return lat, lon


def frame_pixels(frame):
    """(world size in image pixels, top-left image pixel in world pixels, width, height)."""
    world = 256 * 2 ** frame["zoom"] * frame["scale"]
    cx, cy = world_px(*frame["center"], world)
    w, h = frame["width"] * frame["scale"], frame["height"] * frame["scale"]
    return world, cx - w / 2, cy - h / 2, w, h


# ---------------------------------------------------------------- generators
def smooth_walk(rng, n, width, height, margin, total_length):
    """n points of a smooth random walk inside [margin, size - margin], reflecting at the
    edges; the total length is fixed so denser routes draw the same shape class."""
    step = total_length / max(n - 1, 1)
    x, y = rng.uniform(margin, width - margin), rng.uniform(margin, height - margin)
    heading = rng.uniform(0, 2 * math.pi)
    pts = []
    # heading diffuses per unit length (persistence length ~ `persistence` px), so the
    # shape class does not depend on n
    persistence = 0.25 * min(width, height)
    sigma = math.sqrt(step / persistence)
    for _ in range(n):
        pts.append((x, y))
        heading += rng.gauss(0, sigma)
        nx, ny = x + step * math.cos(heading), y + step * math.sin(heading)
        if nx < margin or nx > width - margin:
            heading = math.pi - heading
            nx = min(max(nx, margin), width - margin)
        if ny < margin or ny > height - margin:
            heading = -heading
            ny = min(max(ny, margin), height - margin)
        x, y = nx, ny
    return pts


def route_latlon(seed, n, frame, total_length, margin=60):
    rng = random.Random(seed)
    world, x0, y0, w, h = frame_pixels(frame)
    pts = smooth_walk(rng, n, w, h, margin, total_length)
    return [tuple(round(v, 6) for v in unproject(x0 + px, y0 + py, world)) for px, py in pts]


def encode_polyline(latlons, precision):
    factor = 10 ** precision
    out = []
    plat = plon = 0
    for lat, lon in latlons:
        ilat, ilon = round(lat * factor), round(lon * factor)
        for d in (ilat - plat, ilon - plon):
            v = ~(d << 1) if d < 0 else d << 1
            while v >= 0x20:
                out.append(chr((0x20 | (v & 0x1F)) + 63))
                v >>= 5
            out.append(chr(v + 63))
        plat, plon = ilat, ilon
    return "".join(out)


def markers_along(route, count):
    idx = [round(i * (len(route) - 1) / (count - 1)) for i in range(count)]
    return [{"lat": route[i][0], "lon": route[i][1], "label": chr(ord("A") + k)} for k, i in enumerate(idx)]


def write_json(path, obj, compact=True):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        if compact:
            json.dump(obj, f, sort_keys=True, separators=(",", ":"))
        else:
            json.dump(obj, f, sort_keys=True, indent=1)
        f.write("\n")


def frame_spec(frame):
    return {"center": list(frame["center"]), "zoom": frame["zoom"],
            "size": f'{frame["width"]}x{frame["height"]}', "scale": frame["scale"]}


# ---------------------------------------------------------------- MVT → GeoJSON (for Mapnik)
def _varint(buf, i):
    shift = result = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, i
        shift += 7


def _fields(buf):
    """(field number, wire type, value) of one protobuf message; length-delimited values
    are memoryviews."""
    i, n = 0, len(buf)
    while i < n:
        key, i = _varint(buf, i)
        field, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(buf, i)
        elif wt == 1:
            v = buf[i:i + 8]
            i += 8
        elif wt == 2:
            ln, i = _varint(buf, i)
            v = buf[i:i + ln]
            i += ln
        elif wt == 5:
            v = buf[i:i + 4]
            i += 4
        else:
            raise ValueError(f"wire type {wt}")
        yield field, wt, v


def _value(buf):
    for f, wt, v in _fields(buf):
        if f == 1:
            return bytes(v).decode("utf-8", "replace")
        if f == 2:
            return struct.unpack("<f", bytes(v))[0]
        if f == 3:
            return struct.unpack("<d", bytes(v))[0]
        if f in (4, 5):
            return v if f == 5 or v < 2 ** 63 else v - 2 ** 64
        if f == 6:
            return (v >> 1) ^ -(v & 1)
        if f == 7:
            return bool(v)
    return None


def _packed(buf):
    out, i = [], 0
    while i < len(buf):
        v, i = _varint(buf, i)
        out.append(v)
    return out


def _geometry(cmds, gtype):
    parts, cur, x, y, i = [], None, 0, 0, 0
    while i < len(cmds):
        cmd, count = cmds[i] & 7, cmds[i] >> 3
        i += 1
        if cmd in (1, 2):
            for _ in range(count):
                dx, dy = cmds[i], cmds[i + 1]
                i += 2
                x += (dx >> 1) ^ -(dx & 1)
                y += (dy >> 1) ^ -(dy & 1)
                if cmd == 1:
                    cur = [(x, y)]
                    parts.append(cur)
                else:
                    cur.append((x, y))
        elif cmd == 7 and cur:
            cur.append(cur[0])
    if gtype == 1:
        return "MultiPoint", [p[0] for p in parts]
    if gtype == 2:
        return "MultiLineString", parts
    # polygons: rings with positive signed area (y down) start a new polygon
    polys = []
    for ring in parts:
        a = sum(ring[k][0] * ring[k + 1][1] - ring[k + 1][0] * ring[k][1] for k in range(len(ring) - 1))
        if a > 0 or not polys:
            polys.append([ring])
        else:
            polys[-1].append(ring)
    return "MultiPolygon", polys


def mvt_to_geojson(mbtiles, zoom, out_dir):
    """Decodes every tile of `zoom` into one GeoJSON file per layer (lon/lat, 7 decimals)."""
    db = sqlite3.connect(mbtiles)
    rows = db.execute("SELECT tile_column, tile_row, tile_data FROM tiles WHERE zoom_level=? "
                      "ORDER BY tile_column, tile_row", (zoom,)).fetchall()
    layers = {}
    n = 2 ** zoom
    for tx, tms_y, data in rows:
        ty = n - 1 - tms_y
        if data[:2] == b"\x1f\x8b":
            data = zlib.decompress(data, 16 + zlib.MAX_WBITS)
        for f, _, lbuf in _fields(memoryview(data)):
            if f != 3:
                continue
            name, keys, values, feats, extent = None, [], [], [], 4096
            for lf, _, lv in _fields(lbuf):
                if lf == 1:
                    name = bytes(lv).decode()
                elif lf == 2:
                    feats.append(lv)
                elif lf == 3:
                    keys.append(bytes(lv).decode())
                elif lf == 4:
                    values.append(_value(lv))
                elif lf == 5:
                    extent = lv
            out = layers.setdefault(name, [])
            for fb in feats:
                tags, gtype, geom = [], 0, []
                for ff, _, fv in _fields(fb):
                    if ff == 2:
                        tags = _packed(fv)
                    elif ff == 3:
                        gtype = fv
                    elif ff == 4:
                        geom = _packed(fv)
                props = {keys[tags[k]]: values[tags[k + 1]] for k in range(0, len(tags) - 1, 2)}
                if "name" not in props and "name:latin" in props:
                    props["name"] = props["name:latin"]  # the style's coalesce, done once here
                kind, coords = _geometry(geom, gtype)

                def ll(p):
                    lat, lon = unproject((tx + p[0] / extent) * 256, (ty + p[1] / extent) * 256, 256 * n)
                    return [round(lon, 7), round(lat, 7)]
                if kind == "MultiPoint":
                    c = [ll(p) for p in coords]
                elif kind == "MultiLineString":
                    c = [[ll(p) for p in line] for line in coords]
                else:
                    c = [[[ll(p) for p in ring] for ring in poly] for poly in coords]
                if not c:
                    continue
                out.append({"type": "Feature", "properties": props,
                            "geometry": {"type": kind, "coordinates": c}})
    for name, feats in layers.items():
        write_json(os.path.join(out_dir, f"{name}.geojson"), {"type": "FeatureCollection", "features": feats})
    return {k: len(v) for k, v in sorted(layers.items())}


# ---------------------------------------------------------------- main
def main():
    repo, tiles = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    fx = os.path.join(repo, "Benchmarks", ".fixtures")
    stamp = os.path.join(fx, "VERSION")
    if os.path.exists(stamp) and open(stamp).read().strip() == f"{FIXTURE_VERSION} {tiles}":
        print("fixtures: up to date", file=sys.stderr)
        return
    os.makedirs(fx, exist_ok=True)

    # S1: 10,000-point route + 20 labelled markers. One JSON of lat/lon for the anchors,
    # and the same points as mapsnap spec files (raster directory / bundled vector tiles).
    route = route_latlon(1, 10_000, FRAME, total_length=30_000)
    markers = markers_along(route, MARKER_COUNT)
    write_json(os.path.join(fx, "s1", "route.json"),
               {"frame": FRAME, "route": route, "markers": markers,
                "color": ROUTE_COLOR, "width": ROUTE_WIDTH})
    base = frame_spec(FRAME)
    path = {"coordinates": [list(p) for p in route], "color": ROUTE_COLOR, "width": ROUTE_WIDTH}
    mk = [{"lat": m["lat"], "lon": m["lon"], "label": m["label"], "color": "red", "size": "mid"} for m in markers]
    write_json(os.path.join(fx, "s1", "raster.json"), dict(base, source=tiles, paths=[path], markers=mk))
    write_json(os.path.join(fx, "s1", "vector.json"), dict(base, paths=[path], markers=mk))

    # S5: N-point routes of the same total length, as GeoJSON and as a precision-6
    # encoded polyline (in a spec file: a 1M-point polyline is far beyond ARG_MAX).
    for n in S5_COUNTS:
        r = route_latlon(5, n, FRAME, total_length=150_000)
        gj = {"type": "Feature", "properties": {"stroke": ROUTE_COLOR, "stroke-width": S5_WIDTH},
              "geometry": {"type": "LineString", "coordinates": [[p[1], p[0]] for p in r]}}
        write_json(os.path.join(fx, "s5", f"route-{n}.geojson"), gj)
        ends = [{"lat": r[0][0], "lon": r[0][1], "label": "S", "color": "green", "size": "mid"},
                {"lat": r[-1][0], "lon": r[-1][1], "label": "E", "color": "red", "size": "mid"}]
        write_json(os.path.join(fx, "s5", f"geojson-{n}.json"),
                   dict(base, source=tiles, geojson=f"route-{n}.geojson", markers=ends))
        write_json(os.path.join(fx, "s5", f"polyline-{n}.json"),
                   dict(base, source=tiles, markers=ends,
                        paths=[{"polyline": encode_polyline(r, 6), "precision": 6,
                                "color": ROUTE_COLOR, "width": S5_WIDTH}]))

    # S4: 100,000-segment polyline in pixels of a 4096² image (= the world at z4), for
    # Skia as little-endian float32 pairs, for mapsnap as lat/lon (7 decimals ≈ 1e-4 px).
    rng = random.Random(4)
    px = smooth_walk(rng, STROKE_SEGMENTS + 1, STROKE_SIZE, STROKE_SIZE, 16, total_length=STROKE_SEGMENTS * 8)
    with open(os.path.join(fx, "s4-stroke.f32"), "wb") as f:
        f.write(struct.pack(f"<{2 * len(px)}f", *[v for p in px for v in p]))
    coords = [[round(v, 7) for v in unproject(x, y, STROKE_SIZE)] for x, y in px]
    write_json(os.path.join(fx, "s4-background.style.json"),
               {"version": 8, "name": "background only", "sources": {},
                "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}}]},
               compact=False)
    write_json(os.path.join(fx, "s4-stroke.json"),
               {"center": [0, 0], "zoom": 4, "size": f"{STROKE_SIZE}x{STROKE_SIZE}", "scale": 1,
                "style": "s4-background.style.json", "attribution": "none", "scaleBar": False,
                "paths": [{"coordinates": coords, "color": "#000000", "width": 3, "cap": "round", "join": "round"}]})

    # S6: 100 different route images (600×400 @1x, default style, fitted), as JSON Lines
    # for `mapsnap batch` and as one spec file per job for separate processes.
    jobs = []
    rng = random.Random(6)
    for i in range(S6_JOBS):
        # a frame somewhere over the bundled Helsinki tiles, one zoom of 15–16
        lat = rng.uniform(60.1665, 60.1765)
        lon = rng.uniform(24.9390, 24.9500)
        frame = {"center": (lat, lon), "zoom": rng.choice((15, 16)), "width": 600, "height": 400, "scale": 1}
        r = route_latlon(1000 + i, 1000, frame, total_length=3000, margin=40)
        jobs.append({"size": "600x400", "paths": [{"coordinates": [list(p) for p in r],
                                                  "color": ROUTE_COLOR, "width": ROUTE_WIDTH}],
                     "markers": [f"color:green|label:S|{r[0][0]},{r[0][1]}",
                                 f"color:red|label:E|{r[-1][0]},{r[-1][1]}"],
                     "output": f"{i:04d}.png"})
    os.makedirs(os.path.join(fx, "s6", "specs"), exist_ok=True)
    with open(os.path.join(fx, "s6", "jobs.jsonl"), "w") as f:
        for j in jobs:
            f.write(json.dumps(j, sort_keys=True, separators=(",", ":")) + "\n")
    with open(os.path.join(fx, "s6", "ids.txt"), "w") as f:
        for i, j in enumerate(jobs):
            spec = {k: v for k, v in j.items() if k != "output"}
            write_json(os.path.join(fx, "s6", "specs", f"{i:04d}.json"), spec)
            f.write(f"{i:04d}\n")
    # --quick: the first 20 jobs
    with open(os.path.join(fx, "s6", "jobs-20.jsonl"), "w") as f, open(os.path.join(fx, "s6", "ids-20.txt"), "w") as g:
        for i, j in enumerate(jobs[:20]):
            f.write(json.dumps(j, sort_keys=True, separators=(",", ":")) + "\n")
            g.write(f"{i:04d}\n")

    # S2 anchor: the bundled Helsinki vector tiles (z14, the source's max zoom) as GeoJSON
    # layers, decoded once here so Mapnik reads the same features mapsnap draws.
    counts = mvt_to_geojson(os.path.join(repo, "Data", "helsinki.mbtiles"), 14, os.path.join(fx, "s2-geojson"))
    sys.path.insert(0, os.path.join(repo, "Benchmarks", "anchors"))
    import mapnik_style
    for z in (15, 16):
        mapnik_style.write_map(os.path.join(repo, "Styles", "normal.json"), os.path.join(fx, "s2-geojson"),
                               os.path.join(repo, "Fonts"), z, os.path.join(fx, f"s2-mapnik-z{z}.xml"))
    print("fixtures: S2 GeoJSON layers " + ", ".join(f"{k} {v}" for k, v in counts.items()), file=sys.stderr)

    with open(stamp, "w") as f:
        f.write(f"{FIXTURE_VERSION} {tiles}\n")
    print(f"fixtures: written to {fx}", file=sys.stderr)


if __name__ == "__main__":
    main()
