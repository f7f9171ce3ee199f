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
:func:`chat_caller` adapt a hosted runtime to it.

Resumable: the stage checkpoints after every top-level batch (``on_batch_done``) and
passes the saved prefix back as ``done_so_far``/``fallback_so_far``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from app.media.languages import english_name
from app.media.naming import normalise_language

DEFAULT_BATCH_SIZE = 8

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


@dataclass
class TranslationResult:
    """Translations aligned 1:1 with the input texts."""

    texts: list[str]
    fallback: list[int] = field(default_factory=list)  # cue indices left untranslated (original text kept)
    skipped: bool = False  # source == target: nothing was translated
    calls: int = 0  # model calls made in this run (retries included)
    retried_batches: int = 0  # batches that had to be split


@dataclass(frozen=True)
class TranslationProgress:
    """What the stage checkpoints after each finished top-level batch."""

    texts: list[str]
    fallback: list[int]
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {"texts": list(self.texts), "fallback": list(self.fallback), "total": self.total}


def _one_line(text: str) -> str:
    """Numbered lines cannot carry newlines: a two-line cue is sent as one line."""
    return " ".join(text.split())


def build_prompt(texts: Sequence[str], source: str, target: str, first_index: int = 0) -> Prompt:
    """The numbered request for ``texts`` in completion (few-shot) and chat form."""
    src_name, tgt_name = language_name(source), language_name(target)
    items = tuple((i + 1, _one_line(t)) for i, t in enumerate(texts))
    numbered = "\n".join(f"{i}| {t}" for i, t in items)
    src_ex = _EXAMPLES.get(normalise_language(source), _EXAMPLES["en"])
    tgt_ex = _EXAMPLES.get(normalise_language(target), _EXAMPLES["en"])
    example_in = "\n".join(f"{i + 1}| {t}" for i, t in enumerate(src_ex))
    example_out = "\n".join(f"{i + 1}| {t}" for i, t in enumerate(tgt_ex))
    instruction = (
        f"Translate each numbered {src_name} subtitle line into {tgt_name}. "
        f"Answer with exactly {len(items)} lines, numbered 1 to {len(items)} like the input, "
        "one translation per line, nothing else."
    )
    text = (
        f"{instruction}\n\n{src_name}:\n{example_in}\n{tgt_name}:\n{example_out}\n\n"
        f"{src_name}:\n{numbered}\n{tgt_name}:\n1|"
    )
    messages = (
        {"role": "system", "content": "You translate subtitles. You only output the numbered translations."},
        {"role": "user", "content": f"{instruction}\n\n{numbered}"},
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
) -> TranslationResult:
    """Translate ``texts`` (one per cue) in numbered batches; the result maps 1:1.

    ``on_batch_done`` runs after each top-level batch with everything done so far;
    it may raise (e.g. ``StageStopped`` on pause) and the work up to there is kept by
    the caller. ``done_so_far`` resumes after a checkpoint: those cues are not sent
    again.
    """
    texts = list(texts)
    if normalise_language(source) == normalise_language(target):
        return TranslationResult(texts=list(texts), skipped=True)
    if len(done_so_far) > len(texts):
        raise ValueError("checkpoint has more translations than there are cues")
    result = TranslationResult(texts=list(done_so_far), fallback=sorted(set(fallback_so_far)))
    src, tgt = str(source), str(target)
    start = len(done_so_far)
    while start < len(texts):
        chunk = texts[start : start + max(1, batch_size)]
        translated, failed = _translate_batch(chunk, start, src, tgt, complete_fn, result)
        result.texts.extend(translated)
        result.fallback.extend(failed)
        start += len(chunk)
        if on_batch_done is not None:
            on_batch_done(TranslationProgress(list(result.texts), list(result.fallback), len(texts)))
    return result


def _translate_batch(
    chunk: list[str], first_index: int, source: str, target: str, complete_fn: CompleteFn, result: TranslationResult
) -> tuple[list[str], list[int]]:
    """Translate one batch, halving on failure; returns (texts, fallback indices)."""
    if all(not t.strip() for t in chunk):
        return list(chunk), []
    prompt = build_prompt(chunk, source, target, first_index)
    result.calls += 1
    parsed = parse_answer(complete_fn(prompt), len(chunk))
    if parsed is not None and _is_shifted(parsed, chunk):
        parsed = None  # a line holds another line's source: the numbering no longer maps 1:1
    if parsed is not None and not _is_echo(parsed, chunk):
        # Lines the model left as they were are kept, and flagged: nothing was translated.
        return parsed, [first_index + i for i, (a, b) in enumerate(zip(parsed, chunk)) if _is_echo([a], [b])]
    if len(chunk) == 1:
        return list(chunk), [first_index]
    result.retried_batches += 1
    half = (len(chunk) + 1) // 2
    left_texts, left_failed = _translate_batch(chunk[:half], first_index, source, target, complete_fn, result)
    right_texts, right_failed = _translate_batch(chunk[half:], first_index + half, source, target, complete_fn, result)
    return left_texts + right_texts, left_failed + right_failed


# ----------------------------------------------------------------- runtime adapters


def completion_caller(call: Callable[..., Any]) -> CompleteFn:
    """Adapt ``client.call`` of a hosted runtime to a base model's completion form."""
    return lambda p: p.prefix + str(call("complete", p.text, p.max_tokens, list(p.stop)))


def chat_caller(call: Callable[..., Any]) -> CompleteFn:
    """Adapt ``client.call`` of a hosted runtime to a chat model's messages form."""
    return lambda p: str(call("chat", [dict(m) for m in p.messages], p.max_tokens))


def in_process_call(runtime: Any) -> Callable[..., Any]:
    """``client.call``-shaped access to a runtime object used in this process
    (an :class:`~app.ml.llm_runtime.OpenAIEndpointRuntime` needs no child process)."""
    return lambda method, *args, **kwargs: getattr(runtime, method)(*args, **kwargs)
