-- mapsnap's tilemaker process file: for 'mapsnap data build' and for the bundled Helsinki
-- tiles (scripts/helsinki-tiles/build.sh).
--
-- It runs the OpenMapTiles process file that Debian's tilemaker 2.2 ships
-- (/usr/share/doc/tilemaker/examples/process-openmaptiles.lua, passed in by build.sh as
-- MAPSNAP_OMT_PROCESS) and replaces its name writer, which writes only `name:latin`,
-- with one that writes the name fields real OpenMapTiles tiles carry, so that styles
-- reading `{name}`, `name_en` or `coalesce(name_en, name)` label our tiles too:
--
--   name           the OSM name
--   name_en, name_de  the English / German name, or the name
--   name:latin     the name if written in Latin script, else name:en, int_name or the name
--   name:nonlatin  the name if not written in Latin script
--   name_int       int_name, else name:en, else name:latin
--   name:XX        name:XX where the OSM object has it (the languages below)
--
-- Place points also get `capital` (2 for a national capital, the admin level for
-- others) and cities and towns a `rank` from their population, which city-label layers
-- of OpenMapTiles styles filter on.

dofile(assert(os.getenv("MAPSNAP_OMT_PROCESS"), "MAPSNAP_OMT_PROCESS is not set"))

local languages = { "ar", "da", "de", "el", "en", "es", "et", "fi", "fr", "it", "ja", "ko",
                    "nl", "no", "pl", "pt", "ru", "se", "sv", "uk", "zh" }

-- Whether a UTF-8 string is written in Latin script: ASCII, Latin-1 Supplement and
-- Latin Extended-A/B letters (lead bytes 0xC3–0xC9) and nothing else outside ASCII.
local function isLatin(s)
	local i, n = 1, #s
	while i <= n do
		local b = s:byte(i)
		if b < 0x80 then
			i = i + 1
		elseif b >= 0xC3 and b <= 0xC9 then
			i = i + 2
		elseif b == 0xE2 then
			-- General punctuation (dashes, quotes) keeps a name Latin.
			if s:byte(i + 1) ~= 0x80 then return false end
			i = i + 3
		else
			return false
		end
	end
	return true
end

local function first(...)
	for _, v in ipairs({...}) do
		if v ~= nil and v ~= "" then return v end
	end
	return ""
end

-- Population → OpenMapTiles-like rank (1 for the largest cities … 10).
local function populationRank(pop)
	local limits = { 10000000, 5000000, 2000000, 1000000, 500000, 200000, 100000, 50000, 20000 }
	for i, limit in ipairs(limits) do
		if pop >= limit then return i end
	end
	return 10
end

function SetNameAttributes(obj)
	local name = obj:Find("name")
	if name == "" then return end
	local en, de = obj:Find("name:en"), obj:Find("name:de")
	local latin = isLatin(name)
	local nameLatin = latin and name or first(en, obj:Find("int_name"), name)
	obj:Attribute("name", name)
	obj:Attribute("name_en", first(en, name))
	obj:Attribute("name_de", first(de, name))
	obj:Attribute("name:latin", nameLatin)
	if not latin then obj:Attribute("name:nonlatin", name) end
	obj:Attribute("name_int", first(obj:Find("int_name"), en, nameLatin))
	for _, lang in ipairs(languages) do
		local v = obj:Find("name:" .. lang)
		if v ~= "" then obj:Attribute("name:" .. lang, v) end
	end

	local place = obj:Find("place")
	if place == "city" or place == "town" or place == "village" then
		local capital = obj:Find("capital")
		if capital == "yes" then
			obj:AttributeNumeric("capital", 2)
		elseif tonumber(capital) then
			obj:AttributeNumeric("capital", tonumber(capital))
		end
		if place ~= "village" then
			obj:AttributeNumeric("rank", populationRank(tonumber(obj:Find("population")) or 0))
		end
	end
end
