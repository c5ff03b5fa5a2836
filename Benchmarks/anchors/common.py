"""Shared by the anchor jobs: reads the fixtures written by gen_fixtures.py."""
import json


def load_route(frame_json, geojson=None):
    """(frame, [(lat, lon)], markers, color, width in points) of an S1 fixture, or of an S5
    GeoJSON route in the same frame (then start/end markers, as in the mapsnap specs)."""
    with open(frame_json) as f:
        fx = json.load(f)
    frame, color, width = fx["frame"], fx["color"], fx["width"]
    if geojson is None:
        return frame, [tuple(p) for p in fx["route"]], fx["markers"], color, width
    with open(geojson) as f:
        gj = json.load(f)
    route = [(c[1], c[0]) for c in gj["geometry"]["coordinates"]]
    width = gj["properties"].get("stroke-width", width)
    markers = [{"lat": route[0][0], "lon": route[0][1], "label": "S"},
               {"lat": route[-1][0], "lon": route[-1][1], "label": "E"}]
    return frame, route, markers, color, width
