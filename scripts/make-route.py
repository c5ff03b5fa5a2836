#!/usr/bin/env python3
"""Writes a big GeoJSON LineString route for load tests: a seeded random walk around Helsinki.

Usage: scripts/make-route.py [POINTS] [OUT.geojson] [--seed N] [--digits D]

POINTS defaults to 1,000,000 and OUT to route.geojson. Coordinates are rounded to D decimals
(default 7, what GPS loggers write); --digits 17 gives Python's full repr, the slowest case
for a number parser. The same seed gives the same file, byte for byte.
"""
import argparse
import json
import math
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("points", nargs="?", type=int, default=1_000_000)
    parser.add_argument("out", nargs="?", default="route.geojson")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--digits", type=int, default=7)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    lat, lon = 60.1699, 24.9384
    heading = rng.uniform(0, 2 * math.pi)
    step = 0.00002  # degrees of latitude, about 2 m: 1M points wander a few kilometres
    coordinates = []
    for _ in range(args.points):
        heading += rng.gauss(0, 0.3)
        lat += step * math.cos(heading)
        lon += step * math.sin(heading) / math.cos(math.radians(lat))
        # Keep the walk within a box around the city so the map stays street-level.
        if abs(lat - 60.1699) > 0.05 or abs(lon - 24.9384) > 0.1:
            heading += math.pi
        coordinates.append([round(lon, args.digits), round(lat, args.digits)])

    document = {
        "type": "Feature",
        "properties": {"stroke": "#1a73e8", "stroke-width": 3},
        "geometry": {"type": "LineString", "coordinates": coordinates},
    }
    with open(args.out, "w") as out:
        json.dump(document, out, separators=(",", ":"))


if __name__ == "__main__":
    main()
