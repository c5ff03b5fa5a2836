"""Builds the OpenMapTiles-schema world vector tiles (z0..MAX_ZOOM).

Geometry is projected to Web Mercator in the tile-extent units of the target
zoom (4096 per tile), generalised once per zoom (so neighbouring tiles share
identical simplified edges and ocean polygons meet without gaps), then cut into
tiles by a quadtree descent: each level clips its parent's already-clipped
pieces, so no tile ever intersects a whole continent.
"""

from __future__ import annotations

import gzip
import math
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import box as shapely_box

import mvt
import places as P
from sources import read_rings

EXTENT = 4096
BUFFER = 64
MAX_ZOOM = 7
MAX_LAT = 85.0511287798

# GSHHG resolution per zoom: crude ≈ 25 km, low ≈ 5 km, intermediate ≈ 1 km.
SHORE_RES = {0: "c", 1: "c", 2: "c", 3: "l", 4: "l", 5: "i", 6: "i", 7: "i"}
BORDER_RES = SHORE_RES
RIVER_RES = {0: "c", 1: "c", 2: "c", 3: "c", 4: "l", 5: "l", 6: "i", 7: "i"}
# Shortest merged river kept, in pixels of a 256-px tile at that zoom.
RIVER_MIN_PX = {2: 120, 3: 90, 4: 70, 5: 50, 6: 40, 7: 30}
STATES_MIN_ZOOM = 3
COUNTRY_MAX_RANK = {0: 2, 1: 2, 2: 3, 3: 4}
# Generalisation tolerance: ~0.35 px of a 256-px tile (4096/256 = 16 units per px).
SIMPLIFY_UNITS = 5.5
MIN_LAND_AREA = 3.0 * 256.0   # 3 px², in extent units²
MIN_LAKE_AREA = 6.0 * 256.0


def project(lonlat: np.ndarray, zoom: int) -> np.ndarray:
    size = EXTENT * float(1 << zoom)
    lon = lonlat[:, 0]
    lat = np.clip(lonlat[:, 1], -MAX_LAT, MAX_LAT)
    s = np.sin(np.radians(lat))
    x = (lon + 180.0) / 360.0 * size
    y = (0.5 - np.log((1 + s) / (1 - s)) / (4 * math.pi)) * size
    # Antarctica is closed along the pole: push that edge well past the last
    # tile's buffer so the bottom tiles have no sliver of "ocean" under the ice.
    y = np.where(lonlat[:, 1] <= -89.99, size + 4 * EXTENT, y)
    return np.column_stack((x, y))


def polygons_from_rings(rings, zoom: int, min_area: float, tolerance: float = SIMPLIFY_UNITS) -> list:
    out = []
    for ring in rings:
        if len(ring.lonlat) < 4:
            continue
        poly = shapely.polygons(project(ring.lonlat, zoom))
        if not poly.is_valid:
            poly = shapely.make_valid(poly)
        poly = shapely.simplify(poly, tolerance, preserve_topology=True)
        for part in shapely.get_parts(poly):
            if isinstance(part, shapely.Polygon) and part.area >= min_area:
                out.append(part)
    return out


def split_antimeridian(lonlat: np.ndarray) -> list[np.ndarray]:
    jumps = np.nonzero(np.abs(np.diff(lonlat[:, 0])) > 180.0)[0]
    pieces, start = [], 0
    for j in jumps:
        pieces.append(lonlat[start:j + 1])
        start = j + 1
    pieces.append(lonlat[start:])
    return [p for p in pieces if len(p) >= 2]


def lines_from_rings(rings, zoom: int, min_length: float = 0.0, merge: bool = False,
                     tolerance: float = SIMPLIFY_UNITS) -> list:
    lines = []
    for ring in rings:
        for piece in split_antimeridian(ring.lonlat):
            lines.append(shapely.linestrings(project(piece, zoom)))
    if merge and lines:
        merged = shapely.line_merge(shapely.multilinestrings(lines))
        lines = list(shapely.get_parts(merged))
    out = []
    for line in lines:
        if line.length < min_length:
            continue
        s = shapely.simplify(line, tolerance, preserve_topology=False)
        if not s.is_empty:
            out.append(s)
    return out


def with_wrap_copies(geoms: list, zoom: int) -> list:
    """Adds copies shifted by one world width for pieces that reach into a tile buffer across ±180°."""
    size = EXTENT * float(1 << zoom)
    out = list(geoms)
    for g in geoms:
        minx, _, maxx, _ = g.bounds
        if minx < BUFFER:
            out.append(shapely.transform(g, lambda c: c + np.array([size, 0.0])))
        if maxx > size - BUFFER:
            out.append(shapely.transform(g, lambda c: c - np.array([size, 0.0])))
    return out


@dataclass
class GeomSet:
    """Pieces of one layer kind (all polygons or all lines), with cached bounds for quick box tests."""
    geoms: np.ndarray
    bounds: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.bounds = shapely.bounds(self.geoms) if len(self.geoms) else np.zeros((0, 4))

    def clip(self, bx: tuple[float, float, float, float]) -> "GeomSet":
        if not len(self.geoms):
            return self
        minx, miny, maxx, maxy = bx
        b = self.bounds
        hit = (b[:, 0] < maxx) & (b[:, 2] > minx) & (b[:, 1] < maxy) & (b[:, 3] > miny)
        inside = (b[:, 0] >= minx) & (b[:, 2] <= maxx) & (b[:, 1] >= miny) & (b[:, 3] <= maxy)
        sel = self.geoms[hit].copy()
        need = ~inside[hit]
        if need.any():
            sel[need] = shapely.intersection(sel[need], shapely_box(*bx))
            # A cut can leave touching points/lines (or collections of them):
            # keep only pieces of this set's dimension.
            dim = _DIMENSION[shapely.get_type_id(self.geoms[0])]
            parts = shapely.get_parts(shapely.get_parts(sel))
            parts = parts[~shapely.is_empty(parts)]
            sel = parts[np.array([_DIMENSION.get(t, -1) == dim for t in shapely.get_type_id(parts)], dtype=bool)]
        else:
            sel = sel[~shapely.is_empty(sel)]
        return GeomSet(sel)


# shapely type ids -> topological dimension (LineString 1, LinearRing 2, Polygon 3, Multi* 5/6).
_DIMENSION = {1: 1, 2: 1, 3: 2, 5: 1, 6: 2}


def _parts(geoms, kind) -> list:
    out = []
    stack = list(geoms)
    while stack:
        g = stack.pop(0)
        if isinstance(g, kind):
            out.append(g)
        elif hasattr(g, "geoms"):
            stack[0:0] = list(g.geoms)
    return out


def _local_ring(coords: np.ndarray, ox: float, oy: float) -> list[tuple[int, int]]:
    pts = np.rint(coords[:, :2] - np.array([ox, oy])).astype(np.int64)
    return [(int(x), int(y)) for x, y in pts]


def polygon_encoder(polys: list, ox: float, oy: float):
    return mvt.polygon_rings([
        (_local_ring(np.asarray(p.exterior.coords), ox, oy),
         [_local_ring(np.asarray(h.coords), ox, oy) for h in p.interiors])
        for p in polys
    ])


def line_encoder(lines: list, ox: float, oy: float):
    return mvt.line_parts([_local_ring(np.asarray(l.coords), ox, oy) for l in lines])


@dataclass
class ZoomData:
    land: GeomSet
    lakes: GeomSet
    ice: GeomSet
    rivers: GeomSet
    countries: GeomSet
    states: GeomSet
    points: list  # (layer, x_world, y_world, props) sorted by importance
    points_by_tile: dict = field(init=False)

    def __post_init__(self) -> None:
        # Bucketed once so each tile only looks at its own points (order kept).
        self.points_by_tile = {}
        for p in self.points:
            key = (int(round(p[1])) // EXTENT, int(round(p[2])) // EXTENT)
            self.points_by_tile.setdefault(key, []).append(p)


def prepare_zoom(zoom: int, cities, countries, capitals, label_points) -> ZoomData:
    shore = read_rings("gshhs", SHORE_RES[zoom])
    land_rings = [r for r in shore if r.level in (1, 5)]
    land = polygons_from_rings(land_rings, zoom, MIN_LAND_AREA)
    ice = polygons_from_rings([r for r in shore if r.level == 5], zoom, MIN_LAND_AREA)
    lake_polys = polygons_from_rings([r for r in shore if r.level == 2], zoom, MIN_LAKE_AREA)
    islands = polygons_from_rings([r for r in shore if r.level == 3], zoom, MIN_LAND_AREA)
    ponds = polygons_from_rings([r for r in shore if r.level == 4], zoom, MIN_LAKE_AREA)
    if islands and lake_polys:
        tree = shapely.STRtree(islands)
        cut = []
        for lake in lake_polys:
            idx = tree.query(lake, predicate="intersects")
            if len(idx):
                lake = shapely.make_valid(shapely.difference(lake, shapely.union_all([islands[i] for i in sorted(idx)])))
            cut.extend(p for p in _parts([lake], shapely.Polygon) if p.area >= MIN_LAKE_AREA)
        lake_polys = cut
    lakes = lake_polys + ponds

    rivers = []
    if zoom in RIVER_MIN_PX:
        rivers = lines_from_rings(read_rings("rivers", RIVER_RES[zoom]), zoom,
                                  min_length=RIVER_MIN_PX[zoom] * 16.0, merge=True)
    borders = lines_from_rings(read_rings("countries", BORDER_RES[zoom]), zoom)
    states = []
    if zoom >= STATES_MIN_ZOOM:
        states = lines_from_rings(read_rings("states", BORDER_RES[zoom]), zoom)

    points = place_points(zoom, cities, countries, capitals, label_points)

    def gs(items):
        return GeomSet(np.array(with_wrap_copies(items, zoom), dtype=object))

    return ZoomData(gs(land), gs(lakes), gs(ice), gs(rivers), gs(borders), gs(states), points)


def _names(name: str, latin: str | None = None) -> list[tuple[str, object]]:
    # An empty string would win a style's coalesce over `name`: omit it instead.
    latin_name = name if P.is_latin(name) else ((latin or P.ascii_fold(name)).strip() or None)
    return [("name", name), ("name_en", name), ("name:latin", latin_name), ("name_int", latin_name)]


def country_points(zoom: int, countries, label_points) -> list:
    """Country label points (rank ≤ COUNTRY_MAX_RANK at low zooms), largest first."""
    scale = EXTENT / 256.0
    pts = []
    ranked = []
    for country in countries:
        rank = P.country_rank(float(country.get("areakm2") or 0))
        if rank > COUNTRY_MAX_RANK.get(zoom, 6):
            continue
        where = label_points.get(country["iso"])
        if where is None:
            continue
        ranked.append((rank, -int(country.get("population") or 0), country["iso"], country, where))
    ranked.sort(key=lambda t: t[:3])
    for rank, _, iso, country, (lat, lon) in ranked:
        x, y = P.mercator_px(lat, lon, zoom)
        props = [("class", "country")] + _names(country["name"]) + [("iso_a2", iso), ("rank", rank)]
        pts.append(("place", x * scale, y * scale, props))
    return pts


def place_points(zoom: int, cities, countries, capitals, label_points) -> list:
    scale = EXTENT / 256.0
    # Countries first: feature order is label priority for most renderers.
    pts = country_points(zoom, countries, label_points)
    for name, cls, lat, lon, minz in P.WATER_NAMES:
        if zoom < minz:
            continue
        x, y = P.mercator_px(lat, lon, zoom)
        pts.append(("water_name", x * scale, y * scale, [("class", cls)] + _names(name)))
    for c in P.thin_cities(cities, capitals, zoom):
        pop = int(c["population"])
        cap = int(c["geonameid"]) in capitals
        x, y = P.mercator_px(float(c["latitude"]), float(c["longitude"]), zoom)
        props = [("class", "city" if pop >= 100_000 or cap else "town")] + _names(c["name"], P.ascii_fold(c["name"]))
        props += [("rank", P.city_rank(pop)), ("capital", 2 if cap else None), ("iso_a2", c["countrycode"])]
        pts.append(("place", x * scale, y * scale, props))
    return pts


def encode_tile(zd: ZoomData, pieces: dict, zoom: int, x: int, y: int) -> bytes:
    ox, oy = x * EXTENT, y * EXTENT
    bx = (ox - BUFFER, oy - BUFFER, ox + EXTENT + BUFFER, oy + EXTENT + BUFFER)
    water = mvt.Layer("water")
    land = _parts(pieces["land"].geoms, shapely.Polygon)
    tile_box = shapely_box(*bx)
    if land:
        ocean = shapely.difference(tile_box, shapely.union_all(land))
        ocean_polys = _parts([ocean], shapely.Polygon)
    else:
        ocean_polys = [tile_box]
    enc = polygon_encoder(ocean_polys, ox, oy) if ocean_polys else None
    if enc:
        water.add(mvt.POLYGON, enc, [("class", "ocean")])
    for lake in _parts(pieces["lakes"].geoms, shapely.Polygon):
        enc = polygon_encoder([lake], ox, oy)
        if enc:
            water.add(mvt.POLYGON, enc, [("class", "lake")])

    landcover = mvt.Layer("landcover")
    ice = _parts(pieces["ice"].geoms, shapely.Polygon)
    if ice:
        enc = polygon_encoder(ice, ox, oy)
        if enc:
            landcover.add(mvt.POLYGON, enc, [("class", "ice"), ("subclass", "glacier")])

    waterway = mvt.Layer("waterway")
    rivers = _parts(pieces["rivers"].geoms, shapely.LineString)
    if rivers:
        enc = line_encoder(rivers, ox, oy)
        if enc:
            waterway.add(mvt.LINESTRING, enc, [("class", "river")])

    boundary = mvt.Layer("boundary")
    for level, key in ((2, "countries"), (4, "states")):
        lines = _parts(pieces[key].geoms, shapely.LineString)
        if lines:
            enc = line_encoder(lines, ox, oy)
            if enc:
                boundary.add(mvt.LINESTRING, enc, [("admin_level", level), ("maritime", 0), ("disputed", 0)])

    layers = {"place": mvt.Layer("place"), "water_name": mvt.Layer("water_name")}
    for layer, wx, wy, props in zd.points_by_tile.get((x, y), ()):
        lx, ly = int(round(wx - ox)), int(round(wy - oy))
        if 0 <= lx < EXTENT and 0 <= ly < EXTENT:
            e = mvt.Encoder()
            e.points([(lx, ly)])
            layers[layer].add(mvt.POINT, e, props)
    return mvt.encode_tile([water, landcover, waterway, boundary, layers["water_name"], layers["place"]])


def tiles_for_zoom(zd: ZoomData, zoom: int):
    """Yields (x, y, mvt_bytes) for every tile of the zoom, row-major by x then y."""
    results: dict[tuple[int, int], bytes] = {}
    kinds = ("land", "lakes", "ice", "rivers", "countries", "states")

    def descend(pieces: dict, level: int, x: int, y: int) -> None:
        scale = 1 << (zoom - level)
        span = EXTENT * scale
        ox, oy = x * span, y * span
        bx = (ox - BUFFER, oy - BUFFER, ox + span + BUFFER, oy + span + BUFFER)
        clipped = {k: pieces[k].clip(bx) for k in kinds}
        if level == zoom:
            results[(x, y)] = encode_tile(zd, clipped, zoom, x, y)
            return
        for dx in (0, 1):
            for dy in (0, 1):
                descend(clipped, level + 1, 2 * x + dx, 2 * y + dy)

    root = {k: getattr(zd, k) for k in kinds}
    descend(root, 0, 0, 0)
    for key in sorted(results):
        yield key[0], key[1], results[key]


def gzip_bytes(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


VECTOR_LAYERS = [
    {"id": "water", "description": "Ocean (complement of GSHHG land per tile) and lakes.",
     "fields": {"class": "ocean | lake"}},
    {"id": "waterway", "description": "Major rivers (WDBII), merged and length-filtered per zoom.",
     "fields": {"class": "river"}},
    {"id": "landcover", "description": "Antarctic ice (GSHHG level 5).",
     "fields": {"class": "ice", "subclass": "glacier"}},
    {"id": "boundary", "description": "WDBII national (2) and state/province (4) borders.",
     "fields": {"admin_level": "Number", "maritime": "Number", "disputed": "Number"}},
    {"id": "water_name", "description": "Hand-placed ocean and sea names.",
     "fields": {"class": "ocean | sea | bay", "name": "String", "name_en": "String",
                "name:latin": "String", "name_int": "String"}},
    {"id": "place", "description": "Countries and GeoNames cities thinned per zoom.",
     "fields": {"class": "country | city | town", "name": "String", "name_en": "String",
                "name:latin": "String", "name_int": "String", "rank": "Number",
                "capital": "Number", "iso_a2": "String"}},
]
