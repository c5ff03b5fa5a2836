# Reference render for bench/run.sh: the same 1024x1024 Helsinki raster map with the Python
# `staticmap` library (pip install staticmap), fetching tiles from the local server.
import sys
from staticmap import StaticMap, Line, CircleMarker
m = StaticMap(1024, 1024, url_template='http://127.0.0.1:8765/{z}/{x}/{y}.png')
route = [(24.9414, 60.17095), (24.94385, 60.16985), (24.94930, 60.16930), (24.9523, 60.16785), (24.9476, 60.1677)]
m.add_line(Line(route, '#1a73e8', 5))
for lon, lat in [route[0], route[-1]]:
    m.add_marker(CircleMarker((lon, lat), '#ea4335', 14))
img = m.render(zoom=16, center=(24.9450, 60.1699))
img.save('/tmp/staticmap-bench.png')
