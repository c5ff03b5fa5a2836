"""A small, deterministic Mapbox Vector Tile 2.1 encoder.

Written here rather than taken from a library so that the byte output depends
only on this file: key/value tables are built in first-use order, features are
written in the order given, and polygon winding is fixed *after* quantisation
(rounding to the integer grid can flip or collapse a ring, so orienting before
rounding is not enough to honour MVT 2.1's "exterior rings have positive area
in y-down coordinates" rule).
"""

from __future__ import annotations

import struct

POINT, LINESTRING, POLYGON = 1, 2, 3


def _varint(value: int, out: bytearray) -> None:
    if value < 0:
        value += 1 << 64
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def _key(field: int, wire: int, out: bytearray) -> None:
    _varint((field << 3) | wire, out)


def _bytes_field(field: int, payload: bytes, out: bytearray) -> None:
    _key(field, 2, out)
    _varint(len(payload), out)
    out.extend(payload)


def _zigzag(n: int) -> int:
    return (n << 1) ^ (n >> 63)


def _command(cmd: int, count: int) -> int:
    return (cmd & 0x7) | (count << 3)


def ring_area2(ring: list[tuple[int, int]]) -> int:
    """Twice the signed area with the MVT 2.1 formula; positive means clockwise on screen (y down)."""
    total = 0
    n = len(ring)
    for i in range(n):
        x0, y0 = ring[i]
        x1, y1 = ring[(i + 1) % n]
        total += x0 * y1 - x1 * y0
    return total


def dedupe(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for p in points:
        if not out or out[-1] != p:
            out.append(p)
    return out


def clean_ring(points: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """Removes repeats and the closing point; None when the ring collapsed to nothing."""
    pts = dedupe(points)
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    if len(pts) < 3 or ring_area2(pts) == 0:
        return None
    return pts


class Encoder:
    """Geometry command stream for one feature (cursor starts at 0,0 per feature)."""

    def __init__(self) -> None:
        self.ints: list[int] = []
        self.cx = 0
        self.cy = 0

    def _move(self, x: int, y: int) -> tuple[int, int]:
        dx, dy = x - self.cx, y - self.cy
        self.cx, self.cy = x, y
        return _zigzag(dx), _zigzag(dy)

    def points(self, pts: list[tuple[int, int]]) -> None:
        self.ints.append(_command(1, len(pts)))
        for x, y in pts:
            self.ints.extend(self._move(x, y))

    def line(self, pts: list[tuple[int, int]]) -> None:
        self.ints.append(_command(1, 1))
        self.ints.extend(self._move(*pts[0]))
        self.ints.append(_command(2, len(pts) - 1))
        for x, y in pts[1:]:
            self.ints.extend(self._move(x, y))

    def ring(self, pts: list[tuple[int, int]]) -> None:
        self.line(pts)
        self.ints.append(_command(7, 1))


def polygon_rings(polygons: list[tuple[list, list[list]]]) -> Encoder | None:
    """Encodes (exterior, [holes]) pairs of integer rings, fixing winding; None if all collapsed."""
    enc = Encoder()
    any_ring = False
    for exterior, holes in polygons:
        ext = clean_ring(exterior)
        if ext is None:
            continue
        if ring_area2(ext) < 0:
            ext.reverse()
        enc.ring(ext)
        any_ring = True
        for hole in holes:
            h = clean_ring(hole)
            if h is None:
                continue
            if ring_area2(h) > 0:
                h.reverse()
            enc.ring(h)
    return enc if any_ring else None


def line_parts(lines: list[list[tuple[int, int]]]) -> Encoder | None:
    enc = Encoder()
    any_line = False
    for line in lines:
        pts = dedupe(line)
        if len(pts) < 2:
            continue
        enc.line(pts)
        any_line = True
    return enc if any_line else None


def _value(v) -> bytes:
    out = bytearray()
    if isinstance(v, bool):
        _key(7, 0, out)
        _varint(1 if v else 0, out)
    elif isinstance(v, int):
        _key(4, 0, out)
        _varint(v, out)
    elif isinstance(v, float):
        _key(3, 1, out)
        out.extend(struct.pack("<d", v))
    else:
        _bytes_field(1, str(v).encode("utf-8"), out)
    return bytes(out)


class Layer:
    def __init__(self, name: str, extent: int = 4096) -> None:
        self.name = name
        self.extent = extent
        self.keys: dict[str, int] = {}
        self.values: dict[tuple[str, object], int] = {}
        self.features: list[bytes] = []

    def add(self, geom_type: int, enc: Encoder, props: list[tuple[str, object]]) -> None:
        """props is an ordered list so the key table order is deterministic."""
        tags: list[int] = []
        for k, v in props:
            if v is None:
                continue
            ki = self.keys.setdefault(k, len(self.keys))
            vkey = (type(v).__name__, v)
            vi = self.values.setdefault(vkey, len(self.values))
            tags.extend((ki, vi))
        out = bytearray()
        if tags:
            packed = bytearray()
            for t in tags:
                _varint(t, packed)
            _bytes_field(2, bytes(packed), out)
        _key(3, 0, out)
        _varint(geom_type, out)
        packed = bytearray()
        for g in enc.ints:
            _varint(g, packed)
        _bytes_field(4, bytes(packed), out)
        self.features.append(bytes(out))

    def encode(self) -> bytes:
        out = bytearray()
        _key(15, 0, out)
        _varint(2, out)
        _bytes_field(1, self.name.encode("utf-8"), out)
        for f in self.features:
            _bytes_field(2, f, out)
        for k in self.keys:  # dicts keep insertion order
            _bytes_field(3, k.encode("utf-8"), out)
        for (_, v) in self.values:
            _bytes_field(4, _value(v), out)
        _key(5, 0, out)
        _varint(self.extent, out)
        return bytes(out)


def encode_tile(layers: list[Layer]) -> bytes:
    out = bytearray()
    for layer in layers:
        if layer.features:
            _bytes_field(3, layer.encode(), out)
    return bytes(out)
