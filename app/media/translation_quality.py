"""Is a translated cue a translation of its source? A per-cue estimate, whatever the model (SPEC §7).

A fluent line in the wrong language, a line that belongs to the next cue, the same line
repeated over different sentences, or a sentence that says something else all read as
"completed" when only the 1:1 numbering is checked. Each translated cue is therefore
checked on four things, cheaply and offline:

* **language** — an identifier whose model ships inside its wheel (py3langid, restricted
  to the common subtitle languages plus the pair, which makes it reliable on short lines)
  must not find the line clearly in another language than the target;
* **faithful** — the cross-lingual cosine of multilingual-e5 between source and
  translation must reach a floor calibrated per language pair on real human translations
  (``bench/translation_qe.py``), and the translation must not fit another cue's source
  of its batch clearly better than its own (a line slid along). Whisper ends some cues
  inside a clause, and e5 scores such a fragment's correct translation low ("I know" /
  "Ich weiß,"): a cue just under its floor is scored again joined with a neighbour
  (:func:`fragment_passes`), and passes when the joined pair clears the floor and its
  translation does not fit a neighbour's source better than its own (a fragment slid by one).
  Lines too short for the floor are still checked for being slid along;
* **not repeated** — the same text may not translate a different source line earlier in
  the file (sources e5 finds near-identical may share one);
* **glossary** — a term of the glossary in the source must appear as given in the translation;
* **whole** — the line may not repeat a phrase of its own :data:`LOOP_TIMES` times where the
  source does not (a model looping: "I don't know, I don't know, I don't know"), nor keep a
  run of :data:`COPIED_RUN` words of the source as they were in a line that is otherwise
  translated (half a line left in the source language: "Maison de la maison, subject to the
  following conditions."). Both were seen in real model output that passed the other checks.

Lines that carry no language (names, numbers, a "Hm.") are exempt from the language check
and the floor: see :func:`language_free`; they may come back unchanged only when they are
names, numbers or one word (:func:`echo_allowed`: "and tall." kept in English is untranslated, and so
is "Guten Morgen!" in German, where every noun has a capital).
The checks catch wrong-language, shifted, repeated and unrelated lines; they cannot catch a
fluent translation that gets a detail wrong (a number, a negation, who did what), which e5
sees as close.

The module is pure: it gets vectors from the caller (one e5 call per batch, in the
model host) and returns a reason or None per cue.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from app.media.glossary import GlossaryEntry
from app.media.naming import normalise_language

#: Stable reason codes, shown per cue in the item detail and the subtitle editor.
UNTRANSLATED = "untranslated"  # the line came back as its source
LANGUAGE = "language"  # another language than the target
UNFAITHFUL = "unfaithful"  # says something else than its source
MISALIGNED = "misaligned"  # fits another cue's source better than its own
REPEATED = "repeated"  # the same text as the translation of a different line
GLOSSARY = "glossary"  # a glossary term not rendered as given
NO_ANSWER = "no_answer"  # the model's answer did not map back to this cue
LOOPED = "looped"  # the line repeats a phrase of its own ("the the the", a model looping)
PART_UNTRANSLATED = "part_untranslated"  # a run of words left as in the source ("Maison de la maison, subject to …")

#: A phrase said this many times in a row, where the source does not repeat it, is a model looping.
LOOP_TIMES = 3
#: This many words in a row copied from the source (not names) leave part of the line untranslated.
COPIED_RUN = 4

#: Cosine floors of source↔translation (e5 ``query:`` vectors), per (source, target), calibrated
#: by ``bench/translation_qe.py`` on one half of real human translations and checked on the other.
#: With fragments among the good cues and the fragment rule on, the calibration would raise them
#: (0.875-0.885); they stay here, where whole sentences pass more often (``--shipped`` in the bench).
FAITHFUL_FLOORS: dict[tuple[str, str], float] = {
    ("en", "de"): 0.865,
    ("de", "en"): 0.865,
    ("en", "zh"): 0.845,
    ("zh", "en"): 0.845,
}
#: Pairs nobody calibrated yet: a floor below every calibrated one (catches unrelated lines only).
DEFAULT_FLOOR = 0.84
#: A translation that beats its own source's cosine by this much on another source is misaligned.
MISALIGN_MARGIN = 0.02
#: Two sources at least this close (e5 cosine) may share one translation ("Yes." / "Yeah." → "Ja.").
SAME_MEANING = 0.92
#: A cue at most this far under its floor may be a fragment of a clause, scored again with a neighbour
#: (an unrelated line scores further down; calibrated with the floors by ``bench/translation_qe.py``).
FRAGMENT_BAND = 0.06
#: The joined pair must fit by this much more than the neighbour's translation fits the joined source alone,
#: and than the neighbour's source fits the joined translation alone: the fragment adds on both sides.
FRAGMENT_GAIN = 0.005

#: Languages the identifier chooses among (plus the pair itself): the common languages of
#: subtitles. Restricted, py3langid is right on 99.5 % of short English, 98.5 % of short German
#: and 100 % of short Chinese lines (measured on Tatoeba, see the README); unrestricted it
#: calls 7 % of short Chinese lines Cantonese or Wu.
LID_LANGUAGES = ["en", "de", "zh", "ja", "fr", "es", "it", "pt", "ru", "ko", "nl", "pl", "sv", "tr", "ar", "vi", "id", "cs",
                 "uk", "da", "fi", "no", "hu", "el", "he", "th", "hi"]
#: Below this probability of the target language (among the restricted set) a line is "another language".
MIN_TARGET_PROBABILITY = 0.05
#: Fewer letters than this (alphabetic scripts) or Han/kana characters than CJK_MIN: too short to identify.
MIN_LETTERS = 8
CJK_MIN = 2


@dataclass(frozen=True)
class CueCheck:
    """One cue as the estimate sees it: its texts and e5 vectors (unit length)."""

    source: str
    translation: str
    source_vector: np.ndarray
    translation_vector: np.ndarray


def _letters(text: str) -> list[str]:
    return [ch for ch in text if unicodedata.category(ch).startswith("L")]


def _is_cjk(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK UNIFIED", "HIRAGANA", "KATAKANA", "HANGUL"))


def language_free(text: str, glossary: Iterable[GlossaryEntry] = ()) -> bool:
    """Whether a line carries too little language to identify (names and numbers only, "Hm.").

    The rule: after glossary terms are removed, a line is language-free when it has fewer than
    ``MIN_LETTERS`` letters of alphabetic scripts and fewer than ``CJK_MIN`` CJK characters, or
    when every word starts with a capital or a digit and there are at most three words
    ("Tom!", "Mary, John.", "B-52"). Such lines keep their text in any language, so neither the
    identifier nor e5 can judge them.
    """
    text = _without_glossary(text, glossary)
    letters = _letters(text)
    cjk = sum(1 for ch in letters if _is_cjk(ch))
    if cjk >= CJK_MIN:
        return False
    return len(letters) - cjk < MIN_LETTERS or _names_only(_words(text))


#: Languages that write every noun with a capital: there, capitals do not mark a name ("Guten Morgen!").
NOUNS_CAPITALISED = frozenset({"de", "lb"})


def echo_allowed(text: str, glossary: Iterable[GlossaryEntry] = (), language: str | None = None) -> bool:
    """Whether a line may come back unchanged as its own translation.

    Names, numbers and single words ("Tom!", "B-52", "Okay?", "Taxi!") are written the same in
    many languages; a short line of several words with a lowercase one ("and tall.", "I know")
    is not, and :func:`language_free` alone would let it through because it is too short to
    identify. In a ``language`` that capitalises its nouns (German), several capitalised words
    are no sign of a name ("Guten Morgen!", "Vielen Dank"), so only one word or numbers may
    come back unchanged there. A false verdict costs little: an untranslated cue keeps exactly
    this text, and a name refused here is listed with its reason, never altered.
    """
    if not language_free(text, glossary):
        return False
    words = _words(_without_glossary(text, glossary))
    if len(words) <= 1 or all(any(ch.isdigit() for ch in w) for w in words):  # "B-52, 1984"
        return True
    return normalise_language(language) not in NOUNS_CAPITALISED and _names_only(words)


def _without_glossary(text: str, glossary: Iterable[GlossaryEntry]) -> str:
    for entry in glossary:
        text = re.sub(re.escape(entry.term), " ", text, flags=re.IGNORECASE)
        text = re.sub(re.escape(entry.required_in_translation), " ", text, flags=re.IGNORECASE)
    return text


def _words(text: str) -> list[str]:
    return re.findall(r"\w[\w'’-]*", text)


def _names_only(words: list[str]) -> bool:
    """At most three words, each starting with a capital or a digit ("Mary, John.", "B-52, 1984")."""
    return 0 < len(words) <= 3 and all(w[0].isupper() or w[0].isdigit() for w in words)


def normalised(text: str) -> str:
    """A line for comparison: case, spacing and punctuation do not count."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join("".join(ch if ch.isalnum() else " " for ch in folded).split())


class LanguageIdentifier:
    """py3langid restricted to :data:`LID_LANGUAGES` plus the pair; loaded once per process (~0.3 s)."""

    _lock: ClassVar[threading.Lock] = threading.Lock()
    _cache: ClassVar[dict[tuple[str, ...], object]] = {}

    @classmethod
    def _model(cls, languages: tuple[str, ...]) -> object:
        with cls._lock:
            if languages not in cls._cache:
                from py3langid.langid import MODEL_FILE  # type: ignore[import-untyped]
                from py3langid.langid import LanguageIdentifier as Py3LangId

                ident = Py3LangId.from_model_file(MODEL_FILE, norm_probs=True)
                known = set(ident.nb_classes)
                ident.set_languages([code for code in languages if code in known])
                cls._cache[languages] = ident
            return cls._cache[languages]

    @classmethod
    def best(cls, text: str) -> tuple[str, float]:
        """The most probable of the common languages for ``text``, and its probability."""
        ranked = cls._model(tuple(LID_LANGUAGES)).rank(" ".join(text.split()))  # type: ignore[attr-defined]
        return str(ranked[0][0]), float(ranked[0][1])

    @classmethod
    def target_probability(cls, text: str, target: str, source: str | None = None) -> float:
        """P(target language | text) among the common languages and the pair."""
        target = normalise_language(target)
        extra = tuple(code for code in (target, normalise_language(source)) if code and code not in LID_LANGUAGES)
        ident = cls._model(tuple(LID_LANGUAGES) + extra)
        return float(dict(ident.rank(" ".join(text.split()))).get(target, 0.0))  # type: ignore[attr-defined]


def in_target_language(text: str, target: str, source: str | None = None) -> bool:
    """Whether the identifier lets the line pass as the target language."""
    return LanguageIdentifier.target_probability(text, target, source) >= MIN_TARGET_PROBABILITY


def faithful_floor(source: str | None, target: str | None) -> float:
    """The calibrated cosine floor of a language pair (the default for uncalibrated pairs)."""
    return FAITHFUL_FLOORS.get((normalise_language(source), normalise_language(target)), DEFAULT_FLOOR)


def contains_term(text: str, term: str) -> bool:
    """Whether ``term`` occurs in ``text``, case-insensitively, as whole words where the script has words.

    "Tom" is not in "tomato"; a term that begins or ends with a CJK character (no spaces
    between words there) is found anywhere.
    """
    if not term.strip():
        return False
    left = r"(?<!\w)" if term[0].isalnum() and not _is_cjk(term[0]) else ""
    right = r"(?!\w)" if term[-1].isalnum() and not _is_cjk(term[-1]) else ""
    return re.search(left + re.escape(term) + right, text, flags=re.IGNORECASE) is not None


def glossary_missing(source: str, translation: str, glossary: Iterable[GlossaryEntry]) -> list[str]:
    """The glossary terms in ``source`` whose required rendering is not in ``translation`` (case-insensitive)."""
    return [e.term for e in glossary
            if contains_term(source, e.term) and not contains_term(translation, e.required_in_translation)]


def glossary_in(texts: Iterable[str], glossary: Iterable[GlossaryEntry]) -> list[GlossaryEntry]:
    """The glossary entries whose term occurs in any of ``texts`` (what a batch's prompt must name)."""
    joined = "\n".join(texts)
    return [e for e in glossary if contains_term(joined, e.term)]


@dataclass
class RepeatMemory:
    """Translations seen so far in a file, with their source and its vector (for the repeat check)."""

    seen: dict[str, tuple[str, np.ndarray | None]]

    @classmethod
    def empty(cls) -> RepeatMemory:
        return cls({})

    def remember(self, source: str, translation: str, source_vector: np.ndarray | None) -> None:
        self.seen.setdefault(normalised(translation), (normalised(source), source_vector))

    def repeats(self, cue: CueCheck) -> bool:
        """The cue's text already translated a different line (not one of the same meaning)."""
        earlier = self.seen.get(normalised(cue.translation))
        if earlier is None or earlier[0] == normalised(cue.source):
            return False
        return earlier[1] is None or float(earlier[1] @ cue.source_vector) < SAME_MEANING


#: ``embed(texts)`` → one unit-length e5 ``query:`` vector per text (rows of an array).
Embed = Callable[[list[str]], np.ndarray]


def assess(
    cues: Sequence[CueCheck],
    source: str | None,
    target: str,
    glossary: Sequence[GlossaryEntry] = (),
    memory: RepeatMemory | None = None,
    floor: float | None = None,
    embed: Embed | None = None,
) -> list[str | None]:
    """A reason per cue why it is not a faithful translation, or None when it passes.

    ``cues`` are one batch (the misalignment check compares each translation with the
    batch's other sources); ``memory`` carries the file's earlier answers for the repeat
    check and learns this batch's. With ``embed``, a cue just under the floor is scored
    again joined with a neighbour of the batch (:func:`fragment_passes`).
    """
    floor = faithful_floor(source, target) if floor is None else floor
    memory = memory if memory is not None else RepeatMemory.empty()
    sources = np.stack([c.source_vector for c in cues]) if cues else np.zeros((0, 1))
    reasons: list[str | None] = []
    for i, cue in enumerate(cues):
        reasons.append(_reason(i, cue, cues, sources, source, target, glossary, memory, floor))
        if normalised(cue.translation) != normalised(cue.source):
            memory.remember(cue.source, cue.translation, cue.source_vector)  # a bad answer repeated is bad too
    if embed is not None:
        for i in [i for i, reason in enumerate(reasons) if reason == UNFAITHFUL]:
            if fragment_passes(i, cues, reasons, sources, floor, embed):
                reasons[i] = None
    return reasons


def _misaligned(i: int, cue: CueCheck, cues: Sequence[CueCheck], sources: np.ndarray, own: float) -> bool:
    """The translation fits another source of the batch (not one of the same meaning) clearly better than its own."""
    for j, other in enumerate(sources @ cue.translation_vector):
        if j == i or normalised(cues[j].source) == normalised(cue.source):
            continue
        if float(sources[j] @ cue.source_vector) >= SAME_MEANING:
            continue
        if float(other) > own + MISALIGN_MARGIN:
            return True
    return False


def _fits_neighbour_better(i: int, cues: Sequence[CueCheck], sources: np.ndarray, own: float) -> bool:
    """The translation fits the source of the cue before or after (another line) better than its own.

    Stricter than :func:`_misaligned` (no margin, no exemption for sources e5 finds close): the
    two halves of one sentence are close for e5 ("I know" / "what I know." 0.94), so a fragment
    slid by one is told from a faithful one only by which half its translation fits better.
    """
    translation = cues[i].translation_vector
    return any(float(sources[j] @ translation) > own for j in (i - 1, i + 1)
               if 0 <= j < len(cues) and normalised(cues[j].source) != normalised(cues[i].source))


def fragment_passes(i: int, cues: Sequence[CueCheck], reasons: Sequence[str | None], sources: np.ndarray,
                    floor: float, embed: Embed) -> bool:
    """Whether cue ``i``, unfaithful alone, reads as a faithful part of a clause it shares with a neighbour.

    Whisper cuts cues at pauses, not clauses; a correct translation of half a clause can
    score under the floor alone. The cue passes when it is within :data:`FRAGMENT_BAND` of
    the floor, fits no other source of the batch clearly better and neither neighbour's
    source better than its own (a line or a fragment slid along stays caught), and for a
    neighbour cue (before or after; one the other checks did not refuse for language,
    repetition or glossary) the two sources joined and the two translations joined clear
    the floor, the fragment adding at least :data:`FRAGMENT_GAIN` on both sides: its
    translation to what the neighbour's translation alone fits of the joined source, and
    its source to what the neighbour's source alone fits of the joined translation (an
    unrelated line appended to a good neighbour adds to neither). No embedding beyond the
    joined pair: the neighbour checks reuse the batch's vectors.
    """
    cue = cues[i]
    own = float(cue.source_vector @ cue.translation_vector)
    if (own < floor - FRAGMENT_BAND or _misaligned(i, cue, cues, sources, own)
            or _fits_neighbour_better(i, cues, sources, own)):
        return False
    for j in (i - 1, i + 1):
        if not 0 <= j < len(cues) or reasons[j] not in (None, UNFAITHFUL) or not cues[j].source.strip():
            continue
        first, second = (cues[j], cue) if j < i else (cue, cues[j])
        joined_source, joined_translation = embed([f"{first.source} {second.source}",
                                                   f"{first.translation} {second.translation}"])
        joined = float(joined_source @ joined_translation)
        alone = max(float(joined_source @ cues[j].translation_vector), float(joined_translation @ cues[j].source_vector))
        if joined >= floor and joined >= alone + FRAGMENT_GAIN:
            return True
    return False


def looped(source: str, translation: str) -> bool:
    """The translation says one phrase (1-4 words, or CJK characters) :data:`LOOP_TIMES` times in a row; the source does not."""
    def loops(text: str) -> bool:
        units = _words(normalised(text))
        if len(units) < LOOP_TIMES:
            units = [ch for ch in normalised(text) if not ch.isspace()]  # CJK: characters
        for size in range(1, 5):
            for start in range(0, len(units) - size * LOOP_TIMES + 1):
                phrase = units[start:start + size]
                if all(unit.isdigit() for unit in phrase):
                    continue  # "100 000", "1000": a number, not a loop
                if all(units[start + k * size:start + (k + 1) * size] == phrase for k in range(LOOP_TIMES)):
                    return True
        return False

    return loops(translation) and not loops(source)


def copied_run(source: str, translation: str, glossary: Iterable[GlossaryEntry] = ()) -> bool:
    """A run of :data:`COPIED_RUN` or more words stands in the translation as in the source, the line not being an
    echo, and the run is not names or numbers (capitalised words and digits are written alike across languages)."""
    src = _words(normalised(_without_glossary(source, glossary)))
    out = _words(normalised(_without_glossary(translation, glossary)))
    if len(src) < COPIED_RUN or src == out:
        return False
    plain = {w for w in _words(_without_glossary(source, glossary)) if not (w[0].isupper() or w[0].isdigit())}
    runs = {tuple(src[k:k + COPIED_RUN]) for k in range(len(src) - COPIED_RUN + 1)}
    for k in range(len(out) - COPIED_RUN + 1):
        run = tuple(out[k:k + COPIED_RUN])
        if run in runs and sum(1 for w in run if w in {p.casefold() for p in plain}) >= COPIED_RUN - 1:
            return True
    return False


def _reason(i: int, cue: CueCheck, cues: Sequence[CueCheck], sources: np.ndarray, source: str | None,
            target: str, glossary: Sequence[GlossaryEntry], memory: RepeatMemory, floor: float) -> str | None:
    if not cue.source.strip():
        return None
    if glossary_missing(cue.source, cue.translation, glossary):
        return GLOSSARY
    free = language_free(cue.source, glossary) and language_free(cue.translation, glossary)
    if normalised(cue.translation) == normalised(cue.source) and not echo_allowed(cue.source, glossary, source):
        return UNTRANSLATED
    if looped(cue.source, cue.translation):
        return LOOPED
    if not free and not language_free(cue.translation, glossary) and not in_target_language(cue.translation, target,
                                                                                            source):
        return LANGUAGE
    if normalise_language(source) != normalise_language(target) and copied_run(cue.source, cue.translation, glossary):
        return PART_UNTRANSLATED
    if memory.repeats(cue):
        return REPEATED
    own = float(cue.source_vector @ cue.translation_vector)
    if own < floor and not free:  # e5 cannot judge a line this short by its own score, only against others'
        return UNFAITHFUL
    return MISALIGNED if _misaligned(i, cue, cues, sources, own) else None


def check_batch(
    sources: Sequence[str],
    translations: Sequence[str],
    embed: Callable[[list[str]], Sequence[Sequence[float]]],
    source: str | None,
    target: str,
    glossary: Sequence[GlossaryEntry] = (),
    memory: RepeatMemory | None = None,
) -> list[str | None]:
    """Embed a batch's sources and translations in one call and :func:`assess` it.

    A cue that may be a fragment costs one more call per neighbour tried (the joined pair).
    """
    if not sources:
        return []

    def unit(texts: list[str]) -> np.ndarray:
        vectors = np.asarray(embed(texts), dtype=np.float32)
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)

    vectors = unit(list(sources) + list(translations))
    n = len(sources)
    cues = [CueCheck(s, t, vectors[k], vectors[n + k]) for k, (s, t) in enumerate(zip(sources, translations))]
    return assess(cues, source, target, glossary, memory, embed=unit)
