"""The words the rule reader knows: days, hedges, negators and their atoms, change and
correction markers, requests and wishes, who is speaking about whom, and the vocabulary of
each fact kind.
"""

from __future__ import annotations

import re

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
_DAY_RE = re.compile(rf"\b({_DAY})\b")


def _weekday(token: str) -> str:
    day = token.lower()
    return day[:-1] if day.endswith("s") and day[:-1] in WEEKDAYS else day


def _weekdays_in(text: str) -> set[str]:
    """The weekdays a text names ("Mondays and Tuesday" -> monday, tuesday)."""
    return {_weekday(day) for day in _DAY_RE.findall(text)}


_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|possibly|probably|not sure|unsure|not certain|i think|i guess|i reckon|"
    r"i suppose|might|dunno|do not know|let me (?:check|think|ask|have a think|see)|"
    r"(?:i|we) will (?:check|confirm|let you know|ask|have to check|"
    r"see(?=\s*$|\s+(?:if|what|how|whether|about)\b))|have to check|"
    r"need to check|could be|hopefully|we will see|not decided|if i can|may or may not|"
    r"(?:it|that) depends|depending on|whatever(?! day| time)|either way|"
    r"(?:fairly|pretty) (?:sure|certain)|"
    r"(?:would|will) not swear|not (?:a )?(?:hundred|100) (?:per ?cent|%)|if i remember|"
    r"as far as i know|i believe|whether|(?:could|can) not tell you|no idea|not a clue|"
    r"(?:have|has) not got a clue|(?:it is|it was|that is) either|either (?:is|one|will do)|"
    r"one of the two|not fussy|may (?:be|not|well)|up in the air|likely|double[- ]?check|"
    r"apparently|supposedly|i gather|from memory|i have (?:got )?a (?:funny )?feeling|"
    r"hit and miss|touch and go|(?:i|we) would (?:guess|imagine)|at a guess|"
    # "no i never said that mondays are fine": the read-back denied, and what follows may
    # be what was never said or what is so; a guess either way.
    r"(?:never|did not|do not think i) said(?: that)?|"
    # "It's hard to say about Thursday": no sign said, whatever "hard" says elsewhere.
    r"(?:hard|difficult|tricky) to (?:say|tell))\b"
)
# A doubt said after the statement, of the whole sentence: "It's a combi, or at least that's
# what the last bloke said", "Mondays are out, last I checked".
_AFTERTHOUGHT_DOUBT = re.compile(
    r"\b(?:or at least|so i (?:am|was|have been) told|if memory serves|"
    r"last (?:time )?i (?:looked|checked)|"
    # "Thursdays could work, but I'm not promising": the whole sentence is not sure.
    r"(?:i am )?not promising|no promises|(?:i|we) would (?:have|need) to check|not yet)\b"
)
_QUESTION_START = re.compile(
    r"^(?:(?:can|could|would|will|shall|should|do|does|did|is|are|am|have|has|may)\s+"
    r"(?:you|i|we|it|he|she|they|there|the|a|an|my|our|your|someone|anyone|somebody)\b|"
    # Speech-to-text drops the question mark: "is wednesday possible at all".
    rf"(?:is|are|would|will|could|does|do|might|should)\s+(?:on\s+)?(?:an?\s+)?{_DAY}\b|"
    r"(?:what|which|when|where|who|how|why)\b)"
)
# Negative predicates (atoms that carry their own negation are matched whole).
_NEG_ATOMS = re.compile(
    rf"\bno (?:more )?{_DAY}\b|"  # "no Fridays please": the day itself is negated
    r"\b(?:an? (?:\w+ )?issue|stopping (?:me|us)|(?:a )?no go|no good|(?:a )?dead loss|"
    # "please don't offer me a Friday", "don't be putting me down for a Monday".
    r"do not (?:be )?(?:offer\w*|giv\w+|book\w*|put\w*|send\w*|schedul\w+)|"
    r"over my dead body|(?:a )?non[- ]runner|"
    r"(?:a )?wash ?out|no dice|not happening|no use|not a chance|no chance|no way|no go|"
    r"no[- ]goes|(?:is|are|all|both|already) taken|spoken for|"
    # Busy, said as an idiom ("up to my eyeballs", "snowed under", "chocka", "a total bust").
    r"up to my (?:eyeballs|eyes|neck|ears)|snowed under|chock(?:a|ablock|-a-block)|"
    r"(?:run|rushed) off my feet|(?:a )?(?:\w+ )?bust|dead in the water|swamped|"
    r"not a (?:snowball'?s|hope|cat in hell'?s) (?:chance|hope)|not a hope|no hope|"
    r"(?:ai )?not (?:gonna|going to) happen|"
    # "a big no", but "not on a wednesday no" is the day and an agreeing "no".
    rf"a (?:(?!{_DAY}\b)\w+ )?no|both a no|non starter|"
    r"write off|off limits|off the (?:table|cards|menu|agenda)|out of the question|"
    r"not (?:an? )?option|"
    r"(?:do )?not bother(?: with)?|under no circumstances|"
    r"a (?:\w+ )?nightmare|a (?:\w+ )?problem|problems?|hopeless|impossible|unavailable|"
    r"busy|tied up|away|out|at work|working|on nights|on shifts?|bad|terrible|awful|"
    r"rubbish|awkward|difficult|tricky|avoid|forget|keep (?:\w+ )?(?:clear|free)|dreadful|horrible|"
    r"hard|inconvenient|unworkable|a (?:\w+ )?pain|a (?:\w+ )?struggle|hectic|manic|chaotic|"
    r"packed(?! (?:in|up)\b)|fully booked|booked up|tough|a (?:\w+ )?bad shout|stuck at \w+|"
    r"(?:am|are|is|be)\s+(?:always\s+|usually\s+|normally\s+)?at\s+(?:the|my|our|his|her|a)\s+"
    r"(?!home\b)\w+|"
    # Not "the course replaced my monday shift": a shift no longer worked.
    r"a (?:\w+ )?day at (?:work|the hospital)|"
    r"(?<!replaced )(?<!dropped )(?<!lost )(?<!quit )(?<!gave up )"
    r"my (?:\w+ )?(?:class|clinic|shift|session)|"
    r"(?:am|are|is) in work|"
    # "those three are always work": the days worked, not days that work.
    r"(?:are|is) (?:always |usually |normally |all )?work\b(?! (?:for|fine|well|ok)\b)|"
    # "monday i'm not here": the caller away ("my carer isn't here" is said of the carer).
    r"(?:i|we) (?:am|are) (?:not|never) here|"
    # "Thursdays I'm off gallivanting": off somewhere, not a day off; "that's a wash(out)".
    r"off (?!work\b)\w+ing\b|a wash(?:out)?|"
    # "I've just taken on Saturday shifts": the day worked.
    rf"(?:taken on|take on|picked up|started|starting|doing|got) (?:the |some )?{_DAY} "
    r"(?:shifts?|nights?|lates?|earlies)|"
    # "now I do Tuesdays at the charity shop": the day given to something else.
    rf"(?:i|we) (?:am |are )?(?:now )?(?:do|doing) (?:the )?{_DAY} (?:at|for|with|down|up|over)\b|"
    # "thursdays I do the food bank", "Monday we go to the allotment": the day taken up.
    rf"{_DAY} (?:i|we) (?:do|run|go to|help at|help out at|volunteer at) (?:the |my |our )+"
    r"(?!(?:visit|booking|appointment)\b)\w+|"
    # "Monday and Friday are my work days": the days the caller works, not days that work.
    # "monday is a work day for both of us now": a day worked, said of the day.
    r"(?:my|our) (?:[\w-]+?[ -])?(?:work|working|office) ?days?|"
    r"(?:is|are) (?:a |an )?(?:full |long )?(?:work|working|office) ?days?|"
    # "sundays are family day": the day given over to something else.
    r"(?:(?:a|the|my|our) )?(?:family|church|golf|gym|football|shopping|market|laundry|"
    r"washing|cleaning|pamper) days?|"
    # Ruled out, said as an idiom ("a dead duck", "that won't fly", "not on your life").
    r"(?:a )?dead duck|(?:will|would|does|do) not fly|not on your nelly|(?:a )?non-?starter|"
    r"not on your life|"
    r"no can do|(?:a )?nope|murder|(?:a )?(?:\w+ )?minefield|"
    r"sacred|(?:a )?(?:right )?faff|rammed|out of bounds|(?:my |our )?hands are tied|"
    r"a (?:\w+ )?tall order|scratch|rule out|cross off|strike off)\b"
)
# Positive predicates that carry their own negation ("I don't mind Thursdays").
_POS_ATOMS = re.compile(
    r"\b(?:(?:do|does|would|will) not mind|not bothered|no problem|no trouble|not fussed|"
    r"not fussy|no bother|no[- ]brainer|no worries|no hassle|no issues?|no dramas?|"
    # "I wouldn't say no to Monday", "I can't see why not", "Sunday I'm all yours".
    r"(?:would|will) not say no to|(?:can not|cannot) see why not|all yours|"
    # "I've got nothing on Thursday": free, though a word of it is "nothing".
    r"nothing (?:on|planned|booked|going on)|not that (?:i|we) mind|"
    r"never anything (?:on|planned|booked|going on)|"
    # "monday to saturday fire away": go ahead, though a word of it is "away".
    r"(?:fire|crack) away|"
    # "i'm never not in on tuesdays": always in.
    r"never not (?:in|home|around|about|free)|"
    # Easy, said as an idiom with a "no" in it ("no skin off my nose", "no sweat").
    r"no skin off (?:my|our) nose|no sweat|at a loose end|"
    # At home all day, though a word of it is "working".
    r"(?:working|work|works) from home|wfh)\b"
)
_NEGATED_POSITIVE = re.compile(
    r"\b(?:not|never)\s+(?:\w+\s+)?(?:do|free|around|in|home|available|make|manage|able)\b|"
    # "wednesday doesn't work, wednesdays I do the food bank" (not "I don't work Mondays").
    r"(?<!\bi )(?<!\bwe )\b(?:does|do|will|would) not (?:really )?(?:work|suit)\b"
)
# Removed before negators are counted: they carry their own sign, or none ("every Tuesday
# without fail" is always, not a negation).
_NEG_WITH_NOT = re.compile(
    r"\b(?:not a chance|not (?:an? )?option|(?:do )?not bother(?: with)?|without fail|"
    r"no matter what|no exceptions?|or nothing|"
    # "i'm in all day sunday doing nothing": idle, not a negation.
    r"doing (?:nothing|not a lot|not much)(?: much)?)\b"
)
_POS = re.compile(
    # "down in Leeds for work" is away: "work" after "for" is the job, not "works for me".
    r"\b(?:(?<!for )works?|worked|working from home|work from home|suits?|suited|fine|good|ok|okay|"
    r"happens?|"
    r"alright|all right|great|perfect|best|ideal|better|free|available|possible|an option|"
    r"grand|lovely|brilliant|spot on|handy|sound|sorted|a safe bet|safe|nothing on|rock solid|"
    r"(?:is|are|completely|totally|wide|all) clear|"
    # Easy, said as an idiom ("a doddle", "a slam dunk", "golden", "nae bother").
    r"(?:a )?doddle|(?:a )?slam dunk|a breeze|a cinch|golden|wide open|nae bother|"
    # Sure to work, said as an idiom ("a goer", "bang on", "a dead cert", "right as rain").
    r"(?:a )?goer|bang on|(?:a )?dead cert|right as rain|ticks? (?:all )?(?:my|our|the) boxes|"
    r"fair game|(?:a )?banker|tickety[- ]boo|cushty|"
    r"any ?time|find (?:me|us) in|catch (?:me|us)|"
    # "Saturday I can't": the verb left out, said or denied.
    r"(?:i|we) (?:actually |really |definitely |still )?(?:can|could)"
    r"(?=(?: not| never)?(?: actually| too| as well| either| at all)?$)|"
    r"have (?:anyone|anybody|someone|somebody|people|you|an engineer|the engineer) round|"
    r"convenient|easy|happy|home|around|about|in|there|off|(?:can|could|able to) (?:do|make|"
    r"manage)|do|manage|make|prefer|preferred|favou?rite|no problem|"
    r"book|booking|schedule|send|sending|come|put me (?:down|in)|"
    # "it can't be a Monday", "it can be any Tuesday": the visit's day, said or denied.
    rf"(?:(?<=\bcan )|(?<=\bcan not )|(?<=\bwill have to )|(?<=\bhas to ))be"
    rf"(?= (?:on )?(?:an? |any )?{_DAY}\b))\b"
)
_PHRASAL_OUT = re.compile(
    r"\b(?:took|take|taken|sort|find|work|try|get|lock|keep|shut|go|went|come|be) out\s*$"
)
# "in", "off" and "there" are predicates only after a copula ("I'm in", "I'm off").
_WEAK_POS = {"in", "off", "there", "about", "do", "make", "manage", "home"}
_COPULA = r"(?:am|are|is|be|been|being|was|were|not|never|always|usually|normally|also|all|both)"
_NEGATOR = re.compile(
    r"\b(?:not|never|no|nobody|no one|noone|nothing|neither|nor|none|no longer|unable|stopped|"
    r"stop|quit|gave up|give up|given up|giving up|without|"
    r"changed(?=\s*$|\s+(?:now|recently|completely|though)\b))\b"
)
# "not only Mondays", "not just Fridays": neither a negation nor exclusive.
_NOT_ONLY = re.compile(r"\bnot (?:only|just)\b")
# "better than Mondays", "instead of Fridays": the day after is not what the clause says.
_COMPARED = re.compile(
    rf"\b(?:(?<!other )than|instead of|rather than|over)\s+(?:on\s+)?(?:an?\s+)?({_DAY})\b"
)
# "a few months ago", "a year ago": a time gone by.
_AGO = r"(?:a few |a couple of |some )?(?:weeks|months|years) ago|(?:a|one) (?:week|month|year) ago"
_PAST = re.compile(
    r"^before (?:i|we)\b|"  # "before I could do Tuesdays": then, not now
    r"^before (?:the|my|our) \w+(?: \w+)? (?:i|we)\b|"  # "before the move i could do mondays"
    rf"\b(?:at one (?:point|time)|last year|{_AGO}|a while back|until recently|"
    r"(?:up )?(?:until|till|to) last (?:week|month|year)|"
    r"used to|previously|once(?! a\b)|in the past|formerly|back then|"
    # "the old job had me out every Wednesday": what the caller did then.
    r"(?:the|my|our) (?:old|last|previous) (?:job|shift|shifts|rota|hours|work|boss)|"
    r"(?:i|we) (?:was|were)(?! (?:thinking|going|wondering|saying|told|just|meaning)))\b|"
    r"\bbefore(?:\s+(?:that|then|now))?\s*$"
)
_PRESENT = re.compile(
    r"\b(?:now|these days|nowadays|from now on|going forward|any more|any longer|since|as of|"
    r"again|at the moment|currently|in future|from here on)\b"
)
_EXCLUSIVE = re.compile(
    r"\b(?:only|just|exclusively|solely|no other days?|nothing else|one free day|no other time|"
    r"the one day|nothing but|or nothing|and that is it|the only (?:one|day|time))\b"
)
_EXCLUSIVE_ATOMS = re.compile(r"\b(?:no other days?|nothing else(?: works)?|no other time)\b")
# The words that except days from the rest ("any day except Monday", "weekdays bar Friday").
_EXCEPTING = (
    r"except(?: for)?|apart from|other than|barring|bar|besides|excluding|aside from|save for|but"
)
_EXCEPTION = re.compile(
    rf"\b(?:{_EXCEPTING})\s+(?:on\s+)?(?:an?\s+|the\s+)?"
    rf"({_DAY}(?:\s*(?:,|and|or|nor)?\s+(?:on\s+)?(?:an?\s+)?{_DAY})*)\b"
)
_EXCEPTION_WITH_PREDICATE = re.compile(
    rf"\bbut\s+(?:on\s+)?(?:an?\s+)?{_DAY}(?:\s+(?:and|or)\s+{_DAY})*\s+"
    # "I'm in most days, but Monday I'm at the lunch club": a subject and verb of its own.
    # "most days, but Wednesday won't work": the day's own verb, said or denied.
    rf"(?:are|is|will|would|should|do|does|can|never|(?:i|we) (?:am|are|have|will|do|can)\b)\b"
)
# "Anything but a Thursday is fine": the universal is the subject, "but" excepts from it,
# and the predicate after the day is said of the rest (not "any day's bad but Thursday's fine").
_UNIVERSAL_SUBJECT = (
    r"(?:any ?thing|any (?:other )?day|every (?:other )?day|all (?:the )?(?:other )?days|"
    r"any day of the week|whatever day|whichever day|any time|all week)"
)
_UNIVERSAL_BUT = re.compile(rf"(?:^|\b(?:and|so|well|honestly|oh)\s+){_UNIVERSAL_SUBJECT}\s+but\b")
_UNIVERSAL = re.compile(
    r"\b(?:any|every|all|most|anything|everything|weekdays|whichever|whatever)\b"
)
_WISH = re.compile(
    r"\b(?:would|might)\b|(?<!\bi )(?<!\bwe )\bcould\b|\bthis time\b|\bfor the visit\b"
)
_REQUEST = re.compile(
    r"\b(?:book|booking|booked|schedule|reschedule|put me (?:down|in)|send|sending|come|coming|"
    r"visit|appointment|slot|cancel|reserve|arrange|pencil|let us (?:do|go|say)|"
    r"let's (?:do|go|say)|how about|what about|i will take|i want|i would like|"
    r"for (?:the|this|that) (?:booking|visit|one|appointment|job)|for (?:that|it)|this one|"
    r"id like|done on|at \d{1,2}(?: \d\d)?|\d{1,2} ?(?:am|pm)|sounds (?:great|good|perfect|fine)|"
    r"if (?:that is|thats|it is) possible|if possible|if at all possible|"
    # "is there anything on monday", "is saturday possible": a slot asked for.
    r"is there (?:anything|something|any slots?|a slot|any space)|"
    r"is (?!(?:not|never|always|also|just|really|usually|definitely|only)\b)\w+ possible|"
    # "can i get someone out on thursday": a visit asked for, not the caller out.
    r"(?:get|send) (?:someone|somebody|an? engineer|a man|one of your \w+) (?:out|round))\b"
)
_GENERIC = re.compile(
    rf"\b(?:{_DAY[:-2]})s\b|\b(?:a|any|every|most)\s+(?:{_DAY[:-2]})\b|\b(?:ever|never|"
    rf"in future|from now on|going forward|any more|no more|under no circumstances|usually|"
    rf"always|generally|normally|in general)\b"
)
_SPECIFIC = re.compile(
    rf"\b(?:this|next|last|coming|tomorrow|today)\s+({_DAY})\b|"
    # "I rang you lot on a Wednesday last time", "we had the gas man out on a Friday": one
    # day something happened (not "I'd rather you didn't come on a Monday", nor the agent's
    # "Last time we came on a Tuesday. Is that still good?").
    rf"(?:(?<!\bwe )\b(?:came|went|rang|called|phoned)|\bhad (?:\w+ ){{1,3}}out)\b"
    rf"(?:\s+[a-z']+){{0,4}}?"
    rf"\s+on\s+an?\s+({_DAY[:-2]})\b(?!s)|"
    # "have a good Sunday": a wish for the day to come.
    rf"\b(?:have|enjoy) (?:a|the|your) (?:good|nice|lovely|great) ({_DAY[:-2]})\b|"
    # "the tuesday i mentioned before": the one day talked of.
    rf"\bthe\s+({_DAY[:-2]})\s+(?:i|we|you)\s+(?:mentioned|said|told you about|talked about)\b|"
    # "it's the Friday after that I'm away": one Friday, not every one.
    rf"\bthe\s+({_DAY[:-2]})\s+(?:after|before)\s+(?:that|next|this)\b|"
    rf"\b({_DAY})\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\b|"
    rf"\b({_DAY})\s+(?:morning|afternoon|evening|night|week)\b(?!s)|"
    # "next week Monday's no good", "Monday next week": one day, not every one.
    rf"(?<!from )(?<!of )\b(?:next|this) week\s+({_DAY[:-2]})\b|"
    rf"\b({_DAY[:-2]})\s+(?:next|this) week\b(?! or)|"
    rf"\b(?:since|until|till|by|(?<!apart )(?<!aside )from|after|last)\s+"
    rf"(?:last\s+|next\s+|the\s+)?"
    rf"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|"
    # "Went to the garden centre on Saturday": a day something happened, not a standing one.
    rf"\b(?:went|was|were|had|did|came|rang|called|bought|got back)\b(?:\s+[a-z']+){{0,5}}?\s+"
    rf"on\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?!s)"
)
_JOB = re.compile(
    # A note's "caller works Fridays" is the caller's job.
    rf"\b(?:i|we|he|she|they|caller|customer)\s+(?:\w+\s+){{0,2}}?(?P<verb>work|working|works)\s+(?:on\s+)?(?:a\s+)?"
    rf"(?:every\s+)?(?:{_DAY}|day|days|weekdays?|week|all week|the week)\b|"
    # "it's Mondays I work these days": the day before the caller's job, said as a cleft.
    rf"\b{_DAY}\s+(?:that\s+|when\s+)?(?:i|we)\s+(?:usually\s+|normally\s+|now\s+)?"
    rf"(?P<after>work|am working|are working)"
    # Not "saturdays and sundays i work mon to fri", "only fridays i work the rest": a new
    # clause, the job's own days after it.
    rf"(?=\s*$|\s*[,.;!?]|\s+(?:them|those days|that day|these days|now|then|too|as well|and|so|"
    rf"nights?|lates?|earlies|full[- ]time|all day|there)\b)|"
    # A note's "now works Fridays", the caller left out: the verb first, the day after.
    rf"^(?:now |also |still )?(?P<bare>works|working) (?:on )?(?:every )?{_DAY}\b"
)
_BARE_DAYS = re.compile(
    rf"(?:(?:yes|yeah|and|or|also|plus|too|on|a|the|just|i mean|mostly|usually|well|is|are|"
    rf"same for|same goes for|same with|ditto)\s+)*"
    rf"{_DAY}(?:\s+(?:and|or|too|also|as well|please|then|again|mostly|usually|generally|"
    rf"normally|mainly|now|these days|nowadays|actually))*"
    rf"(?:\s+{_DAY}(?:\s+(?:and|or|too|also|as well|please|then))*)*"
)
# A change of routine: a day said to work now replaces the days that worked before.
# A negator on the day itself: "no Fridays", "not Mondays", "never on a Tuesday".
_NEGATED_DAY = re.compile(
    rf"\b(?:no|not|never|nor|neither)\s+(?:on\s+)?(?:the\s+|any\s+|an?\s+)?{_DAY}\b|"
    rf"\b(?:stopped|quit|gave up|given up|no longer)\s+(?:\w+\s+)?(?:on\s+)?(?:an?\s+)?{_DAY}\b|"
    # "Thursday is no skin off my nose": a "no" before a noun the reader does not know is that
    # noun's, not the day's; the idioms it does know carry their own sign (`_NEG_ATOMS`).
    rf"\b{_DAY}\s+(?:are\s+|is\s+)?(?:not|never|no(?![\s-]+[a-z]))\b"
)
_MOVED_DAYS = re.compile(
    rf"\b(?:moved|switched|changed|swapped|gone|changing|moving|switching)\s+(?:\w+\s+){{0,2}}?"
    rf"from\s+(?:an?\s+)?({_DAY})\s+(?:over\s+)?to\s+(?:an?\s+)?({_DAY})\b"
)
_DAY_NEGATOR = re.compile(rf"\b(?:not|no|never)\s+(?:on\s+)?(?:an?\s+)?{_DAY}\b")
# A negator with the day or list of days it governs ("not Monday, Wednesday or Friday").
_DAY_NEGATOR_DAY = re.compile(
    rf"\b(?:not|no|never|nor|neither)\s+(?:on\s+)?(?:an?\s+)?{_DAY}"
    rf"(?:\s+(?:(?:and|or|nor)\s+)?(?:on\s+)?(?:an?\s+)?{_DAY})*\b"
)
_TURN_CORRECTION = re.compile(
    r"^(?:(?:oh|no|well|ah|hmm|erm|um|er)\s+)*(?:sorry|actually|wait|hang on|hold on|my mistake|"
    r"i tell a lie|i tell you a lie|whoops|oops|my bad|"
    r"i got that wrong|i meant|i mean|correction|scratch that|on second thoughts?|no no|"
    r"not quite|that is wrong|that is not right|i beg your pardon|pardon me)\b"
)
_SWITCH = re.compile(
    r"\b(?:swapped|swapped over|switched|changed|changed over|instead|from now on|going forward|"
    r"these days|nowadays|it is now|now it is|it will have to be|has to be|have to be)\b"
)
_PREFER = re.compile(r"\b(?:prefer|preferred|best|better|ideal|ideally|favou?rite)\b")
_SIMILE = re.compile(r"\blike an? (?:\w+ ){0,2}\w+")
_TIME_OF_DAY = re.compile(r"\b(?:mornings?|afternoons?|evenings?|lunchtime|early|late)\b")
# A time of day the caller favours for visits: "mornings are best", "I prefer afternoons",
# "Thursday afternoons only"; or one named alone to the agent's "Morning or afternoon?".
_PART_OF_DAY = r"(morning|afternoon|evening)s?"
# "tuesday is good for me just not before nine", "fine, not too early": the "not" limits the
# hour of the day, it does not turn the day round.
_HOUR_NEGATED = re.compile(
    r"\bnot\s+(?:too\s+|very\s+)?(?:(?:before|after|till|until|past|earlier than|later than)\s+"
    r"(?:\d+|noon|midday|lunch(?:time)?|dinner(?:time)?|tea(?:time)?)\b|early|late|first thing|"
    rf"(?:in the\s+)?{_PART_OF_DAY}\b)"
)
# "Thursday isn't best after all": a favourite taken back says nothing of whether it works.
_FAVOURITE_DENIED = re.compile(r"\bnot (?:the |my )?(?:best|preferred|favou?rite)\b")
_TIME_FAVOURED = re.compile(
    # Not "a phone call that morning is perfect": the one morning of the visit.
    rf"(?<!\bthat )(?<!\bthis )\b(?:in the )?{_PART_OF_DAY}(?: time)? "
    r"(?:are|is|would be|will be|be|suits?|works? best) "
    r"(?:the |much |a lot |far )?(?:best|better|ideal|preferable|perfect)\b|"
    rf"\bprefer(?:ably)? (?:the |a |an )?{_PART_OF_DAY}\b|"
    rf"\b(?:only|just) (?:in the )?{_PART_OF_DAY}\b|\b{_PART_OF_DAY} only\b|"
    # "Make it afternoons": the time put as the caller wants it (not "make it a morning",
    # the visit asked for).
    r"\bmake it (?:morning|afternoon|evening)s\b"
)
_TIME_NAMED = re.compile(
    r"^(?:(?:oh|er|um|erm|yes|yeah|yep|no|well|ideally|preferably|in|the|an?|any time in the|"
    rf"anytime in the|make it|make that|scratch that|actually)\s+)*{_PART_OF_DAY}"
    r"(?:\s+(?:please|then|ideally|preferably|if possible|if you can|thanks|thank you|is best|"
    r"actually|instead|"
    r"are best|would be best|would be good|is good|are good|for me|really))*$"
)
_PRONOUN_SUBJECT = re.compile(
    r"^(?:(?:and|but|so|though|then|no|oh)\s+)*(?:they|those|that|it|this)\b"
)
# Words a clause may consist of and still be only what is left of an earlier one.
_REMNANT_WORDS = frozenset(
    re.findall(
        r"\w+",
        "not never no any more longer now these days nowadays again though really actually "
        "sorry from on going forward at all they them those that it this are is do does did "
        "will would was were have has be been i we am definitely certainly anyway still either "
        "even just please mate for me us thanks changed can could",
    )
)


# -- values ----------------------------------------------------------------------------------

_NUMBERS = {
    "one": 1, "a single": 1, "single": 1, "the one": 1, "two": 2, "three": 3, "four": 4,
    "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_NUMBER = r"(\d{1,2}|a single|one|two|three|four|five|six|seven|eight|nine|ten)"
_PARTIAL_COUNT = re.compile(
    r"\b(?:each|every|per|apiece|upstairs|downstairs|in the (?:\w+ )?(?:kitchen|lounge|"
    r"bedroom|bathroom|hall|diner|living room|front room|back room|annexe|extension|office))\b"
)
_WHERE = re.compile(
    r"^(?:it is\s+|it's\s+)?((?:round|around|in|under|by|behind|on|outside|inside|next to|"
    r"beside|near|above|below)\b.*)$"
)
# A bare room or place answering "Where's the meter?" ("Kitchen, in the cupboard").
_BARE_PLACE = re.compile(
    r"^(?:the |in the |it is in the )?(?:kitchen|hall|hallway|garage|cellar|basement|porch|"
    r"utility(?: room)?|pantry|loft|shed|garden|outside|downstairs|upstairs)$"
)
# A place in or around a home, named in answer to where the meter is.
_PLACE_NOUN = re.compile(
    r"\b(?:stairs|cupboard|garage|porch|cellar|basement|hall|hallway|landing|wall|garden|shed|"
    r"box|outside|kitchen|utility|loft|bin store|cloakroom|larder|pantry|bathroom|lounge|"
    r"front door|back door|drive|driveway|fence|gate|steps|plant room|meter room|airing "
    r"cupboard|under the sink|side of the house|front of the house|back of the house)\b"
)
_WHERE_WORDS = re.compile(r"\b(?:outside|inside|round|around|under|behind|next to|in the|at the)\b")
# Where each one of a count is ("one per floor", "one in each bedroom", "one up, one down"):
# no more to add to it.
_UP_OR_DOWN = r"(?:up|upstairs|down|downstairs)"
# "one up one down", "one for upstairs, one for down": one half of where each one is.
_ONE_UP_OR_DOWN = rf"(?:one|1) (?:for |on )?(?:the )?{_UP_OR_DOWN}"
_ONE_UP_ONE_DOWN = rf"{_ONE_UP_OR_DOWN},? (?:and )?{_ONE_UP_OR_DOWN}\b"
_PER_PLACE = r"per (?:floor|room|bedroom|storey|level)\b"  # "one per floor"
_WHERE_EACH_ONE_IS = (
    rf"(?:(?:one|1) (?:{_PER_PLACE}|(?:in|on) (?:each|every) (?!of\b)\w+\b)|{_ONE_UP_ONE_DOWN})"
)
_BARE_COUNT = re.compile(r"^(?:(?:it is|that is|there are|there is|we have|just|only|now|"
                         r"so|which makes|making|that makes|"
                         # "We've only got six", "I've just got the five", "ours has seven".
                         r"(?:i|we) (?:have )?(?:just |only )?got|ours has|ours have|mine has)"
                         r"\s+)*(?:the\s+)?"
                         r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
                         r"(?:\s+(?:now|then|actually|of them|in total|altogether|all told|"
                         r"in all|left))*"
                         # "eleven with the one in the garage": the total, the one left out.
                         r"(?:\s+(?:with|including|counting) the (?:one|ones|other one)\b.*)?"
                         # "two one up one down", "three one per floor": where each one is.
                         rf"(?:,?\s+{_WHERE_EACH_ONE_IS})?"
                         r"$")  # fmt: skip
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}  # fmt: skip
_ORDINAL_WORDS = (
    r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"\d{1,2}(?:st|nd|rd|th)"
)
_ORDINAL = f"({_ORDINAL_WORDS})"
_BUILDING_PLACE = (
    r"(?:office|reception|concierge|lobby|plant room|bin store|porter'?s? lodge|car park|corridor|"
    r"entrance hall|foyer|laundry|post room|meter room|caretaker'?s? (?:office|room)|"
    r"communal (?:area|hall|cupboard))"
)
_FLOOR = re.compile(
    # Not "the ground floor is the car park": a floor of the building that is not a home.
    # Nor "they count the ground floor differently": how floors are numbered.
    r"(?<!\bcount the )(?<!\bcounts the )(?<!\bcall the )(?<!\bcalls the )"
    rf"\b(?:(lower ground|ground|basement|top|{_ORDINAL_WORDS}) floor(?!(?:'s| is| are) (?:the |a |"
    r"all |just )?(?:car park|garage|garages|shops?|parking|lobby|reception|offices?|bins?)\b)|"
    rf"floor (\d{{1,2}})|"
    rf"(basement|lower ground)(?= (?:flat|apartment))|"
    # Not "our space is in the basement car park": the parking's, not the home's.
    rf"(?:live|living|are|am|(?<!\bit )is) in the (basement)(?! (?:car park|garage|parking)))\b"
)
# "ask at the office on the ground floor", "the ground-floor plant room": the floor of a place
# in the building that is not the caller's home.
_A_BUILDINGS_FLOOR = re.compile(
    rf"\b{_BUILDING_PLACE}s? (?:is |are )?(?:on|at) the (?:[\w-]+ )?floor\b|"
    rf"\bfloor {_BUILDING_PLACE}"
)
_BARE_ORDINAL = re.compile(
    rf"^(?:(?:it is|we are|i am|on|up on|up|down on)\s+)*(?:the\s+)?{_ORDINAL}"
    rf"(?:\s+(?:one|now|actually))*$"
)
_FLAT = re.compile(
    # Not "opposite flat 3", "the one next to flat 9": a neighbour's door, placing something.
    r"(?<!\bopposite )(?<!\bnext to )(?<!\bbeside )(?<!\babove )(?<!\bbelow )(?<!\bfacing )"
    r"(?<!\bacross from )"
    r"\b(flat|apartment|apt|unit|suite)(?:\s+is|\s+number|\s+no\.?)*\s+(\d{1,4}[a-z]?|[a-z]\d{1,3})\b"
)
_BARE_FLAT = re.compile(r"^(?:(?:it is|number|flat|we are|i am|in)\s+)*(\d{1,4}[a-z]?)$")
_FLAT_NUMBER = re.compile(r"\bnumber (\d{1,4}[a-z]?)\b")
# The word for a street's kind, and its abbreviations.
_STREET_KIND = (
    r"(?:road|rd|street|st|lane|lanes|ln|avenue|ave|close|drive|dr|way|court|ct|place|pl|"
    r"crescent|terrace|grove|gardens|boulevard|blvd|walk|row|mews|hill|view|rise|parade|square|"
    r"vale|wharf|quay|green|park|cottages|mansions|buildings|heights)"
)
# Its last kind word: "Park View Close", "Green Lane", not "Park" or "Green".
_STREET = rf"(\d{{1,5}}[a-z]?\s+(?:[a-z'-]+\s+){{0,4}}?{_STREET_KIND})\b(?!\s+{_STREET_KIND}\b)"
# After a street: a town ("1460 maple drive springfield"), where it is ("above the chippy"), or
# the next clause ("and the doorbell doesn't work"); a word that could start something else
# ("next door", "my mum's") is none of them.
_STREET_WORDS = (
    r"road|rd|street|st|lane|lanes|avenue|close|drive|way|court|place|crescent|terrace|grove|"
    r"gardens|walk|row|mews|hill|green|park|view|rise|parade|square|vale|cottages|mansions|"
    r"buildings|heights"
)
_AFTER_STREET = (
    r"(?:\s+(?!(?:now|next|door|where|which|who|that|is|was|are|were|my|his|her|their|our|the|"
    r"a|an|not|please|thanks|mate|love|i|we|you|he|she|they|it|and|but|so|or|above|below|"
    rf"behind|near|opposite|by|off|round|sorry|actually|wait|rather|mean|no|yes|well|oh|"
    rf"{_STREET_WORDS})\b)[a-z]+){{0,2}}"
    r"(?:\s+(?:now|these days))?"
    r"(?:\s+(?:(?:above|below|behind|near|opposite|next to|by|off|round|at the end of)\s+"
    # "... the one with the red door": which house on the street.
    r"(?:the|a|an)\b|and|but|so|the one (?:with|next to|opposite|by|on|at)|"
    # "7 mill lane in hebden bridge", "9 wharf street that's the address".
    r"in (?!the\b)|that is (?:the|my|our) (?:address|house|place))\b.*)?"
)
# "It's 9 Mill Lane": a whole clause that is a street address.
_BARE_ADDRESS = re.compile(
    rf"^(?:(?:it is|that is|the address is|address|the new address is|new address is|number|no|"
    rf"er|um|its|we are at|i am at|we are now at|it is number|(?:the|our|my) (?:house|home) is|"
    rf"home is|we live at|i live at|a)\s+)*{_STREET}{_AFTER_STREET}$"
)
_HOUSE_NUMBER = re.compile(r"^(?:(?:it is|number|no)\s+)*(\d{1,5}[a-z]?)$")
# A clause that ends on the house number, its street in the next ("we live at number 8, Elm
# Road", "the house is number 3, Park Row").
_ENDS_ON_HOUSE_NUMBER = re.compile(r"\b(?:at|number|no|is)\s+\d{1,5}[a-z]?$")
_ADDRESS = re.compile(
    r"\b(?:my (?:new )?address is|our (?:new )?address is|address is|i live at|i am at|we are at|"
    r"were at|"
    r"(?:i|we)(?: have)? moved to|(?:i|we) are now at|we are now at|new address is|now at|"
    r"(?:i|we) relocated to|(?:i|we) live at)\s+(?:number\s+)?"
    rf"{_STREET}"
)
_CONTACT = [
    # "I'd rather you texted": a wish, said in the past tense.
    (re.compile(r"\b(?:text(?:ing|s)?(?! of)|sms|message me|whatsapp|rather you texted)\b"),
     "text message"),
    (re.compile(r"\b(?:email(?:ing|s)?|e mail|rather you emailed)\b"), "email"),
    # A call in the past ("nobody called me back", "they've called us into the office") is an
    # event, not a wish; "I'd rather you rang my mobile" is a wish.
    (re.compile(r"\b(?:(?:call|ring|bell|telephone|you called|you rang|you phoned) (?:me|us|my|on)|"
                r"rather you (?:rang|called|phoned|gave me a ring)|"
                r"calling|calls|"
                r"(?:call|ring|you called|you rang|you phoned) the (?:landline|mobile|house phone|"
                r"home phone)|"
                # "reach me on the landline", "get me on my mobile".
                r"(?:reach|get|catch|contact|try) (?:me|us) on|"
                # Not the handset ("i'm getting a new phone", "my phone's broken").
                r"(?<!\bnew )(?<!\bmy )(?<!\bold )(?<!\bbroken )phone(?: me| call| calls|s)?|"
                r"ringing|by phone|on the phone|"
                r"give (?:me|us) a (?:call|ring|bell)|"
                # "a call's better", "the phone is best".
                r"(?:a|the) (?:phone )?(?:call|ring) is (?:better|best|easier|preferred))\b"),
     "phone call"),
]  # fmt: skip
# Which phone, when the caller names one for calls ("ring me on the landline not the mobile").
_PHONE = re.compile(
    # Speech-to-text drops the apostrophe: "the landlines the best one".
    r"\b(landline|home phone|house phone|home number|the house|mobile|cell|mobile phone)s?\b"
)
_CALL_VERB = re.compile(
    r"\b(?:call|calls|called|calling|ring|rang|ringing|phone me|phone the|phoned|reach me|get me|"
    r"try|bell)\b"
)
_DENIED_CHANNEL = re.compile(
    r"\b(?:not|no longer|rather than|instead of)\s+(?:on\s+|by\s+|to\s+)?(?:the\s+|my\s+|a\s+)?"
    r"(?:landline|home phone|house phone|mobile|cell|email|text|texts|phone)\b"
)
_PHONE_PREFERRED = re.compile(
    # Speech-to-text drops the apostrophe: "mobiles best", "landlines better".
    r"\b(landline|home phone|house phone|mobile|mobile phone)(?:'s|s| is| number is)?\s+"
    r"(?:is\s+)?(?:the\s+)?(?:best|better|easiest|easier|preferred|best bet|way to go|"
    r"best way|please|way to (?:reach|get|contact) (?:me|us)|one to (?:use|ring|call)|"
    # "Landline only, I don't own a mobile": the one phone to use.
    r"only(?=\s*$|\s+(?:please|thanks|no|not|i|we)\b))"
)
_ONE_OFF_CONTACT = re.compile(
    r"\b(?:the|that|this|your|my) (?:email|e mail|text|message|letter) (?:i|we|you|from|about|"
    r"with)\b|"
    # "the code is on the text": a message sent, not how to reach the caller.
    r"\b(?:is|was|are|were) (?:on|in) (?:the|that|your|my) (?:email|e mail|text|message|letter)\b|"
    r"\b(?:i|we) (?:will|can|shall|am going to|could) (?:text|email|e mail|call|ring|phone|"
    r"message|send)\b|"
    r"\b(?:text|email|call|ring|phone|message)(?: me| us)?(?: \w+){0,2} "
    r"(?:when|once|before|after|if) (?:you|the engineer|he|she|they)\b|"
    # "call me from the gate", "knock, or ring my mobile": how to reach the caller on the day,
    # not how they want to be contacted.
    r"\b(?:text|call|ring|phone|buzz|message)(?: me| us)?(?: \w+){0,3} (?:from|at) the "
    r"(?:gate|gates|door|front|entrance|car park|bottom|intercom|barrier|lobby)\b|"
    r"\b(?:knock|doorbell|door bell|the bell)\b.*\bor (?:\w+ )?(?:text|call|ring|phone)\b|"
    # "code to follow by text", "I'll send the photos over by email": one thing sent.
    r"\b(?:code|codes|details|photos?|pictures?|link|reference)\b(?: \w+){0,3} "
    r"(?:by|via|over|on) (?:text|email|e mail|message|whatsapp)\b|"
    # "I got a text on Friday saying...", "reading it off an email": a message that came.
    r"\b(?:got|had|received) (?:a|an|the|your) (?:text|email|e mail|message|"
    r"letter)\b|"
    r"\b(?:off|from|in) (?:a|an|the|that|your|my) (?:text|email|e mail|message|letter)\b"
)
# "ring me on the mobile and we'll sort it", "... and I'll buzz you in": the clause after a
# channel that makes it one call to arrange something.
_SORTED_THEN = re.compile(
    r"^(?:and )?(?:i|we) will (?:buzz|let you|come down|come out|sort it|sort something|sort (?:it|"
    r"things|a time) out)\b"
)
# The caller's words about this call itself ("I'm ringing about my boiler", "calling on behalf
# of my mum"): the phone is how they reached us now, not how they want to be reached.
_THIS_CALL = re.compile(
    r"\b(?:(?:i am|we are|i was|just|only|am) (?:ringing|calling|phoning)|"
    r"(?:ringing|calling|phoning) (?:to|about|for|on behalf|because|regarding|re|up|back about)|"
    r"why i am (?:ringing|calling|phoning)|thanks for (?:calling|ringing)|"
    # A call the caller made before ("I did ring on Sunday", "I told the lady on the phone
    # last week"): contact that happened, not how to reach them.
    r"(?:i|we) (?:did |already |have |had )?(?:ring|rang|called|phoned|texted|emailed)"
    r"(?! (?:me|us)\b)(?= (?:on|last|yesterday|earlier|before|and|this|about)\b)|"
    # "I always drop the one on the phone": how the caller says things on calls.
    r"(?:said|say|told|spoke|talked|drop|dropped|mishear|misheard|mix up|mixed up)\b"
    r"(?: \w+){0,5} on the phone)\b"
)
_CONTACT_CONTEXT = re.compile(
    # "I'd like a phone call", "I like texts": what the caller likes.
    r"\b(?:me|better|best|easier|prefer|(?:i|we) (?:would )?like|please|instead|rather|by|is|works|"
    r"reach|contact|way|"
    r"mobile|landline|us|"
    r"good|fine|send|a text|an email|on the phone|"
    # "we've switched to email": the channel the caller has changed to.
    r"(?:switched|gone back|gone over|changed|swapped)(?: over| back| across)? to|"
    # "Email, never text": a channel named against one denied.
    r"(?:never|not|no) (?:by )?(?:texts?|emails?|calls?|ring|phone))\b"
)
# A value said to be gone, replaced, past or denied: the mention is not the current value.
_OLD_BEFORE = re.compile(
    # "an old back boiler" is an aged one; "the old boiler", "our old one" a former one.
    r"\b(?:not|no longer|never|(?<!\ban )(?<!\bof them )(?<!\bof those )old|had|"
    r"used to (?:have|be|live)|got rid of|took out|take out|"
    r"taken out|removed|replaced|swapped|swap|sold|instead of|rather than|from(?! now on\b)|"
    r"previously|"
    r"was|were|moved out of|left)\b(?:\s+[\w-]+){0,3}\s*$"
)
_NEW_BEFORE = re.compile(
    # Not "we used to have the baxi": what the caller had.
    r"\b(?:with|by|for|to|into|now|put in|got|(?<!\bused to )have|has|is|are|new|installed|fitted|"
    # "from now on email me": what the caller wants from here on, not what was.
    r"from now on|going forward|these days|nowadays)\s+"
    r"(?:(?:a|an|the|our|my|new|just|only)\s+)*$"
)
_OLD_AFTER = re.compile(
    # "the baxi boiler was replaced": the thing may be named after the make.
    r"^\s*(?:(?!(?:and|but|or|so|then)\b)[a-z]+\s+)?(?:is gone|has gone|gone|is no more|"
    # "the back boiler came out years ago": taken away.
    r"came out|(?:was |were |got )?ripped out|"
    r"went (?:years|ages|months|a while|a long time|a few years) ago|"
    # "texts used to suit me": the value as the subject of what used to be.
    r"used to|"
    r"(?:was|were|got|has been|have been) (?:replaced|removed|taken out|swapped)|was our old|"
    r"was the old|(?:is|was) old|before|(?:does|do|is|are|was) not (?:count|matter|apply)|"
    # "the baxi packed up", "the Baxi's the old one", "the Potterton was the one before".
    r"packed up|packed in|died|(?:was |got |has been )?(?:condemned|scrapped)|"
    r"(?:is|was) the (?:old|previous|last) one|was the one before|"
    r"(?:was|were) (?:at |in |from )?(?:the|our|my) (?:last|old|previous|other) "
    r"(?:house|place|flat|home|address))\b"
)
# "we're having it replaced with a combi in january", "getting a worcester fitted next month":
# a value to come, not the one the home has (a wish, "thinking of getting", is _WANTS_FITTED's).
_TO_COME_BEFORE = re.compile(
    r"\b(?:(?:having|getting) (?:it|that|them|the \w+) (?:replaced|swapped|changed) "
    r"(?:with|for|to)|(?:am|are|is) (?:getting|having)|"
    r"(?:going to|will|gonna) (?:get|have|put in|fit|go for|go with|be getting|be having))"
    r"(?:\s+(?:a|an|the|one|it|new|brand new))*\s*$"
)
_HAVE_HAD = re.compile(r"\b(?:have|we've|i've)\s+had\s*$")
_ACCESS = re.compile(
    r"\b(door code|gate code|key ?safe|lock ?box|alarm code|access code|the key is|key under|"
    r"side gate|back gate|ring the bell|buzzer|intercom|spare key|side door|back door|knock|"
    r"doorbell|entrance|access is|cattle grid|steep|path up|door sticks|"
    # The way in, and what is in the way: a ladder to the loft, a desk to sign in at, a track
    # to find, a padlock, a door that does not open, a lift that does not work.
    # A ladder the engineer will need or find, not one he need not bring.
    r"need (?:a |the |your own )?ladder|(?:pull-?down|loft) ladder|ladder (?:is|that is|in)|"
    r"loft hatch|concierge|front desk|sign in|"
    r"(?:farm|long|dirt|gravel|private|bumpy|narrow|unmade) track|down (?:a|the) track|"
    r"padlock(?:ed)?|(?:come|go|walk|head|pop) round the (?:back|side)|"
    r"(?:use|try) the (?:back|side|kitchen) door|"
    r"front door (?:is |will not |does not |has )?(?:stuck|jammed|broken|boarded|sticks|open)|"
    r"keys? (?:is |are )?(?:under|with|behind) the|spare keys|"
    r"lift (?:is )?(?:broken|out of order|not working)|stair gate|"
    r"(?:come|go|way in is|in is) through the|"
    # Steps, a ramp, a gate that sticks, a satnav that sends the engineer wrong.
    r"(?:lots|loads|flights?|a lot) of (?:steps|stairs)|\d+ steps|steps? (?:up|down) to|ramp|"
    r"gate (?:sticks|is stiff|is stuck|needs a (?:shove|push|lift))|sat ?nav)\b"
)
_PARKING = re.compile(
    r"\b(?:park|parking|parked|driveway|(?:the|our|my|on the|in the) drive|car park|"
    r"visitor (?:bay|space|parking|permit)|double yellows?|pay and display|parking permit|"
    # Speech-to-text's "parkings" ("parkings on the road"), and where else a van may stop: a
    # lay-by, a bay, the gravel, a forecourt, the verge.
    r"permits?|parkings|lay-?by|loading bay|(?:residents?'?|visitors?'?|meter|permit) bays?|"
    r"gravel|forecourt|verge|carport|multi-storey|hardstanding|metered|"
    r"(?:pull|pop|leave|stop|put) (?:the |your )?(?:van|car)|pull (?:in|into|onto|up)|"
    # The road as the place to park, not where the house is ("on the high street").
    r"use the (?:road|street|next street)|on the (?:road|street) (?:outside|out front)|"
    r"(?:space|room) (?:on|in) the (?:road|street))\b"
)
_NOT_PARKING = re.compile(
    r"\bpark (?:road|rd|lane|avenue|street|way|close|drive|crescent|view|place)\b|"
    r"\b(?:business|retail|industrial|trading|science|the) park\b"
)


def speaks_of_parking(text: str) -> bool:
    """Whether `text` speaks of parking ("park on the drive"), not of a street or a park
    named for it ("Park Road", "the business park")."""
    return bool(_PARKING.search(_NOT_PARKING.sub(" ", text)))


_ANIMALS = (
    r"dogs?|pupp(?:y|ies)|cats?|kittens?|parrots?|budgies?|birds?|rabbits?|bunn(?:y|ies)|"
    r"hamsters?|guinea pigs?|tortoises?|snakes?|lizards?|chickens?|hens?|ferrets?|"
    r"labradors?|spaniels?|terriers?|german shepherds?|shepherds?|collies?|poodles?|"
    r"retrievers?|cockapoos?|cavapoos?|greyhounds?|whippets?|huskies|husky|pugs?|bulldogs?|"
    r"staffies|staffy|staffie|dachshunds?|jack russells?|great danes?|"
    # A tank of fish is a pet too ("just the fish tank"), not a plate of them.
    r"(?:gold)?fish(?! and chips| fingers?| cakes?| pie)|pets?|animals?"
)
# Words that answer a question without saying anything of their own.
_ASSENT_WORDS = frozenset(
    re.findall(
        r"\w+",
        "yes yeah yep yup no nope nah ok okay sure fine problem of course absolutely that is "
        "it all right alright definitely certainly not really thanks please oh well correct",
    )
)
_NOT_AN_ANIMAL = re.compile(
    r"\b[a-z] for \w+\b|(?:^|\s)pet\s*$|\b(?:love|pet|petal|hun|mate)$|"
    # "I'm never in, hen, ...": a Scots endearment said alone; idioms name no animal either.
    r"^(?:hen|duck|chick)$|\bhen(?:'s| s)? teeth\b|\bhen (?:do|night|party)\b|"
    r"\b(?:cats and dogs|dog tired|dog'?s (?:dinner|breakfast)|cat'?s whiskers|bee'?s knees)\b"
)
_PAST_PET = re.compile(r"\b(?:used to have|died|passed away|put down|rehomed|we lost)\b")
_PETS = re.compile(rf"(?<!\bas a )\b(?:{_ANIMALS})\b")  # not "free as a bird"
_NO_PETS = re.compile(
    r"\b(?:no|not (?:have|got) any|not any|nor any|without) (?:pets|animals)\b|"
    r"\bpet free\b"
)
_PERSON = (
    r"(?:my|our|the|caller's|his|her|their)\s+(?:[a-z]+\s+)?(husband|wife|partner|son|daughter|"
    r"mum|mom|mother|dad|father|brother|sister|grandson|granddaughter|grandma|granny|gran|"
    r"grandad|grandpa|grandfather|grandmother|lodger|tenant|carer|nanny|cleaner|neighbou?r|"
    r"caretaker|landlord|landlady|housemate|flatmate|au pair|friend|boyfriend|girlfriend|"
    r"uncle|aunt|niece|nephew|concierge|porter|housekeeper|childminder|mother-in-law|"
    r"father-in-law|son-in-law|daughter-in-law|builder|other half|better half|site manager|"
    r"building manager|handyman|warden)\b"
)
# "no good for her", "out for your mum": days said of somebody else, whoever the subject is.
# Said after how a day is ("good", "out") or first in an answer ("for him, yes"); not after
# a thing ("appointments for my husband, so I can't do those": the caller's days), nor "for
# them" (a note's "never work for them" is the caller).
_FOR_SOMEBODY_ELSE = re.compile(
    r"(?:^|\b(?:good|fine|ok|okay|out|bad|best|better|worse|free|busy|easier|harder|"
    r"difficult|tricky|awkward|impossible|hopeless|rubbish|terrible|perfect|ideal|works?|"
    r"suits?|no go|no-go|great|grand|lovely|handy|convenient|brilliant|easy|hard)\s+)"
    # A person as _PERSON names them, or "your" one, as the agent reads it back.
    rf"for (?:him|her|{_PERSON.replace('(?:my|', '(?:my|your|', 1)})"
    # Not "for him to come" (the engineer), nor "for my husband and me".
    r"(?!\s+(?:to|and (?:me|us))\b)"
)
_PRESENCE = re.compile(
    rf"\b{_PERSON}(?:\s+(?!in\b)[a-z0-9]+){{0,3}}?\s+(?:"
    # Where they will be needs a verb: "my husband will be in", not "my friend in Leeds".
    rf"(?:(?:is|are|will|would|should|can|usually|normally|always|generally|often|be|has|both|"
    rf"also|going to)\s+)+"
    rf"(?:be\s+)?(?:in(?=\s*$|\s+(?:on|all|most|every|during|when|from|after|before|until|"
    rf"till|at|today|tomorrow|the (?:morning|afternoon|evening|day)|mornings?|afternoons?|"
    # A run-on's next subject: "my lodger will be in hes called tom".
    rf"evenings?|{_DAY}|to let|and|so|anyway|but|if|he|she|hes|shes|they|i|im|instead)\b)|"
    rf"home|at home|there|around|about|"
    rf"in the house|with (?:me|us))|"
    rf"(?:(?:is|are|will|would|should|can|usually|normally|always|generally|often|be|has)\s+)*"
    rf"(?:(?:let|letting) (?:you|the engineer|them|him|her|people) in(?:to)?|answer the door|"
    rf"open up|"
    rf"open the door|get the door|"
    rf"meet (?:you|your engineer|the engineer|him|her|them)|"
    rf"a key|has a key|works from home|working from home|stays? (?:in|home)|to let|will let))\b"
)
# "it'll be my dad at the house", "grandad will be in": who will be there, said another way.
_WHO_WILL_BE = re.compile(
    r"\bit will be (?:my|our|the) (?:\w+ )?(?:husband|wife|partner|son|daughter|mum|dad|mother|"
    r"father|brother|sister|nan|gran|grandad|grandma|lodger|tenant|carer|neighbou?r|landlord|"
    r"landlady|friend)\b|"
    r"^(?:my |our |me )?(?:grandad|grandpa|grandma|granny|nan|gran|mum|dad|"
    r"(?:sister|brother|mother|father|son|daughter) in law) (?:will|is|would|can) "
    r"(?:be )?(?:in|home|there|around|about|here)\b|"
    # An agent's note leaves out "my" and "the": "Wife will let engineer in", "Son will be
    # home". Said of the visit ("will"), not where they live ("my son's in flat 22").
    r"^(?:my |our |me )?(?:husband|wife|partner|son|daughter|lodger|carer|grandson|"
    r"granddaughter) (?:will|would|can) (?:be (?:in|home|there|around|about|here)"
    r"(?! (?:flat|number|unit|apartment)\b)|let (?:the )?(?:engineer|you|them) in)\b"
)
_SOMEONE_HOME = re.compile(
    r"\b(?:someone|somebody|one of us|always someone)\s+(?:is\s+|will be\s+)?(?:always\s+)?"
    r"(?:in|home|around|there|about)\b|"
    # "I'll be in myself": the caller is the one at home.
    r"\b(?:i|we) will be (?:in|home|there|around|here) (?:myself|ourselves)\b|"
    r"\b(?:i|we) will (?:both|all) be (?:in|home|there|around|here)\b|"
    # "I'll be the one letting you in", "I'll let the engineer in".
    r"\b(?:i|we) will (?:be the one (?:letting|to let|who lets)|let|be letting) "
    r"(?:you|the engineer|them|him|her) in\b"
)
_PERSON_RE = re.compile(rf"\b{_PERSON}|\b(?:my|our|me)\s+(husband|wife|partner|son|daughter|mum|"
                        rf"dad|brother|sister|lodger|tenant|carer|neighbou?r)\b")  # fmt: skip


# Somebody else is what a clause is about ("my neighbour can't do Mondays", "my mum's only free
# on Wednesdays", "she's on the fifth floor"): never the caller's fact, unless the caller is
# in it too ("my wife and I can't do Mondays").
_OTHER_SUBJECT = re.compile(
    r"^(?:(?:and|but|so|well|oh|also|plus|then|because|cos|yeah|yes|no|for|with|at)\s+)*"
    r"(?:(?:mrs|mr|ms|miss|dr) \w+(?:'s)?|next door(?:'s)?|"
    # "Tom next door", "Jean at number 4": somebody named by where they live.
    r"(?!(?:i|we|me|us|it|there|that|this)\b|\d)\w+ (?:from |at )?(?:next door|upstairs|downstairs|"
    r"across the road|over the road|at number \d+\w?)(?:'s)?|"
    # "the old boy next door", "the young lad upstairs": somebody named by where they live.
    r"the (?:\w+ )?(?:boy|girl|lad|lass|fella|chap|gent|gentleman|dear|bloke|guy|couple|lady|"
    r"man|woman)s? (?:next door|upstairs|downstairs|across the road|over the road)(?:'s)?|"
    r"the (?:lady|man|woman|bloke|guy|people|family|couple|folks?|"
    r"neighbou?rs?|tenants?|owners?|previous owners?|last owners?)(?:'s)?"
    r"(?: (?:upstairs|downstairs|next door|below|above|opposite|across the road))?|"
    r"the (?:flat|house|place|people|one) (?:above|below|upstairs|downstairs|next door|"
    r"opposite|across the road)(?: me| us| ours)?|"
    # The determiner may be left out, as in an agent's note ("Husband unavailable Tuesdays").
    r"(?:(?:my|our|the|his|her|their|a|caller's)\s+(?:[a-z]+\s+){0,2}|me\s+)?"
    r"(?:husband|wife|partner|son|daughter|"
    r"mum|mom|mother|dad|father|brother|sister|grandson|granddaughter|grandma|granny|gran|nan|"
    r"nana|grandad|grandpa|grandfather|grandmother|lodger|tenant|carer|neighbou?r|landlord|"
    r"landlady|housemate|flatmate|friend|boyfriend|girlfriend|uncle|aunt|auntie|niece|nephew|"
    r"colleague|boss|cousin|kids?|children|child|in-laws?|mother-in-law|father-in-law|family|"
    r"mate|pal|"
    # Those who work at the home: "the cleaner's in on Tuesdays" is her day, not the caller's.
    r"cleaner|caretaker|concierge|porter|housekeeper|childminder|nanny|au pair|"
    r"parents|folks)s?(?:'s)?|he|she|his|her|hers|theirs)\b"
)
# Somebody else's something, anywhere in a clause ("... my sister's got a Baxi").
_SOMEONE_ELSES = re.compile(
    r"\b(?:(?:my|our|his|her|their|me)\s+(?:[a-z-]+\s+)?(?:husband|wife|partner|son|daughter|mum|"
    r"mom|mother|dad|father|brother|sister|gran|nan|grandma|grandad|neighbou?rs?|friend|mate|"
    r"landlord|landlady|auntie|aunt|uncle|cousin|in-laws?|mother-in-law|father-in-law|"
    r"son-in-law|daughter-in-law|(?:brother|sister|mother|father|son|daughter) in law|"
    r"colleague|boss)|next door|the (?:flat|house|people) "
    r"(?:above|below|upstairs|downstairs|next door))"
    r"(?:'s| is| has| have| had| got| (?:he|she)(?:s| is| has| had| got)?)\b"
)
_OWN_SUBJECT = re.compile(
    r"^(?:(?:and|but|so|well|oh|yes|yeah|no)\s+)*"
    r"(?:i|we|me|us|my|our|ours|mine|it|there|that|this)\b"
    # "My wife prefers email, but for me it's a call", "... a phone call is best for me": the
    # caller again.
    r"|.*\bfor (?:me|us)\b"
)
_FIRST_PERSON = re.compile(r"\b(?:i|we|me|us|myself|ourselves|ours|mine)\b")
# What another person's words may still tell us about the caller's own visit.
ABOUT_THE_VISIT: frozenset[str] = frozenset({"who_home", "access_notes"})
# The kinds that say something of a weekday.
DAY_KINDS: frozenset[str] = frozenset({"availability", "preferred_day"})
# Somebody else named by a pronoun.
_PERSON_PRONOUN = re.compile(r"\b(?:he|she|him|his|her|hers)\b")


# What a tradesman said of himself: "the engineer last time said Tuesdays were his day off".
_REPORTED = re.compile(
    r"^(?:the|a|our|my|your)\s+(?:[a-z]+\s+)?(?:engineer|plumber|fitter|electrician|technician|installer|"
    r"chap|lad|bloke|man|woman|lady|"
    # "my daughter says it's a combi": somebody at home's word against the caller's own.
    r"wife|husband|partner|other half|son|daughter|mum|dad|mother|father|brother|sister|"
    r"landlord|landlady|neighbou?r)\b(?:\s+\w+){0,4}?\s+(?:said|says|told|reckons|mentioned|thinks)\b|"
    # "Mrs Patel at number 12 asked me to mention she's got a cat": her words, her cat.
    r"^(?:\w+\s+){1,6}?asked (?:me|us) to (?:mention|say|tell you|pass on|let you know)\b"
)


# A correction said a few words into a turn ("oh no wait sorry", "let me recount").
_CORRECTION_WORDS = (
    r"(?:sorry|actually|wait|hang on|hold on|my mistake|i got that wrong|i meant|i mean|"
    r"correction|scratch that|scrap that|on second thoughts?|not quite|that is wrong|"
    r"that is not right|that is not it|let me recount|recount|recounted|thinking about it|"
    r"or rather|come to think of it|i beg your pardon|pardon me|or should i say)"
)
_EARLY_CORRECTION = re.compile(
    rf"^(?:(?:oh|no|nope|wait|um|umm|er|erm|ah|well|sorry|actually|just|ok|okay|right|"
    rf"yes|yeah|hmm|so)\s+){{0,5}}(?:\w+\s+)?{_CORRECTION_WORDS}\b"
)
# A value said on its own ("twenty one", "the third", "5b", "Tuesdays"): what it replaces is
# known only from what came before it.
_VALUE_WORD = re.compile(rf"\b(?:\d{{1,4}}[a-z]?|{_ORDINAL_WORDS}|ground|top|basement|{_DAY})\b")
# "actually I can", "well it does": a correction that only flips what was just said.
_ELLIPSIS = re.compile(
    r"^(?:well |oh |no )*(?:i|we|it|they|that|he|she) (?:can|could|do|does|did|am|is|are|will|"
    # "no monday and no tuesday, sorry, i'm working": an apology and its reason, no flip.
    r"would|was|were)(?: not)?(?: (?!working\b|busy\b|away\b|out\b)\w+)?$"
)
_ADDING = re.compile(r"\b(?:too|also|as well|another thing|one more thing)\b")
# Markers that make a second, different value in the same turn a change, not a contradiction.
_CHANGE = re.compile(
    rf"\b{_CORRECTION_WORDS}\b|"
    r"^(?:oh\s+|well\s+)?no\b|"
    r"\b(?:instead|now|any more|no longer|swapped|switched|changed|from now on|"
    r"used to|these days|nowadays|going forward|before|new|old|"
    # "Six radiators. Oh, and two more upstairs, so eight altogether": the total said now.
    r"altogether|in total|all told)\b"
)
# Words that show a turn is about a kind of fact, whether or not the reader can type it.
_KIND_WORDS: dict[str, re.Pattern[str]] = {
    "availability": _DAY_RE,
    "preferred_day": _DAY_RE,
    "equipment_count": re.compile(
        r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|count|"
        r"counted|recount)\b"
    ),
    "equipment_make": re.compile(r"\b(?:make|brand|model|sticker|label|badge|it is an?)\b"),
    "floor": re.compile(r"\b(?:floor|ground|basement|upstairs|downstairs|storey|level)\b"),
    "flat": re.compile(r"\b(?:flat|apartment|unit|number|\d+[a-z]?)\b"),
    "address": re.compile(r"\b(?:\d+|number|road|street|lane|avenue|close|drive|way)\b"),
    "contact_preference": re.compile(
        r"\b(?:call|ring|phone|text|texts|email|e mail|mobile|landline|number|message)\b"
    ),
    "preferred_time": re.compile(rf"\b{_PART_OF_DAY}\b"),
}
