"""What the sentence around a path says of it, read from a window of text.

"for example `x/y.md`", "creates `results/`", "`old/x` (renamed)", "no `dist/`
yet", a line above ending "Build creates symlinks:": the path is an illustration, a
thing a run makes, or what used to be, not a claim that it exists here. Each read
is bounded by CLAIM_WINDOW characters around the span: on a one-line document of
75 KB, reading the whole line for each span made GL501 quadratic.
"""

from __future__ import annotations

import re

from guidelint.lazy_re import LazyPattern

# Each span reads up to CLAIM_WINDOW characters on each side with a dozen patterns,
# and on a long sentence that reading is most of GL501's cost (#28). Two exact
# shortcuts make most of it a quick scan: a pattern whose every match holds one of a
# few words is not run on ASCII text holding none of them (`Worded`), and a pattern
# anchored at the end and spanning a few words runs on those last words only (`AtEnd`).
ASCII_SPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"  # what `\s` and str.isspace() match


class Worded:
    """A case-insensitive pattern every match of which holds one of `words`."""

    def __init__(self, pattern: LazyPattern, *words: str) -> None:
        self.pattern = pattern
        self.words = words

    def search(self, text: str) -> re.Match[str] | None:
        if text.isascii():  # (ASCII case folding is lower(); `ſ` matches `s` in re)
            lowered = text.lower()
            if not any(word in lowered for word in self.words):
                return None
        return self.pattern.search(text)


class AtEnd:
    """A pattern anchored at the end (`$`) whose matches span at most `words` words."""

    def __init__(self, pattern: LazyPattern, words: int) -> None:
        self.pattern = pattern
        self.words = words

    def search(self, text: str) -> re.Match[str] | None:
        return self.pattern.search(last_words(text, self.words))


def last_words(text: str, count: int) -> str:
    """`text` from the start of its last `count` words (runs of non-space characters),
    with the white space after them; other than ASCII text, all of it."""
    if not text.isascii():
        return text
    at = len(text)
    for _ in range(count):
        at = len(text[:at].rstrip())
        at = max(text.rfind(space, 0, at) for space in ASCII_SPACE) + 1
        if at == 0:
            break
    return text[at:]


# Said of a path on its own line: it is an illustration, a file a run or the user creates,
# not yet there, or where something used to be. Not a stale path of this repository.
ILLUSTRATION = Worded(
    LazyPattern(r"\b(?:e\.\s?g\.|for example|for instance|such as)", re.IGNORECASE),
    *("e.", "for example", "for instance", "such as"),
)

# A list item or line labelled as an example, the path its first words name: "- Example:
# For `src/tests/user.test.ts`, run ...". A worked instance of the rule above it, on a
# file the reader is imagined to have. Only the label, and at most one word ("For",
# "If"), before the path: "Example: the setup in `docs/setup.md`" says the file is there.
EXAMPLE_LABEL = AtEnd(
    LazyPattern(
        r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|_)?(?:e\.\s?g\.|example|for example)"
        r"(?:\*\*|_)?\s*:(?:\*\*|_)?\s*(?:for|if|when|with|say|given)?\s*$",
        re.IGNORECASE,
    ),
    6,
)

# "- **Example**: If subtask 1.1 modifies `src/api.js` and subtask 1.2 modifies
# `src/utils.js`, ...": an example that supposes a case ("If", "When", "Suppose") names
# an imagined file inside its supposition, however many words that takes. Not past the
# supposition's end (a comma): "Example: if it fails, read `docs/debug.md`" is a claim.
HYPOTHETICAL_EXAMPLE = AtEnd(
    LazyPattern(
        r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|_)?(?:e\.\s?g\.|example|for example)"
        r"(?:\*\*|_)?\s*:(?:\*\*|_)?\s*(?:if|when|suppose|say|imagine)\b"
        r"(?:[^,;:.!?]|[.](?!\s))*$",
        re.IGNORECASE,
    ),
    20,
)

# "✅ **Right**: `tests/auth.test.js`, `scripts/deploy.sh`" over "❌ **Wrong**: ...": a
# line that shows instances of a convention, labelled good or bad, with only other
# instances (code spans) between the label and the path. The label's start; the
# instances before the path are read by VERDICT_LABEL.
VERDICT_HEAD = (
    r"\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:[\u2705\u274c\u2714\u2716\u2713\u2717\u2718\u26d4"
    r"\U0001f44d\U0001f44e\U0001f6ab]\ufe0f?\s*)?(?:\*\*|_)?"
    r"(?:right|wrong|good|bad|correct|incorrect)(?:\*\*|_)?\s*:(?:\*\*|_)?\s*"
)
VERDICT_LABEL = LazyPattern(
    VERDICT_HEAD + r"(?:`[^`]+`\s*(?:,|\band\b|\bor\b)\s*)*\Z", re.IGNORECASE
)
VERDICT_LINE = LazyPattern(VERDICT_HEAD, re.IGNORECASE)  # (matched at a line's start)

# "For **existing projects**: You can use `scripts/prd.txt`", "add `src/agent.ts` to
# your own project": a tool's README speaking of the user's project, where the file is.
# Not plain "your project" or "your app" (a template's README means the template: this
# tree), nor "your repo" (a contributor's clone of this one); only before the path.
USERS_PROJECT = Worded(
    LazyPattern(
        r"\b(?:existing|your (?:own|existing)|(?:the )?users?'s?)[*_]*\s+[*_]*"
        r"(?:projects?|codebases?)\b",
        re.IGNORECASE,
    ),
    *("existing", "your", "user"),
)

LABEL_REACH = 300  # characters: a labelled line of instances is short
VERDICT_LINES = 3  # lines above or below where the contrasting verdict is

OR_SIMILAR = Worded(
    LazyPattern(r"\bor (?:similar|the like|equivalent)\b", re.IGNORECASE),
    *("or similar", "or the like", "or equivalent"),
)

NEGATED = AtEnd(  # the word that negates, then at most five words
    LazyPattern(r"\b(?:no|not|without|never|n't)\b(?:\s+[\w-]+){0,5}\s*$", re.IGNORECASE), 6
)

WAS = LazyPattern(r"^\s*(?:was|used to be|has been (?:removed|renamed|split|moved))\b", re.I)

# Run on each span's whole sentence (up to 2 x CLAIM_WINDOW characters): each match
# holds one of the words below, so on ASCII text without them it need not run (#28).
CREATED = Worded(
    LazyPattern(
        r"\b(?:creat(?:e|es|ed|ing)|generat(?:e|es|ed)|writ(?:e|es|ten)|initiali[sz]\w*|"
        r"first run|on first use|at run ?time|if (?:it )?(?:does not|doesn't) exist|mkdir|"
        r"saved (?:to|in|under)|(?:git-?)?ignored|gitignore`?d|if (?:still |already )?present|"
        r"symlinked from|not (?:checked|committed) in(?:to)?|"
        r"(?:results?|outputs?) (?:will be|are|is) "
        r"(?:(?:saved|written|stored|placed) )?(?:in|under)|"
        r"(?:lands?|cached|stored|dumped|appears?) (?:in|under|at|to|into)|"
        r"outputs? (?:to|into)|"
        r"if [\w\- ]{0,30}exists?|append\w*|stor(?:es|ing) [\w ]{0,40}\b(?:in|under|to)|"
        r"in (?:that|the other|another) repo(?:sitory)?)\b",
        re.IGNORECASE,
    ),
    *("creat", "generat", "writ", "initiali", "first ", "at run", "if ", "mkdir", "saved "),
    *("ignore", "symlinked", "not ", "result", "output", "land", "cached", "stor", "dumped"),
    *("appear", "append", "repo"),
)

# "`x/` files are being relocated", "the legacy `x/` implementation was fully consumed or
# deleted": the sentence says the path is going, or that an old one went, a note of what
# happened to it. At most two words (the path's noun) before the verb: not "`x` holds the
# handlers that were removed". A path said to be gone without calling it old ("The `x/`
# folder has been removed. All tokens now live in `y/`") is still reported: a steering
# file that names the removed path sends readers to look for it (payload's ui4 skill).
GOING = LazyPattern(
    r"^\s*(?:[\w-]+\s+){0,2}?(?:is|are) being\s+"
    r"(?:\w+\s+){0,2}?(?:deleted|removed|relocated|retired|dropped|moved|phased out)\b",
    re.IGNORECASE,
)
WENT = LazyPattern(
    r"^\s*(?:[\w-]+\s+){0,2}?(?:was|were|has been|have been|got)\s+"
    r"(?:\w+\s+){0,3}?(?:deleted|removed|relocated|retired|dropped|consumed)\b",
    re.IGNORECASE,
)
OLD = AtEnd(  # the last word; searched over the whole text before the span, its cost
    # grew with that text's length, shorter near a line's start (#28)
    LazyPattern(r"\b(?:legacy|old|former|previous|obsolete|deprecated)\s*$", re.IGNORECASE),
    1,
)

# An unchecked task of a plan's checklist: "- [ ] `x/new.py`", "- [ ] Create `x/`".
UNCHECKED_TASK = LazyPattern(r"^\s*(?:[-*+]|\d+[.)])\s+\[ \]\s+")
TASK_MAKES = LazyPattern(
    r"\b(?:add|create|implement|introduce|write|new|scaffold)\w*\b", re.IGNORECASE
)

NOT_YET = LazyPattern(r"^\s*\((?:future|planned|proposed|not yet|to be|coming)", re.IGNORECASE)

# The sentence says the path is not there yet: "will live under `x/`", "which is not
# part of the layer shipped today", "those modules don't yet exist"; or that it is
# absent on purpose: where things "would go" (a modal: none are there), a folder
# "currently empty" (git keeps no empty folder), a tool that "no-ops if missing".
NOT_SHIPPED = Worded(
    LazyPattern(
        r"\b(?:will|would) (?:live|reside|sit|go|be (?:added|placed|located|stored|created|"
        r"moved|put))\b|"
        r"\b(?:does|do|is|are)(?: not|n't) yet\b|\b(?:don't|doesn't|not) yet exist|"
        r"\bnot (?:yet )?(?:part of|included in)\b[^.]{0,60}\bship(?:ped|s)?\b|"
        r"\b(?:currently|is|are|still) empty\b|\bnot (?:yet )?(?:been )?created\b|"
        r"\bif (?:it(?:'s| is) |they(?:'re| are) )?(?:missing|absent|not present)\b",
        re.IGNORECASE,
    ),
    *("will ", "would ", "t yet", "not ", "empty", "missing", "absent"),
)

# "Run the `scripts/x.sh` script to generate ...": the path is what is run, so the
# sentence's "generate" is what the script makes, not the script itself.
RUN_BEFORE = AtEnd(  # the verb, "the", "script"
    LazyPattern(r"\b(?:run|execute|invoke|call|source)\s+(?:the\s+)?(?:script\s+)?$", re.I), 3
)

USED_TO_BE = Worded(
    LazyPattern(
        r"\b(?:original path|formerly|previously|renamed from|moved from|"
        r"was at|old path)\b[^`]*$",
        re.IGNORECASE,
    ),
    *("original path", "formerly", "previously", "renamed from", "moved from", "was at"),
    "old path",
)

CODE_SPAN_TEXT = LazyPattern(r"`[^`]*`")

# A line that starts a block of its own, not one that goes on with the sentence above.
NEW_BLOCK = LazyPattern(r"^\s*(?:[-*+>|#]|\d+[.)]\s|```|~~~)")

SENTENCE_END = LazyPattern(r"(?<!\be\.g)(?<!\bi\.e)[.!?]\s+(?=[A-Z`*])")

CLAIM_WINDOW = 600  # characters read on each side of a path for its sentence

# A sentence ends only where [.!?] meets white space. SENTENCE_END tries its
# look-behinds at every character; this finds in one quick scan that a window has no
# end at all (a long sentence, where the window is longest), and SENTENCE_END need not run.
MAY_END = re.compile(r"[.!?]\s")


def sentence_tail(before: str) -> str:
    """What of `before` belongs to the sentence that goes on after it: the text after
    its last sentence end (`SENTENCE_END.split(before)[-1]`)."""
    return SENTENCE_END.split(before)[-1] if MAY_END.search(before) else before


def sentence_head(after: str) -> str:
    """What of `after` belongs to the sentence before it: the text up to its first
    sentence end (`SENTENCE_END.split(after)[0]`)."""
    return SENTENCE_END.split(after, 1)[0] if MAY_END.search(after) else after


def not_a_claim(text: str, start: int, end: int) -> bool:
    """The path's sentence says it is an example, created later, not there yet, or old."""
    # Only the text near the span: a sentence is short, and on a 75 KB line reading the
    # whole line for each of its spans would cost time quadratic in its length.
    near_start, near_end = max(0, start - CLAIM_WINDOW), min(len(text), end + CLAIM_WINDOW)
    line_start = max(text.rfind("\n", near_start, start) + 1, near_start)
    line_end = text.find("\n", end, near_end)
    line_end = near_end if line_end == -1 else line_end
    before, after = text[line_start:start], text[end:line_end]
    # A line before that introduces this one may say so: "Build creates symlinks:\n- `x`".
    # (its last CLAIM_WINDOW characters; none when the window, not a newline, cut the line)
    starts_line = line_start > 0 and text[line_start - 1] == "\n"
    previous_from = max(0, line_start - 1 - CLAIM_WINDOW)
    previous_start = max(text.rfind("\n", previous_from, max(line_start - 1, 0)) + 1, previous_from)
    previous = text[previous_start : line_start - 1] if starts_line else ""
    previous = CODE_SPAN_TEXT.sub("", previous)  # its words, not its paths' names
    # A line that goes on with the paragraph above: its sentence may start there
    # ("Failed tests write the diff to\n`results/`"). The previous line's own words.
    went_on = starts_line and not NEW_BLOCK.match(text[line_start:line_end])
    lead = text[previous_start : line_start - 1] + " " if went_on and previous else ""
    own_before = sentence_tail(before)
    sentence = own_before + " " + sentence_head(after)
    joined = sentence_tail(lead + before) if lead else ""
    run = bool(RUN_BEFORE.search(own_before))  # what the sentence makes is not the path
    sentence_after = whole_sentence_after(text, end)  # read once, asked twice below
    return bool(
        ILLUSTRATION.search(own_before)
        or EXAMPLE_LABEL.search(own_before)
        or HYPOTHETICAL_EXAMPLE.search(own_before)
        or verdict_instance(text, line_start, before)
        or USERS_PROJECT.search(own_before)
        or OR_SIMILAR.search(sentence)
        or (not run and CREATED.search(sentence))
        or (not run and made_across_lines(joined))
        or NOT_SHIPPED.search(joined or own_before)
        or NOT_SHIPPED.search(sentence_after)
        or NOT_YET.match(after)
        or WAS.match(after)
        or went_or_going(own_before, sentence_after)
        or planned_task(text[line_start:start], after)
        or NEGATED.search(own_before)
        or USED_TO_BE.search(before)
        or (previous.rstrip().endswith(":") and bool(CREATED.search(previous)))
        or (not own_before.strip(" -*>") and bool(ILLUSTRATION.search(previous[-24:])))
    )


def verdict_instance(text: str, line_start: int, before: str) -> bool:
    """The path is one of the instances a line labelled "Right:" or "Wrong:" lists,
    and a line near it carries a verdict too: a contrast of good and bad examples of a
    convention ("✅ **Right**: `tests/auth.test.js`" over "❌ **Wrong**: `auth.test.js`
    next to `auth.js`"), not files the repository holds."""
    if len(before) > LABEL_REACH or not VERDICT_LABEL.match(before):
        return False
    reach = LABEL_REACH * VERDICT_LINES
    above = text[max(0, line_start - reach) : max(0, line_start - 1)]
    line_end = text.find("\n", line_start)
    below = "" if line_end == -1 else text[line_end + 1 : line_end + 1 + reach]
    near = above.split("\n")[-VERDICT_LINES:] + below.split("\n")[:VERDICT_LINES]
    return any(VERDICT_LINE.match(line) for line in near if line.strip())


def went_or_going(own_before: str, sentence_after: str) -> bool:
    """The sentence says the path is being moved or removed, or calls it old and says it
    went ("The legacy `x/` implementation was deleted")."""
    if GOING.match(sentence_after):
        return True
    return bool(OLD.search(own_before)) and bool(WENT.match(sentence_after))


def planned_task(before: str, after: str) -> bool:
    """The path is what an unchecked task of a checklist makes: the item names it first
    ("- [ ] `enterprise/telemetry/collector.py`") or says to create or add it. A plan's
    list of files to be written, not a claim that they exist."""
    task = UNCHECKED_TASK.match(before)
    if task is None:
        return False
    lead = before[task.end() :].strip(" *_")
    return not lead or bool(TASK_MAKES.search(CODE_SPAN_TEXT.sub("", lead + " " + after)))


QUOTE_MARK = LazyPattern(r"^\s*(?:>\s?)+")


def whole_sentence_after(text: str, end: int) -> str:
    """The rest of the span's sentence, read on over the lines that go on with it (also
    inside a blockquote: "> (`x/`, the `Tool` protocol)\n> which is not part of the
    layer shipped today"), at most CLAIM_WINDOW characters."""
    stop = min(len(text), end + CLAIM_WINDOW)
    quoted: bool | None = None  # asked only once a following line is reached (below)
    pieces: list[str] = []
    at = end
    while at < stop:
        newline = text.find("\n", at, stop)
        line = text[at:stop] if newline == -1 else text[at:newline]
        if pieces:  # a following line: does it go on with the sentence?
            if quoted is None:
                quoted = in_quote(text, end)
            if quoted:
                if not QUOTE_MARK.match(line):
                    break
                line = QUOTE_MARK.sub("", line, count=1)
            if not line.strip() or NEW_BLOCK.match(line):
                break
        pieces.append(line)
        ended = MAY_END.search(line + " A") and SENTENCE_END.search(line + " A")
        if ended or newline == -1:
            break
        at = newline + 1
    return sentence_head(" ".join(pieces) + " ")


def in_quote(text: str, end: int) -> bool:
    """The line holding `end` is quoted (begins with `>`). Its start is found by reading
    back over the line: asked only by a span whose sentence reaches the next line, so
    within CLAIM_WINDOW characters of its line's end; on one long line, asked of every
    span, that reading made GL501 quadratic (#28)."""
    line_start = text.rfind("\n", 0, end) + 1
    return bool(QUOTED_LINE.match(text, line_start, end))  # QUOTE_MARK's `^`: at 0 only


QUOTED_LINE = LazyPattern(r"\s*>")  # where QUOTE_MARK matches, unanchored for match(pos)


def said_not_shipped(text: str, start: int, end: int) -> bool:
    """The span's sentence says it is not there yet ("will live under `x/`", "`x/`
    ... which is not part of the layer shipped today")."""
    line_start = window_start(text, start)
    own_before = sentence_tail(text[line_start:start])
    has_previous = line_start > 0 and text[line_start - 1] == "\n"
    went_on = has_previous and not NEW_BLOCK.match(text[line_start:end])
    if went_on:  # the sentence may begin on the line above: "will live under\n`x/`"
        previous = text[window_start(text, line_start - 1) : line_start - 1]
        own_before = sentence_tail(previous + " " + own_before)
    return bool(
        NOT_SHIPPED.search(own_before) or NOT_SHIPPED.search(whole_sentence_after(text, end))
    )


def said_made(text: str, start: int, end: int) -> bool:
    """The span's sentence (or the line that introduces it) says it is made."""
    line_start = window_start(text, start)
    line_end = text.find("\n", end, end + CLAIM_WINDOW)
    line_end = min(len(text), end + CLAIM_WINDOW) if line_end == -1 else line_end
    has_previous = line_start > 0 and text[line_start - 1] == "\n"
    previous_start = window_start(text, line_start - 1) if has_previous else line_start
    previous = text[previous_start : line_start - 1] if has_previous else ""
    before, after = text[line_start:start], text[end:line_end]
    went_on = not NEW_BLOCK.match(text[line_start:line_end])
    lead = previous + " " if went_on and previous.strip() else ""
    own_before = sentence_tail(before)
    sentence = own_before + " " + sentence_head(after)
    joined = sentence_tail(lead + before) if lead else ""
    if RUN_BEFORE.search(own_before):
        return False  # "Run the `x.sh` script to generate ...": the script is not made
    return bool(CREATED.search(sentence)) or made_across_lines(joined)


def window_start(text: str, at: int) -> int:
    """Where the line holding `at` starts, at most CLAIM_WINDOW characters back: on one
    long line the sentence is read from a window, never from the file's start (which
    made GL501 quadratic on a one-line document)."""
    newline = text.rfind("\n", max(0, at - CLAIM_WINDOW), at)
    return newline + 1 if newline != -1 else max(0, at - CLAIM_WINDOW)


# "create a new directory in `x`": `x` is where things are made, so it must exist.
CREATE_VERB = LazyPattern(r"\b(?:creat\w*|mkdir|initiali[sz]\w*)\b", re.IGNORECASE)

CONTAINER = LazyPattern(r"\b(?:in|under|inside|within|into)\s*$", re.IGNORECASE)


def made_across_lines(joined: str) -> bool:
    """The sentence, begun on the line above, says the path is written or made
    ("Failed tests write a diff to\n`results/`"), and not that things are created in
    it ("create a new directory in\n`testdata/`", which then must exist)."""
    if not joined or not CREATED.search(joined):
        return False
    return not (CREATE_VERB.search(joined) and CONTAINER.search(joined))
