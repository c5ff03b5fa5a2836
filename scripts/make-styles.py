#!/usr/bin/env python3
"""Generates Styles/normal.json, Styles/terrain.json, Styles/hybrid.json and Styles/satellite.json,
and the same four for the Protomaps basemap schema in Styles/protomaps/.

The styles share one layer structure, written for the OpenMapTiles vector schema, and differ
in palette (and terrain/hybrid add their raster layers). The Protomaps (version 4) styles are
the OpenMapTiles ones with each layer's source layer and filter translated (`protomaps()`,
one table from layer to Protomaps selection), so both look the same; mapsnap picks them when
`--source` holds Protomaps tiles. Run from the repository root:

    python3 scripts/make-styles.py

The output is ordinary MapLibre style JSON in mapsnap's supported subset (docs/style-subset.md);
users copy and edit it freely. Source URLs: `mapsnap:embedded` is the built-in data (world
base map + bundled Helsinki street tiles), `mapsnap:relief` / `mapsnap:imagery` the bundled
world rasters, `mapsnap:dem` the elevation tiles given with `--dem` (Terrarium unless
`--dem-encoding` says otherwise; left out without `--dem`). `--source` replaces the vector source.
"""
import json, os, sys

ROAD_CLASSES = ["motorway", "trunk", "primary", "secondary", "tertiary", "minor", "service", "track"]
# Line width in pixels at zoom 18 for each class (interpolated exponentially down to ~z6).
ROAD_WIDTH_Z18 = {"motorway": 22, "trunk": 20, "primary": 18, "secondary": 16, "tertiary": 14,
                  "minor": 11, "service": 6, "track": 3}
ROAD_MINZOOM = {"motorway": 5, "trunk": 6, "primary": 8, "secondary": 9, "tertiary": 10,
                "minor": 12, "service": 14, "track": 14}

PALETTES = {
    "normal": {
        "name": "mapsnap normal",
        "background": "#f2efe9", "water": "#aad3df", "water_line": "#aad3df",
        "wood": "#add19e", "grass": "#cdebb0", "farmland": "#eef0d5", "wetland": "#d6e6d0",
        "sand": "#f5e9c6", "ice": "#ffffff", "rock": "#e4ddd5",
        "residential": "#ebe6df", "commercial": "#f2dad9", "industrial": "#ebdbe8",
        "cemetery": "#aacbaf", "hospital": "#ffffe5", "school": "#ffffe5", "railway_area": "#e6e0da",
        "park": "#c8facc", "pitch": "#aae0cb",
        "building": "#d9d0c9", "building_outline": "#c4b6ab", "aeroway": "#dadae0",
        "casing": "#b3a99d", "motorway": "#e892a2", "trunk": "#f9b29c", "primary": "#fcd6a4",
        "secondary": "#f7fabf", "tertiary": "#ffffff", "minor": "#ffffff", "service": "#ffffff",
        "track": "#c6a77a", "path": "#e3a08f", "rail": "#8e8e8e", "tunnel_casing": "#c9c2b8",
        "boundary_country": "#9e8fa8", "boundary_state": "#b8a6c0",
        "text": "#333333", "text_halo": "#ffffff", "road_text": "#444444",
        "water_text": "#3b6f9e", "place_text": "#222222", "poi_text": "#6b5f53",
        "housenumber": "#7d7367",
        "relief_opacity": 0.0, "imagery": False, "building_opacity": 1.0, "road_opacity": 1.0,
    },
    "terrain": {
        "name": "mapsnap terrain",
        "background": "#e3e6cf", "water": "#8fbcd4", "water_line": "#7aaecb",
        "wood": "#a9c98f", "grass": "#c8dba4", "farmland": "#e4e3b8", "wetland": "#bfd8bf",
        "sand": "#eadbb0", "ice": "#f6fafc", "rock": "#d9d0c2",
        "residential": "#e6dcc6", "commercial": "#e8d5c0", "industrial": "#ddd2c3",
        "cemetery": "#b3c99c", "hospital": "#ece2c4", "school": "#ece2c4", "railway_area": "#dcd3c1",
        "park": "#b5d58e", "pitch": "#a3cf95",
        "building": "#cdb694", "building_outline": "#b19a76", "aeroway": "#d6d2c8",
        "casing": "#9c7f57", "motorway": "#c8642f", "trunk": "#d77b3f", "primary": "#e59a4f",
        "secondary": "#efc270", "tertiary": "#faf3dc", "minor": "#faf3dc", "service": "#f6efd8",
        "track": "#8d6a3c", "path": "#8d6a3c", "rail": "#6e6358", "tunnel_casing": "#bfae92",
        "boundary_country": "#7d5c80", "boundary_state": "#9d84a0",
        "text": "#3a3020", "text_halo": "#f4f0de", "road_text": "#4a3d2a",
        "water_text": "#245f80", "place_text": "#2b2416", "poi_text": "#5c4e38",
        "housenumber": "#7a6a52",
        "relief_opacity": 0.55, "imagery": False, "building_opacity": 0.9, "road_opacity": 1.0,
        "hillshade": {"shadow": "#473b24", "highlight": "#fffdf0", "accent": "#5c4a2e"},
    },
    "hybrid": {
        "name": "mapsnap hybrid",
        "background": "#1f2a1c", "water": "#0f2437", "water_line": "#17324a",
        "wood": "#1d3319", "grass": "#2a3b22", "farmland": "#39392a", "wetland": "#22332c",
        "sand": "#5b5237", "ice": "#c9d3d9", "rock": "#45423c",
        "residential": "#353430", "commercial": "#3b3633", "industrial": "#373437",
        "cemetery": "#27361f", "hospital": "#3a3731", "school": "#3a3731", "railway_area": "#33312d",
        "park": "#27401f", "pitch": "#2c4a33",
        "building": "#4a4744", "building_outline": "#5d5955", "aeroway": "#3c3d40",
        "casing": "#1a1a1a", "motorway": "#f5c25b", "trunk": "#f7d172", "primary": "#fae08f",
        "secondary": "#ffffff", "tertiary": "#ffffff", "minor": "#d8d8d8", "service": "#bdbdbd",
        "track": "#a08b68", "path": "#c9b79c", "rail": "#9a9a9a", "tunnel_casing": "#2e2e2e",
        "boundary_country": "#f0e6f5", "boundary_state": "#d2c5da",
        "text": "#ffffff", "text_halo": "#000000", "road_text": "#ffffff",
        "water_text": "#bcd9f2", "place_text": "#ffffff", "poi_text": "#f0e8dc",
        "housenumber": "#d0c8bc",
        "relief_opacity": 0.0, "imagery": True, "building_opacity": 0.55, "road_opacity": 0.85,
    },
}


def ramp(stops, base=1.5):
    """An exponential zoom ramp from (zoom, value) pairs; stops not above the previous zoom
    are dropped, so a ramp starting at a class's min zoom stays ascending."""
    out, last = [], -1
    for z, v in stops:
        if z > last:
            out += [z, round(v, 2)]
            last = z
    return ["interpolate", ["exponential", base], ["zoom"], *out]


def zoom_width(z18_width, min_zoom, scale=1.0):
    """Thin at min_zoom, z18_width × scale at 18, tripling by 20."""
    w = z18_width * scale
    return ramp([(min_zoom, max(0.4, w / 40)), (12, max(0.6, w / 8)), (15, w / 2.6), (18, w), (20, w * 3)])


def build(style_id, p):
    layers = []
    add = layers.append
    add({"id": "background", "type": "background", "paint": {"background-color": p["background"]}})
    if p["imagery"]:
        add({"id": "imagery", "type": "raster", "source": "imagery", "maxzoom": 24,
             "paint": {"raster-opacity": 1, "raster-saturation": -0.1}})
    # Landcover and landuse: natural surfaces first, then built-up areas.
    landcover_opacity = 0.35 if p["imagery"] else 1
    for cls, key in [("wood", "wood"), ("forest", "wood"), ("grass", "grass"), ("farmland", "farmland"),
                     ("wetland", "wetland"), ("sand", "sand"), ("ice", "ice"), ("rock", "rock")]:
        add({"id": f"landcover-{cls}", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
             "filter": ["==", ["get", "class"], cls],
             "paint": {"fill-color": p[key], "fill-opacity": landcover_opacity}})
    landuse = [("residential", ["residential", "suburb", "neighbourhood"]),
               ("commercial", ["commercial", "retail"]), ("industrial", ["industrial", "garages", "dam"]),
               ("cemetery", ["cemetery"]), ("hospital", ["hospital"]),
               ("school", ["school", "college", "university", "kindergarten"]),
               ("railway_area", ["railway"]), ("pitch", ["pitch", "stadium", "playground", "track"])]
    for key, classes in landuse:
        add({"id": f"landuse-{key.replace('_', '-')}", "type": "fill", "source": "openmaptiles",
             "source-layer": "landuse", "filter": ["match", ["get", "class"], classes, True, False],
             "paint": {"fill-color": p[key], "fill-opacity": 0.5 if p["imagery"] else
                       (["interpolate", ["linear"], ["zoom"], 10, 0.6, 14, 1] if key == "residential" else 1)}})
    if p["relief_opacity"] > 0:
        add({"id": "relief", "type": "raster", "source": "relief", "maxzoom": 24,
             "paint": {"raster-opacity": ["interpolate", ["linear"], ["zoom"], 0, p["relief_opacity"],
                                          10, p["relief_opacity"] * 0.6, 13, 0.0]}})
    if p.get("hillshade"):
        # DEM hillshade from `--dem` (the `mapsnap:dem` slot); without it the source is left
        # out and this layer skipped silently. Above landcover and landuse, below roads.
        h = p["hillshade"]
        add({"id": "hillshade", "type": "hillshade", "source": "dem", "maxzoom": 24,
             "paint": {"hillshade-exaggeration": 0.5, "hillshade-illumination-direction": 335,
                       "hillshade-shadow-color": h["shadow"], "hillshade-highlight-color": h["highlight"],
                       "hillshade-accent-color": h["accent"]}})
    add({"id": "park", "type": "fill", "source": "openmaptiles", "source-layer": "park",
         "paint": {"fill-color": p["park"], "fill-opacity": 0.45 if p["imagery"] else 1}})
    add({"id": "water", "type": "fill", "source": "openmaptiles", "source-layer": "water",
         "filter": ["!=", ["get", "brunnel"], "tunnel"],
         "paint": {"fill-color": p["water"], "fill-opacity": 0.85 if p["imagery"] else 1}})
    add({"id": "waterway-river", "type": "line", "source": "openmaptiles", "source-layer": "waterway",
         "filter": ["==", ["get", "class"], "river"],
         "layout": {"line-cap": "round", "line-join": "round"},
         "paint": {"line-color": p["water_line"],
                   "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 3, 0.4, 8, 1, 14, 4, 18, 14]}})
    add({"id": "waterway-other", "type": "line", "source": "openmaptiles", "source-layer": "waterway",
         "filter": ["!=", ["get", "class"], "river"], "minzoom": 12,
         "layout": {"line-cap": "round", "line-join": "round"},
         "paint": {"line-color": p["water_line"],
                   "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 12, 0.5, 18, 4]}})
    add({"id": "aeroway-area", "type": "fill", "source": "openmaptiles", "source-layer": "aeroway",
         "minzoom": 11, "filter": ["==", ["geometry-type"], "Polygon"],
         "paint": {"fill-color": p["aeroway"], "fill-opacity": 0.8}})
    add({"id": "aeroway-runway", "type": "line", "source": "openmaptiles", "source-layer": "aeroway",
         "minzoom": 11, "filter": ["==", ["geometry-type"], "LineString"],
         "paint": {"line-color": p["aeroway"],
                   "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 11, 2, 17, 40]}})
    add({"id": "building", "type": "fill", "source": "openmaptiles", "source-layer": "building",
         "minzoom": 13,
         "paint": {"fill-color": p["building"], "fill-outline-color": p["building_outline"],
                   "fill-opacity": ["interpolate", ["linear"], ["zoom"], 13, 0,
                                    14.5, p["building_opacity"]]}})

    def road_layers(brunnel, casing_color, dashed_casing=False):
        brunnel_filter = (["==", ["get", "brunnel"], brunnel] if brunnel != "none"
                          else ["!", ["match", ["get", "brunnel"], ["bridge", "tunnel"], True, False]])
        prefix = {"none": "road", "tunnel": "tunnel", "bridge": "bridge"}[brunnel]
        # Paths: thin dashed lines, no casing.
        add({"id": f"{prefix}-path", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
             "minzoom": 14, "filter": ["all", brunnel_filter, ["==", ["get", "class"], "path"]],
             "layout": {"line-join": "round"},
             "paint": {"line-color": p["path"], "line-opacity": p["road_opacity"],
                       "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 14, 0.6, 18, 2, 20, 4],
                       "line-dasharray": [2, 1.5]}})
        order = list(reversed(ROAD_CLASSES))  # minor roads below major ones
        for cls in order:
            if cls == "track":
                continue
            mz = ROAD_MINZOOM[cls]
            casing = {"id": f"{prefix}-{cls}-casing", "type": "line", "source": "openmaptiles",
                      "source-layer": "transportation", "minzoom": max(mz, 11 if cls in ("minor", "tertiary") else mz),
                      "filter": ["all", brunnel_filter, ["==", ["get", "class"], cls]],
                      "layout": {"line-cap": "butt" if brunnel == "bridge" else "round", "line-join": "round"},
                      "paint": {"line-color": casing_color, "line-opacity": p["road_opacity"],
                                "line-width": ramp([(mz, 0.6), (12, ROAD_WIDTH_Z18[cls] / 7 + 1),
                                                    (15, ROAD_WIDTH_Z18[cls] / 2.6 + 1.5),
                                                    (18, ROAD_WIDTH_Z18[cls] + 3), (20, ROAD_WIDTH_Z18[cls] * 3 + 4)])}}
            if dashed_casing:
                casing["paint"]["line-dasharray"] = [0.5, 0.25]
            add(casing)
        for cls in order:
            mz = ROAD_MINZOOM[cls]
            layer = {"id": f"{prefix}-{cls}", "type": "line", "source": "openmaptiles",
                     "source-layer": "transportation", "minzoom": mz,
                     "filter": ["all", brunnel_filter, ["==", ["get", "class"], cls]],
                     "layout": {"line-cap": "round", "line-join": "round"},
                     "paint": {"line-color": p[cls], "line-opacity": p["road_opacity"] * (0.7 if brunnel == "tunnel" else 1),
                               "line-width": zoom_width(ROAD_WIDTH_Z18[cls], mz)}}
            if cls == "track":
                layer["paint"]["line-dasharray"] = [3, 2]
                layer["paint"]["line-width"] = ["interpolate", ["exponential", 1.5], ["zoom"], 14, 0.8, 18, 2.5]
            add(layer)
        add({"id": f"{prefix}-rail", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
             "minzoom": 10, "filter": ["all", brunnel_filter, ["match", ["get", "class"], ["rail", "transit"], True, False]],
             "paint": {"line-color": p["rail"], "line-opacity": p["road_opacity"],
                       "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 10, 0.6, 14, 1.5, 18, 3]}})
        add({"id": f"{prefix}-rail-hatching", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
             "minzoom": 14, "filter": ["all", brunnel_filter, ["==", ["get", "class"], "rail"]],
             "paint": {"line-color": p["rail"], "line-opacity": p["road_opacity"],
                       "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 14, 4, 18, 8],
                       "line-dasharray": [0.2, 8]}})

    road_layers("tunnel", p["tunnel_casing"], dashed_casing=True)
    road_layers("none", p["casing"])
    road_layers("bridge", p["casing"])
    add({"id": "ferry", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
         "minzoom": 10, "filter": ["==", ["get", "class"], "ferry"],
         "paint": {"line-color": p["water_text"], "line-width": 1.2, "line-dasharray": [4, 3], "line-opacity": 0.7}})
    add({"id": "boundary-state", "type": "line", "source": "openmaptiles", "source-layer": "boundary",
         "filter": ["all", ["==", ["get", "admin_level"], 4], ["!=", ["get", "maritime"], 1]],
         "layout": {"line-join": "round"},
         "paint": {"line-color": p["boundary_state"], "line-dasharray": [3, 2],
                   "line-width": ["interpolate", ["linear"], ["zoom"], 3, 0.6, 10, 1.5, 14, 2.5]}})
    add({"id": "boundary-country", "type": "line", "source": "openmaptiles", "source-layer": "boundary",
         "filter": ["all", ["==", ["get", "admin_level"], 2], ["!=", ["get", "maritime"], 1]],
         "layout": {"line-join": "round", "line-cap": "round"},
         "paint": {"line-color": p["boundary_country"],
                   "line-width": ["interpolate", ["linear"], ["zoom"], 0, 0.6, 5, 1.4, 10, 3, 14, 4]}})

    name = ["coalesce", ["get", "name:latin"], ["get", "name"], ["get", "name_en"]]
    halo = {"text-halo-color": p["text_halo"], "text-halo-width": 1.5}
    add({"id": "waterway-name", "type": "symbol", "source": "openmaptiles", "source-layer": "waterway",
         "minzoom": 13, "layout": {"symbol-placement": "line", "text-field": name, "text-font": ["Noto Sans Italic"],
                                    "text-size": 12, "text-letter-spacing": 0.1},
         "paint": {"text-color": p["water_text"], **halo}})
    add({"id": "water-name", "type": "symbol", "source": "openmaptiles", "source-layer": "water_name",
         "layout": {"text-field": name, "text-font": ["Noto Sans Italic"],
                    "text-size": ["interpolate", ["linear"], ["zoom"], 0, 10, 8, 12, 14, 14],
                    "text-max-width": 6, "text-letter-spacing": 0.1},
         "paint": {"text-color": p["water_text"], **halo}})
    add({"id": "road-name-minor", "type": "symbol", "source": "openmaptiles", "source-layer": "transportation_name",
         "minzoom": 15, "filter": ["match", ["get", "class"], ["minor", "service", "track", "path"], True, False],
         "layout": {"symbol-placement": "line", "text-field": name, "text-font": ["Noto Sans Regular"],
                    "text-size": ["interpolate", ["linear"], ["zoom"], 15, 10, 18, 13]},
         "paint": {"text-color": p["road_text"], **halo}})
    add({"id": "road-name-major", "type": "symbol", "source": "openmaptiles", "source-layer": "transportation_name",
         "minzoom": 12, "filter": ["match", ["get", "class"], ["minor", "service", "track", "path"], False, True],
         "layout": {"symbol-placement": "line", "text-field": name, "text-font": ["Noto Sans Regular"],
                    "text-size": ["interpolate", ["linear"], ["zoom"], 12, 10, 18, 14]},
         "paint": {"text-color": p["road_text"], **halo}})
    add({"id": "housenumber", "type": "symbol", "source": "openmaptiles", "source-layer": "housenumber",
         "minzoom": 17, "layout": {"text-field": "{housenumber}", "text-font": ["Noto Sans Regular"], "text-size": 9},
         "paint": {"text-color": p["housenumber"], "text-halo-color": p["text_halo"], "text-halo-width": 1}})
    add({"id": "poi", "type": "symbol", "source": "openmaptiles", "source-layer": "poi",
         "minzoom": 17, "filter": ["<=", ["coalesce", ["get", "rank"], 99], 20],
         "layout": {"text-field": name, "text-font": ["Noto Sans Regular"], "text-size": 10, "text-max-width": 8,
                    "text-padding": 6},
         "paint": {"text-color": p["poi_text"], **halo}})
    add({"id": "place-minor", "type": "symbol", "source": "openmaptiles", "source-layer": "place",
         "minzoom": 11, "filter": ["match", ["get", "class"], ["suburb", "quarter", "neighbourhood", "hamlet", "island"], True, False],
         "layout": {"text-field": name, "text-font": ["Noto Sans Bold"], "text-transform": "uppercase",
                    "text-letter-spacing": 0.1, "text-max-width": 8,
                    "text-size": ["interpolate", ["linear"], ["zoom"], 11, 10, 16, 13]},
         "paint": {"text-color": p["place_text"], "text-opacity": 0.75, **halo}})
    add({"id": "place-village", "type": "symbol", "source": "openmaptiles", "source-layer": "place",
         "minzoom": 9, "filter": ["match", ["get", "class"], ["village", "town"], True, False],
         "layout": {"text-field": name, "text-font": ["Noto Sans Regular"], "text-max-width": 8,
                    "text-size": ["interpolate", ["linear"], ["zoom"], 9, 11, 14, 15]},
         "paint": {"text-color": p["place_text"], **halo}})
    # Airports (the embedded mid-zoom tiles' OurAirports points, or OpenMapTiles' own).
    add({"id": "airport-label", "type": "symbol", "source": "openmaptiles", "source-layer": "aerodrome_label",
         "minzoom": 10, "filter": ["match", ["get", "class"], ["international", "regional", "public"], True, False],
         "layout": {"text-field": name, "text-font": ["Noto Sans Italic"], "text-size": 11, "text-max-width": 8,
                    "symbol-sort-key": ["match", ["get", "class"], "international", 1, 2]},
         "paint": {"text-color": p["poi_text"], **halo}})
    add({"id": "place-city", "type": "symbol", "source": "openmaptiles", "source-layer": "place",
         "filter": ["==", ["get", "class"], "city"],
         "layout": {"text-field": name, "text-font": ["Noto Sans Bold"], "text-max-width": 8,
                    "symbol-sort-key": ["coalesce", ["get", "rank"], 10],
                    "text-size": ["interpolate", ["linear"], ["zoom"], 3, 10, 8, 14, 12, 20]},
         "paint": {"text-color": p["place_text"], **halo}})
    add({"id": "place-state", "type": "symbol", "source": "openmaptiles", "source-layer": "place",
         "minzoom": 4, "maxzoom": 8, "filter": ["==", ["get", "class"], "state"],
         "layout": {"text-field": name, "text-font": ["Noto Sans Regular"], "text-transform": "uppercase",
                    "text-letter-spacing": 0.15, "text-size": 10, "text-max-width": 8},
         "paint": {"text-color": p["place_text"], "text-opacity": 0.6, **halo}})
    add({"id": "place-country", "type": "symbol", "source": "openmaptiles", "source-layer": "place",
         "maxzoom": 9, "filter": ["==", ["get", "class"], "country"],
         "layout": {"text-field": name, "text-font": ["Noto Sans Bold"], "text-max-width": 7,
                    "symbol-sort-key": ["coalesce", ["get", "rank"], 10],
                    "text-size": ["interpolate", ["linear"], ["zoom"], 1, 10, 6, 16]},
         "paint": {"text-color": p["place_text"], "text-opacity": 0.85, **halo}})

    sources = {"openmaptiles": {"type": "vector", "url": "mapsnap:embedded"}}
    if p["relief_opacity"] > 0:
        sources["relief"] = {"type": "raster", "url": "mapsnap:relief", "tileSize": 256}
    if p.get("hillshade"):
        sources["dem"] = {"type": "raster-dem", "url": "mapsnap:dem", "encoding": "terrarium", "tileSize": 256}
    if p["imagery"]:
        sources["imagery"] = {"type": "raster", "url": "mapsnap:imagery", "tileSize": 256}
    return {"version": 8, "name": p["name"],
            "metadata": {"mapsnap:generator": "scripts/make-styles.py"},
            "sources": sources, "layers": layers}


def satellite(hybrid):
    """Google's `satellite` map type: hybrid's imagery and surfaces (land cover, water,
    buildings, rivers, runways) without roads, rails, boundaries or labels."""
    def keep(layer):
        if layer["type"] in ("background", "raster", "fill"):
            return True
        return layer["type"] == "line" and layer.get("source-layer") in ("waterway", "aeroway")
    style = dict(hybrid)
    style["name"] = "mapsnap satellite"
    style["layers"] = [layer for layer in hybrid["layers"] if keep(layer)]
    return style


# ---------------------------------------------------------------------------------------
# The Protomaps basemap schema, version 4 (docs.protomaps.com/basemaps/layers): what each
# OpenMapTiles layer of the structure above selects, as a Protomaps source layer and filter.

def get(key):
    return ["get", key]


def kind_in(*kinds, key="kind"):
    return ["match", get(key), list(kinds), True, False] if len(kinds) > 1 else ["==", get(key), kinds[0]]


def geometry_in(*types):
    return ["match", ["geometry-type"], list(types), True, False]


POLYGON = geometry_in("Polygon", "MultiPolygon")
LINE = geometry_in("LineString", "MultiLineString")
POINT = geometry_in("Point", "MultiPoint")

# OpenMapTiles road classes as Protomaps roads (`kind`, and `kind_detail` = the OSM highway).
PM_ROADS = {
    "motorway": kind_in("highway"),
    "trunk": kind_in("trunk", "trunk_link", key="kind_detail"),
    "primary": kind_in("primary", "primary_link", key="kind_detail"),
    "secondary": kind_in("secondary", "secondary_link", key="kind_detail"),
    "tertiary": kind_in("tertiary", "tertiary_link", key="kind_detail"),
    "minor": kind_in("residential", "unclassified", "road", "living_street", "raceway", key="kind_detail"),
    "service": ["all", kind_in("minor_road"),
                kind_in("service", "driveway", "parking_aisle", "alley", "drive-through", "emergency_access",
                        key="kind_detail")],
    "track": kind_in("track", key="kind_detail"),
    "path": ["all", kind_in("path"), ["!", kind_in("track", "pier", key="kind_detail")]],
    "rail": kind_in("rail"),
    "rail-hatching": ["all", kind_in("rail"), kind_in("rail", "narrow_gauge", "preserved", "funicular", key="kind_detail")],
}
PM_BRUNNEL = {
    "tunnel": ["==", get("is_tunnel"), True],
    "bridge": ["==", get("is_bridge"), True],
    "road": ["!", ["any", ["==", get("is_tunnel"), True], ["==", get("is_bridge"), True]]],
}
PM_LANDCOVER = {  # OpenMapTiles landcover classes as Protomaps landuse kinds
    "wood": ["wood"], "forest": ["forest"], "grass": ["grass", "grassland", "meadow", "scrub", "village_green"],
    "farmland": ["farmland", "orchard", "farmyard", "allotments"], "wetland": ["wetland"], "sand": ["sand", "beach"],
    "ice": ["glacier"], "rock": ["bare_rock"],
}
PM_LANDUSE = {
    "residential": ["residential", "neighbourhood"], "commercial": ["commercial", "retail"],
    "industrial": ["industrial", "dam"], "cemetery": ["cemetery"], "hospital": ["hospital"],
    "school": ["school", "college", "university", "kindergarten"], "railway-area": ["railway"],
    "pitch": ["pitch", "stadium", "playground", "recreation_ground"],
}
PM_FIXED = {  # layer id → (source layer, filter)
    "park": ("landuse", kind_in("park", "national_park", "nature_reserve", "protected_area", "garden", "dog_park",
                                "golf_course", "zoo")),
    "water": ("water", POLYGON),
    "waterway-river": ("water", ["all", LINE, kind_in("river")]),
    "waterway-other": ("water", ["all", LINE, ["!", kind_in("river")]]),
    "aeroway-area": ("landuse", kind_in("aerodrome", "runway", "taxiway")),
    "aeroway-runway": ("roads", kind_in("aeroway")),
    "building": ("buildings", kind_in("building", "building_part")),
    "ferry": ("roads", kind_in("ferry")),
    "boundary-state": ("boundaries", kind_in("region")),
    "boundary-country": ("boundaries", kind_in("country")),
    "waterway-name": ("water", LINE),
    "water-name": ("water", POINT),
    "road-name-minor": ("roads", kind_in("minor_road", "path", "other")),
    # As OpenMapTiles' "every class but minor, service, track and path": rail and ferry names too.
    "road-name-major": ("roads", ["!", kind_in("minor_road", "path", "other")]),
    "housenumber": ("buildings", kind_in("address")),
    "airport-label": ("pois", kind_in("aerodrome")),
    "poi": ("pois", ["<=", ["coalesce", get("min_zoom"), 99], 18]),
    "place-minor": ("places", kind_in("suburb", "quarter", "neighbourhood", "hamlet", "isolated_dwelling",
                                      key="kind_detail")),
    "place-village": ("places", kind_in("village", "town", key="kind_detail")),
    "place-city": ("places", kind_in("city", key="kind_detail")),
    "place-state": ("places", kind_in("region")),
    "place-country": ("places", kind_in("country")),
}
PM_NAME = ["coalesce", get("name"), get("name:en")]
# Protomaps' `min_zoom` (smaller: more important) stands in for OpenMapTiles' `rank`.
PM_SORT_KEY = ["coalesce", get("min_zoom"), 10]


def protomaps_selection(layer_id):
    """(source layer, filter) of an OpenMapTiles-structure layer for Protomaps tiles."""
    if layer_id in PM_FIXED:
        return PM_FIXED[layer_id]
    prefix, _, rest = layer_id.partition("-")
    if prefix == "landcover":
        return "landuse", kind_in(*PM_LANDCOVER[rest])
    if prefix == "landuse":
        return "landuse", kind_in(*PM_LANDUSE[rest])
    if prefix in PM_BRUNNEL:
        cls = rest[:-len("-casing")] if rest.endswith("-casing") else rest
        return "roads", ["all", PM_BRUNNEL[prefix], PM_ROADS[cls]]
    raise KeyError(f"no Protomaps selection for layer {layer_id!r}")


def protomaps(style, p):
    """`style` for the Protomaps v4 schema: same layers, palette and ids (so Google styling
    rules and `language=` apply alike), each vector layer selecting the same features from
    Protomaps source layers; plus the `landcover` layer (Natural Earth / Daylight land cover
    at z0–7, which OpenMapTiles folds into `landcover`)."""
    out = json.loads(json.dumps(style))
    out["name"] = style["name"] + " (Protomaps)"
    out["metadata"] = {"mapsnap:generator": "scripts/make-styles.py", "mapsnap:schema": "protomaps-v4"}
    out["sources"] = {("protomaps" if k == "openmaptiles" else k): v for k, v in style["sources"].items()}
    layers = []
    for layer in out["layers"]:
        if layer.get("source") == "openmaptiles":
            layer["source"] = "protomaps"
            layer["source-layer"], layer["filter"] = protomaps_selection(layer["id"])
            layout = layer.get("layout", {})
            if "text-field" in layout:
                layout["text-field"] = "{addr_housenumber}" if layer["id"] == "housenumber" else PM_NAME
            if "symbol-sort-key" in layout:
                layout["symbol-sort-key"] = PM_SORT_KEY
        layers.append(layer)
        if layer["id"] == "background" and any(l["id"] == "landcover-wood" for l in out["layers"]):
            colors = {"forest": p["wood"], "grassland": p["grass"], "scrub": p["grass"], "farmland": p["farmland"],
                      "glacier": p["ice"], "barren": p["rock"], "urban_area": p["residential"]}
            match = ["match", get("kind")]
            for kind, color in colors.items():
                match += [kind, color]
            match.append("rgba(0, 0, 0, 0)")
            layers.append({"id": "landcover", "type": "fill", "source": "protomaps", "source-layer": "landcover",
                           "maxzoom": 8, "paint": {"fill-color": match,
                                                   "fill-opacity": 0.35 if p["imagery"] else 1}})
    out["layers"] = layers
    return out


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    styles = {sid: build(sid, palette) for sid, palette in PALETTES.items()}
    styles["satellite"] = satellite(styles["hybrid"])
    outputs = [(os.path.join("Styles", f"{sid}.json"), style) for sid, style in styles.items()]
    outputs += [(os.path.join("Styles", "protomaps", f"{sid}.json"), protomaps(style, PALETTES.get(sid, PALETTES["hybrid"])))
                for sid, style in styles.items()]
    os.makedirs(os.path.join(root, "Styles", "protomaps"), exist_ok=True)
    for relative, style in outputs:
        path = os.path.join(root, relative)
        with open(path, "w") as f:
            json.dump(style, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
