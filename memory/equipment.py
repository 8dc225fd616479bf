"""What this line's callers have at home, in their words: the heating equipment the reader of
the library (`contextdb_livekit.api.Equipment`) reads counts, makes, boiler types and the
meter's place from. Everything else a caller says (days, corrections, who is speaking,
addresses, flats, floors, how to reach them) the library reads as English.

Patterns are regular-expression alternatives over lower-case text, as the reader normalises it.
"""

from __future__ import annotations

from contextdb_livekit.api import Equipment, EquipmentTypes, Fixture

# What a caller counts, each under one name ("rads" and "radiators" are one slot).
COUNTED_THINGS: dict[str, str] = {
    "boiler": "boiler", "radiator": "radiator", "rad": "radiator", "heat pump": "heat pump",
    "air conditioning unit": "air conditioning unit",
    "air conditioner": "air conditioning unit", "ac unit": "air conditioning unit",
    "aircon unit": "air conditioning unit", "air con unit": "air conditioning unit",
    "air-con unit": "air conditioning unit", "storage heater": "storage heater",
    "hot water cylinder": "hot water cylinder", "cylinder": "hot water cylinder",
    "water heater": "water heater", "thermostat": "thermostat", "solar panel": "solar panel",
    "bathroom": "bathroom", "bedroom": "bedroom", "shower room": "shower room",
    "towel rail": "towel rail", "gas fire": "gas fire", "immersion heater": "immersion heater",
    "panel": "solar panel", "tank": "tank", "furnace": "furnace", "unit": "unit",
    "smoke alarm": "smoke alarm", "smoke detector": "smoke alarm",
    "carbon monoxide alarm": "carbon monoxide alarm",
    "carbon monoxide detector": "carbon monoxide alarm", "co alarm": "carbon monoxide alarm",
    "co detector": "carbon monoxide alarm", "gas meter": "gas meter",
    "electric meter": "electric meter", "electricity meter": "electric meter",
    "programmer": "programmer", "timer": "timer", "gas hob": "gas hob", "hob": "gas hob",
    "zone valve": "zone valve", "manifold": "manifold", "electric heater": "electric heater",
    "electric shower": "electric shower",
}  # fmt: skip

# Makes, as callers say them.
MAKES = (
    "vaillant", "worcester bosch", "worcester", "baxi", "ideal", "viessmann", "glow-worm",
    "glow worm", "glowworm", "potterton", "navien", "rinnai", "bosch", "daikin", "mitsubishi",
    "carrier", "trane", "lennox", "rheem", "ariston", "alpha", "intergas", "vokera",
)  # fmt: skip
# The value of each group of `BOILER_TYPES.pattern`, in order.
TYPE_VALUES = (
    "combi", "system", "back boiler", "conventional", "conventional", "system", "conventional",
)  # fmt: skip
# A boiler type named alone, answering "What type of boiler is it?".
BARE_TYPES = {
    "combi": "combi", "combination": "combi", "system": "system",
    "conventional": "conventional", "regular": "conventional", "heat only": "conventional",
    "back boiler": "back boiler",
}  # fmt: skip

BOILER_TYPES = EquipmentTypes(
    kind="boiler_type",
    noun="boiler",
    pattern=(
        r"\b(?:(combi(?:nation boiler)?)s?(?: boilers?)?|"
        # "it's actually a system": the type said after "is a", the noun left out.
        r"(system)(?: (?:boiler|one|type)s?|"
        r"(?:(?<=\bis a system)|(?<=\bones a system)|(?<=actually a system))"
        r"(?!\s+(?:of|for|where|that|which|to|in|on)\b))|"
        r"(back) boilers?|"
        # "a conventional one", "the regular type": the kind of boiler, said without the noun.
        r"(conventional|regular|heat only|heat-only|open vent|open-vent|traditional) "
        r"(?:boiler|system|one|type|sort|kind)|"
        # Not "expansion tanks in the loft": a sealed system's; nor "no more tank in the loft".
        r"(?<!no )(?<!no more )(?<!expansion )"
        r"(tanks?|cold water tanks?|header tanks?)(?: is| are|'s)? "
        r"(?:up )?in the loft|"
        r"(sealed system|unvented)|(open[- ]vent(?:ed)?|heat[- ]only|header tank))\b"
    ),
    values=TYPE_VALUES,
    bare=BARE_TYPES,
    asked=r"\b(?:what|which) (?:type|kind|sort) of boiler\b",
    proposed=r"^(?:is|so is) (?:it|that|your boiler|the boiler) an? ",
    make_asked=r"boiler|system|heat pump",
    mentioned=r"combi|system|conventional|tank|cylinder|back boiler",
    named=4,  # combi, system, back boiler, conventional; then tanks, unvented, header tank
)

METER = Fixture(
    kind="meter_location",
    # "the meter's round the back now", "the gas meter was moved to the garage".
    pattern=(
        r"\b(?:gas |electric |electricity |water )?meters?(?: box| cupboard)?\s+"
        r"(?:for (?:\w+\s+){1,3}?)?(?:it is\s+)?"
        r"(?P<verb>(?:(?:is|has|have|was|were) (?:been )?)?moved(?: to)?(?: it is)?|"
        r"is|are|has been|have been|was|were|used to be|now is|lives|sits)?\s*(?:now\s+)?"
        r"(?P<place>(?:(?<=moved to )the|round|around|at|in|under|by|behind|on|outside|inside|"
        r"next to|beside|near|above|below|down|up|to the (?:left|right) of|left of|right of)\b.*)$"
    ),
    asked=r"\bmeters?\b",
    mentioned=r"meter|cupboard|under|outside|inside|by the|next to",
)

EQUIPMENT = Equipment(
    counted=COUNTED_THINGS,
    units=(
        r"(boilers?|heat pumps?|units?|radiators?|rads|furnaces?|water heaters?|air conditioners?|"
        r"air conditioning units?|ac units?|aircon units?|air con units?|air-con units?|tanks?|"
        r"storage heaters?|hot water cylinders?|cylinders?|thermostats?|solar panels?|"
        r"bathrooms?|bedrooms?|shower rooms?|towel rails?|gas fires?|immersion heaters?|"
        r"smoke (?:alarm|detector)s?|(?:carbon monoxide|co) (?:alarm|detector)s?|gas meters?|"
        r"electric(?:ity)? meters?|programmers?|timers?|(?:gas )?hobs?|zone valves?|manifolds?|"
        r"electric heaters?|electric showers?)"
    ),
    count_words=(
        r"heated|smart|electric|wall|gas|wireless|digital|nest|hive|double|small|big|large|"
        r"little|designer|vertical|oil|portable"
    ),
    singles=(
        r"boiler|heat pump|radiator|furnace|water heater|air conditioner|tank|storage heater|"
        r"hot water cylinder|cylinder|thermostat|solar panel|gas fire|immersion heater|towel rail|"
        r"(?:smoke|carbon monoxide|co) (?:alarm|detector)|programmer|gas hob|electric shower"
    ),
    single_words=r"combi|new|gas|small|little|big|single|electric",
    added=(
        r"boiler|heat pump|radiator|rad|storage heater|thermostat|tank|cylinder|towel rail|"
        r"solar panel"
    ),
    per_room=r"boiler|radiator|rad|storage heater|heater|thermostat|towel rail|unit",
    rooms=frozenset({"bedroom", "bathroom", "shower room"}),
    makes=MAKES,
    # How a make is written when callers shorten or run it together.
    make_names={
        "worcester": "Worcester Bosch",
        "worcester bosch": "Worcester Bosch",
        "glow-worm": "Glow-worm",
        "glowworm": "Glow-worm",
        "glow worm": "Glow-worm",
    },
    # Makes only when the talk is about equipment ("Friday would be ideal").
    ambiguous_makes=frozenset({"ideal", "alpha", "carrier", "trane", "mitsubishi", "bosch"}),
    model_words=r"ecotec|greenstar|logic|duo-tec|vitodens",
    talk=(
        r"boiler|heat pump|furnace|unit|system|combi|model|make|brand|water heater|"
        r"air conditioner|installed|fitted"
    ),
    not_the_home=r"boiler|meter|tank|radiator|cupboard|fuse box|stopcock|pump|thermostat|valve",
    types=BOILER_TYPES,
    fixture=METER,
)
