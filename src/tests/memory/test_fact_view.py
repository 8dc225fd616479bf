"""The snapshot reads memories through the line's fact model (`memory.snapshot.FactView`):
memory/ knows the wrapper, the escaping and the budget, never what a fact means."""

from __future__ import annotations

from datetime import date

from contextdb_livekit.memory import snapshot
from contextdb_livekit.memory.models import Memory


def stored(memory_id: str, content: str, *, attribute: str = "x", **overrides: object) -> Memory:
    data: dict[str, object] = dict(
        id=memory_id, content=content, user_id="u", epistemic_source="user_stated",
        confidence=0.9, corroboration_count=1, action_relevant=False,
        requires_confirmation=False, confirmed=False, independent_corroboration=1,
        injection_suspect=False, entity_key="thing", attribute_key=attribute,
        valid_until=None, superseded_by=None,
    )  # fmt: skip
    data.update(overrides)
    return Memory(**data)  # type: ignore[arg-type]  # the client's dataclass, built from a dict


class Tagged:
    """A toy fact model: "[day]" prefixes the date, attribute "hidden" is a host record and
    attribute "flag" is a flagged note."""

    def is_shown(self, memory: Memory) -> bool:
        return memory.attribute_key != "hidden"

    def is_flagged(self, memory: Memory) -> bool:
        return memory.attribute_key == "flag"

    def observed_on(self, memory: Memory) -> date | None:
        head, _, _ = memory.content.partition(" ")
        return date.fromisoformat(head) if head[:1].isdigit() else None

    def text(self, memory: Memory) -> str:
        head, _, rest = memory.content.partition(" ")
        return rest if head[:1].isdigit() else memory.content


def test_plain_memories_are_shown_as_stored_in_stored_order() -> None:
    memories = [stored("a", "First thing"), stored("b", "Second thing")]
    text, shown = snapshot.render(memories)
    assert [m.id for m in shown] == ["a", "b"]
    assert "- First thing\n- Second thing" in text


def test_the_fact_view_decides_what_is_shown_its_date_and_its_text() -> None:
    memories = [
        stored("old", "2026-11-02 Old detail"),
        stored("new", "2026-12-01 New detail"),
        stored("record", "2026-12-02 Host record", attribute="hidden"),
        stored("flag", "2026-12-03 Flagged text", attribute="flag"),
        stored("gone", "2026-12-04 Superseded", superseded_by="new"),
    ]
    text, shown = snapshot.render(memories, facts=Tagged())
    assert [m.id for m in shown] == ["new", "old"]  # newest first, by the view's date
    assert "- New detail (said 1 Dec)\n- Old detail (said 2 Nov)" in text
    assert "Host record" not in text and "Flagged" not in text and "Superseded" not in text
    assert "2026-12-01" not in text  # the view's text, not the stored content
