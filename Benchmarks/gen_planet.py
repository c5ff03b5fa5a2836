#!/usr/bin/env python3
"""Writes a synthetic planet-scale PMTiles v3 archive for the S7 `data extract` benchmark.

    python3 Benchmarks/gen_planet.py OUT.pmtiles [--maxzoom 14]

Seeded and deterministic (the same bytes on every run). What it holds, so that reading a
city out of it costs what reading one out of a real planet build costs:

- every tile id of z0–maxzoom is addressed the way planet builds address them: ocean
  (decided per z5 tile) as run-length entries sharing one stored blob at every zoom; land
  tiles one entry each at z0–9, and deeper wherever the z8 tile is "inhabited" (about 8 %
  of land, seeded), elsewhere absent (a reader over-zooms their parents);
- outside a box around Paris, land tiles take one of 4,096 stored blobs (picked by hash,
  so neighbours rarely share one and entries rarely merge into runs): the directories
  are full-size, the file is not;
- inside the box (2.35 ± 0.8°E, 48.86 ± 0.5°N) every tile is unique, with incompressible
  bytes of realistic sizes (log-normal, medians 100 kB at z0–6 down to 30 kB at z13–14),
  stored in tile-id order — so that between the city's Hilbert runs lie other tiles'
  bytes, as in a real clustered archive;
- directories as PMTiles writers make them: leaves of 4,096 entries (doubled until the
  root fits the first 16 KiB), gzip, header + root in the first 16 KiB.

The tile bytes are not vector tiles (type "unknown", no compression): the benchmark copies
them, it never draws them. Needs numpy.
"""
import argparse
import gzip
import math
import os
import sys

import numpy as np

CITY = (2.35, 48.86)           # Paris
UNIQUE_HALF = (0.8, 0.5)       # half-width, half-height of the unique box, degrees
POOL = 4096
LAND_FRACTION = 0.30
INHABITED_FRACTION = 0.08
MEDIAN_BY_ZOOM = [100_000] * 7 + [80_000] * 4 + [50_000] * 2 + [30_000] * 10


def first_id(z):
    return ((1 << (2 * z)) - 1) // 3


def d2xy(z, d):
    """Hilbert index → (x, y) at zoom z, vectorised (the inverse of PMTiles' xy2d)."""
    d = np.asarray(d, dtype=np.uint64).copy()
    x = np.zeros_like(d)
    y = np.zeros_like(d)
    s = np.uint64(1)
    n = np.uint64(1 << z)
    while s < n:
        rx = np.uint64(1) & (d // np.uint64(2))
        ry = np.uint64(1) & (d ^ rx)
        flip = (ry == 0) & (rx == 1)
        x = np.where(flip, s - np.uint64(1) - x, x)
        y = np.where(flip, s - np.uint64(1) - y, y)
        swap = ry == 0
        x, y = np.where(swap, y, x), np.where(swap, x, y)
        x = x + s * rx
        y = y + s * ry
        d = d // np.uint64(4)
        s = s * np.uint64(2)
    return x, y


def mix(*parts):
    """A seeded hash of integer arrays → floats in [0, 1)."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for p in parts:
        h = (h ^ np.asarray(p, dtype=np.uint64)) * np.uint64(0xBF58476D1CE4E5B9)
        h = h ^ (h >> np.uint64(31))
    return (h >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def lon_to_x(lon, z):
    return (lon + 180.0) / 360.0 * (1 << z)


def lat_to_y(lat, z):
    phi = math.radians(lat)
    return (1 - math.log(math.tan(phi) + 1 / math.cos(phi)) / math.pi) / 2 * (1 << z)


def unique_box(z):
    """Tile columns and rows (inclusive) of the unique box at zoom z."""
    (lon, lat), (hw, hh) = CITY, UNIQUE_HALF
    return (int(lon_to_x(lon - hw, z)), int(lon_to_x(lon + hw, z)),
            int(lat_to_y(lat + hh, z)), int(lat_to_y(lat - hh, z)))


def varints(values):
    """Protobuf varints of a uint64 array, concatenated."""
    v = np.asarray(values, dtype=np.uint64)
    if v.size == 0:
        return b""
    nbytes = np.ones(v.shape, dtype=np.int64)
    for k in range(1, 10):
        nbytes += (v >= np.uint64(1) << np.uint64(7 * k)).astype(np.int64)
    ends = np.cumsum(nbytes)
    starts = ends - nbytes
    out = np.zeros(int(ends[-1]), dtype=np.uint8)
    for k in range(10):
        m = nbytes > k
        if not m.any():
            break
        b = ((v[m] >> np.uint64(7 * k)) & np.uint64(0x7F)).astype(np.uint8)
        b |= np.where(nbytes[m] > k + 1, 0x80, 0).astype(np.uint8)
        out[starts[m] + k] = b
    return out.tobytes()


def directory(ids, runs, lengths, offsets):
    ids = np.asarray(ids, dtype=np.uint64)
    deltas = np.diff(ids, prepend=np.uint64(0))
    stored = offsets.astype(np.uint64) + np.uint64(1)
    if len(offsets) > 1:
        contiguous = offsets[1:] == offsets[:-1] + lengths[:-1].astype(np.uint64)
        stored[1:][contiguous] = 0
    raw = varints([len(ids)]) + varints(deltas) + varints(runs) + varints(lengths) + varints(stored)
    return gzip.compress(raw, compresslevel=6, mtime=0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--maxzoom", type=int, default=14)
    args = ap.parse_args()
    rng = np.random.default_rng(27)
    Z = args.maxzoom

    # Stored contents: the sea, the pool, then unique tiles in id order.
    sea = rng.integers(0, 256, 600, dtype=np.uint8).tobytes()
    pool_sizes = np.clip(rng.lognormal(math.log(8_000), 0.8, POOL), 300, 200_000).astype(np.int64)
    pool = [rng.integers(0, 256, int(n), dtype=np.uint8).tobytes() for n in pool_sizes]
    pool_offsets = np.cumsum(np.concatenate([[len(sea)], pool_sizes[:-1]])).astype(np.uint64)
    data_parts = [sea] + pool
    data_length = len(sea) + int(pool_sizes.sum())

    # z5 land mask, z8 inhabited mask; the unique box's z5 and z8 tiles are land, inhabited.
    x5, y5 = np.meshgrid(np.arange(32), np.arange(32), indexing="ij")
    land5 = mix(x5, y5, 5) < LAND_FRACTION
    bx0, bx1, by0, by1 = unique_box(5)
    land5[bx0:bx1 + 1, by0:by1 + 1] = True
    x8, y8 = np.meshgrid(np.arange(256), np.arange(256), indexing="ij")
    inhabited8 = (mix(x8, y8, 8) < INHABITED_FRACTION) & land5[x8 >> 3, y8 >> 3]
    bx0, bx1, by0, by1 = unique_box(8)
    inhabited8[bx0:bx1 + 1, by0:by1 + 1] = True

    ids_all, runs_all, lengths_all, offsets_all = [], [], [], []
    unique_tiles = 0

    def emit(z, d):
        """Entries of zoom z for Hilbert positions d (sorted), whose tiles all exist."""
        nonlocal data_length, unique_tiles
        x, y = d2xy(z, d)
        if z >= 5:
            ocean = ~land5[(x >> np.uint64(z - 5)).astype(np.int64), (y >> np.uint64(z - 5)).astype(np.int64)]
        else:
            ocean = np.zeros(len(d), bool)   # z0–4 tiles all hold some land
        keep = np.ones(len(d), bool)
        if z > 9:
            keep = ocean | inhabited8[(x >> np.uint64(z - 8)).astype(np.int64), (y >> np.uint64(z - 8)).astype(np.int64)]
        d, x, y, ocean = d[keep], x[keep], y[keep], ocean[keep]
        bx0, bx1, by0, by1 = unique_box(z)
        unique = (~ocean) & (x >= bx0) & (x <= bx1) & (y >= by0) & (y <= by1)
        lengths = np.where(ocean, len(sea), 0).astype(np.uint64)
        offsets = np.zeros(len(d), dtype=np.uint64)
        pooled = (~ocean) & (~unique)
        pick = (mix(d, z, 1) * POOL).astype(np.int64)
        lengths[pooled] = pool_sizes[pick[pooled]].astype(np.uint64)
        offsets[pooled] = pool_offsets[pick[pooled]]
        if unique.any():
            n = int(unique.sum())
            sizes = np.clip(rng.lognormal(math.log(MEDIAN_BY_ZOOM[z]), 0.7, n), 2_000, 500_000).astype(np.int64)
            offsets[unique] = (data_length + np.concatenate([[0], np.cumsum(sizes)[:-1]])).astype(np.uint64)
            lengths[unique] = sizes.astype(np.uint64)
            for size in sizes:
                data_parts.append(rng.integers(0, 256, int(size), dtype=np.uint8).tobytes())
            data_length += int(sizes.sum())
            unique_tiles += n
        ids = np.uint64(first_id(z)) + d
        runs = np.ones(len(d), dtype=np.uint64)
        # Consecutive ids with the same blob become one run (the sea, mostly).
        same = np.zeros(len(d), bool)
        if len(d) > 1:
            same[1:] = (ids[1:] == ids[:-1] + np.uint64(1)) & (offsets[1:] == offsets[:-1]) & (lengths[1:] == lengths[:-1])
        starts = np.flatnonzero(~same)
        run_lengths = np.diff(np.append(starts, len(d)))
        ids_all.append(ids[starts])
        runs_all.append(run_lengths.astype(np.uint64))
        lengths_all.append(lengths[starts])
        offsets_all.append(offsets[starts])

    for z in range(Z + 1):
        if z <= 9:
            emit(z, np.arange(1 << (2 * z), dtype=np.uint64))
            continue
        # Deeper, by z8 blocks (a z8 tile's descendants are one run of ids): an ocean block is
        # one run entry; an inhabited one, an entry per tile; other land has no tiles.
        block = 1 << (2 * (z - 8))
        bx, by = d2xy(8, np.arange(1 << 16, dtype=np.uint64))
        bx, by = bx.astype(np.int64), by.astype(np.int64)
        ocean8 = ~land5[bx >> 3, by >> 3]
        people = np.flatnonzero(inhabited8[bx, by])
        seas = np.flatnonzero(ocean8).astype(np.uint64)
        ids_all.append(np.uint64(first_id(z)) + seas * np.uint64(block))
        runs_all.append(np.full(len(seas), block, dtype=np.uint64))
        lengths_all.append(np.full(len(seas), len(sea), dtype=np.uint64))
        offsets_all.append(np.zeros(len(seas), dtype=np.uint64))
        for start in range(0, len(people), 64):
            chunk = people[start:start + 64].astype(np.uint64)
            d = (chunk[:, None] * np.uint64(block) + np.arange(block, dtype=np.uint64)[None, :]).ravel()
            emit(z, d)
        print(f"  z{z}: {sum(len(a) for a in ids_all):,} entries so far", file=sys.stderr)

    order = np.argsort(np.concatenate(ids_all), kind="stable")
    ids = np.concatenate(ids_all)[order]
    runs = np.concatenate(runs_all)[order]
    lengths = np.concatenate(lengths_all)[order]
    offsets = np.concatenate(offsets_all)[order]
    # Runs may join across chunk borders (the sea): merge once more.
    same = np.zeros(len(ids), bool)
    same[1:] = (ids[1:] == ids[:-1] + runs[:-1]) & (offsets[1:] == offsets[:-1]) & (lengths[1:] == lengths[:-1]) & (runs[:-1] + runs[1:] < (1 << 32))
    if same.any():
        starts = np.flatnonzero(~same)
        runs = np.add.reduceat(runs, starts)
        ids, lengths, offsets = ids[starts], lengths[starts], offsets[starts]

    leaf = 4096
    while True:
        leaves, root_ids, root_offsets, root_lengths = [], [], [], []
        at = 0
        for i in range(0, len(ids), leaf):
            blob = directory(ids[i:i + leaf], runs[i:i + leaf], lengths[i:i + leaf], offsets[i:i + leaf])
            root_ids.append(int(ids[i]))
            root_offsets.append(at)
            root_lengths.append(len(blob))
            leaves.append(blob)
            at += len(blob)
        root = directory(np.array(root_ids, np.uint64), np.zeros(len(root_ids), np.uint64),
                         np.array(root_lengths, np.uint64), np.array(root_offsets, np.uint64))
        if 127 + len(root) <= 16384:
            break
        leaf *= 2
    leaves_bytes = b"".join(leaves)
    meta = gzip.compress(b'{"attribution":"synthetic","name":"synthetic planet for the S7 benchmark"}', mtime=0)

    header = bytearray(b"PMTiles") + bytes([3])
    root_off = 127
    meta_off = root_off + len(root)
    leaf_off = meta_off + len(meta)
    data_off = leaf_off + len(leaves_bytes)
    for v in (root_off, len(root), meta_off, len(meta), leaf_off, len(leaves_bytes), data_off, data_length,
              int(runs.sum()), len(ids), 1 + POOL + unique_tiles):
        header += int(v).to_bytes(8, "little")
    header += bytes([0, 2, 1, 0, 0, Z])           # not clustered (pool first), gzip dirs, no tile compression, unknown type
    for v in (-1800000000, -850511287, 1800000000, 850511287):
        header += int(v).to_bytes(4, "little", signed=True)
    header += bytes([0]) + int(0).to_bytes(4, "little") + int(0).to_bytes(4, "little")
    assert len(header) == 127
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(header)
        f.write(root)
        f.write(meta)
        f.write(leaves_bytes)
        for part in data_parts:
            f.write(part)
    os.replace(tmp, args.out)
    print(f"wrote {args.out}: {os.path.getsize(args.out):,} bytes, z0–{Z}, {int(runs.sum()):,} tiles addressed, "
          f"{len(ids):,} entries in {len(leaves):,} leaves of {leaf:,} ({len(leaves_bytes):,} bytes), "
          f"{unique_tiles:,} unique tiles ({data_length:,} bytes of tile data)", file=sys.stderr)


if __name__ == "__main__":
    main()
