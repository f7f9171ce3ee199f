"""Turn ASR segments into readable subtitle cues (SPEC §7).

Whisper segments are whatever the decoder emitted: sometimes a 20-second paragraph,
sometimes three words. Cues are cut to the craft rules of their language
(:mod:`app.media.craft`: characters per line, two lines, 5/6–7 s, reading speed, a
two-frame gap) where they are cut, not patched afterwards. This module re-segments
using word timestamps when there are any (so a cue's timing is the timing of its
words) and falls back to interpolating by width when there are none.

Lines are measured in characters, as the style guide counts them (16 for Chinese is 16
characters); :func:`display_width` (CJK counts double) is what screens take. Chinese
and Japanese have no spaces, so every wide character is a break opportunity (closing
punctuation stays with the character before it, so no line starts with "。").

Everything here is a pure, deterministic function of its inputs: the same transcript
always yields the same cues, which keeps stage fingerprints and translations stable.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from app.media.craft import (
    MAX_LINES,
    NETFLIX,
    CraftRules,
    break_score,
    char_count,
    collapse_repeats,
    reading_ms,
    reading_speed,
    remove_sound_tags,
    rules_for,
    text_language,
)

#: The shortest cue worth stretching to when the neighbours leave room (the rules' minimum is 5/6 s).
MIN_CUE_MS = 1000
#: A cue squeezed below this by its neighbours is merged into the previous one.
MIN_VISIBLE_MS = 300

#: Characters that must not start a line: they stick to the character before them.
_CLOSING = set(".,!?;:…)]}»”’\"'。、，．！？；：）」』】〉》〕｝〙〗ー～ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")


@dataclass(frozen=True)
class Cue:
    """One subtitle cue; ``text`` holds its display lines joined by ``\\n``."""

    start_ms: int
    end_ms: int
    text: str

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    @property
    def flat_text(self) -> str:
        """The cue as one line (what is sent for translation)."""
        return join_fragments(self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {"start_ms": self.start_ms, "end_ms": self.end_ms, "text": self.text}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Cue:
        return cls(int(data["start_ms"]), int(data["end_ms"]), str(data["text"]))


# --------------------------------------------------------------------------- width


def char_width(ch: str) -> int:
    """Columns one character takes on screen: 2 for East Asian Wide/Fullwidth, 0 for marks."""
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Display columns of ``text`` (CJK counts double)."""
    return sum(char_width(ch) for ch in text)


def _is_wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def join_fragments(parts: Iterable[str]) -> str:
    """Join text fragments with a space, except between two CJK characters."""
    out = ""
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if out and not (_is_wide(out[-1]) and _is_wide(part[0])):
            out += " "
        out += part
    return out


# ----------------------------------------------------------------------- tokenising


@dataclass(frozen=True)
class _Token:
    text: str  # keeps its leading space, so "".join(tokens) is the original text
    start: float
    end: float


def split_pieces(text: str) -> list[str]:
    """Split text into unbreakable pieces, each keeping its leading whitespace.

    Spaces separate pieces; each wide (CJK) character is a piece of its own; closing
    punctuation joins the piece before it.
    """
    pieces: list[str] = []
    i, n = 0, len(text)
    while i < n:
        j = i
        while j < n and text[j].isspace():
            j += 1
        if j >= n:
            break
        k = j
        if _is_wide(text[k]):
            k += 1
        else:
            while k < n and not text[k].isspace() and not _is_wide(text[k]):
                k += 1
        while k < n and text[k] in _CLOSING:
            k += 1
        pieces.append(text[i:k])
        i = k
    return pieces


def _hard_split(piece: str, max_chars: int) -> list[str]:
    """Break a piece longer than a line (a URL, a very long word) at character boundaries."""
    out: list[str] = []
    current = ""
    for ch in piece:
        if current.strip() and char_count((current + ch).strip()) > max_chars:
            out.append(current)
            current = ""
        current += ch
    if current:
        out.append(current)
    return out


def _spread(pieces: Sequence[str], start: float, end: float) -> list[_Token]:
    """Give pieces times proportional to their width within [start, end]."""
    widths = [max(1, display_width(p.strip())) for p in pieces]
    total = float(sum(widths))
    tokens: list[_Token] = []
    cursor = start
    for piece, width in zip(pieces, widths):
        nxt = cursor + (end - start) * width / total
        tokens.append(_Token(piece, cursor, nxt))
        cursor = nxt
    return tokens


def _segment_tokens(segment: Mapping[str, Any], max_width: int) -> list[_Token]:
    seg_start = float(segment.get("start", 0.0))
    seg_end = max(seg_start, float(segment.get("end", seg_start)))
    raw: list[_Token] = []
    words = segment.get("words") or []
    for word in words:
        text = str(word.get("word", ""))
        if not text.strip():
            continue
        start = float(word.get("start", seg_start))
        end = max(start, float(word.get("end", start)))
        raw.append(_Token(text, start, end))
    if not raw:
        text = str(segment.get("text", ""))
        pieces = split_pieces(text)
        if not pieces:
            return []
        if not pieces[0][:1].isspace():
            pieces[0] = " " + pieces[0]
        raw = _spread(pieces, seg_start, seg_end)
    tokens: list[_Token] = []
    for token in raw:
        if char_count(token.text.strip()) <= max_width:
            tokens.append(token)
            continue
        pieces = [p for piece in split_pieces(token.text) for p in _hard_split(piece, max_width)]
        if pieces and token.text[:1].isspace() and not pieces[0][:1].isspace():
            pieces[0] = " " + pieces[0]
        tokens.extend(_spread(pieces, token.start, token.end))
    return tokens


# -------------------------------------------------------------------------- layout


def _line(tokens: Sequence[_Token] | Sequence[str]) -> str:
    return "".join(t if isinstance(t, str) else t.text for t in tokens).strip()


def _layout(pieces: Sequence[str], max_chars: int, max_lines: int, language: str | None = None) -> list[str] | None:
    """Best lines for pieces within ``max_lines`` lines of ``max_chars`` characters, else None.

    Text that fits one line stays on one line. Two lines are balanced (the longer line
    as short as possible), a break after punctuation or before a conjunction preferred
    and one after an article avoided (:func:`app.media.craft.break_score`).
    """
    whole = _line(pieces)
    if char_count(whole) <= max_chars:
        return [whole]
    if max_lines < 2:
        return None
    if max_lines == 2:
        best: tuple[float, int] | None = None
        for k in range(1, len(pieces)):
            top, bottom = _line(pieces[:k]), _line(pieces[k:])
            ct, cb = char_count(top), char_count(bottom)
            if ct > max_chars or cb > max_chars:
                continue
            cost = max(ct, cb) - 6 * break_score(top, bottom, language)
            if best is None or cost < best[0]:
                best = (cost, k)
        if best is None:
            return None
        k = best[1]
        return [_line(pieces[:k]), _line(pieces[k:])]
    lines = _greedy(pieces, max_chars)
    return lines if len(lines) <= max_lines else None


def _greedy(pieces: Sequence[str], max_chars: int) -> list[str]:
    lines: list[str] = []
    current: list[str] = []
    for piece in pieces:
        if current and char_count(_line(current + [piece])) > max_chars:
            lines.append(_line(current))
            current = []
        current.append(piece)
    if current:
        lines.append(_line(current))
    return [line for line in lines if line]


def wrap_text(text: str, max_width: int | None = None, max_lines: int = MAX_LINES, language: str | None = None,
              rules: CraftRules | None = None) -> str:
    """Lay out free text (e.g. a translation) as cue lines joined by ``\\n``.

    The line limit is ``max_width`` characters, else that of ``rules``, else that of the
    text's language (:func:`app.media.craft.rules_for`). Uses balanced lines when the
    text fits in ``max_lines``; a longer text gets more lines rather than losing words (a
    translation is never cut; :func:`over_limits` tells which cues that leaves too long).
    """
    lang = text_language(text, language)
    if max_width is None:
        max_width = (rules or rules_for(lang)).line_chars
    pieces = [p for piece in split_pieces(text) for p in _hard_split(piece, max_width)]
    if not pieces:
        return ""
    lines = _layout(pieces, max_width, max_lines, lang)
    if lines is None:
        lines = _greedy(pieces, max_width)
    return "\n".join(lines)


def split_to_fit(text: str, rules: CraftRules) -> list[str]:
    """``text`` in as few parts as it takes for each to fit ``rules``' lines; the parts joined give it back.

    A translation longer than its source cue's lines becomes cues of its own on that
    cue's time (:mod:`app.media.translation_timing`) instead of a third line. Parts break
    where lines do (:func:`app.media.craft.break_score`: after punctuation, then before a
    conjunction, never after an article), balanced in characters.
    """
    pieces = [p for piece in split_pieces(text) for p in _hard_split(piece, rules.line_chars)]
    return [_line(part) for part in _fitting_parts(pieces, rules)] if pieces else [text.strip()]


def _fitting_parts(pieces: Sequence[str], rules: CraftRules) -> list[Sequence[str]]:
    if len(pieces) <= 1 or _layout(pieces, rules.line_chars, rules.max_lines, rules.language) is not None:
        return [pieces]
    widths = [char_count(p.strip()) + 1 for p in pieces]
    total = float(sum(widths))
    room = rules.line_chars * rules.max_lines
    best_k, best_cost, left = 1, float("inf"), 0.0
    for k in range(1, len(pieces)):
        left += widths[k - 1]
        top, bottom = _line(pieces[:k]), _line(pieces[k:])
        score = break_score(top, bottom, rules.language)
        cost = abs(left - (total - left)) / total - (0.6 * score if score > 0 else score)
        # A side that cannot fit its lines needs a further part: prefer breaks that leave none.
        cost += 0.5 * ((char_count(top) > room) + (char_count(bottom) > room))
        if cost < best_cost:
            best_k, best_cost = k, cost
    return _fitting_parts(pieces[:best_k], rules) + _fitting_parts(pieces[best_k:], rules)


# -------------------------------------------------------------------- re-segmenting


def _fits(tokens: Sequence[_Token], rules: CraftRules) -> bool:
    if (tokens[-1].end - tokens[0].start) * 1000 > rules.max_ms and len(tokens) > 1:
        return False
    return _layout([t.text for t in tokens], rules.line_chars, rules.max_lines, rules.language) is not None


def _too_fast(tokens: Sequence[_Token], rules: CraftRules) -> bool:
    spoken = max(tokens[-1].end - tokens[0].start, rules.min_ms / 1000)
    return char_count(_line([t.text for t in tokens])) / spoken > rules.cps


def _split(tokens: list[_Token], rules: CraftRules) -> list[list[_Token]]:
    """Recursively split tokens at the best break until every part fits one cue."""
    if len(tokens) <= 1 or _fits(tokens, rules):
        return [tokens]
    widths = [char_count(t.text.strip()) + 1 for t in tokens]
    total = float(sum(widths))
    best_k, best_cost = 1, float("inf")
    left = 0.0
    for k in range(1, len(tokens)):
        left += widths[k - 1]
        balance = abs(left - (total - left)) / total  # 0 (even) .. 1
        gap = max(0.0, tokens[k].start - tokens[k - 1].end)
        score = break_score(tokens[k - 1].text, tokens[k].text, rules.language, conjunctions=False)
        cost = balance - (0.6 * score if score > 0 else score) - min(gap, 1.0) * 0.8
        # A part spoken faster than it can be read has no time to gain from its neighbours: avoid making one.
        cost += 0.5 * (_too_fast(tokens[:k], rules) + _too_fast(tokens[k:], rules))
        if cost < best_cost:
            best_k, best_cost = k, cost
    return _split(tokens[:best_k], rules) + _split(tokens[best_k:], rules)


@dataclass(frozen=True)
class CueOptions:
    """How cues are cut: the craft profile, the media's frame rate, and the clean-up asked for."""

    profile: str = NETFLIX
    fps: float | None = None
    custom: Mapping[str, int] | None = None
    keep_sound_tags: bool = True

    def rules(self, text: str, language: str | None) -> CraftRules:
        return rules_for(text_language(text, language), self.profile, self.fps, self.custom)


#: The default: Netflix's rules, sound tags kept.
NETFLIX_CUES = CueOptions()


@dataclass(frozen=True)
class BuiltCues:
    """Cues and what clean-up did to them: the cues (0-based) whose repeated phrase was kept once."""

    cues: list[Cue]
    repeats: list[int]


def _clean(text: str, options: CueOptions) -> tuple[str, bool]:
    if not options.keep_sound_tags:
        text = remove_sound_tags(text)
    return collapse_repeats(text)


def craft_cues(segments: Sequence[Mapping[str, Any]], duration_s: float | None = None, *,
               language: str | None = None, options: CueOptions = NETFLIX_CUES) -> BuiltCues:
    """Readable cues from (already filtered) segments, cut to the craft rules of their language.

    Guarantees: cues are sorted, never overlap and keep a gap of at least two frames, lie
    inside ``[0, duration]``, last at most the rules' maximum and at least their minimum
    where the neighbours leave room (longer, up to the reading time, where they do), and
    hold at most two lines of the language's characters per line (a cue merged because it
    had no room of its own may exceed that rather than lose words). A segment boundary
    is a cut (a natural pause), except that Whisper sometimes ends one on an article
    ("showed the need of a"): such a segment runs on into the next (same language, under
    :data:`JOIN_GAP_S` apart), so the cut falls where the rules put it. A
    segment's language (a mixed recording) or its script (CJK) picks its rules;
    ``language`` is the rest's.
    """
    drafts: list[tuple[Cue, CraftRules]] = []
    repeats_at: set[int] = set()
    for rules, tokens in _runs(segments, language, options):
        for part in _split(tokens, rules):
            text, repeated = _clean(_line(part), options)
            if not text:
                continue  # only a sound tag, removed
            start_ms = int(round(part[0].start * 1000))
            end_ms = int(round(part[-1].end * 1000))
            if repeated:
                repeats_at.add(len(drafts))
            drafts.append((Cue(start_ms, max(start_ms, end_ms), wrap_text(text, rules=rules, language=rules.language)), rules))
    duration_ms = None if duration_s is None else int(duration_s * 1000)
    return _fix_timing(drafts, duration_ms, repeats_at)


#: A segment that ends on an article runs on into the next when they are closer than this.
JOIN_GAP_S = 0.5


def _runs(segments: Sequence[Mapping[str, Any]], language: str | None,
          options: CueOptions) -> list[tuple[CraftRules, list[_Token]]]:
    """The segments' tokens as runs of speech, each with the rules of its first segment."""
    runs: list[tuple[CraftRules, list[_Token]]] = []
    for segment in sorted(segments, key=lambda s: (float(s.get("start", 0.0)), float(s.get("end", 0.0)))):
        rules = options.rules(str(segment.get("text", "")), str(segment.get("language") or language or ""))
        tokens = _segment_tokens(segment, rules.line_chars)
        if not tokens:
            continue
        if runs and runs[-1][0] == rules and break_score(runs[-1][1][-1].text, tokens[0].text, rules.language) < 0 \
                and tokens[0].start - runs[-1][1][-1].end < JOIN_GAP_S:
            runs[-1][1].extend(tokens)
        else:
            runs.append((rules, tokens))
    return runs


def build_cues(segments: Sequence[Mapping[str, Any]], duration_s: float | None = None, *,
               language: str | None = None, options: CueOptions = NETFLIX_CUES) -> list[Cue]:
    """The cues of :func:`craft_cues`, without what clean-up noted."""
    return craft_cues(segments, duration_s, language=language, options=options).cues


def _merged(prev: Cue, cue: Cue, rules: CraftRules, end_ms: int) -> Cue:
    text = wrap_text(join_fragments([prev.flat_text, cue.flat_text]), rules=rules, language=rules.language)
    return Cue(prev.start_ms, max(prev.end_ms, end_ms), text)


def _within(cue: Cue, rules: CraftRules) -> bool:
    lines = cue.lines
    return (len(lines) <= rules.max_lines and all(char_count(line) <= rules.line_chars for line in lines)
            and cue.end_ms - cue.start_ms <= rules.max_ms)


def _fix_timing(drafts: list[tuple[Cue, CraftRules]], limit: int | None, repeats_at: set[int]) -> BuiltCues:
    out: list[tuple[Cue, CraftRules]] = []
    repeats: list[int] = []
    for i, (cue, rules) in enumerate(drafts):
        start = max(0, cue.start_ms)
        if out:
            prev, prev_rules = out[-1]
            if start < prev.end_ms + rules.gap_ms:
                # Two frames between cues: the earlier one gives them up while it keeps its minimum, else this one starts later.
                trimmed = max(prev.start_ms + prev_rules.min_ms, start - rules.gap_ms)
                if trimmed < prev.end_ms:
                    out[-1] = (Cue(prev.start_ms, trimmed, prev.text), prev_rules)
                start = max(start, out[-1][0].end_ms + rules.gap_ms)
        end = min(max(cue.end_ms, start), start + rules.max_ms)
        wanted = min(rules.max_ms, max(MIN_CUE_MS, rules.min_ms, reading_ms(cue.text, rules)))
        room = (drafts[i + 1][0].start_ms - rules.gap_ms if i + 1 < len(drafts)
                else (limit if limit is not None else start + wanted))
        if end - start < wanted:
            end = max(end, min(start + wanted, room))
        if limit is not None:
            end = min(end, limit)
        if end - start < rules.min_ms and out:
            start = max(out[-1][0].end_ms + rules.gap_ms, min(start, end - rules.min_ms))
        if end - start < rules.min_ms and out:
            merged = _merged(out[-1][0], cue, out[-1][1], end)
            if _within(merged, out[-1][1]) or end - start < MIN_VISIBLE_MS:
                # No room of its own (crowded or past the end of the media): keep the words
                # by merging them into the previous cue instead of dropping them.
                out[-1] = (merged, out[-1][1])
                if i in repeats_at and len(out) - 1 not in repeats:
                    repeats.append(len(out) - 1)
                continue
        if end <= start:
            continue  # the first cue lies entirely outside the media: nothing to show it on
        if i in repeats_at:
            repeats.append(len(out))
        out.append((Cue(start, end, cue.text), rules))
    return BuiltCues(_centiseconds(_share_time(_bridge(out), [rules for _, rules in out])), repeats)


def _centiseconds(cues: list[Cue]) -> list[Cue]:
    """Every start rounded up and every end down to whole centiseconds: ASS keeps no finer time, and the
    transcript's SRT and the bilingual ASS must show each cue at the same moments. Gaps only grow."""
    out = []
    for cue in cues:
        start, end = -(-cue.start_ms // 10) * 10, cue.end_ms // 10 * 10
        out.append(Cue(start, max(start, end), cue.text) if (start, end) != (cue.start_ms, cue.end_ms) else cue)
    return out


def _bridge(cues: list[tuple[Cue, CraftRules]]) -> list[Cue]:
    """Close gaps shorter than half a second to two frames (the guide's bridge), where the earlier cue may grow."""
    out = [cue for cue, _ in cues]
    for i in range(len(out) - 1):
        cue, rules = cues[i]
        gap = out[i + 1].start_ms - cue.end_ms
        end = out[i + 1].start_ms - rules.gap_ms
        if rules.gap_ms < gap < rules.bridge_ms and end - cue.start_ms <= rules.max_ms:
            out[i] = Cue(cue.start_ms, end, cue.text)
    return out


#: How far a cue may move off its words to borrow reading time from a neighbour that has time to spare.
SHIFT_MS = 500


def _slack(cue: Cue, rules: CraftRules) -> int:
    """Milliseconds ``cue`` can give up and still be read and last its minimum."""
    return max(0, cue.end_ms - cue.start_ms - max(rules.min_ms, reading_ms(cue.text, rules)))


def _share_time(cues: list[Cue], rules: list[CraftRules]) -> list[Cue]:
    """A cue that reads too fast borrows time from a touching neighbour with time to spare (at most :data:`SHIFT_MS`).

    The boundary between the two moves, so both keep the two-frame gap; neither is left
    under its reading time or minimum. What cannot be borrowed is flagged (:func:`over_limits`).
    """
    out = list(cues)
    for i, cue in enumerate(out):
        need = reading_ms(cue.text, rules[i]) - (cue.end_ms - cue.start_ms)
        if need > 0 and i > 0 and cue.start_ms - out[i - 1].end_ms <= rules[i].gap_ms:
            move = min(need, SHIFT_MS, _slack(out[i - 1], rules[i - 1]))
            if move > 0:
                prev = out[i - 1]
                out[i - 1] = Cue(prev.start_ms, prev.end_ms - move, prev.text)
                cue = out[i] = Cue(cue.start_ms - move, cue.end_ms, cue.text)
                need -= move
        if need > 0 and i + 1 < len(out) and out[i + 1].start_ms - cue.end_ms <= rules[i].gap_ms:
            nxt = out[i + 1]
            move = min(need, SHIFT_MS, _slack(nxt, rules[i + 1]), rules[i].max_ms - (cue.end_ms - cue.start_ms))
            if move > 0:
                out[i + 1] = Cue(nxt.start_ms + move, nxt.end_ms, nxt.text)
                out[i] = Cue(cue.start_ms, cue.end_ms + move, cue.text)
    return out


def over_limits(cues: Sequence[Cue], texts: Sequence[str], language: str | None,
                options: CueOptions = NETFLIX_CUES) -> list[int]:
    """Cues (0-based) whose ``texts`` (a translation on the cues' timing) read faster than the rules allow
    or need more than their lines: flagged, never cut."""
    flagged = []
    for i, (cue, text) in enumerate(zip(cues, texts)):
        rules = options.rules(text, language)
        wrapped = wrap_text(text, rules=rules, language=rules.language)
        if (reading_speed(wrapped, cue.end_ms - cue.start_ms) > rules.cps
                or not _within(Cue(cue.start_ms, cue.end_ms, wrapped), rules)):
            flagged.append(i)
    return flagged


def cues_to_dicts(cues: Sequence[Cue]) -> list[dict[str, Any]]:
    """JSON-able form for stage checkpoints."""
    return [cue.to_dict() for cue in cues]


def cues_from_dicts(data: Sequence[Mapping[str, Any]]) -> list[Cue]:
    return [Cue.from_dict(d) for d in data]
