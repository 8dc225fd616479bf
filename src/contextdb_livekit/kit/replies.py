"""Read a caller's answer to the host's read-back ("shall I book a service visit on Thursday
10 December?", "shall I apply a service credit of £25.00?"): yes, no, other, or a new request.

    classify_reply("uh huh", kind, offered=thursday)                     -> yes
    classify_reply("yes, friday", kind, offered=thursday)                -> new_request "friday"
    classify_reply("yes still at elm road", kind, offered=thursday)      -> other
    classify_reply("yeah scrap it", kind, offered=..., action=cancel_words)  -> yes

This is the English yes/no grammar, domain-free: what the action is called ("cancel it",
"apply the credit") comes from the action (`ActionWords`), and which targets a reply names
("friday", "thirty pounds") from the action's `TargetKind` (`kit.target`).

The rule is a closed vocabulary, because the costly mistake is a false yes (an action the
caller never agreed to) and a re-ask costs one turn. A reply is `yes` only when it has an
agreement word, or names the read-back's action in its own words, and *every* other word is
a filler, politeness, a neutral word, or a target equal to `offered`. Any word outside that
vocabulary ("still", "elm", "morning") makes it `other`: it is not a clean answer to this
question. The action's words come on top of the generic vocabulary and replace it where they
overlap: "cancel it" refuses by default and agrees to a cancel read-back. Precedence, first
match wins:

1. a target other than `offered`, not negated ("not friday")       -> new_request (its label)
2. a question ("?", "what", a clause opening with is/can/do ...)     -> other
3. an explicit refusal ("that won't work", "not thursday", "cancel that"), the action negated
   ("don't cancel it", "i wouldn't book it", "don't do that"), or the action's own refusal
   ("keep it"; not inside "if"/"might": "not sure if we need it")  -> no
4. the action's refusal negated ("don't keep it")                   -> other
5. a change of mind: a marker ("actually", "wait", "sorry", "on second thoughts") with a no
   after it and no agreement after that ("yes... actually, no"), or after the last agreement
   ("cancel it, no, wait")                                           -> no
6. a hedge, deferral or condition ("hold on", "maybe", "but", "if")  -> other
7. a negation ("no", "nope", "don't", "nein") without a yes          -> no   (with a yes: other)
   ("no worries", "no problem", "no bother" are politeness, not negation; a bare "no" before
   a negative way of agreeing agrees: "no, we don't need it anymore")
8. words outside the vocabulary, or a reply cut off mid-phrase       -> other
9. the action named, or an agreement word                            -> yes, else other

A request or permission frame ("can you", "you can", "i'd like to", "might as well") counts
only in front of the action's words ("can you cancel it"); elsewhere it is content beyond
agreement. Colloquial agreement is in the vocabulary ("righto", "spot on", "that'll work",
"that'd be a help", "lovely jubbly", "sweet as", "too easy"); a thanks alone ("cheers") is not
a yes, and "i'm alright" is a polite no, not an agreement. Nothing reads the clock: `today`
is passed to the target kind as given.

Non-English yes/no supported (accents optional): Spanish sí/claro/vale/de acuerdo/por supuesto/
está bien/perfecto, no; French oui/ouais/d'accord/bien sûr/parfait/c'est bon/ça marche, non;
German ja/genau/gerne/klar/in Ordnung/passt/einverstanden, nein/nee/nicht.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal, TypeVar

from contextdb_livekit.kit.target import Mention, TargetKind

T = TypeVar("T")

ReplyKind = Literal["yes", "no", "other", "new_request"]

MAX_REPLY_CHARS = 2000


@dataclass(frozen=True)
class ReplyReading:
    kind: ReplyKind
    # new_request: the target the reply names instead (its `Mention.label`).
    target: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class ActionWords:
    """What a reply calls the read-back's action, declared by the action (`GatedAction.words`)
    and passed to `classify_reply`.

    `agree`: phrases that name doing the action ("cancel it", "scrap it", "don't need it
    anymore"; "book me in", "pencil me in"). Said alone or with a yes word they agree; negated
    ("don't cancel it", "i wouldn't book it") they refuse. `refuse`: action-specific refusals
    ("keep it", "still need it"). In a phrase, "it" stands for any way of naming the visit
    ("that", "them", "the visit", "the appointment", ...), and "don't"/"do not" (and the other
    contractions) are the same; a phrase written out here wins over the generic meaning of
    the same words ("cancel" is a refusal of a booking read-back, agreement to a cancel one).
    """

    agree: tuple[str, ...] = ()
    refuse: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("agree", "refuse"):
            value = getattr(self, name)
            if isinstance(value, str):
                raise TypeError(f"ActionWords.{name} is a tuple of phrases, not one string")
            object.__setattr__(self, name, tuple(value))
        both = {_phrase_key(p) for p in self.agree} & {_phrase_key(p) for p in self.refuse}
        if both:
            raise ValueError(f"phrases both agree and refuse: {sorted(both)}")


# --- vocabulary -------------------------------------------------------------------------------

YES, NEG, REFUSE, HEDGE, SOFT, QUESTION, FILLER, NEUTRAL, POLITE, OFFTOPIC, FRAME = (
    "yes",
    "neg",
    "refuse",
    "hedge",
    "soft",
    "question",
    "filler",
    "neutral",
    "polite",
    "offtopic",
    "frame",
)
# Declared by the action (ActionWords): naming the action, and the action's own refusals.
ACT, ACT_REFUSE = "act", "act_refuse"


def _phrases(category: str, text: str) -> dict[tuple[str, ...], str]:
    return {tuple(p.split()): category for p in text.split("|") if p.strip()}


_LEXICON: dict[tuple[str, ...], str] = {}
for _category, _text in (
    (
        YES,
        "yes|yeah|yea|yeh|ya|yah|yep|yup|aye|okay|alright|sure|surely|absolutely|definitely|"
        "certainly|correct|exactly|precisely|indeed|affirmative|fine|great|perfect|lovely|"
        "brilliant|excellent|wonderful|fantastic|grand|cool|awesome|super|superb|splendid|nice|"
        "good|marvellous|marvelous|ideal|works|confirm|confirmed|agreed|please|uhhuh|mmhmm|"
        "happy|gladly|of course|sounds good|sounds great|sounds perfect|sounds fine|"
        "sounds lovely|sounds right|sounds about right|sounds like a plan|that works|"
        "works for me|go for it|go ahead|go on|go on then|please do|do it|do that|let's do it|"
        "let's do that|let's go|proceed|please proceed|you bet|sure thing|for sure|you got it|"
        "will do|that's right|that is right|that's correct|all right|all good|by all means|"
        "i'd like that|i would like that|spot on|bang on|dead on|i confirm|i agree|suits me|"
        "that suits me|that suits|suits|that's the one|that'll do|that will do|"
        "okey dokey|okay dokey|okie dokie|okey doke|okay doke|okie doke|can do|grand so|"
        "right so|i can do that|you can go ahead|fair enough|"
        "i'm fine with that|i'm ok with that|i'm okay with that|i'm good with that|"
        "i'm happy with that|fine with me|fine by me|good with me|okay with me|okay by me|"
        "good for me|great for me|perfect for me|great stuff|good stuff|lovely stuff|"
        # "no" as politeness, not refusal: "no worries", "no problem", "no bother".
        "no problem|no problems|not a problem|no worries|no bother|no bother at all|"
        "not a bother|no probs|no prob|no trouble|no dramas|no sweat|no hassle|"
        # Colloquial agreement, British, Irish, American, Australian.
        "righto|rightio|righty ho|righty o|right oh|right you are|lovely jubbly|sweet|"
        "sweet as|ace|smashing|cracking|champion|magic|fab|fabulous|terrific|tremendous|"
        "beaut|beauty|bonza|bonzer|ripper|too easy|done|done deal|deal|it's a deal|you're on|"
        "roger|roger that|copy that|righty|indeedy|naturally|dandy|hunky dory|peachy|"
        "happy days|you betcha|betcha|grateful|works a treat|a treat|"
        # "that'll work", "that'd be a help": agreement by what the visit would do for them.
        "will work|would work|that'll work|that'd work|that will work|that would work|"
        "work for me|do nicely|a help|a big help|a great help|a real help|a huge help|helpful|"
        "a godsend|a relief|handy|that'd help|that would help|"
        "that'll help|that will help|that helps|would help|would suit|that'd suit|"
        "that would suit|that'll suit|"
        # Spanish, French, German (accents are stripped before matching).
        "si|claro|vale|de acuerdo|por supuesto|esta bien|muy bien|perfecto|"
        "oui|ouais|d'accord|bien sur|parfait|c'est bon|c'est parfait|tres bien|ca marche|"
        "ja|jawohl|genau|gerne|klar|in ordnung|passt|einverstanden|sehr gut",
    ),
    (
        NEG,
        "no|nope|nah|naw|not|never|negative|don't|doesn't|won't|can't|cannot|isn't|wouldn't|"
        "couldn't|shouldn't|didn't|wrong|incorrect|uhuhneg|"
        "nunca|non|jamais|pas|nein|nee|nicht|kein|keine",
    ),
    (
        REFUSE,
        "won't work|doesn't work|does not work|will not work|not work|not going to work|"
        "can't do|cannot do|can't do that|can't make|cannot make|can't make it|no good|not good|"
        "absolutely not|definitely not|certainly not|of course not|hell no|no way|don't book|"
        "do not book|please don't|don't bother|no thanks|no thank you|i'd rather not|"
        "rather not|not really|don't think so|i don't think so|i do not think so|"
        "wrong day|that's wrong|not right|that's not right|not for me|impossible|unavailable|"
        "busy|i'm away|we're away|wouldn't work|would not work|won't do|that won't do|"
        "no can do|no use|no need|i'll pass|we'll pass|give it a miss|not interested|"
        # Retractions. "cancel that" refuses a booking read-back; the cancel action declares
        # its own meaning of "cancel" (ActionWords), which replaces this one.
        "cancel|cancel it|cancel that|scratch that|scratch it|scrap that|scrap it|forget it|"
        "forget that|forget about it|never mind|nevermind|leave it|"
        "no gracias|non merci|nein danke|auf keinen fall",
    ),
    (
        HEDGE,
        "maybe|perhaps|possibly|probably|guess|suppose|think|reckon|wait|hold on|hang on|"
        "hold up|one sec|one second|a sec|a second|a moment|one moment|a minute|just a minute|"
        "just a sec|let me|let me see|check|checking|depends|dunno|i don't know|don't know|"
        "do not know|not sure|unsure|no idea|hmm|hm|hmmm|might|could be|kind of|sort of|"
        "kinda|sorta|but|though|although|except|unless|if|first|later|i don't mind|"
        "don't mind|i do not mind|either way|whatever|need to|have to|got to|gotta|should|"
        "ask|whether|provided|providing|assuming|on second thought|on second thoughts|"
        "second thoughts|second thought|come to think of it|thinking about it|"
        "tal vez|quizas|a lo mejor|peut etre|vielleicht|momento|moment",
    ),
    (
        # A request or permission frame: agreement only in front of the action's words
        # ("can you cancel it", "you can book it"), otherwise content beyond agreement.
        FRAME,
        "can you|could you|would you|will you|you can|you could|you may|feel free to|"
        "i'd like to|i would like to|we'd like to|we would like to|i want to|we want to|"
        "i'd like you to|we'd like you to|i want you to|we want you to|happy for you to|"
        "might as well|may as well|i need to|we need to",
    ),
    (
        SOFT,
        "i'm good|i'm fine|i'm ok|i'm okay|i'm all set|we're good|we're fine|we're okay|"
        "i'm alright|we're alright|i'm all right|we're all right|i'm done|we're done",
    ),
    (
        QUESTION,
        "what|what's|when|where|which|who|why|how|huh|quoi|wann|cuando|como",
    ),
    (
        FILLER,
        "um|umm|uh|uhh|uhm|er|erm|mm|ah|ahh|oh|ooh|eh|well|so|like|actually|right|look|hey|hi|"
        "hello|you know|i mean|anyway|gosh|och|ach|alors|bueno|pues|also",
    ),
    (
        NEUTRAL,
        "i|we|me|us|it|that|this|is|it's|that's|that'd|that'll|i'd|i'll|we'll|i'm|we're|for|on|"
        "the|a|an|to|of|and|then|just|all|very|really|much|too|totally|quite|be|with|by|in|at|"
        "would|will|sounds|sound|you|now|again|visit|service|appointment|booking|slot|day|"
        "date|time|engineer|technician|someone|come|coming|round|over|one|nicely|"
        "home|here|there|there's|there is|around|available|any time|anytime|whenever|all day|"
        "the sooner the better|that one|this one|the visit|anymore|any more|any longer|we'd|"
        "i've|we've|been|for now|diary|calendar|"
        "after all|ourselves|myself|el|la|le|am|der|das|es|c'est|est|ist|es",
    ),
    (
        POLITE,
        "thanks|thank you|thanks a lot|thank you very much|cheers|much appreciated|"
        "appreciate it|no rush|no hurry|thanks a million|ta|ta very much|sir|madam|ma'am|mate|"
        "love|dear|pal|bro|"
        "buddy|you're a star|you're a legend|you're a gem|you're an angel|if you would|"
        "if you could|if you would be so kind|if you don't mind|if you wouldn't mind|gracias|"
        "merci|danke|bitte|por favor|"
        "s'il vous plait|s'il te plait|danke schon",
    ),
    (
        OFFTOPIC,
        "still|address|number|phone|email|name|account|road|street|lane|avenue|postcode|zip|"
        "live|living|moved|that's me|it's me|this is me|that is me|it is me|speaking|same|"
        "boiler|radiator|heating|gas|dog|parking|card|pay|payment|bill|invoice",
    ),
):
    _LEXICON.update(_phrases(_category, _text))


def _split(words: str) -> list[str]:
    return words.split()


def _phrase_set(text: str) -> frozenset[tuple[str, ...]]:
    """Phrases separated by "|", each as a tuple of words."""
    return frozenset(tuple(p.split()) for p in text.split("|"))


# A reply ending on one of these was cut off or answers some other question ("yes i do").
_DANGLING = frozenset(
    _split(
        "i we and the a an to on for with that's it's is are am do does did have has can will "
        "would could should i'm i'd i'll we're my of at be or just because so like well"
    )
)
# Clause-opening auxiliaries make a question even when ASR drops the "?".
_QUESTION_OPENERS = frozenset(_split("is are do does did can could would will shall isn't aren't"))
# Before a named target, these negate it ("not friday", "can't do friday", "instead of friday").
_NEG_BEFORE = frozenset(_split("not can't cannot never won't don't isn't except besides nicht"))
_NEG_AFTER_1 = frozenset(_split("doesn't won't isn't wouldn't can't cannot no"))
_NEG_AFTER_AUX = frozenset(_split("is does do will would"))

# Spoken contractions ASR writes without the apostrophe.
_CONTRACTIONS: Mapping[str, str] = {
    "dont": "don't",
    "doesnt": "doesn't",
    "wont": "won't",
    "cant": "can't",
    "isnt": "isn't",
    "thats": "that's",
    "its": "it's",
    "im": "i'm",
    "id": "i'd",
    "ill": "i'll",
    "lets": "let's",
    "whats": "what's",
    "wouldnt": "wouldn't",
    "couldnt": "couldn't",
    "shouldnt": "shouldn't",
    "didnt": "didn't",
    "arent": "aren't",
    "thatd": "that'd",
    "thatll": "that'll",
    "ok": "okay",
    "okey": "okay",
    "k": "okay",
    "kk": "okay",
    "alrighty": "alright",
    "aight": "alright",
    "yas": "yes",
    "yeas": "yes",
    "cest": "c'est",
    "daccord": "d'accord",
}
_STRETCHED = (
    (re.compile(r"^y+e+s+$"), "yes"),
    (re.compile(r"^y+e+a+h*$"), "yeah"),
    (re.compile(r"^y+u+p+$"), "yup"),
    (re.compile(r"^y+e+p+$"), "yep"),
    (re.compile(r"^o+k+a*y*$"), "okay"),
    (re.compile(r"^n+o+$"), "no"),
    (re.compile(r"^n+a+h+$"), "nah"),
    (re.compile(r"^u+m+$"), "um"),
    (re.compile(r"^u+h+$"), "uh"),
    (re.compile(r"^e+r+m+$"), "erm"),
    (re.compile(r"^h+m+$"), "hmm"),
    (re.compile(r"^m+$"), "mm"),
)
_BOUNDARY = "|"


# In declared phrases: "it" is any way of naming the visit, and contractions are spelled
# either way ("don't need it" also reads "do not need the visit").
_OBJECTS = tuple(
    sorted(
        _phrase_set(
            "it|that|this|them|that one|this one|the one|the visit|the appointment|the booking|"
            "the service visit|the service|the engineer|the engineer visit|the job|the call out|"
            "the callout|the whole thing|the thing"
        )
    )
)
_SPELLINGS: Mapping[str, tuple[tuple[str, ...], ...]] = {
    "it": _OBJECTS,
    "don't": (("do", "not"),),
    "doesn't": (("does", "not"),),
    "won't": (("will", "not"),),
    "can't": (("cannot",),),
    "i'll": (("i", "will"),),
    "we'll": (("we", "will"),),
    "i'm": (("i", "am"),),
    "we're": (("we", "are"),),
    "it's": (("it", "is"),),
    "that's": (("that", "is"),),
    "i'd": (("i", "would"),),
    "we'd": (("we", "would"),),
    "cancelled": (("canceled",),),
    "cancelling": (("canceling",),),
}


def _phrase_key(phrase: str) -> tuple[str, ...]:
    key = tuple(_tokens(_normalize(phrase)))
    if not key or _BOUNDARY in key:
        raise ValueError(f"not a phrase: {phrase!r}")
    return key


def _spellings(key: tuple[str, ...]) -> Iterable[tuple[str, ...]]:
    options = [((t,), *_SPELLINGS.get(t, ())) for t in key]
    for choice in itertools.product(*options):
        yield tuple(t for part in choice for t in part)


@dataclass(frozen=True)
class _Vocabulary:
    lexicon: Mapping[tuple[str, ...], str]
    max_phrase: int
    negative_forms: frozenset[tuple[str, ...]]  # agree phrases with a negation in them


@functools.lru_cache(maxsize=64)
def _vocabulary(action: ActionWords) -> _Vocabulary:
    """The generic lexicon with the action's phrases: a declared phrase replaces a generic
    entry; a derived spelling only fills gaps, and one derived both ways is dropped."""
    derived: dict[tuple[str, ...], str] = {}
    declared: dict[tuple[str, ...], str] = {}
    for category, phrases in ((ACT, action.agree), (ACT_REFUSE, action.refuse)):
        for phrase in phrases:
            key = _phrase_key(phrase)
            declared[key] = category
            for variant in _spellings(key):
                if derived.get(variant, category) != category:
                    derived[variant] = "unknown"
                else:
                    derived[variant] = category
    lexicon = dict(_LEXICON)
    for key, category in derived.items():
        if key not in _LEXICON:
            lexicon[key] = category
    lexicon.update(declared)
    negators = {k[0] for k, c in _LEXICON.items() if c == NEG and len(k) == 1}
    negative = frozenset(
        k for k, c in lexicon.items() if c == ACT and any(w in negators for w in k)
    )
    return _Vocabulary(lexicon, max(len(k) for k in lexicon), negative)


# --- tokens and units ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Unit:
    category: str
    words: tuple[str, ...]
    start: int


def _normalize(text: str, kind: TargetKind[Any] | None = None) -> str:
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    folded = re.sub(r"[\u2018\u2019\u02bc`´]", "'", folded)
    if kind is not None:
        folded = kind.protect(folded)
    # Grunts: "uh-uh"/"nuh uh" refuse; "uh huh"/"mm-hmm"/"mhm" agree.
    folded = re.sub(r"\bn?uh-uh\b|\bnuh[- ]uh\b", " uhuhneg ", folded)
    folded = re.sub(r"\buh+[- ]?huh+\b", " uhhuh ", folded)
    folded = re.sub(r"\bm+[- ]?h+m+\b|\bmhm+\b", " mmhmm ", folded)
    # A word cut off by barge-in ("yes I-") is a fragment, not an answer.
    folded = re.sub(r"(?<=[a-z])-(?=\s|$)", " cutoffmark ", folded)
    folded = folded.replace("-", " ")
    return re.sub(r"[,.;:!?…()\"\u2014\u2013/¿¡]+", f" {_BOUNDARY} ", folded)


def _tokens(normalized: str) -> list[str]:
    out: list[str] = []
    for raw in re.findall(r"[a-z0-9']+|\|", normalized):
        token = raw.strip("'")
        if not token:
            continue
        token = _CONTRACTIONS.get(token, token)
        for pattern, replacement in _STRETCHED:
            if pattern.match(token):
                token = replacement
                break
        out.append(token)
    return out


_SCOPE_ENDS = frozenset({("but",), ("instead",)})


def _clause_units(units: list[_Unit], start: int, step: int, limit: int) -> list[_Unit]:
    out: list[_Unit] = []
    i = start
    while 0 <= i < len(units) and units[i].category != _BOUNDARY and len(out) < limit:
        # A contrast ends the scope: "thursday doesn't work but friday does".
        if units[i].words in _SCOPE_ENDS:
            break
        out.append(units[i])
        i += step
    return out


def _negates(unit: _Unit, words: frozenset[str]) -> bool:
    # Phrases decide first: "no worries friday" is not a negated Friday, "can't do friday" is.
    return unit.category in (REFUSE, ACT_REFUSE) or (
        unit.category == NEG and unit.words[0] in words
    )


def _is_negated(units: list[_Unit], at: int) -> bool:
    """Whether the target unit at index `at` is negated within its clause."""
    before = _clause_units(units, at - 1, -1, 3)
    if any(_negates(u, _NEG_BEFORE) for u in before):
        return True
    if at >= 2 and [u.words for u in units[at - 2 : at]] == [("instead",), ("of",)]:
        return True
    after = _clause_units(units, at + 1, 1, 2)
    if after and _negates(after[0], _NEG_AFTER_1):
        return True
    return (
        len(after) == 2
        and after[0].words[0] in _NEG_AFTER_AUX
        and _negates(after[1], frozenset({"not", "no"}))
    )


def _units(tokens: list[str], named: list[Mention], vocab: _Vocabulary) -> list[_Unit]:
    """Greedy longest-phrase match; each named target is one unit of its own."""
    named_at = {d.start: d.end for d in named}
    in_named = {k for d in named for k in range(d.start, d.end)}
    units: list[_Unit] = []
    i = 0
    while i < len(tokens):
        if i in named_at:
            units.append(_Unit("target", tuple(tokens[i : named_at[i]]), i))
            i = named_at[i]
            continue
        tok = tokens[i]
        if tok == _BOUNDARY:
            units.append(_Unit(_BOUNDARY, (tok,), i))
            i += 1
            continue
        for width in range(min(vocab.max_phrase, len(tokens) - i), 0, -1):
            key = tuple(tokens[i : i + width])
            if _BOUNDARY in key or any(k in in_named for k in range(i, i + width)):
                continue
            category = vocab.lexicon.get(key)
            if category is not None:
                units.append(_Unit(category, key, i))
                i += width
                break
        else:
            units.append(_Unit("unknown", (tok,), i))
            i += 1
    return units


def _opens_question(units: list[_Unit]) -> bool:
    at_clause_start = True
    opener_seen = False
    prev: tuple[str, ...] = ()
    for unit in units:
        if unit.category == _BOUNDARY:
            at_clause_start, opener_seen = True, False
            continue
        if unit.category in (FILLER, POLITE) or unit.words == ("and",):
            continue
        if at_clause_start and unit.words[0] in _QUESTION_OPENERS and len(unit.words) == 1:
            opener_seen = True
        elif opener_seen:
            if prev != ("do",) or unit.words != ("not",):
                return True  # an opener followed by more words: "is that the morning"
            opener_seen = False  # "do not cancel it" is a command
        at_clause_start = False
        prev = unit.words
    return False


def _words(units: Iterable[_Unit]) -> str:
    return " ".join(" ".join(u.words) for u in units)


# Negators that negate the verb after them: "don't cancel it", "i wouldn't book it". A bare
# "no" does not ("no, cancel it" is both a no and a yes), nor does "wrong".
_VERB_NEGATORS = frozenset(
    _split(
        "don't doesn't not never won't wouldn't shouldn't can't cannot didn't isn't nicht "
        "kein keine pas nunca"
    )
)
# Generic imperatives of agreement, which a verb negator turns into a refusal ("don't do
# that", "don't go ahead").
_IMPERATIVES = _phrase_set(
    "do it|do that|go ahead|go for it|go on|go on then|please do|proceed|let's do it|let's do that"
)
# After an agreement, one of these and a no is a change of mind: "yes... actually, no".
_CHANGE_MARKERS = _phrase_set(
    "actually|wait|hang on|hold on|hold up|sorry|i mean|on second thought|on second thoughts|"
    "second thoughts|second thought|come to think of it|thinking about it"
)
_NEG_SCOPE = 4  # content units a verb negator reaches forward within its clause


def _resolve_frames(units: list[_Unit]) -> list[_Unit]:
    """A request frame ("can you", "i'd like to") in front of the action's words is part of
    the agreement; anywhere else it is content the vocabulary does not cover."""
    out = list(units)
    for i, unit in enumerate(units):
        if unit.category != FRAME:
            continue
        nxt = next(
            (
                u
                for u in units[i + 1 :]
                if u.category not in (FILLER, POLITE) and u.words != ("please",)
            ),
            None,
        )
        agrees = nxt is not None and (nxt.category == ACT or nxt.words in _IMPERATIVES)
        category = NEUTRAL if agrees else "unknown"
        out[i] = _Unit(category, unit.words, unit.start)
    return out


def _verb_negated(units: list[_Unit], at: int, vocab: _Vocabulary) -> bool:
    """Whether the action phrase (or imperative) at `at` is under a verb negator in its
    clause: "don't cancel it", "i don't want to cancel", "don't want it cancelled"."""
    for seen, unit in enumerate(reversed(units[:at])):
        if unit.category == _BOUNDARY or unit.words in _SCOPE_ENDS or seen >= _NEG_SCOPE:
            return False
        if unit.category == NEG and unit.words[0] in _VERB_NEGATORS:
            return True
        if unit.category in (ACT, ACT_REFUSE):
            # Another verb phrase takes the negation, unless it carries one itself.
            return unit.words in vocab.negative_forms
    return False


_CONCORD = frozenset(_split("no nope nah naw"))
# A refusal after one of these in its clause is a supposition, not the answer: "not sure if
# we need it", "we might need it".
_SUPPOSING = _phrase_set("if|unless|whether|in case|might|maybe|perhaps|possibly|probably")


def _concord(units: list[_Unit], vocab: _Vocabulary) -> list[_Unit]:
    """A bare "no" that agrees with a negative way of agreeing is not a refusal: "no, we
    don't need it anymore" to a cancel read-back. It becomes neutral."""
    out = list(units)
    for i, unit in enumerate(units):
        if unit.category != NEG or unit.words[0] not in _CONCORD:
            continue
        nxt = next(
            (u for u in units[i + 1 :] if u.category not in (_BOUNDARY, NEUTRAL, FILLER)), None
        )
        if nxt is not None and nxt.words in vocab.negative_forms:
            out[i] = _Unit(NEUTRAL, unit.words, unit.start)
    return out


def _supposed(units: list[_Unit], at: int) -> bool:
    """Whether the unit at `at` follows an "if"/"might" in its clause."""
    for unit in reversed(units[:at]):
        if unit.category == _BOUNDARY:
            return False
        if unit.words in _SUPPOSING:
            return True
    return False


def _changed_mind(content: list[_Unit]) -> bool:
    """A no after a change marker, with no agreement after it: "yes... actually, no",
    "cancel it, no wait", "on second thoughts, no"."""
    agreeing = [i for i, u in enumerate(content) if u.category in (YES, ACT)]
    markers = [i for i, u in enumerate(content) if u.words in _CHANGE_MARKERS]
    if not markers:
        return False
    after_marker = content[markers[-1] + 1 :]
    if after_marker and not any(u.category in (YES, ACT) for u in after_marker):
        return any(u.category in (NEG, REFUSE, ACT_REFUSE) for u in after_marker)
    # The marker may follow the no: "cancel it, no, wait".
    tail = content[agreeing[-1] + 1 :] if agreeing else []
    return any(u.words in _CHANGE_MARKERS for u in tail) and any(
        u.category in (NEG, REFUSE, ACT_REFUSE) for u in tail
    )


# --- the classifier ------------------------------------------------------------------------------


def classify_reply(
    text: str,
    kind: TargetKind[T],
    *,
    offered: T | None = None,
    today: date | None = None,
    action: ActionWords = ActionWords(),  # frozen: one shared default is safe
) -> ReplyReading:
    """What the caller's reply says about the offered target; see the module docstring.
    `kind` names targets in the reply, `action` is what the read-back asks to do
    (`GatedAction.words`)."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    if not isinstance(action, ActionWords):
        raise TypeError("action must be ActionWords")
    if len(text) > MAX_REPLY_CHARS:
        # Not truncated: a cut could drop the "friday" at the end and leave a bare yes.
        return ReplyReading("other", reason="too long to be a clean answer")
    tokens = _tokens(_normalize(text, kind))
    if not [t for t in tokens if t != _BOUNDARY]:
        return ReplyReading("other", reason="empty")

    vocab = _vocabulary(action)
    named = kind.mentions(tokens, offered=offered, today=today)
    units = _concord(_resolve_frames(_units(tokens, named, vocab)), vocab)
    unit_at = {u.start: i for i, u in enumerate(units)}
    negated = [_is_negated(units, unit_at[d.start]) for d in named]
    for mention, neg in zip(named, negated, strict=True):
        if neg or mention.offered:
            continue
        if mention.label is None:
            return ReplyReading("other", reason=f"names a {kind.noun} that cannot be resolved")
        return ReplyReading("new_request", target=mention.label, reason=f"names {mention.label}")

    content = [u for u in units if u.category != _BOUNDARY]
    cats = {u.category for u in content}

    if "cutoffmark" in tokens:
        return ReplyReading("other", reason="cut off mid-word")
    if "?" in text or "¿" in text or QUESTION in cats or _opens_question(units):
        return ReplyReading("other", reason="question")
    refused_offer = any(n and d.offered for d, n in zip(named, negated, strict=True))
    if REFUSE in cats or refused_offer:
        return ReplyReading("no", reason="refusal")
    negated_at = {
        i
        for i, u in enumerate(units)
        if (u.category in (ACT, ACT_REFUSE) or (u.category == YES and u.words in _IMPERATIVES))
        and _verb_negated(units, i, vocab)
    }
    if any(units[i].category != ACT_REFUSE for i in negated_at):
        return ReplyReading("no", reason="negated action")
    if any(
        u.category == ACT_REFUSE and i not in negated_at and not _supposed(units, i)
        for i, u in enumerate(units)
    ):
        return ReplyReading("no", reason="refuses the action")
    if negated_at:
        return ReplyReading("other", reason="negated refusal")
    if _changed_mind(content):
        return ReplyReading("no", reason="change of mind")
    if HEDGE in cats:
        return ReplyReading(
            "other", reason=f"hedge: {_words(u for u in content if u.category == HEDGE)}"
        )
    if NEG in cats:
        if YES in cats or ACT in cats:
            return ReplyReading("other", reason="both yes and no")
        return ReplyReading("no", reason="negation")
    if SOFT in cats:
        return ReplyReading("other", reason="ambiguous: could be a polite no")
    if OFFTOPIC in cats:
        off = _words(u for u in content if u.category == OFFTOPIC)
        return ReplyReading("other", reason=f"answers a different question: {off}")
    if "unknown" in cats:
        extra = _words(u for u in content if u.category == "unknown")
        return ReplyReading("other", reason=f"content beyond agreement: {extra}")
    last = content[-1]
    if last.category in (NEUTRAL, FILLER) and len(last.words) == 1 and last.words[0] in _DANGLING:
        return ReplyReading("other", reason="incomplete or answers another question")
    if ACT in cats:
        return ReplyReading("yes", reason="names the action")
    if YES in cats:
        return ReplyReading("yes", reason="agreement")
    if named:
        return ReplyReading("other", reason=f"repeats the {kind.noun} without agreeing")
    return ReplyReading("other", reason="no agreement word")
