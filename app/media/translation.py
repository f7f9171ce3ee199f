"""Translate cue texts in numbered batches, keeping the mapping 1:1 (SPEC §7).

Small local models drop lines, merge two lines into one, repeat the example or loop.
A translation that is off by one line is worse than none: every later subtitle
would show the wrong sentence. So each batch is numbered (``1| text``), the answer
must come back with exactly the same numbers, once each, non-empty; otherwise the
batch is retried in halves, down to single cues, and a single cue that still fails
keeps its original text and is listed in ``TranslationResult.fallback``. Nothing is
ever shifted or dropped.

This module knows no runtime. ``complete_fn`` gets a :class:`Prompt` carrying both
forms of the same request: ``text``/``stop``/``prefix`` for a base model's few-shot
completion and ``messages`` for a chat model; :func:`completion_caller` and
:func:`chat_caller` adapt a :class:`TextModel` (hosted or in this process) to it.

Mapping back is not enough: a numbered answer can be fluent German that belongs to the
next line, English left as it was, or one line repeated. With a ``check`` (the stage passes
:mod:`app.media.translation_quality`'s estimate, e5 in the model host) every batch's
answers are judged per cue; a cue that fails is asked again alone, with the cues before it
and their translations as context, and failing again keeps its original text, listed in
``fallback`` with the reason in ``reasons``.

Each batch's prompt carries the previous :data:`CONTEXT_CUES` source lines and their
translations (names, gender and register stay consistent across a film) and the
glossary's required renderings of the terms its lines contain.

Resumable: the stage checkpoints after every top-level batch (``on_batch_done``) and
passes the saved prefix back as ``done_so_far``/``fallback_so_far``/``reasons_so_far``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from app.media.glossary import GlossaryEntry
from app.media.languages import english_name
from app.media.naming import normalise_language
from app.media.translation_quality import NO_ANSWER, UNTRANSLATED, glossary_in

DEFAULT_BATCH_SIZE = 8
#: Source lines (with their translations) before a batch that travel with it as context.
CONTEXT_CUES = 3

#: One short example pair per language, so the few-shot prompt is in the right languages.
_EXAMPLES = {
    "en": ["Good morning.", "Where is the train station?"],
    "zh": ["早上好。", "火车站在哪里？"],
    "ja": ["おはようございます。", "駅はどこですか？"],
    "de": ["Guten Morgen.", "Wo ist der Bahnhof?"],
    "fr": ["Bonjour.", "Où est la gare ?"],
    "es": ["Buenos días.", "¿Dónde está la estación de tren?"],
    "ko": ["좋은 아침입니다.", "기차역이 어디에 있어요?"],
    "it": ["Buongiorno.", "Dov'è la stazione?"],
    "pt": ["Bom dia.", "Onde fica a estação de trem?"],
    "ru": ["Доброе утро.", "Где находится вокзал?"],
}

#: "3| text", and the numberings chat models fall back to: "3. text", "3) text", "3: text".
_LINE = re.compile(r"^\s*(\d{1,4})\s*[|｜.．:：)）]\s?(.*?)\s*$")


def language_name(code: str | None) -> str:
    code = normalise_language(code)
    return english_name(code) or code


@dataclass(frozen=True)
class Prompt:
    """One batch request in both a completion form and a chat form.

    ``items`` are the batch's texts numbered 1..n (local numbers; the batch's place in
    the cue list is ``first_index``). For the completion form the answer is
    ``prefix + generated text``: the prompt already ends with ``"1|"`` so a small base
    model only has to continue the pattern.
    """

    items: tuple[tuple[int, str], ...]
    first_index: int
    source: str
    target: str
    text: str
    prefix: str
    stop: tuple[str, ...]
    messages: tuple[dict[str, str], ...]
    max_tokens: int


CompleteFn = Callable[[Prompt], str]
#: ``check(sources, translations)`` → a reason per cue, None where it passes (cues in file order).
CheckFn = Callable[[list[str], list[str]], list["str | None"]]


@dataclass
class TranslationResult:
    """Translations aligned 1:1 with the input texts."""

    texts: list[str]
    fallback: list[int] = field(default_factory=list)  # cue indices left untranslated (original text kept)
    reasons: dict[int, str] = field(default_factory=dict)  # why each fallback cue is untranslated
    skipped: bool = False  # source == target: nothing was translated
    calls: int = 0  # model calls made in this run (retries included)
    retried_batches: int = 0  # batches that had to be split
    retried_cues: int = 0  # cues the quality check sent back once, alone


@dataclass(frozen=True)
class TranslationProgress:
    """What the stage checkpoints after each finished top-level batch."""

    texts: list[str]
    fallback: list[int]
    total: int
    reasons: dict[int, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"texts": list(self.texts), "fallback": list(self.fallback), "total": self.total,
                "reasons": {str(i): r for i, r in self.reasons.items()}}


def _one_line(text: str) -> str:
    """Numbered lines cannot carry newlines: a two-line cue is sent as one line."""
    return " ".join(text.split())


def build_prompt(texts: Sequence[str], source: str, target: str, first_index: int = 0,
                 context: Sequence[tuple[str, str]] = (), glossary: Sequence[GlossaryEntry] = ()) -> Prompt:
    """The numbered request for ``texts`` in completion (few-shot) and chat form.

    ``context`` are the (source, translation) pairs just before the batch: the completion
    form shows them as one more worked example (what a base model follows best), the chat
    form as lines already translated. ``glossary`` entries are given as required renderings.
    """
    src_name, tgt_name = language_name(source), language_name(target)
    items = tuple((i + 1, _one_line(t)) for i, t in enumerate(texts))
    numbered = "\n".join(f"{i}| {t}" for i, t in items)
    src_ex = _EXAMPLES.get(normalise_language(source), _EXAMPLES["en"])
    tgt_ex = _EXAMPLES.get(normalise_language(target), _EXAMPLES["en"])
    example_in = "\n".join(f"{i + 1}| {t}" for i, t in enumerate(src_ex))
    example_out = "\n".join(f"{i + 1}| {t}" for i, t in enumerate(tgt_ex))
    terms = "; ".join(f"{e.term} → {e.required_in_translation}" for e in glossary)
    instruction = (
        f"Translate each numbered {src_name} subtitle line into {tgt_name}. "
        f"Answer with exactly {len(items)} lines, numbered 1 to {len(items)} like the input, "
        "one translation per line, nothing else."
        + (f" Always translate these terms exactly so: {terms}." if terms else "")
    )
    shown = [(_one_line(a), _one_line(b)) for a, b in context]
    before = ""
    if shown:
        context_in = "\n".join(f"{i + 1}| {a}" for i, (a, _) in enumerate(shown))
        context_out = "\n".join(f"{i + 1}| {b}" for i, (_, b) in enumerate(shown))
        before = f"{src_name}:\n{context_in}\n{tgt_name}:\n{context_out}\n\n"
    text = (
        f"{instruction}\n\n{src_name}:\n{example_in}\n{tgt_name}:\n{example_out}\n\n{before}"
        f"{src_name}:\n{numbered}\n{tgt_name}:\n1|"
    )
    earlier = ("The lines just before, already translated (for context only, do not repeat them):\n"
               + "\n".join(f"{a} → {b}" for a, b in shown) + "\n\n") if shown else ""
    messages = (
        {"role": "system", "content": "You translate subtitles. You only output the numbered translations."},
        {"role": "user", "content": f"{instruction}\n\n{earlier}{numbered}"},
    )
    # Room for the answer: about as many tokens as source characters, plus numbering.
    budget = sum(len(t) for _, t in items) * 2 + 8 * len(items) + 16
    return Prompt(
        items=items,
        first_index=first_index,
        source=source,
        target=target,
        text=text,
        prefix="1|",
        # A base model keeps numbering past the last line until max_tokens; the next number ends it.
        stop=("\n\n", f"\n{src_name}:", f"\n{tgt_name}:", f"\n{len(items) + 1}|"),
        messages=messages,
        max_tokens=min(1024, budget),
    )


def parse_answer(answer: str, count: int) -> list[str] | None:
    """The n translations in order, or None when the answer does not map back 1:1.

    Every id 1..n must appear exactly once with non-empty text; unnumbered lines
    (a chat model's preamble) are ignored, but an id outside 1..n is a failure.
    """
    found: dict[int, str] = {}
    for line in answer.splitlines():
        match = _LINE.match(line)
        if not match:
            continue
        number, text = int(match.group(1)), match.group(2).strip()
        if number < 1 or number > count or number in found or not text:
            return None
        found[number] = text
    if sorted(found) != list(range(1, count + 1)):
        return None
    return [found[i] for i in range(1, count + 1)]


def _is_echo(parsed: Sequence[str], chunk: Sequence[str]) -> bool:
    """The model repeated the source instead of translating it: not a translation.

    A single line may legitimately stay the same ("OK."); it is then flagged as
    fallback, which is accurate: nothing was translated.
    """
    return all(_one_line(a).casefold() == _one_line(b).casefold() for a, b in zip(parsed, chunk))


def _is_shifted(parsed: Sequence[str], chunk: Sequence[str]) -> bool:
    """Some answer line repeats a *different* cue's source text: the model slid lines along."""
    sources = {_one_line(t).casefold(): i for i, t in enumerate(chunk)}
    return any(sources.get(_one_line(a).casefold(), i) != i for i, a in enumerate(parsed))


def translate_cues(
    texts: Sequence[str],
    source: str | None,
    target: str | None,
    complete_fn: CompleteFn,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_batch_done: Callable[[TranslationProgress], None] | None = None,
    done_so_far: Sequence[str] = (),
    fallback_so_far: Sequence[int] = (),
    check: CheckFn | None = None,
    glossary: Sequence[GlossaryEntry] = (),
    reasons_so_far: Mapping[int, str] | None = None,
) -> TranslationResult:
    """Translate ``texts`` (one per cue) in numbered batches; the result maps 1:1.

    ``on_batch_done`` runs after each top-level batch with everything done so far;
    it may raise (e.g. ``StageStopped`` on pause) and the work up to there is kept by
    the caller. ``done_so_far`` resumes after a checkpoint: those cues are not sent
    again. ``check`` judges each batch's answers (see the module docstring).
    """
    texts = list(texts)
    if normalise_language(source) == normalise_language(target):
        return TranslationResult(texts=list(texts), skipped=True)
    if len(done_so_far) > len(texts):
        raise ValueError("checkpoint has more translations than there are cues")
    result = TranslationResult(texts=list(done_so_far), fallback=sorted(set(fallback_so_far)),
                               reasons=dict(reasons_so_far or {}))
    src, tgt = str(source), str(target)
    start = len(done_so_far)
    while start < len(texts):
        chunk = texts[start : start + max(1, batch_size)]
        context = _context(texts, result, start)
        translated, failed = _translate_batch(chunk, start, src, tgt, complete_fn, result, context, glossary)
        result.texts.extend(translated)
        if check is not None:
            failed = _checked(texts, start, len(chunk), failed, src, tgt, complete_fn, check, glossary, result)
        result.fallback.extend(failed)
        start += len(chunk)
        if on_batch_done is not None:
            on_batch_done(TranslationProgress(list(result.texts), list(result.fallback), len(texts),
                                              dict(result.reasons)))
    return result


def _context(texts: Sequence[str], result: TranslationResult, before: int) -> list[tuple[str, str]]:
    """The last :data:`CONTEXT_CUES` translated cues before ``before`` (untranslated ones say nothing)."""
    fallback = set(result.fallback)
    done = [(texts[i], result.texts[i]) for i in range(before) if i not in fallback and texts[i].strip()]
    return done[-CONTEXT_CUES:]


def _checked(texts: Sequence[str], start: int, count: int, failed: list[int], source: str, target: str,
             complete_fn: CompleteFn, check: CheckFn, glossary: Sequence[GlossaryEntry],
             result: TranslationResult) -> list[int]:
    """Judge a batch's answers; retry each failing cue once alone; returns the batch's fallback indices.

    Cues whose answer never mapped back were already asked alone (the batch halves down
    to single cues), so they are not asked again; a line left as its source is, unless it
    carries no language (the check passes a name left as it is).
    """
    reasons = check(list(texts[start:start + count]), result.texts[start:start + count])
    for index in [i for i in failed if reasons[i - start] is None]:
        failed.remove(index)  # a name or a number stays as it is in any language ("Tom!", "B-52")
        result.reasons.pop(index)
    retry = sorted(start + k for k, reason in enumerate(reasons)
                   if reason is not None and result.reasons.get(start + k) != NO_ANSWER)
    final = {i for i in failed if i not in retry}
    answers: dict[int, str] = {}
    for index in retry:
        result.retried_cues += 1
        result.reasons[index] = reasons[index - start] or result.reasons.get(index, UNTRANSLATED)
        prompt = build_prompt([texts[index]], source, target, index, _context(texts, result, index),
                              glossary_in([texts[index]], glossary))
        result.calls += 1
        parsed = parse_answer(complete_fn(prompt), 1)
        if parsed is None or _is_echo(parsed, [texts[index]]):
            final.add(index)
        else:
            answers[index] = parsed[0]
    if answers:
        again = check([texts[i] for i in answers], list(answers.values()))
        for (index, answer), reason in zip(answers.items(), again):
            if reason is None:
                result.texts[index] = answer
                result.reasons.pop(index, None)
            else:
                result.reasons[index] = reason
                final.add(index)
    for index in final:
        result.texts[index] = texts[index]  # the original text is kept, never a doubtful line
    for index in list(result.reasons):
        if start <= index < start + count and index not in final:
            result.reasons.pop(index)
    return sorted(final)


def _translate_batch(
    chunk: list[str], first_index: int, source: str, target: str, complete_fn: CompleteFn, result: TranslationResult,
    context: Sequence[tuple[str, str]] = (), glossary: Sequence[GlossaryEntry] = (),
) -> tuple[list[str], list[int]]:
    """Translate one batch, halving on failure; returns (texts, fallback indices)."""
    if all(not t.strip() for t in chunk):
        return list(chunk), []
    prompt = build_prompt(chunk, source, target, first_index, context, glossary_in(chunk, glossary))
    result.calls += 1
    parsed = parse_answer(complete_fn(prompt), len(chunk))
    if parsed is not None and _is_shifted(parsed, chunk):
        parsed = None  # a line holds another line's source: the numbering no longer maps 1:1
    if parsed is not None and not _is_echo(parsed, chunk):
        # Lines the model left as they were are kept, and flagged: nothing was translated.
        echoed = [first_index + i for i, (a, b) in enumerate(zip(parsed, chunk)) if _is_echo([a], [b])]
        result.reasons.update(dict.fromkeys(echoed, UNTRANSLATED))
        return parsed, echoed
    if len(chunk) == 1:
        result.reasons[first_index] = UNTRANSLATED if parsed is not None else NO_ANSWER
        return list(chunk), [first_index]
    result.retried_batches += 1
    half = (len(chunk) + 1) // 2
    left_texts, left_failed = _translate_batch(chunk[:half], first_index, source, target, complete_fn, result,
                                               context, glossary)
    right_texts, right_failed = _translate_batch(chunk[half:], first_index + half, source, target, complete_fn,
                                                 result, context, glossary)
    return left_texts + right_texts, left_failed + right_failed


# ----------------------------------------------------------------- runtime adapters


class TextModel(Protocol):
    """A language model as translation uses it: a hosted one (:class:`app.ml.clients.LlmClient`) or a runtime
    object in this process (an :class:`~app.ml.llm_runtime.OpenAIEndpointRuntime` needs no child process)."""

    def complete(self, prompt: str, max_tokens: int = ..., stop: Sequence[str] | None = ...) -> str: ...

    def chat(self, messages: Sequence[dict[str, str]], max_tokens: int = ..., stop: Sequence[str] | None = ...) -> str: ...


def completion_caller(model: TextModel) -> CompleteFn:
    """Adapt a model to a base model's completion form."""
    return lambda p: p.prefix + model.complete(p.text, p.max_tokens, list(p.stop))


def chat_caller(model: TextModel) -> CompleteFn:
    """Adapt a model to a chat model's messages form."""
    return lambda p: model.chat([dict(m) for m in p.messages], p.max_tokens)


#: ``translate(texts, attempt)`` → one line per text: a translation model made for translation (OPUS-MT).
TranslateFn = Callable[[list[str], int], list[str]]


def marian_caller(translate: TranslateFn, glossary: Sequence[GlossaryEntry] = ()) -> CompleteFn:
    """Adapt a sentence translator (no prompt, no instructions) to the numbered batches :func:`translate_cues` sends.

    Each line of the batch is translated on its own and the answer numbered back, so it
    always maps 1:1. Such a model takes no instruction, so a glossary term is written into
    the source line as it must read in the translation (a name it then copies), and the
    check still looks for it. A line sent a second time (the check refused its first
    answer) gets the model's next-best hypothesis: the same request would give the same line.
    """
    asked: dict[str, int] = {}

    def complete(prompt: Prompt) -> str:
        texts = [_with_renderings(text, glossary) for _, text in prompt.items]
        attempts = {asked.get(text, 0) for text in texts}
        for text in texts:
            asked[text] = asked.get(text, 0) + 1
        attempt = max(attempts) if attempts else 0
        lines = translate(texts, attempt)
        return "\n".join(f"{number}| {_one_line(line)}" for (number, _), line in zip(prompt.items, lines))

    return complete


def _with_renderings(text: str, glossary: Sequence[GlossaryEntry]) -> str:
    for entry in glossary:
        if entry.required_in_translation != entry.term:
            text = re.sub(re.escape(entry.term), entry.required_in_translation.replace("\\", "\\\\"), text, flags=re.IGNORECASE)
    return text
