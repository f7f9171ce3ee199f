"""Turn ASR segments into readable subtitle cues (SPEC §7).

Whisper segments are whatever the decoder emitted: sometimes a 20-second paragraph,
sometimes three words. People read cues of about 42 columns per line, at most two
lines, shown for 1–7 seconds, never overlapping. This module re-segments using word
timestamps when there are any (so a cue's timing is the timing of its words) and
falls back to interpolating by display width when there are none.

Width is *display* width, not ``len``: East Asian Wide/Fullwidth characters take two
columns, combining marks none. Chinese and Japanese have no spaces, so every wide
character is a break opportunity (closing punctuation stays with the character
before it, so no line starts with "。").

Everything here is a pure, deterministic function of its inputs: the same transcript
always yields the same cues, which keeps stage fingerprints and translations stable.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

MAX_LINE_WIDTH = 42
MAX_LINES = 2
MIN_CUE_MS = 1000
MAX_CUE_MS = 7000
#: A cue squeezed below this by its neighbours is merged into the previous one.
MIN_VISIBLE_MS = 300

_SENTENCE_END = set(".?!…。？！")
_CLAUSE_END = set(",;:、，；：")
#: Characters that must not start a line: they stick to the character before them.
_CLOSING = set(".,!?;:…)]}»”’\"'。、，．！？；：）」』】〉》〕｝〙〗ー～")


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


def _hard_split(piece: str, max_width: int) -> list[str]:
    """Break a piece wider than a line (a URL, a very long word) at character boundaries."""
    out: list[str] = []
    current = ""
    for ch in piece:
        if current.strip() and display_width(current + ch) > max_width:
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
        if display_width(token.text.strip()) <= max_width:
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


def _ends_with(text: str, marks: set[str]) -> bool:
    text = text.rstrip("\"'”’»)]」』")
    return bool(text) and text[-1] in marks


def _layout(pieces: Sequence[str], max_width: int, max_lines: int) -> list[str] | None:
    """Best lines for pieces within ``max_lines`` lines of ``max_width``, else None.

    Two lines are balanced (the widest line as narrow as possible, a break after
    punctuation preferred) rather than filled greedily.
    """
    whole = _line(pieces)
    if display_width(whole) <= max_width:
        return [whole]
    if max_lines < 2:
        return None
    if max_lines == 2:
        best: tuple[float, int] | None = None
        for k in range(1, len(pieces)):
            top, bottom = _line(pieces[:k]), _line(pieces[k:])
            wt, wb = display_width(top), display_width(bottom)
            if wt > max_width or wb > max_width:
                continue
            cost = max(wt, wb) - (4 if _ends_with(top, _SENTENCE_END | _CLAUSE_END) else 0)
            if best is None or cost < best[0]:
                best = (cost, k)
        if best is None:
            return None
        k = best[1]
        return [_line(pieces[:k]), _line(pieces[k:])]
    lines = _greedy(pieces, max_width)
    return lines if len(lines) <= max_lines else None


def _greedy(pieces: Sequence[str], max_width: int) -> list[str]:
    lines: list[str] = []
    current: list[str] = []
    for piece in pieces:
        if current and display_width(_line(current + [piece])) > max_width:
            lines.append(_line(current))
            current = []
        current.append(piece)
    if current:
        lines.append(_line(current))
    return [line for line in lines if line]


def wrap_text(text: str, max_width: int = MAX_LINE_WIDTH, max_lines: int = MAX_LINES) -> str:
    """Lay out free text (e.g. a translation) as cue lines joined by ``\\n``.

    Uses balanced lines when the text fits in ``max_lines``; a longer text gets more
    lines rather than losing words (a translation is never cut).
    """
    pieces = [p for piece in split_pieces(text) for p in _hard_split(piece, max_width)]
    if not pieces:
        return ""
    lines = _layout(pieces, max_width, max_lines)
    if lines is None:
        lines = _greedy(pieces, max_width)
    return "\n".join(lines)


# -------------------------------------------------------------------- re-segmenting


def _fits(tokens: Sequence[_Token], max_width: int, max_lines: int, max_ms: int) -> bool:
    if (tokens[-1].end - tokens[0].start) * 1000 > max_ms and len(tokens) > 1:
        return False
    return _layout([t.text for t in tokens], max_width, max_lines) is not None


def _split(tokens: list[_Token], max_width: int, max_lines: int, max_ms: int) -> list[list[_Token]]:
    """Recursively split tokens at the best break until every part fits one cue."""
    if len(tokens) <= 1 or _fits(tokens, max_width, max_lines, max_ms):
        return [tokens]
    widths = [display_width(t.text.strip()) + 1 for t in tokens]
    total = float(sum(widths))
    best_k, best_cost = 1, float("inf")
    left = 0.0
    for k in range(1, len(tokens)):
        left += widths[k - 1]
        balance = abs(left - (total - left)) / total  # 0 (even) .. 1
        prev_text = tokens[k - 1].text
        gap = max(0.0, tokens[k].start - tokens[k - 1].end)
        cost = balance
        if _ends_with(prev_text, _SENTENCE_END):
            cost -= 0.6
        elif _ends_with(prev_text, _CLAUSE_END):
            cost -= 0.3
        cost -= min(gap, 1.0) * 0.8
        if cost < best_cost:
            best_k, best_cost = k, cost
    return _split(tokens[:best_k], max_width, max_lines, max_ms) + _split(
        tokens[best_k:], max_width, max_lines, max_ms
    )


def build_cues(
    segments: Sequence[Mapping[str, Any]],
    duration_s: float | None = None,
    *,
    max_width: int = MAX_LINE_WIDTH,
    max_lines: int = MAX_LINES,
    min_ms: int = MIN_CUE_MS,
    max_ms: int = MAX_CUE_MS,
) -> list[Cue]:
    """Readable cues from (already filtered) segments.

    Guarantees: cues are sorted, never overlap, lie inside ``[0, duration]``, last at
    most ``max_ms`` and at least ``min_ms`` where the neighbours leave room, and hold
    at most ``max_lines`` lines of ``max_width`` columns (a cue merged because it had
    no room of its own may exceed that rather than lose words). Segments are never
    merged with each other: a segment boundary is a natural pause.
    """
    drafts: list[Cue] = []
    for segment in sorted(segments, key=lambda s: (float(s.get("start", 0.0)), float(s.get("end", 0.0)))):
        tokens = _segment_tokens(segment, max_width)
        if not tokens:
            continue
        for part in _split(tokens, max_width, max_lines, max_ms):
            lines = _layout([t.text for t in part], max_width, max_lines) or _greedy([t.text for t in part], max_width)
            start_ms = int(round(part[0].start * 1000))
            end_ms = int(round(part[-1].end * 1000))
            drafts.append(Cue(start_ms, max(start_ms, end_ms), "\n".join(lines)))
    duration_ms = None if duration_s is None else int(duration_s * 1000)
    return _fix_timing(drafts, duration_ms, max_width=max_width, max_lines=max_lines, min_ms=min_ms, max_ms=max_ms)


def _merge(prev: Cue, cue: Cue, max_width: int, max_lines: int, end_ms: int) -> Cue:
    text = wrap_text(join_fragments([prev.flat_text, cue.flat_text]), max_width, max_lines)
    return Cue(prev.start_ms, max(prev.end_ms, end_ms), text)


def _fix_timing(
    drafts: list[Cue], duration_ms: int | None, *, max_width: int, max_lines: int, min_ms: int, max_ms: int
) -> list[Cue]:
    limit = duration_ms if duration_ms is not None else None
    out: list[Cue] = []
    for i, cue in enumerate(drafts):
        start = max(0, cue.start_ms)
        if out:
            start = max(start, out[-1].end_ms)
        end = min(max(cue.end_ms, start), start + max_ms)
        room = drafts[i + 1].start_ms if i + 1 < len(drafts) else (limit if limit is not None else end + min_ms)
        if end - start < min_ms:
            end = max(end, min(start + min_ms, max(room, end)))
        if limit is not None:
            end = min(end, limit)
        if end - start < min_ms and out:
            start = max(out[-1].end_ms, end - min_ms)
        if end - start < MIN_VISIBLE_MS and out:
            # No room of its own (crowded or past the end of the media): keep the words
            # by merging them into the previous cue instead of dropping them.
            out[-1] = _merge(out[-1], cue, max_width, max_lines, out[-1].end_ms)
            continue
        if end <= start:
            continue  # the first cue lies entirely outside the media: nothing to show it on
        out.append(Cue(start, end, cue.text))
    return out


def cues_to_dicts(cues: Sequence[Cue]) -> list[dict[str, Any]]:
    """JSON-able form for stage checkpoints."""
    return [cue.to_dict() for cue in cues]


def cues_from_dicts(data: Sequence[Mapping[str, Any]]) -> list[Cue]:
    return [Cue.from_dict(d) for d in data]
