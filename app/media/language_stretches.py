"""Stretches of speech in different languages within one recording (SPEC §16, mixed-language recordings).

Whisper transcribes in one language at a time; forced to English it "translates" a German
half into invented English. So when the language vote heard two languages confidently
(:func:`app.media.language_vote.heard_languages`), the recording's speech (the VAD's spans) is cut into pieces of about :data:`PIECE_S` seconds
of speech (shorter in a recording with under a minute of speech: :func:`coarse_piece_s`),
each piece's language is heard (one encoder pass), and consecutive pieces in one language make a
stretch. Where two stretches meet, the two pieces around the switch are cut again into
pieces of about :data:`FINE_PIECE_S` seconds and the first one in the new language is
found by halving, so a switch is placed at a pause to within a sentence or two, not
to a quarter of a minute. Each stretch is then transcribed in its own language.

A piece's language is chosen only among the languages the vote heard: Whisper's
detector, on a few seconds, names neighbours of the true language (Dutch for German,
Galician for Spanish) that no window of the recording supported.

A recording of 30-90 s has one or two vote windows, too few to show a switch: its speech
is heard piece by piece before it is transcribed (:func:`piece_switch`). A recording short
enough for one vote window cannot show two languages there either; its transcription can
(:func:`short_switch`): speech left without a segment or written in unsure words is heard
again alone, and only then.

Pure logic over the spans and a ``detect`` callable (the model host's ``detect_language``),
like :mod:`app.media.language_vote`; this costs nothing for a recording in one language
of 30 s or less (heard again only when its transcription looks suspect) or of 90 s or more
(which never gets here), and one encoder pass per piece for one of 30-90 s.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from app.media.language_vote import CONFIDENT, MIN_SPEECH_S, WINDOW_S, Detect
from app.media.naming import normalise_language
from app.media.translation_quality import LanguageIdentifier, language_free

log = logging.getLogger(__name__)

#: Seconds of speech in a piece whose language is heard (a 30-s encoder pass holds it with room).
PIECE_S = 15.0
#: Seconds of speech per piece while a boundary between two languages is placed.
FINE_PIECE_S = 3.0

Span = tuple[float, float]


@dataclass(frozen=True)
class Stretch:
    """``[start_s, end_s)`` of the recording, heard in ``language``."""

    start_s: float
    end_s: float
    language: str

    def to_dict(self) -> dict[str, Any]:
        return {"start": round(self.start_s, 3), "end": round(self.end_s, 3), "language": self.language}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Stretch:
        return cls(float(data["start"]), float(data["end"]), str(data["language"]))


def pieces(spans: Sequence[Span], speech_s: float) -> list[Span]:
    """The spans grouped in order into pieces of at least ``speech_s`` seconds of speech, cut only at pauses.

    A span longer than twice ``speech_s`` (speech without a pause the VAD saw) is cut
    into equal parts; a short tail joins the piece before it.
    """
    parts: list[Span] = []
    for start, end in spans:
        count = max(1, int((end - start) // speech_s)) if end - start > 2 * speech_s else 1
        step = (end - start) / count
        parts += [(start + k * step, start + (k + 1) * step) for k in range(count)]
    out: list[Span] = []
    held: list[Span] = []
    for part in parts:
        held.append(part)
        if sum(e - s for s, e in held) >= speech_s:
            out.append((held[0][0], held[-1][1]))
            held = []
    if held:
        if out and sum(e - s for s, e in held) < speech_s / 2:
            out[-1] = (out[-1][0], held[-1][1])
        else:
            out.append((held[0][0], held[-1][1]))
    return out


def coarse_piece_s(spans: Sequence[Span]) -> float:
    """Seconds of speech per coarse piece: :data:`PIECE_S`, or a quarter of the speech of a recording with
    under a minute of it (at least two fine pieces), so a switch there still falls between two pieces."""
    speech = sum(end - start for start, end in spans)
    return min(PIECE_S, max(2 * FINE_PIECE_S, speech / 4))


def _probabilities(answer: Mapping[str, Any], languages: Sequence[str]) -> dict[str, float] | None:
    """The answer's probability for each of ``languages``; None when the piece held too little speech to say."""
    if float(answer.get("speech_s") or 0.0) < min(MIN_SPEECH_S, FINE_PIECE_S / 2):
        return None
    top = {str(code): float(p) for code, p in answer.get("top") or []}
    if answer.get("language"):
        top.setdefault(str(answer["language"]), float(answer.get("language_probability") or 0.0))
    return {language: top.get(language, 0.0) for language in languages}


def _choose(answer: Mapping[str, Any], languages: Sequence[str]) -> str | None:
    scores = _probabilities(answer, languages)
    if not scores or max(scores.values()) <= 0.0:
        return None
    return max(languages, key=lambda language: scores[language])


def _filled(labels: list[str | None], default: str) -> list[str]:
    """Pieces that said nothing take the language of the piece before them (the first: the one after)."""
    known = next((label for label in labels if label), default)
    out: list[str] = []
    for label in labels:
        known = label or (out[-1] if out else known)
        out.append(known)
    return out


def _hear(detect: Detect, piece: Span) -> Mapping[str, Any]:
    return detect(piece[0], piece[1] - piece[0])


def _boundary(spans: Sequence[Span], left: Span, right: Span, before: str, after: str, detect: Detect) -> float:
    """Where ``before`` gives way to ``after`` between the pieces ``left`` and ``right``: a pause, found by halving.

    Inside two neighbouring pieces (half a minute of speech) the language changes once:
    the fine pieces there are searched for the first one heard as ``after`` by bisection,
    so a boundary costs about four encoder passes, not one per fine piece. A fine piece
    too short to say counts as ``before`` (the boundary moves on to where speech says so).
    """
    inside = [s for s in spans if s[0] >= left[0] - 1e-6 and s[1] <= right[1] + 1e-6]
    fine = pieces(inside, FINE_PIECE_S)
    if not fine:
        return (left[1] + right[0]) / 2
    low, high = 0, len(fine)  # the first fine piece in ``after`` lies in [low, high]
    while low < high:
        middle = (low + high) // 2
        heard = _probabilities(_hear(detect, fine[middle]), (before, after))
        if heard is not None and heard[after] > heard[before]:
            high = middle
        else:
            low = middle + 1
    if low == 0:
        return fine[0][0]
    if low == len(fine):
        return fine[-1][1]
    return (fine[low - 1][1] + fine[low][0]) / 2


def find_stretches(spans: Sequence[Span], languages: Sequence[str], duration_s: float, detect: Detect) -> list[Stretch]:
    """The recording as stretches in ``languages`` (at least two, as the vote heard them), covering ``[0, duration_s)``.

    One stretch when the pieces all agree after all (the vote's second language was a
    song or a quotation the VAD dropped).
    """
    coarse = pieces(spans, coarse_piece_s(spans))
    if not coarse:
        return [Stretch(0.0, duration_s, languages[0])]
    labels = _filled([_choose(_hear(detect, piece), languages) for piece in coarse], languages[0])
    cuts: list[tuple[float, str]] = []
    for i in range(1, len(coarse)):
        if labels[i] != labels[i - 1]:
            cuts.append((_boundary(spans, coarse[i - 1], coarse[i], labels[i - 1], labels[i], detect), labels[i]))
    stretches: list[Stretch] = []
    start, language = 0.0, labels[0]
    for at, following in cuts:
        at = max(at, start)
        if at > start:
            stretches.append(Stretch(start, at, language))
        start, language = at, following
    stretches.append(Stretch(start, duration_s, language))
    log.info("stretches: %s", [(round(s.start_s, 1), round(s.end_s, 1), s.language) for s in stretches])
    return _merged(stretches)


#: A recording longer than one vote window (:data:`~app.media.language_vote.WINDOW_S`) and shorter than this has
#: one or two vote windows, too few to place a switch: its speech is heard piece by piece (:func:`piece_switch`).
#: From this length on the vote hears three or more windows, both ends first (a film's behaviour is unchanged).
PIECE_CHECK_BELOW_S = 3 * WINDOW_S


def piece_switch(spans: Sequence[Span], language: str, duration_s: float, detect: Detect) -> list[Stretch]:
    """The stretches of a recording of one or two vote windows, judged from its audio; [] when it stays in ``language``.

    Whisper's detector names one language for a window that holds two (a real 60-s
    reading, English then German: one vote window, heard as English; transcribed in
    English, the German half came out as fluent invented English that the transcript
    checks of :func:`short_switch` could not tell apart). So each coarse piece of the
    speech (:func:`coarse_piece_s`: a quarter of it, 6-15 s) is heard alone, one encoder
    pass each. A language some piece hears with :data:`~app.media.language_vote.CONFIDENT`
    probability, over enough speech (:data:`~app.media.language_vote.MIN_SPEECH_S`), joins
    ``language``; two or more make stretches (:func:`find_stretches`, which reuses the
    pieces' answers and adds only the passes that place each boundary).
    """
    answers: dict[tuple[float, float], Mapping[str, Any]] = {}

    def heard(start: float, length: float) -> Mapping[str, Any]:
        if (start, length) not in answers:
            answers[(start, length)] = detect(start, length)
        return answers[(start, length)]

    best: dict[str, float] = {}
    for start, end in pieces(spans, coarse_piece_s(spans)):
        answer = heard(start, end - start)
        code, p = normalise_language(str(answer.get("language") or "")), float(answer.get("language_probability") or 0.0)
        if code and p >= CONFIDENT and float(answer.get("speech_s") or 0.0) >= MIN_SPEECH_S:
            best[code] = max(best.get(code, 0.0), p)
    others = sorted((code for code in best if code != language), key=lambda code: -best[code])
    log.info("pieces heard: %s", [(round(s, 1), round(s + n, 1), a.get("language"), round(float(a.get("language_probability")
                                   or 0.0), 2)) for (s, n), a in answers.items()])
    if not others:
        return []
    found = find_stretches(spans, (language, *others), duration_s, heard)
    return found if len(found) > 1 else []


#: Speech the VAD heard, this long or longer, that no segment covers is suspect: held to one language,
#: Whisper base writes nothing for a stretch in another one (a real 19-s English-then-German reading,
#: transcribed in German: its 10.5 s of English have no segment; one-language readings leave at most 1.5 s).
UNHEARD_S = 4.0
#: A segment whose words Whisper gave this probability or less on average is suspect: held to English, it
#: "translates" a German sentence into invented English at 0.39-0.52; real one-language segments: 0.76 or more.
UNSURE_WORDS = 0.6
#: A segment whose text the offline identifier gives the transcript's language at most this probability is suspect:
#: held to German, Whisper base writes some English sentences in English (a real 37-s English-then-German reading:
#: 0.08 or less for German on its English lines); real one-language lines: 0.61 or more.
OTHER_TEXT = 0.2
#: A suspect region shorter than this is not heard (a word or two says nothing reliable about a language).
MIN_REGION_S = 3.0
#: Suspect regions heard at most, longest first: one encoder pass each, only when something is suspect
#: (plus one for the segments Whisper wrote, when a suspect region hears as the transcript's language).
MAX_CHECKS = 2


def _suspect(segment: Mapping[str, Any], language: str) -> bool:
    """Whisper was unsure of the segment's words, or wrote it in another language than it was held to."""
    if float(segment.get("word_probability", 1.0)) <= UNSURE_WORDS:
        return True
    text = str(segment.get("text") or "")
    return not language_free(text) and LanguageIdentifier.target_probability(text, language) <= OTHER_TEXT


def suspect_regions(spans: Sequence[Span], segments: Sequence[Mapping[str, Any]], language: str) -> list[Span]:
    """Where a transcription held to ``language`` looks like it missed another: longest first.

    A region is a run of suspect parts of one kind in time order, not broken by a sure segment: speech
    of the VAD's ``spans`` that no segment covers for :data:`UNHEARD_S` or more, segments
    whose ``word_probability`` is :data:`UNSURE_WORDS` or less, and segments whose text the
    offline identifier (the translation check's) does not take for ``language``
    (:data:`OTHER_TEXT`). Costs no model call.
    """
    covered = sorted((float(s["start"]), float(s["end"])) for s in segments)
    parts: list[tuple[float, float, str | None]] = []  # kind: "unheard", "written" (a suspect segment), None (sure)
    for start, end in spans:
        at = start
        for a, b in covered:
            if b <= at or a >= end:
                continue
            if a - at >= UNHEARD_S:
                parts.append((at, a, "unheard"))
            at = max(at, b)
        if end - at >= UNHEARD_S:
            parts.append((at, end, "unheard"))
    parts += [(float(s["start"]), float(s["end"]), "written" if _suspect(s, language) else None) for s in segments]
    regions: list[Span] = []
    run: list[tuple[float, float, str | None]] = []
    # A run ends at a sure segment, and where unheard speech meets written suspects: held to German, Whisper may write
    # the English half in English and leave the German half unwritten, two languages side by side.
    for part in sorted(parts, key=lambda p: (p[0], p[1])) + [(float("inf"), float("inf"), None)]:
        if part[2] is not None and (not run or run[-1][2] == part[2]):
            run.append(part)
            continue
        if run:
            regions.append((run[0][0], max(e for _, e, _ in run)))
        run = [part] if part[2] is not None else []
    return sorted((r for r in regions if r[1] - r[0] >= MIN_REGION_S), key=lambda r: r[0] - r[1])


def _label(answer: Mapping[str, Any], language: str, opening_top: Sequence[str]) -> str | None:
    """The language a heard region is in, or None when the detector was unsure, heard too little speech, or named a
    language the opening did not (a neighbour such as Dutch for German: the opening heard the whole short recording)."""
    heard = normalise_language(str(answer.get("language") or ""))
    if (not heard or float(answer.get("speech_s") or 0.0) < MIN_SPEECH_S
            or float(answer.get("language_probability") or 0.0) < CONFIDENT):
        return None
    return heard if heard == language or heard in opening_top else None


def _inside(segment: Mapping[str, Any], regions: Iterable[tuple[float, float, Any]]) -> bool:
    middle = (float(segment["start"]) + float(segment["end"])) / 2
    return any(start <= middle <= end for start, end, _ in regions)


def short_switch(spans: Sequence[Span], segments: Sequence[Mapping[str, Any]], language: str, opening_top: Sequence[str],
                 duration_s: float, detect: Detect) -> list[Stretch]:
    """The stretches of a short recording (one vote window) transcribed in ``language``; [] when it stays one language.

    A window of one vote cannot show a switch: Whisper's detector names one language for
    the mix (a 19-s English-then-German reading: German 0.99). The transcription in that
    language can: the other language's speech comes out as nothing, as unsure words or
    as text in the other language (:func:`suspect_regions`, no model call). Only then is each suspect region heard alone (up to
    :data:`MAX_CHECKS` encoder passes). Held to German, Whisper may also write an English
    half in English and leave the German half out: a suspect region then hears as the
    transcript's own language, so the longest run of segments Whisper did write is heard
    too (one pass more). A region takes the language the detector is sure of
    (:data:`~app.media.language_vote.CONFIDENT`) among those the opening named; the
    segments heard in no region keep ``language``; stretches change language halfway
    through the pause between the last part of one language and the first of the next.
    A one-language recording without suspects costs nothing.
    """
    heard = [(start, end, _label(detect(start, end - start), language, opening_top))
             for start, end in suspect_regions(spans, segments, language)[:MAX_CHECKS]]
    if heard and all(label in (language, None) for _, _, label in heard) and language in [label for *_, label in heard]:
        runs: list[list[Mapping[str, Any]]] = [[]]
        for segment in sorted(segments, key=lambda s: float(s["start"])):
            if _inside(segment, heard):
                runs.append([])
            else:
                runs[-1].append(segment)
        run = max(runs, key=lambda r: sum(float(s["end"]) - float(s["start"]) for s in r))
        if run:
            start, end = float(run[0]["start"]), float(run[-1]["end"])
            heard.append((start, end, _label(detect(start, end - start), language, opening_top)))
    parts = sorted([(start, end, label) for start, end, label in heard if label]
                   + [(float(s["start"]), float(s["end"]), language) for s in segments if not _inside(s, heard)])
    groups: list[list[Any]] = []
    for start, end, label in parts:
        if groups and groups[-1][2] == label:
            groups[-1][1] = max(groups[-1][1], end)
        else:
            groups.append([start, end, label])
    if len(groups) < 2:
        return []
    cuts = [0.0] + [(before[1] + after[0]) / 2 if after[0] >= before[1] else after[0]
                    for before, after in zip(groups, groups[1:])] + [duration_s]
    cuts = [min(max(cut, earlier), duration_s) for cut, earlier in zip(cuts, [0.0] + cuts)]  # in order, inside the file
    found = _merged(Stretch(cuts[i], cuts[i + 1], str(group[2])) for i, group in enumerate(groups) if cuts[i + 1] > cuts[i])
    log.info("short recording, regions heard: %s; stretches: %s", heard,
             [(round(s.start_s, 1), round(s.end_s, 1), s.language) for s in found])
    return found if len(found) > 1 else []


def left_unwritten(spans: Sequence[Span], written_s: float, end_s: float) -> bool:
    """True when the VAD heard :data:`UNHEARD_S` or more of speech between ``written_s`` (the end of a stretch's last
    segment) and the stretch's ``end_s``.

    A stretch's transcription ends inside the recording. When the rest of it fits in
    one 30-s window, Whisper base may end its text early there: a real English stretch of
    31 s (three sentences) came out as its first two, and transcribed again from the end of
    the second, the third came out whole. The caller transcribes such a rest once more.
    """
    return sum(max(0.0, min(b, end_s) - max(a, written_s)) for a, b in spans) >= UNHEARD_S


def _merged(stretches: Iterable[Stretch]) -> list[Stretch]:
    out: list[Stretch] = []
    for stretch in stretches:
        if out and out[-1].language == stretch.language:
            out[-1] = Stretch(out[-1].start_s, stretch.end_s, stretch.language)
        else:
            out.append(stretch)
    return out


def language_at(stretches: Sequence[Stretch], time_s: float) -> str:
    """The language of the stretch holding ``time_s`` (before the first: the first's; after the last: the last's)."""
    for stretch in stretches:
        if time_s < stretch.end_s:
            return stretch.language
    return stretches[-1].language


def speech_by_language(segments: Iterable[Mapping[str, Any]], default: str | None) -> list[dict[str, Any]]:
    """``[{"language", "seconds"}]`` of the transcribed speech, most first (``status --items --json``'s ``languages``)."""
    seconds: dict[str, float] = {}
    for segment in segments:
        language = str(segment.get("language") or default or "")
        if language:
            seconds[language] = seconds.get(language, 0.0) + max(0.0, float(segment["end"]) - float(segment["start"]))
    return [{"language": language, "seconds": round(total, 1)}
            for language, total in sorted(seconds.items(), key=lambda item: -item[1])]


def translation_runs(cues: Sequence[Mapping[str, Any]], default: str | None, target: str) -> list[tuple[str, list[int]]]:
    """The cues a translation sends, by their spoken language: ``(language, cue indexes)``, in order of first cue.

    In a mixed-language recording each cue carries its stretch's ``language``; other cues
    are in ``default`` (the transcript's). Cues already in ``target`` are kept as they are,
    whatever the recording's main language: a German recording with English stretches,
    translated to German, sends only the English cues, and a third language is sent as
    itself, never as the main language's other one.
    """
    target = normalise_language(target)
    runs: dict[str, list[int]] = {}
    for i, cue in enumerate(cues):
        language = normalise_language(str(cue.get("language") or default or ""))
        if language != target:
            runs.setdefault(language, []).append(i)
    return list(runs.items())


def spliced(texts: Sequence[str], sent: Sequence[int], translated: Sequence[str], fallback: Iterable[int]) -> tuple[list[str], list[int]]:
    """Every cue's text after translating the cues ``sent`` (indexes, in the order they were sent):
    (texts, fallback as indexes of all cues). ``translated`` and ``fallback`` answer ``sent``, in its order;
    the other cues keep their text.
    """
    out = list(texts)
    for j, i in enumerate(sent):
        out[i] = translated[j]
    return out, sorted(sent[j] for j in fallback)


__all__ = ["FINE_PIECE_S", "PIECE_CHECK_BELOW_S", "PIECE_S", "Stretch", "find_stretches", "language_at",
           "left_unwritten", "piece_switch", "pieces", "short_switch", "speech_by_language", "spliced", "suspect_regions",
           "translation_runs"]
