"""The library's public API for writing a line: what its tools, fact kinds, booking-system
client and profile import. Everything else in the package is private and may change in any
release; `hosting` is the other public module (the worker and the drain).

The starter imports only from these two modules (`tests/test_boundaries.py` fails otherwise);
the list is in the library's README with the version it came in (CHANGELOG.md).
"""

from __future__ import annotations

from contextdb_livekit.caller_data.forget import ACTION_NAME as FORGET_ACTION
from contextdb_livekit.caller_data.forget import (
    build_forget_tool,
    forget_action,
    forget_intent_resolver,
)
from contextdb_livekit.caller_data.line_actions import LineActions
from contextdb_livekit.caller_data.stores import for_host, open_caller_data
from contextdb_livekit.facts.cautions import day_caution, says_day_does_not_work
from contextdb_livekit.facts.changes import FactChanges
from contextdb_livekit.facts.kinds import (
    DATE_KEY,
    WEEKDAY_KEY,
    FactKinds,
    KindSpec,
    SlotKey,
    TypedFact,
    named_key,
    words_kind,
)
from contextdb_livekit.facts.line_facts import LineFacts
from contextdb_livekit.facts.retention import FactRetentionSettings, retention_of
from contextdb_livekit.facts.reviewed import ReviewedFacts
from contextdb_livekit.facts.stamps import Confidence
from contextdb_livekit.identity import CallerIdentity, IdentityError
from contextdb_livekit.kit.action_tool import GatedTool, build_action_tool
from contextdb_livekit.kit.action_words import BOOK_WORDS, CANCEL_WORDS
from contextdb_livekit.kit.actions import (
    Attempt,
    GatedAction,
    Outcome,
    Resolution,
    ToolText,
    intent_resolver,
    run_gated_action,
)
from contextdb_livekit.kit.amounts import PoundAmounts, spoken_pounds
from contextdb_livekit.kit.authorization import AssurancePolicy
from contextdb_livekit.kit.confirmation import build_confirmation_tool
from contextdb_livekit.kit.context import CallContext, HostServices
from contextdb_livekit.kit.days import CalendarDays, ZoneName, spoken_day, today_in, zone_named
from contextdb_livekit.kit.errors import HostSystemUnavailable, OutcomeUnknown
from contextdb_livekit.kit.host_api import HostApi, Refusal, ResponseBody, path_segment
from contextdb_livekit.kit.host_settings import HostSystemSettings, local_data_paths
from contextdb_livekit.kit.host_sqlite import HostSqlite
from contextdb_livekit.kit.notes import build_note_tool
from contextdb_livekit.kit.recall import build_recall_tool
from contextdb_livekit.kit.replies import ActionWords
from contextdb_livekit.kit.request_slots import REQUEST_ENTITY
from contextdb_livekit.kit.review import (
    MAX_CHANGES_READ_BACK,
    REVIEW_OPENING,
    REVIEW_TOOL,
    build_review_tool,
    read_reply,
    settle_changes,
    start_review,
)
from contextdb_livekit.kit.target import InvalidTarget, Mention, TargetKind
from contextdb_livekit.memory.caller_text import clean_caller_text, history_turns
from contextdb_livekit.memory.instructions_screen import is_procedure_note
from contextdb_livekit.memory.models import (
    EpistemicSource,
    FactToRemember,
    Memory,
    MemorySnapshot,
    Turn,
    is_current,
)
from contextdb_livekit.memory.safe_text import neutralise
from contextdb_livekit.memory.secrets import redact_bounded, redact_secrets
from contextdb_livekit.memory.snapshot import FactView
from contextdb_livekit.reading.call import Said, kept_words, read_call
from contextdb_livekit.reading.equipment import Equipment, EquipmentTypes, Fixture
from contextdb_livekit.reading.lexicon import ABOUT_THE_VISIT, WEEKDAYS
from contextdb_livekit.reading.model import (
    CheckedFact,
    ModelExtractionError,
    ModelFact,
    facts_from_model,
)
from contextdb_livekit.reading.reader import CallReader
from contextdb_livekit.reading.sentences import normal as normal_text
from contextdb_livekit.reading.turn_cues import (
    about_someone_else,
    corrects_last_turn,
    kinds_mentioned,
    says_change,
    says_routine_changed,
)
from contextdb_livekit.stores.caller_data import RetentionPolicy, SlotRetention
from contextdb_livekit.stores.outbox import IntentResolver
from contextdb_livekit.stores.private_files import private_file
from contextdb_livekit.tls import TLS_CONTEXT
from contextdb_livekit.worker.instructions import Instructions
from contextdb_livekit.worker.profile import HostParts, LineProfile

__all__ = [
    "ABOUT_THE_VISIT",
    "BOOK_WORDS",
    "CANCEL_WORDS",
    "DATE_KEY",
    "FORGET_ACTION",
    "MAX_CHANGES_READ_BACK",
    "REQUEST_ENTITY",
    "REVIEW_OPENING",
    "REVIEW_TOOL",
    "TLS_CONTEXT",
    "WEEKDAYS",
    "WEEKDAY_KEY",
    "ActionWords",
    "AssurancePolicy",
    "Attempt",
    "CalendarDays",
    "CallContext",
    "CallReader",
    "CallerIdentity",
    "CheckedFact",
    "Confidence",
    "EpistemicSource",
    "Equipment",
    "EquipmentTypes",
    "FactChanges",
    "FactKinds",
    "FactRetentionSettings",
    "FactToRemember",
    "FactView",
    "Fixture",
    "GatedAction",
    "GatedTool",
    "HostApi",
    "HostParts",
    "HostServices",
    "HostSqlite",
    "HostSystemSettings",
    "HostSystemUnavailable",
    "IdentityError",
    "Instructions",
    "IntentResolver",
    "InvalidTarget",
    "KindSpec",
    "LineActions",
    "LineFacts",
    "LineProfile",
    "Memory",
    "MemorySnapshot",
    "Mention",
    "ModelExtractionError",
    "ModelFact",
    "Outcome",
    "OutcomeUnknown",
    "PoundAmounts",
    "Refusal",
    "Resolution",
    "ResponseBody",
    "RetentionPolicy",
    "ReviewedFacts",
    "Said",
    "SlotKey",
    "SlotRetention",
    "TargetKind",
    "ToolText",
    "Turn",
    "TypedFact",
    "ZoneName",
    "about_someone_else",
    "build_action_tool",
    "build_confirmation_tool",
    "build_forget_tool",
    "build_note_tool",
    "build_recall_tool",
    "build_review_tool",
    "clean_caller_text",
    "corrects_last_turn",
    "day_caution",
    "facts_from_model",
    "for_host",
    "forget_action",
    "forget_intent_resolver",
    "history_turns",
    "intent_resolver",
    "is_current",
    "is_procedure_note",
    "kept_words",
    "kinds_mentioned",
    "local_data_paths",
    "named_key",
    "neutralise",
    "normal_text",
    "open_caller_data",
    "path_segment",
    "private_file",
    "read_call",
    "read_reply",
    "redact_bounded",
    "redact_secrets",
    "retention_of",
    "run_gated_action",
    "says_change",
    "says_day_does_not_work",
    "says_routine_changed",
    "settle_changes",
    "spoken_day",
    "spoken_pounds",
    "start_review",
    "today_in",
    "words_kind",
    "zone_named",
]
