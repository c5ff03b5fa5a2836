#!/usr/bin/python3
"""Prepares the Helsinki OpenStreetMap extract for tilemaker (run by build.sh).

    prepare.py EXTRACT.osm.pbf CLEAN.osm.pbf COASTLINE_DIR WEST,SOUTH,EAST,NORTH

1. Writes CLEAN.osm.pbf: the extract without references to objects it does not hold
   (a clipped extract keeps ways whose far nodes were cut off, which tilemaker refuses).
2. Writes COASTLINE_DIR/water_polygons.shp: the sea inside the bounding box, from the
   extract's natural=coastline ways (OSM draws coastlines with the land on the left), for
   the `ocean` layer of the OpenMapTiles and Protomaps configs; and
   COASTLINE_DIR/land_polygons.shp, the rest of the box, for the Protomaps `earth` layer.

Needs Debian's python3-pyosmium, python3-shapely and python3-pyshp. Deterministic: the
same extract gives the same files.
"""
import os
import sys

import osmium
import shapefile
from shapely.geometry import LineString, Point, box
from shapely.ops import polygonize, unary_union


class Inventory(osmium.SimpleHandler):
    """Ids present in the extract, node locations, and the coastline ways."""

    def __init__(self):
        super().__init__()
        self.nodes = {}
        self.ways = set()
        self.relations = set()
        self.coastlines = []

    def node(self, n):
        self.nodes[n.id] = (n.location.lon, n.location.lat)

    def way(self, w):
        self.ways.add(w.id)
        if w.tags.get("natural") == "coastline":
            self.coastlines.append((w.id, [r.ref for r in w.nodes]))

    def relation(self, r):
        self.relations.add(r.id)


class Cleaner(osmium.SimpleHandler):
    """Copies the extract, dropping references to objects it does not hold."""

    def __init__(self, inventory, writer):
        super().__init__()
        self.inv = inventory
        self.writer = writer

    def node(self, n):
        self.writer.add_node(n)

    def way(self, w):
        refs = [r.ref for r in w.nodes if r.ref in self.inv.nodes]
        if len(refs) >= 2:
            self.writer.add_way(w.replace(nodes=refs))

    def relation(self, r):
        present = {"n": self.inv.nodes, "w": self.inv.ways, "r": self.inv.relations}
        members = [(m.type, m.ref, m.role) for m in r.members if m.ref in present[m.type]]
        if members:
            self.writer.add_relation(r.replace(members=members))


def sea_and_land(inv, bbox):
    """Faces of the box cut by the coastlines: water where probes right of a coastline
    (the water side) outnumber probes left of it, land elsewhere."""
    frame = box(*bbox)
    lines = [frame.boundary]
    probes = []  # (point, is_water)
    eps = 1e-6
    runs = []
    for _, refs in sorted(inv.coastlines):
        # The extract keeps only the coastline nodes inside its box: each stretch of
        # consecutive nodes it kept is one run.
        run = []
        for r in refs + [None]:
            if r is not None and r in inv.nodes:
                run.append(inv.nodes[r])
                continue
            if len(run) >= 2:
                runs.append(run)
            run = []
    for pts in runs:
        # A run ends where the extract was cut, near the box's edge: carry both ends
        # straight to the nearest point of the edge so the run splits the box.
        ends = [frame.boundary.interpolate(frame.boundary.project(Point(p))) for p in (pts[0], pts[-1])]
        lines.append(LineString([ends[0].coords[0]] + pts + [ends[1].coords[0]]).intersection(frame))
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            dx, dy = x1 - x0, y1 - y0
            length = (dx * dx + dy * dy) ** 0.5
            if length == 0:
                continue
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            # y is north: the right of (dx, dy) is (dy, -dx).
            nx, ny = dy / length * eps, -dx / length * eps
            probes.append((Point(mx + nx, my + ny), True))
            probes.append((Point(mx - nx, my - ny), False))
    faces = list(polygonize(unary_union(lines)))
    water, land = [], []
    for face in faces:
        votes = sum(1 if w else -1 for p, w in probes if face.contains(p))
        (water if votes > 0 else land).append(face)
    # A stable order, whatever order polygonize returned them in.
    def key(f):
        return (round(f.bounds[0], 9), round(f.bounds[1], 9), round(f.area, 12))
    return sorted(water, key=key), sorted(land, key=key)


def write_polygons(path, polygons):
    with shapefile.Writer(path, shapeType=shapefile.POLYGON) as shp:
        shp.field("id", "N", size=6)
        for i, poly in enumerate(polygons):
            rings = [list(poly.exterior.coords)] + [list(r.coords) for r in poly.interiors]
            shp.poly(rings)
            shp.record(i)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    source, clean, coast_dir, bbox_text = sys.argv[1:]
    bbox = tuple(float(v) for v in bbox_text.split(","))
    inv = Inventory()
    inv.apply_file(source, locations=False)
    if os.path.exists(clean):
        os.remove(clean)
    writer = osmium.SimpleWriter(clean)
    try:
        Cleaner(inv, writer).apply_file(source)
    finally:
        writer.close()

    os.makedirs(coast_dir, exist_ok=True)
    water, land = sea_and_land(inv, bbox)
    write_polygons(os.path.join(coast_dir, "water_polygons"), water)
    write_polygons(os.path.join(coast_dir, "land_polygons"), land)
    print(f"prepare.py: {len(inv.coastlines)} coastline ways, {len(water)} sea and {len(land)} land polygons", file=sys.stderr)


if __name__ == "__main__":
    main()
