"""End-of-call extraction with a model: the library's one checked model call
(`contextdb_livekit.api.LineFacts.from_model`, any OpenAI-compatible endpoint, a strict JSON
schema, facts kept only where the host can check them against the caller's words), with this
line's instructions and fact kinds. The default whenever an LLM key is configured
(`MEMORY_EXTRACTION`); any failure falls back to the rule-based extractor.
"""

from __future__ import annotations

from functools import partial

from memory.extract import CALL_FACTS, extract_call_facts

_SYSTEM = """\
You extract durable facts about a caller from a service-visit scheduling call.
Return only lasting truths the caller stated about their own household and home, never
anything about somebody else ("my neighbour can't do Mondays", "my mum lives on the fifth
floor": nothing), never a request for this call ("book me in
for Monday", "yes, Friday is fine" to an offer) and nothing from a question or a hedge
("maybe", "not sure", "I reckon"). Kinds:
- availability: weekday + negative=true for a day that does not work ("never home on a
  Thursday", "any day except Thursdays", "we used to do Mondays" = Mondays no longer work);
- preferred_day: value "<weekday>" for a favoured day, "<weekday> only" when no other works;
- preferred_time: the part of the day favoured for visits (morning | afternoon | evening);
- address; equipment_make (brand and model); equipment_count, one fact per thing counted
  (value like "3 boilers", "5 radiators"); boiler_type (combi | system | conventional |
  back boiler); meter_location (where the meter is, like "under the stairs");
- access_notes (codes, gates, keys); contact_preference (text message | email | phone call |
  landline | mobile);
- floor (value like "2nd floor", "ground floor", "basement", "top floor"); flat (the flat,
  apartment or unit number, like "Flat 4B"); parking; pets; who_home (who lets the engineer in).
When the caller changed or corrected something ("sorry, three", "not any more", "since March",
"from now on", "we got rid of the Vaillant"), return only the current value: the later
statement wins. said_by_caller=true only with quote = the caller's exact words from one
caller line that state the fact (with its weekday or number); facts from the agent's notes
are said_by_caller=false.
"""


# The call's facts from one model call (`LineFacts.from_model`); the rules (`fallback`) on any
# failure. With `fallback=None` a failure raises `ModelExtractionError` (the scorecard counts
# them).
extract_with_model = partial(
    CALL_FACTS.from_model, instructions=_SYSTEM, fallback=extract_call_facts
)
