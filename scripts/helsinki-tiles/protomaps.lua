-- mapsnap's tilemaker process file for Protomaps-schema Helsinki test tiles (run by
-- build-protomaps.sh, which sets MAPSNAP_PROTOMAPS_SCHEMA and picks the config).
--
-- Written from the Protomaps basemap documentation, not from its Planetiler profile:
--
--   v4  the current schema (docs.protomaps.com/basemaps/layers, "Version 4"): layers
--       boundaries, buildings, earth, landcover, landuse, places, pois, roads, transit and
--       water; `kind` / `kind_detail` classify, `min_zoom` suggests when to show a feature,
--       `sort_rank` orders drawing, names are `name` and `name:xx`.
--   v2  the schema of 2020–2021 (the docs' "Layers (Version 2)"), which the last
--       hand-written Protomaps styles read (corpus styles protomaps-base-2021 and
--       -light-2020): "schemaless" OSM keys per layer plus `pmap:kind`, `pmap:level`,
--       `pmap:rank` and `pmap:min_admin_level`, and the layers natural, physical_line and
--       physical_point. Those styles also filter landuse on `pmap:kind` (park, hospital,
--       industrial, school), which the v2 page does not list; it is written too.
--
-- What the extract cannot give is left out and said so in the README: v4 `landcover`
-- (Natural Earth / Daylight data at z0–7) and `transit` (empty in v4 itself) are declared but
-- empty; `script`/`name2` name segments are not written (every name in the extract is in
-- Latin script); POI ranks use fixed zooms per kind instead of Wikidata QRank.

local schema = os.getenv("MAPSNAP_PROTOMAPS_SCHEMA") or "v4"
assert(schema == "v4" or schema == "v2", "MAPSNAP_PROTOMAPS_SCHEMA must be v4 or v2")

local function Set(list)
	local set = {}
	for _, v in ipairs(list) do set[v] = true end
	return set
end

-- Languages whose `name:xx` tags are copied (the extract has names in these).
local languages = { "ar", "da", "de", "el", "en", "es", "et", "fi", "fr", "it", "ja", "ko",
                    "nl", "no", "pl", "pt", "ru", "se", "sv", "uk", "zh", "zh-Hans", "zh-Hant" }

local function writeNames(obj)
	local name = obj:Find("name")
	if name ~= "" then obj:Attribute("name", name) end
	for _, lang in ipairs(languages) do
		local v = obj:Find("name:" .. lang)
		if v ~= "" then obj:Attribute("name:" .. lang, v) end
	end
end

-- Copies OSM tags as they are (v2 is schemaless: each layer passes its keys through).
local function copyTags(obj, keys)
	for _, k in ipairs(keys) do
		local v = obj:Find(k)
		if v ~= "" then obj:Attribute(k, v) end
	end
end

local function isYes(v) return v ~= "" and v ~= "no" end

-- Smallest zoom at which a polygon of `area` m² is at least about one pixel wide
-- (256-px tiles: 2^(z-…) metres per pixel), clamped to 6…14.
local function zoomForArea(area)
	local metres = { 4892, 2446, 1223, 611, 306, 153, 76, 38, 19 }
	for i, m in ipairs(metres) do
		if area > m * m then return i + 5 end
	end
	return 14
end

-- Population → rank 1 (hamlets) … 15 (megacities), as Tilezen's `population_rank`.
local function populationRank(pop)
	local limits = { 1000000000, 100000000, 50000000, 20000000, 10000000, 5000000, 1000000,
	                 500000, 200000, 100000, 50000, 20000, 10000, 5000, 2000, 1000, 200, 0 }
	for i, limit in ipairs(limits) do
		if pop >= limit then return #limits - i end
	end
	return 0
end

-- ============================================================================
-- Version 4

local highwayKind = {
	motorway = "highway", motorway_link = "highway",
	trunk = "major_road", trunk_link = "major_road", primary = "major_road", primary_link = "major_road",
	secondary = "major_road", secondary_link = "major_road", tertiary = "major_road", tertiary_link = "major_road",
	residential = "minor_road", unclassified = "minor_road", road = "minor_road", raceway = "minor_road",
	service = "minor_road",
	pedestrian = "path", track = "path", corridor = "path", path = "path", cycleway = "path",
	bridleway = "path", footway = "path", steps = "path",
}
-- Zoom from which a road shows, by highway value (others: 14).
local highwayZoom = {
	motorway = 3, motorway_link = 3, trunk = 6, trunk_link = 6, primary = 7, primary_link = 7,
	secondary = 9, secondary_link = 9, tertiary = 9, tertiary_link = 9,
	residential = 12, unclassified = 12, road = 12, raceway = 12, service = 13,
	pedestrian = 12, track = 12, path = 13, cycleway = 13, bridleway = 13, footway = 13, steps = 13,
	corridor = 14,
}
local linkValues = Set { "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link" }
local droppedHighways = Set { "proposed", "abandoned", "razed", "demolished", "removed", "construction", "elevator" }
local droppedRailways = Set { "abandoned", "razed", "demolished", "removed", "construction", "platform",
                              "platform_edge", "proposed" }
local minorRailways = Set { "funicular", "light_rail", "miniature", "monorail", "narrow_gauge", "preserved",
                            "subway", "tram" }

-- Starts a v4 point or line feature: its layer, the zoom it is written from, its kind and
-- the `min_zoom` a style may show it from (one more: v4 counts 512-px tile zooms).
local function v4Feature(obj, layer, minZoom, kind, sortRank)
	obj:Layer(layer, false)
	obj:MinZoom(math.min(minZoom, 14))
	obj:Attribute("kind", kind)
	obj:AttributeNumeric("min_zoom", minZoom + 1)
	if sortRank then obj:AttributeNumeric("sort_rank", sortRank) end
end

local function v4Brunnel(obj)
	if isYes(obj:Find("bridge")) then obj:AttributeBoolean("is_bridge", true)
	elseif isYes(obj:Find("tunnel")) then obj:AttributeBoolean("is_tunnel", true) end
end

local function v4Road(way, highway)
	if droppedHighways[highway] then return end
	local access = way:Find("access")
	if access == "private" or access == "no" then return end
	local kind = highwayKind[highway] or "other"
	local detail = highway
	local footway = way:Find("footway")
	if highway == "footway" and (footway == "sidewalk" or footway == "crossing") then detail = footway end
	local minZoom = highwayZoom[detail] or highwayZoom[highway] or 14
	if detail == "sidewalk" or detail == "crossing" then minZoom = 14 end
	v4Feature(way, "roads", minZoom, kind, 400)
	way:Attribute("kind_detail", detail)
	if linkValues[highway] then way:AttributeBoolean("is_link", true) end
	v4Brunnel(way)
	local ref, oneway, service = way:Find("ref"), way:Find("oneway"), way:Find("service")
	if ref ~= "" then way:Attribute("ref", ref) end
	if oneway ~= "" then way:Attribute("oneway", oneway) end
	if highway == "service" and service ~= "" then way:Attribute("service", service) end
	writeNames(way)
end

-- Railways, ferries, piers, cable cars and runways: the roads layer's other kinds.
local function v4OtherLine(way)
	local railway, kind, detail, minZoom = way:Find("railway"), nil, nil, 11
	if railway ~= "" and not droppedRailways[railway] and way:Find("building") == "" then
		kind, detail = "rail", railway
		if way:Find("service") ~= "" then minZoom = 13 end
		if minorRailways[railway] then minZoom = 14 end
		if railway == "disused" then minZoom = 15 end
	elseif way:Find("aerialway") == "cable_car" then
		kind, detail = "aerialway", "cable_car"
	elseif way:Find("man_made") == "pier" then
		kind, detail, minZoom = "path", "pier", 13
	elseif way:Find("route") == "ferry" then
		kind = "ferry"
	elseif way:Find("aeroway") == "runway" or way:Find("aeroway") == "taxiway" then
		kind, detail = "aeroway", way:Find("aeroway")
		minZoom = detail == "runway" and 9 or 10
	else
		return
	end
	v4Feature(way, "roads", minZoom, kind, 400)
	if detail then way:Attribute("kind_detail", detail) end
	v4Brunnel(way)
	copyTags(way, { "ref", "network", "service" })
	writeNames(way)
end

local waterwayZoom = { river = 9, canal = 10, stream = 13, drain = 15, ditch = 15 }
local lakeWaters = Set { "water", "lagoon", "oxbow", "pond", "reservoir", "wastewater", "lake" }

-- The kind (and kind_detail) of a water polygon, or nil.
local function v4WaterKind(obj)
	if obj:Find("covered") == "yes" then return nil end
	local natural, landuse, waterway = obj:Find("natural"), obj:Find("landuse"), obj:Find("waterway")
	if natural == "water" then
		local water = obj:Find("water")
		if lakeWaters[water] then return "water", "lake" end
		return "water", water ~= "" and water or nil
	end
	if landuse == "reservoir" then return "lake" end
	if landuse == "basin" then return "basin" end
	if obj:Find("amenity") == "swimming_pool" or obj:Find("leisure") == "swimming_pool" then return "swimming_pool" end
	if obj:Find("amenity") == "fountain" then return "fountain" end
	if waterway == "dock" or waterway == "riverbank" then return waterway end
	return nil
end

local landuseByKey = {
	amenity = Set { "hospital", "school", "kindergarten", "university", "college" },
	landuse = Set { "recreation_ground", "industrial", "railway", "cemetery", "commercial", "grass", "farmland",
	                "residential", "military", "village_green", "allotments", "forest", "meadow", "retail" },
	aeroway = Set { "aerodrome", "runway", "taxiway" },
	leisure = Set { "park", "garden", "golf_course", "dog_park", "playground", "pitch", "nature_reserve", "stadium" },
	natural = Set { "beach", "wood", "glacier", "grassland", "scrub", "sand", "wetland", "bare_rock", "heath" },
	tourism = Set { "zoo" },
}
local landuseKeys = { "amenity", "landuse", "aeroway", "leisure", "natural", "tourism" }

local function v4LanduseKind(way)
	for _, key in ipairs(landuseKeys) do
		local v = way:Find(key)
		if landuseByKey[key][v] then
			if v == "heath" then return "scrub" end
			return v
		end
	end
	local landuse = way:Find("landuse")
	if landuse == "brownfield" then return "industrial" end
	if landuse == "farmyard" or landuse == "orchard" then return "farmland" end
	if way:Find("man_made") == "pier" then return "pier" end
	if way:Find("railway") == "platform" or way:Find("public_transport") == "platform" then return "platform" end
	local highway = way:Find("highway")
	if (highway == "pedestrian" or highway == "footway") and way:Find("area") == "yes" then return "pedestrian" end
	if way:Find("man_made") == "bridge" then return "pedestrian" end
	if way:Find("waterway") == "dam" then return "dam" end
	if way:Find("place") == "neighbourhood" then return "neighbourhood" end
	return nil
end

-- POI kinds: the tag value of the first of these keys that has one (any value of amenity,
-- craft, shop, tourism; the listed ones of the others), and the zoom from which it shows
-- (default 15; QRank is not used).
local poiKeys = { "aeroway", "amenity", "attraction", "craft", "historic", "leisure", "railway", "shop", "tourism" }
local poiValues = {
	aeroway = Set { "aerodrome" }, railway = Set { "station", "halt" },
	historic = Set { "memorial", "monument", "castle", "ruins", "archaeological_site" },
	leisure = Set { "park", "garden", "playground", "pitch", "stadium", "sports_centre", "fitness_centre",
	                "marina", "swimming_pool", "golf_course", "nature_reserve", "dog_park" },
}
local poiZoom = {
	aerodrome = 11, station = 12, museum = 13, theatre = 14, townhall = 13, university = 13, hospital = 13,
	library = 14, cinema = 14, attraction = 14, zoo = 13, park = 13, stadium = 13, hotel = 15, cafe = 16,
	restaurant = 16, bench = 18, waste_basket = 18, vending_machine = 18, post_box = 17,
}

local function v4PoiKind(obj)
	for _, key in ipairs(poiKeys) do
		local v = obj:Find(key)
		if v ~= "" and (poiValues[key] == nil or poiValues[key][v]) then
			if v == "yes" then return key end
			return v
		end
	end
	return nil
end

local function v4Poi(obj, asCentroid)
	local kind = v4PoiKind(obj)
	if not kind or (asCentroid and obj:Find("name") == "") then return end
	local minZoom = poiZoom[kind] or 15
	if asCentroid then obj:LayerAsCentroid("pois") else obj:Layer("pois", false) end
	obj:MinZoom(math.min(minZoom, 14))
	obj:Attribute("kind", kind)
	obj:AttributeNumeric("min_zoom", minZoom + 1)
	copyTags(obj, { "cuisine", "religion", "sport", "iata" })
	writeNames(obj)
end

local placeKind = {
	country = "country", state = "region", province = "region",
	city = "locality", town = "locality", village = "locality", locality = "locality", hamlet = "locality",
	isolated_dwelling = "locality", farm = "locality", allotments = "locality",
	suburb = "neighbourhood", neighbourhood = "neighbourhood", quarter = "macrohood",
}
local placeZoom = {
	country = 5, state = 8, province = 8, city = 7, town = 7, village = 10, locality = 11, hamlet = 11,
	isolated_dwelling = 13, farm = 13, allotments = 13, quarter = 10, suburb = 11, neighbourhood = 12,
}

local function v4Node(node)
	local place = node:Find("place")
	if placeKind[place] then
		local minZoom = placeZoom[place]
		local population = tonumber(node:Find("population")) or 0
		v4Feature(node, "places", minZoom, placeKind[place])
		node:Attribute("kind_detail", place)
		if population > 0 then node:AttributeNumeric("population", population) end
		node:AttributeNumeric("population_rank", populationRank(population))
		copyTags(node, { "capital", "wikidata" })
		writeNames(node)
		return
	end
	local natural = node:Find("natural")
	if place == "sea" or place == "ocean" or natural == "bay" or natural == "strait" or natural == "fjord" then
		-- Water labels: seas from z6, oceans always, bays, straits and fjords from z15.
		local kind = natural ~= "" and natural or place
		local minZoom = place == "ocean" and 0 or place == "sea" and 6 or 15
		v4Feature(node, "water", minZoom, kind)
		writeNames(node)
		return
	end
	local housenumber = node:Find("addr:housenumber")
	if housenumber ~= "" then
		node:Layer("buildings", false)
		node:MinZoom(14)
		node:Attribute("kind", "address")
		node:Attribute("addr_housenumber", housenumber)
	end
	if natural == "peak" then
		v4Feature(node, "pois", 13, "peak")
		copyTags(node, { "ele" })
		writeNames(node)
		return
	end
	v4Poi(node, false)
end

local function v4Boundary(way, adminLevel)
	if adminLevel > 8 or way:Find("maritime") == "yes" or way:Find("natural") == "coastline" then return end
	local kind, minZoom = "locality", 10
	if adminLevel <= 2 then kind, minZoom = "country", 0
	elseif adminLevel <= 4 then kind, minZoom = "region", 4
	elseif adminLevel <= 6 then kind, minZoom = "county", 8 end
	v4Feature(way, "boundaries", minZoom, kind, 288)
	way:AttributeNumeric("kind_detail", adminLevel)
	if way:Find("disputed") == "yes" then way:AttributeBoolean("disputed", true) end
end

local function v4Way(way, isClosed, adminLevel)
	local highway, building = way:Find("highway"), way:Find("building")
	if adminLevel then v4Boundary(way, adminLevel) end

	if highway ~= "" and not (isClosed and way:Find("area") == "yes") then
		v4Road(way, highway)
	elseif not isClosed then
		v4OtherLine(way)
	end

	local waterway = way:Find("waterway")
	if waterwayZoom[waterway] and not isClosed then
		v4Feature(way, "water", waterwayZoom[waterway], waterway, 200)
		writeNames(way)
	end

	if not isClosed then return end

	local waterKind, waterDetail = v4WaterKind(way)
	if waterKind then
		way:Layer("water", true)
		way:MinZoom(6)
		way:Attribute("kind", waterKind)
		if waterDetail then way:Attribute("kind_detail", waterDetail) end
		way:AttributeNumeric("sort_rank", 200)
		if way:Find("name") ~= "" then
			local labelZoom = math.max(zoomForArea(way:Area()), 6)
			way:LayerAsCentroid("water")
			way:MinZoom(labelZoom)
			way:Attribute("kind", waterKind)
			if waterDetail then way:Attribute("kind_detail", waterDetail) end
			way:AttributeNumeric("min_zoom", labelZoom + 1)
			writeNames(way)
		end
	end

	local landuseKind = v4LanduseKind(way)
	if landuseKind then
		way:Layer("landuse", true)
		way:MinZoom(zoomForArea(way:Area()))
		way:Attribute("kind", landuseKind)
		way:AttributeNumeric("sort_rank", 189)
		copyTags(way, { "sport" })
	end

	if building ~= "" or way:Find("building:part") ~= "" then
		local height = tonumber(way:Find("height"))
		local levels = tonumber(way:Find("building:levels"))
		way:Layer("buildings", true)
		way:MinZoom(13)
		way:Attribute("kind", building ~= "" and "building" or "building_part")
		if height or levels then way:AttributeNumeric("height", height or levels * 3) end
		local minHeight = tonumber(way:Find("min_height"))
		if minHeight then way:AttributeNumeric("min_height", minHeight) end
		local layer = tonumber(way:Find("layer"))
		if layer then way:AttributeNumeric("layer", layer) end
		way:AttributeNumeric("sort_rank", 400)
		local housenumber = way:Find("addr:housenumber")
		if housenumber ~= "" then
			way:LayerAsCentroid("buildings")
			way:MinZoom(14)
			way:Attribute("kind", "address")
			way:Attribute("addr_housenumber", housenumber)
		end
	end

	v4Poi(way, true)
end

-- ============================================================================
-- Version 2

local v2NaturalKeys = { natural = Set { "wood", "glacier", "scrub", "sand", "wetland", "bare_rock" },
                        landuse = Set { "forest", "meadow" },
                        boundary = Set { "national_park", "protected_area" } }
local v2LanduseKeys = {
	aeroway = Set { "aerodrome", "runway" },
	["area:aeroway"] = Set { "taxiway", "runway" },
	amenity = Set { "hospital", "school", "kindergarten", "university", "college" },
	landuse = Set { "recreation_ground", "industrial", "brownfield", "railway", "cemetery", "commercial", "grass",
	                "orchard", "farmland", "residential" },
	leisure = Set { "park", "garden", "golf_course", "dog_park", "playground", "pitch" },
	man_made = Set { "pier" },
	place = Set { "neighbourhood" },
	railway = Set { "platform" },
}
-- The `pmap:kind` the 2020–2021 styles filter landuse on.
local function v2LanduseKind(way)
	local leisure, amenity, landuse = way:Find("leisure"), way:Find("amenity"), way:Find("landuse")
	if leisure == "park" or leisure == "garden" then return "park" end
	if amenity == "hospital" then return "hospital" end
	if landuse == "industrial" or landuse == "brownfield" then return "industrial" end
	if amenity == "school" or amenity == "kindergarten" or amenity == "university" or amenity == "college" then return "school" end
	return nil
end

local function v2Matches(obj, table)
	for key, values in pairs(table) do
		if values[obj:Find(key)] then return true end
	end
	return false
end

-- Version 2's road kinds (after Tilezen's HighRoad): v4's, with secondary and tertiary
-- roads as medium_road, living streets as minor_road, and paths as other.
local v2MediumRoads = Set { "secondary", "secondary_link", "tertiary", "tertiary_link" }
local function v2RoadKind(highway)
	if v2MediumRoads[highway] then return "medium_road" end
	if highway == "living_street" then return "minor_road" end
	local kind = highwayKind[highway]
	if kind == nil or kind == "path" then return "other" end
	return kind
end
local v2DroppedRailways = Set { "abandoned", "construction", "platform", "proposed" }
local v2RoadZoom = { highway = 6, major_road = 7, medium_road = 9, minor_road = 12, other = 13 }

local function v2Level(obj)
	if isYes(obj:Find("bridge")) then return 1 end
	if isYes(obj:Find("tunnel")) then return -1 end
	return 0
end

local function v2Node(node)
	local place = node:Find("place")
	if place == "sea" or place == "ocean" then
		node:Layer("physical_point", false)
		copyTags(node, { "place" })
		writeNames(node)
		return
	end
	if place ~= "" then
		local kinds = { country = "country", state = "state", province = "state", city = "city", town = "city",
		                suburb = "neighbourhood", neighbourhood = "neighbourhood", quarter = "neighbourhood" }
		node:Layer("places", false)
		node:MinZoom(placeZoom[place] or 12)
		copyTags(node, { "place", "population", "capital" })
		if kinds[place] then node:Attribute("pmap:kind", kinds[place]) end
		if place == "city" then node:AttributeNumeric("pmap:rank", 1)
		elseif place == "town" then node:AttributeNumeric("pmap:rank", 2) end
		writeNames(node)
		return
	end
	if node:Find("natural") == "peak" then
		node:Layer("physical_point", false)
		copyTags(node, { "natural", "ele" })
		writeNames(node)
		return
	end
	if node:Find("amenity") ~= "" or node:Find("shop") ~= "" or node:Find("tourism") ~= ""
		or node:Find("railway") == "station" then
		node:Layer("pois", false)
		node:MinZoom(14)
		copyTags(node, { "amenity", "shop", "railway", "cuisine", "religion", "tourism" })
		writeNames(node)
	end
end

local function v2Way(way, isClosed, adminLevel)
	local highway, railway, waterway, natural = way:Find("highway"), way:Find("railway"), way:Find("waterway"), way:Find("natural")
	if adminLevel and way:Find("maritime") ~= "yes" and natural ~= "coastline" then
		way:Layer("boundaries", false)
		way:MinZoom(adminLevel <= 2 and 0 or adminLevel <= 4 and 4 or 10)
		way:AttributeNumeric("pmap:min_admin_level", adminLevel)
	end

	local area = isClosed and way:Find("area") == "yes"
	if highway ~= "" and highway ~= "construction" and highway ~= "proposed" and not area then
		local kind = v2RoadKind(highway)
		way:Layer("roads", false)
		way:MinZoom(v2RoadZoom[kind])
		way:Attribute("pmap:kind", kind)
		way:AttributeNumeric("pmap:level", v2Level(way))
		copyTags(way, { "highway", "bridge", "tunnel", "layer", "oneway", "ref" })
		writeNames(way)
	end

	local transitKind
	if railway ~= "" and not v2DroppedRailways[railway] and not isClosed then
		transitKind = "railway"
	elseif way:Find("aerialway") == "cable_car" then transitKind = "aerialway"
	elseif way:Find("route") == "ferry" then transitKind = "ferryway"
	elseif (way:Find("aeroway") == "runway" or way:Find("aeroway") == "taxiway") and not isClosed then transitKind = "aeroway" end
	if transitKind then
		way:Layer("transit", false)
		way:MinZoom(transitKind == "railway" and 11 or 10)
		way:Attribute("pmap:kind", transitKind)
		copyTags(way, { "railway", "route", "aeroway", "service", "aerialway", "network", "ref", "highspeed", "layer" })
		writeNames(way)
	end

	if (waterway ~= "" and waterway ~= "riverbank" and waterway ~= "reservoir" and not isClosed)
		or natural == "strait" or natural == "cliff" then
		way:Layer("physical_line", false)
		way:MinZoom(waterway ~= "" and (waterwayZoom[waterway] or 12) or 12)
		way:Attribute("pmap:kind", waterway ~= "" and "waterway" or "natural")
		copyTags(way, { "waterway", "natural" })
		writeNames(way)
	end

	if not isClosed then return end

	if way:Find("water") ~= "" or (waterway ~= "" and waterway ~= "dam") or natural == "water"
		or way:Find("landuse") == "reservoir" or way:Find("leisure") == "swimming_pool" then
		way:Layer("water", true)
		way:MinZoom(6)
		copyTags(way, { "natural", "landuse", "leisure", "water", "waterway" })
	end
	if v2Matches(way, v2NaturalKeys) then
		way:Layer("natural", true)
		way:MinZoom(zoomForArea(way:Area()))
		copyTags(way, { "natural", "boundary", "landuse" })
	end
	local pedestrianArea = (highway == "pedestrian" or highway == "footway" or way:Find("man_made") == "bridge") and area
	if v2Matches(way, v2LanduseKeys) or pedestrianArea then
		way:Layer("landuse", true)
		way:MinZoom(zoomForArea(way:Area()))
		local kind = v2LanduseKind(way)
		if kind then way:Attribute("pmap:kind", kind) end
		copyTags(way, { "landuse", "leisure", "aeroway", "area:aeroway", "amenity", "highway", "man_made", "place",
		                "railway", "sport" })
	end
	if way:Find("building") ~= "" then
		way:Layer("buildings", true)
		way:MinZoom(13)
		copyTags(way, { "height", "building:part", "layer" })
	end
end

-- ============================================================================
-- tilemaker entry points

node_keys = { "place", "amenity", "shop", "tourism", "leisure", "historic", "railway", "natural", "aeroway",
              "addr:housenumber", "craft", "attraction" }

function init_function() end
function exit_function() end

function relation_scan_function(relation)
	if relation:Find("type") == "boundary" and relation:Find("boundary") == "administrative" then
		relation:Accept()
	end
end

function node_function(node)
	if schema == "v4" then v4Node(node) else v2Node(node) end
end

function way_function(way)
	-- The lowest admin level of the boundary relations the way is in, or its own.
	local adminLevel
	while true do
		local rel = way:NextRelation()
		if not rel then break end
		local level = tonumber(way:FindInRelation("admin_level"))
		if level then adminLevel = math.min(adminLevel or level, level) end
	end
	if way:Find("boundary") == "administrative" then
		local level = tonumber(way:Find("admin_level"))
		if level then adminLevel = math.min(adminLevel or level, level) end
	end
	if schema == "v4" then v4Way(way, way:IsClosed(), adminLevel) else v2Way(way, way:IsClosed(), adminLevel) end
end

-- The shapefiles prepare.py writes: sea and land inside the extract's box.
function attribute_function(attr, layer)
	if layer == "ocean" then
		if schema == "v4" then return { kind = "ocean", sort_rank = 200 } end
		return { natural = "water" }
	end
	if schema == "v4" then return { kind = "earth" } end
	return {}
end
