"""Short answers that name nothing by themselves, read as what they point at in the agent's
question: an option picked by its place ("Mornings or afternoons?" "The second one.") and a
bare yes to what the agent put to the caller ("Is the meter under the stairs?" "Yep.")."""

from __future__ import annotations

import re

from contextdb_livekit.reading.sentences import normal

# (`normal` writes "third" and "fourth" as "3rd" and "4th".)
_PLACES = {
    "first": 0,
    "former": 0,
    "second": 1,
    "middle": 1,
    "3rd": 2,
    "4th": 3,
    "last": -1,
    "latter": -1,
}
# The answer is the place and nothing else but a filler or an assent around it.
_PICK = re.compile(
    r"(?:(?:yes|yeah|yep|um|er|erm|uh|oh|so|well|ok|okay|go for)\W+)*"
    r"(?:the\s+)?(first|former|second|middle|3rd|4th|last|latter)(?:\s+(?:one|option))?"
    r"(?:\W+(?:one|please|thanks|thank you|i think|really|actually|then|yeah|yes))*"
)
# Words after an option that name what all the options are ("morning or afternoon visits").
_GENERIC = {"floor", "boiler", "visit", "visits", "call", "calls", "message", "one", "please"}
# The question before its list ("which suits you better, mornings or afternoons"): a word that
# asks, not an option.
_ASKING = {
    "better",
    "best",
    "prefer",
    "preferred",
    "rather",
    "suit",
    "suits",
    "work",
    "works",
    "generally",
    "usually",
    "normally",
    "it",
    "is",
    "you",
    "do",
    "does",
    "which",
    "what",
    "then",
}
# "Right, okay, so, mornings or afternoons?": words before the list, not options in it.
_OPENING = re.compile(r"^(?:(?:right|ok|okay|so|well|and|then|lovely|great|thanks)\W+)+")
_ARTICLES = {"a", "an", "the", "by", "on", "in", "via"}


def options_offered(question: str) -> list[str]:
    """The options the agent's last question lists, one word each ("combi, system or
    conventional" → combi, system, conventional); empty when it lists none, or two lists
    ("flat 4 or 40, and a combi or a system?": which one a place points into is unclear)."""
    asked = [s for s in re.split(r"(?<=[.!?])\s+", question.strip()) if " or " in s.casefold()]
    if not asked:
        return []
    t = _OPENING.sub("", normal(asked[-1])).rstrip("?!. ")
    left, _, right = t.rpartition(" or ")
    right_words = [w for w in re.findall(r"[a-z0-9']+", right) if w not in _ARTICLES]
    if not right_words or " or " in left:
        return []
    options = []
    for piece in filter(str.strip, left.split(",")):  # "email, text, or a call"
        words = [w for w in re.findall(r"[a-z0-9']+", piece) if w not in _ARTICLES]
        # "a combi boiler or ...": the kind word after the option; not "prefer a call".
        while len(words) > 1 and words[-1] in _GENERIC and words[-2] not in _ASKING:
            words.pop()
        if not words:
            return []
        if words[-1] in _ASKING:
            continue  # the question, said before the first option
        options.append(words[-1])
    options.append(right_words[0])
    return options if len(options) > 1 else []


def option_picked(question: str, answer: str) -> str | None:
    """The option a bare "the second one" points at in the agent's question; None when the
    answer is more than a place, or the place is itself one of the options ("Ground floor or
    first?" "First.")."""
    pick = _PICK.fullmatch(normal(answer).strip(" ?!.,"))
    if pick is None:
        return None
    options = options_offered(question)
    place = _PLACES[pick.group(1)]
    if not options or pick.group(1) in options or place >= len(options):
        return None
    if pick.group(1) == "middle" and len(options) != 3:
        return None
    return options[place]


# "Is the meter under the stairs?", "can the engineer park on the drive", "will your wife be
# letting us in": a statement put to the caller, its auxiliary first.
_PUT_TO_CALLER = re.compile(
    r"^(?:(?:and|so|ok|okay|right)\s+)*(is|are|will|can)\s+"
    r"(there|it|that|you|(?:the|your)\s+(?:(?:gas|electric|water)\s+)?[a-z]+)\s+(.+?)\W*$"
)
_YES = re.compile(
    r"(?:(?:mm|um|er|oh)\s+)?(?:yes|yeah|yep|yup|correct|that is right|that is correct|"
    r"exactly|absolutely|mm hm|of course|definitely)(?:\s+(?:yes|yeah|yep|it is|of course|course))*"
)
# The agent's words in the caller's mouth ("letting us in": the engineer's firm).
_AS_CALLER = {"your": "my", "yours": "mine", "you": "me", "us": "you"}


def yes_restated(question: str, answer: str) -> str | None:
    """A bare yes to a statement the agent put to the caller, as the caller agreeing to it in
    their own person ("Will your wife be letting us in?" "Yes." → "my wife will be letting us
    in"); None for anything else."""
    if not _YES.fullmatch(normal(answer).strip(" ?!.,")):
        return None
    put = _PUT_TO_CALLER.match(normal(re.split(r"(?<=[.!?])\s+", question.strip())[-1]))
    if put is None or re.search(r"\bor\b", put.group(3)):
        return None  # "Is it a Vaillant or a Baxi?" "Yes.": which one, the yes does not say
    aux, subject, rest = put.groups()
    if subject == "you":
        subject, aux = "i", {"are": "am"}.get(aux, aux)
    first, *others = subject.split()
    rest = re.sub(r"\b(?:your|yours|you|us)\b", lambda m: _AS_CALLER[m.group(0)], rest)
    return " ".join([_AS_CALLER.get(first, first), *others, aux, rest])
