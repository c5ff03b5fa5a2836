"""Writes the Mapnik XML map used by the S2 anchor: the same GeoJSON layers (decoded from the
bundled Helsinki vector tiles) drawn with a hand-written subset of Styles/normal.json —
background, landcover/landuse/park/water fills, buildings with outline, waterways, roads
by class with casings (widths and colours evaluated from normal.json at the zoom), rail,
and road/place/water labels in Noto Sans with halos. One XML per integer zoom, so zoom
functions are baked in and no scale-denominator rules are needed; @2x uses Mapnik's
scale_factor, as mapsnap scales widths and text by the pixel ratio.
"""
import json
import os
from xml.sax.saxutils import quoteattr

ROAD_CLASSES = ["service", "minor", "tertiary", "secondary", "primary", "trunk", "motorway"]


def _eval(v, z):
    """Constant, or ["interpolate", [kind, base?], ["zoom"], z0, v0, …] evaluated at z."""
    if not isinstance(v, list):
        return v
    assert v[0] == "interpolate" and v[2] == ["zoom"], v
    base = v[1][1] if v[1][0] == "exponential" else 1.0
    stops = list(zip(v[3::2], v[4::2]))
    if z <= stops[0][0]:
        return stops[0][1]
    for (z0, v0), (z1, v1) in zip(stops, stops[1:]):
        if z <= z1:
            t = (z - z0) / (z1 - z0) if base == 1 else (base ** (z - z0) - 1) / (base ** (z1 - z0) - 1)
            return v0 + t * (v1 - v0)
    return stops[-1][1]


def write_map(style_json, geojson_dir, fonts_dir, zoom, out_path):
    layers = {l["id"]: l for l in json.load(open(style_json))["layers"]}

    def paint(lid, key):
        return _eval(layers[lid]["paint"][key], zoom)

    def text_size(lid):
        return _eval(layers[lid]["layout"]["text-size"], zoom)

    styles, maplayers = [], []

    def add(name, source, rules):
        if not os.path.exists(os.path.join(geojson_dir, f"{source}.geojson")):
            return  # e.g. no `park` features in these tiles
        styles.append(f'<Style name="{name}">' + "".join(rules) + "</Style>")
        path = os.path.join(geojson_dir, f"{source}.geojson")
        maplayers.append(f'<Layer name="{name}" srs="epsg:4326"><StyleName>{name}</StyleName>'
                         f'<Datasource><Parameter name="type">geojson</Parameter>'
                         f'<Parameter name="file">{path}</Parameter></Datasource></Layer>')

    def rule(filt, sym):
        f = f"<Filter>{filt}</Filter>" if filt else ""
        return f"<Rule>{f}{sym}</Rule>"

    def poly(color, opacity=1.0):
        return f'<PolygonSymbolizer fill="{color}" fill-opacity="{opacity:.3f}"/>'

    def line(color, width, opacity=1.0, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        return (f'<LineSymbolizer stroke="{color}" stroke-width="{width:.2f}" stroke-opacity="{opacity:.2f}"'
                f' stroke-linecap="round" stroke-linejoin="round"{d}/>')

    def text(size, color, halo, field="[name]", placement="point"):
        return (f'<TextSymbolizer face-name="Noto Sans Regular" size="{size:.1f}" fill="{color}" '
                f'halo-fill="{halo}" halo-radius="1.5" placement="{placement}">{field}</TextSymbolizer>')

    # fills, bottom to top
    lc = [rule(f"[class]='{c}'", poly(paint(f"landcover-{c}", "fill-color")))
          for c in ("wood", "forest", "grass", "farmland", "wetland", "sand", "ice", "rock")]
    add("landcover", "landcover", lc)
    lu = []
    for lid, classes in [("landuse-residential", ["residential", "suburb", "neighbourhood"]),
                         ("landuse-commercial", ["commercial", "retail"]),
                         ("landuse-industrial", ["industrial", "garages", "dam"]),
                         ("landuse-cemetery", ["cemetery"]), ("landuse-hospital", ["hospital"]),
                         ("landuse-school", ["school", "college", "university", "kindergarten"]),
                         ("landuse-railway-area", ["railway"]),
                         ("landuse-pitch", ["pitch", "stadium", "playground", "track"])]:
        f = " or ".join(f"[class]='{c}'" for c in classes)
        lu.append(rule(f, poly(paint(lid, "fill-color"), paint(lid, "fill-opacity"))))
    add("landuse", "landuse", lu)
    add("park", "park", [rule(None, poly(paint("park", "fill-color")))])
    add("water", "water", [rule("not ([brunnel]='tunnel')", poly(paint("water", "fill-color")))])
    add("waterway", "waterway", [rule(None, line(paint("waterway-river", "line-color"),
                                                 paint("waterway-river", "line-width")))])
    b = layers["building"]["paint"]
    add("building", "building", [rule(None, poly(b["fill-color"], _eval(b["fill-opacity"], zoom))
                                      + f'<LineSymbolizer stroke="{b["fill-outline-color"]}" stroke-width="0.5"/>')])

    # roads: casings of every class, then fills, tunnels/bridges folded in (drawn as roads)
    not_tunnel = "not ([brunnel]='tunnel')"
    casings = [rule(f"[class]='{c}'", line(paint(f"road-{c}-casing", "line-color"),
                                           paint(f"road-{c}-casing", "line-width")))
               for c in ROAD_CLASSES if f"road-{c}-casing" in layers]
    fills = [rule(f"[class]='{c}'", line(paint(f"road-{c}", "line-color"), paint(f"road-{c}", "line-width")))
             for c in ROAD_CLASSES]
    fills.append(rule("[class]='path'", line(paint("road-path", "line-color"), paint("road-path", "line-width"),
                                             dash="4,3")))
    fills.append(rule("[class]='track'", line(paint("road-track", "line-color"), paint("road-track", "line-width"),
                                              dash="6,4")))
    fills.append(rule("[class]='rail' or [class]='transit'",
                      line(paint("road-rail", "line-color"), paint("road-rail", "line-width"))))
    tunnels = [rule(f"[brunnel]='tunnel' and [class]='{c}'",
                    line(paint(f"tunnel-{c}", "line-color"), paint(f"tunnel-{c}", "line-width"), 0.7))
               for c in ROAD_CLASSES]
    add("tunnels", "transportation", tunnels)
    add("road-casing", "transportation", [r.replace("<Filter>", f"<Filter>{not_tunnel} and (").replace("</Filter>", ")</Filter>")
                                          for r in casings])
    add("road", "transportation", [r.replace("<Filter>", f"<Filter>{not_tunnel} and (").replace("</Filter>", ")</Filter>")
                                   for r in fills])
    add("boundary", "boundary", [rule("[admin_level]=2 or [admin_level]=4",
                                      line(paint("boundary-country", "line-color"), 1.0, dash="3,2"))])

    # labels
    minor = "[class]='minor' or [class]='service' or [class]='track' or [class]='path'"
    rn = [rule(f"not ({minor})", text(text_size("road-name-major"), "#444444", "#ffffff", placement="line"))]
    if zoom >= layers["road-name-minor"].get("minzoom", 0):
        rn.append(rule(minor, text(text_size("road-name-minor"), "#444444", "#ffffff", placement="line")))
    add("road-name", "transportation_name", rn)
    add("water-name", "water_name", [rule(None, text(14, "#3b6f9e", "#ffffff"))])
    add("place", "place", [rule(None, text(text_size("place-minor"), "#222222", "#ffffff"))])

    bg = layers["background"]["paint"]["background-color"]
    xml = (f'<?xml version="1.0" encoding="utf-8"?>\n'
           f'<Map srs="epsg:3857" background-color="{bg}" font-directory={quoteattr(fonts_dir)}>'
           + "".join(styles) + "".join(maplayers) + "</Map>\n")
    with open(out_path, "w") as f:
        f.write(xml)
