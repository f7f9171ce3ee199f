"""A translation laid out on its source cues' timing to the target's craft rules (SPEC §7, issue 37).

A translated cue keeps its source cue's time and is broken to the target's line limits.
Two things are done before anything is flagged, and nothing is ever cut:

- **more than two lines**: the translation becomes two (or more) cues on the source
  cue's time, split at a clause (:func:`app.media.cues.split_to_fit`), the time shared
  in proportion to characters, each part at least the rules' minimum and two frames
  apart. In the bilingual file each part shows the whole source line under it, so the
  original stays on screen for as long as it is spoken.
- **over the target's reading speed** (a German or Chinese translation reads longer
  than the English it came from): the cue takes time from the silence after it, up to
  two frames before the next cue and 7 s in all (within the media), then up to
  :data:`~app.media.cues.SHIFT_MS` from the silence before it; then, in a run of cues
  with no silence between them, the boundaries move (each at most ``SHIFT_MS``) so that
  time a shorter translation can spare reaches the one that needs it, down the run. No
  cue is given less than its reading time, or made worse than it was, to save another.

What still reads too fast (or needs too many lines) is flagged: the item notes the
source cues (1-based, the transcript's and the editor's numbering) as
``over_reading_speed``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from app.media.craft import CraftRules, char_count, reading_ms, reading_speed
from app.media.cues import NETFLIX_CUES, SHIFT_MS, Cue, CueOptions, split_to_fit, wrap_text


@dataclass(frozen=True)
class TranslatedCue:
    """One cue of the translation: its text broken to the target's lines, on its own time."""

    cue: Cue
    source: int  # the source cue (0-based) it translates, whole or in part
    flagged: bool  # still over the target's reading speed or lines: never cut, told


def rebreak(text: str, language: str | None, options: CueOptions = NETFLIX_CUES) -> str:
    """A translated text broken again to its own language's line limits (however many lines that takes)."""
    rules = options.rules(text, language)
    return wrap_text(text, rules=rules, language=rules.language)


def lay_out(cues: Sequence[Cue], texts: Sequence[str], language: str | None, options: CueOptions = NETFLIX_CUES,
            limit_ms: int | None = None) -> list[TranslatedCue]:
    """``texts`` (one per source cue) as the translation's cues, in order, never overlapping.

    ``limit_ms`` is the media's end: the last cue may take time up to it (without it, the
    last cue keeps its end).
    """
    laid: list[Cue] = []
    sources: list[int] = []
    rules_of: list[CraftRules] = []
    floors: list[int] = []  # the earliest each may start: a translation never shows more than SHIFT_MS early
    for i, (cue, text) in enumerate(zip(cues, texts)):
        rules = options.rules(text, language)
        parts = split_to_fit(text, rules) if text.strip() else [text]
        earliest = max(0, cue.start_ms - SHIFT_MS, laid[-1].end_ms + rules.gap_ms if laid else 0)
        latest = cues[i + 1].start_ms - rules.gap_ms if i + 1 < len(cues) else (limit_ms or cue.end_ms)
        start, end = _window(cue, parts, rules, earliest, max(latest, cue.end_ms))
        times = _shares(parts, start, end, rules) if len(parts) > 1 else None
        if times is None:  # one part, or no room for more: one cue of as many lines as it takes (flagged)
            parts, times = [text], [(start, end)]
        for part, (s, e) in zip(parts, times):
            laid.append(Cue(s, e, rebreak(part, language, options)))
            sources.append(i)
            rules_of.append(rules)
            floors.append(min(s, _up(cue.start_ms - SHIFT_MS)))
    laid = _rebalance(laid, rules_of, floors)
    return [TranslatedCue(cue, source, _over(cue.text, cue.end_ms - cue.start_ms, rules))
            for cue, source, rules in zip(laid, sources, rules_of)]


def flagged_sources(laid: Sequence[TranslatedCue]) -> list[int]:
    """The source cues (0-based) whose translation is still over the reading speed or lines."""
    return sorted({t.source for t in laid if t.flagged})


def _needed(parts: Sequence[str], rules: CraftRules) -> int:
    """Milliseconds the parts take to be read, each at least the minimum, two frames apart (centiseconds)."""
    return sum(_up(max(rules.min_ms, reading_ms(p, rules))) for p in parts) + _up(rules.gap_ms) * (len(parts) - 1)


def _window(cue: Cue, parts: Sequence[str], rules: CraftRules, earliest: int, latest: int) -> tuple[int, int]:
    """The source cue's time, grown into the silence around it as far as the parts need (whole centiseconds)."""
    # ASS keeps centiseconds: every time here is whole centiseconds (starts up, ends down: gaps only grow).
    need = _needed(parts, rules)
    earliest, latest = _up(earliest), latest // 10 * 10
    start, end = _up(cue.start_ms), max(_up(cue.start_ms), cue.end_ms // 10 * 10)
    longest = rules.max_ms * len(parts) + rules.gap_ms * (len(parts) - 1)
    if end - start < need:
        end = max(end, min(latest, start + need, start + longest))
    if end - start < need:
        start = min(start, max(earliest, end - need, _up(end - longest)))
    return start, end


def _up(ms: int) -> int:
    """``ms`` rounded up to whole centiseconds."""
    return -(-ms // 10) * 10


def _shares(parts: Sequence[str], start: int, end: int, rules: CraftRules) -> list[tuple[int, int]] | None:
    """Times for the parts within [start, end] (whole centiseconds) in proportion to their characters, each at
    least the minimum and two frames apart; None when the window cannot hold them."""
    gap = _up(rules.gap_ms)
    room = (end - start - gap * (len(parts) - 1)) // 10  # centiseconds
    least = _up(rules.min_ms) // 10
    if room < least * len(parts):
        return None
    weights = [max(1, char_count(p)) for p in parts]
    fixed: set[int] = set()
    while True:  # parts that their share leaves under the minimum get the minimum; the others share the rest
        free = room - least * len(fixed)
        weight = sum(w for j, w in enumerate(weights) if j not in fixed)
        lengths = [least if j in fixed else free * w // weight for j, w in enumerate(weights)]
        short = {j for j, length in enumerate(lengths) if j not in fixed and length < least}
        if not short:
            break
        fixed |= short
    for j in range(room - sum(lengths)):  # what whole centiseconds left over, to the first parts
        lengths[j % len(lengths)] += 1
    times, cursor = [], start
    for length in lengths:
        times.append((cursor, min(cursor + 10 * length, cursor + rules.max_ms)))
        cursor += 10 * length + gap
    return times


def _rebalance(laid: list[Cue], rules: list[CraftRules], floors: list[int]) -> list[Cue]:
    """Each run of touching cues with one too fast in it, its boundaries moved (each at most
    :data:`~app.media.cues.SHIFT_MS`) so that as few cues as can be are too fast, and no boundary moves
    more than that takes: a slower translation beside a fast one gives it time, down the run (a
    neighbour-by-neighbour pass, as the transcript's cues get, stops at the first cue with none to spare)."""
    out = list(laid)
    i = 0
    while i < len(out):
        j = i
        while j + 1 < len(out) and out[j + 1].start_ms - out[j].end_ms <= rules[j].gap_ms + 18:  # 2 frames, rounded
            j += 1
        if j > i and any(_over(c.text, c.end_ms - c.start_ms, r) for c, r in zip(out[i:j + 1], rules[i:j + 1])):
            out[i:j + 1] = _run(out[i:j + 1], rules[i:j + 1], floors[i:j + 1])
        i = j + 1
    return out


def _run(cues: list[Cue], rules: list[CraftRules], floors: list[int]) -> list[Cue]:
    """The best boundaries for one run (its first start and last end stay; no cue starts before its floor), by
    dynamic programming over each boundary's centiseconds within its reach: fewest cues under their reading
    time, then the least time they lack, then the least moved."""
    gaps = [b.start_ms - a.end_ms for a, b in zip(cues, cues[1:])]
    need = [reading_ms(c.text, r) for c, r in zip(cues, rules)]
    length = [c.end_ms - c.start_ms for c in cues]
    # A cue gives only time it can spare: never under its minimum, and never under its reading time (or, too fast
    # already, under the time it had): no cue is made worse to save another.
    least = [max(min(r.min_ms, n), min(t, n)) for r, n, t in zip(rules, length, need)]
    most = [max(r.max_ms, n) for r, n in zip(rules, length)]
    reach = range(-SHIFT_MS // 10, SHIFT_MS // 10 + 1)
    Score = tuple[int, int, int]  # cues too fast, milliseconds they lack, centiseconds moved

    def score(k: int, start: int, end: int, moved: int, before: Score) -> Score | None:
        span = end - start
        if not least[k] <= span <= most[k] or start < floors[k]:
            return None
        lack = max(0, need[k] - span)
        return before[0] + (lack > 0), before[1] + lack, before[2] + moved

    # For each end of cue k within reach: the best score of cues 0..k, and the end of cue k-1 it came from.
    best: dict[int, tuple[Score, int]] = {}
    for d in reach:
        found = score(0, cues[0].start_ms, cues[0].end_ms + 10 * d, abs(d), (0, 0, 0))
        if found is not None:
            best[cues[0].end_ms + 10 * d] = (found, cues[0].start_ms)
    trail = [best]
    for k in range(1, len(cues)):
        ends = [cues[k].end_ms] if k == len(cues) - 1 else [cues[k].end_ms + 10 * d for d in reach]
        nxt: dict[int, tuple[Score, int]] = {}
        for end in ends:
            moved = abs(end - cues[k].end_ms) // 10
            for prev, (before, _) in best.items():
                found = score(k, prev + gaps[k - 1], end, moved, before)
                if found is not None and (end not in nxt or found < nxt[end][0]):
                    nxt[end] = (found, prev)
        if not nxt:
            return cues  # no boundaries keep every cue within its limits: the run stays as it was
        best = nxt
        trail.append(best)
    ends = [cues[-1].end_ms]
    for k in range(len(cues) - 1, 0, -1):
        ends.append(trail[k][ends[-1]][1])
    ends.reverse()
    starts = [cues[0].start_ms] + [e + g for e, g in zip(ends, gaps)]
    return [Cue(s, e, c.text) for s, e, c in zip(starts, ends, cues)]


def _over(text: str, length_ms: int, rules: CraftRules) -> bool:
    lines = text.split("\n")
    return (reading_speed(text, length_ms) > rules.cps or len(lines) > rules.max_lines
            or any(char_count(line) > rules.line_chars for line in lines))
