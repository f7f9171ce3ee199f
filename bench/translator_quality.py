"""How much of a translator's output the quality check lets through, per direction, on real text.

The bundled Gemma 270M is a placeholder: this measures how much of what it writes the
translate stage would keep, against any other translator on the same lines.

    .venv/bin/python bench/translator_quality.py [--pairs 40] [--threads 2] [--speech]
        [--preset gemma3-270m] [--gguf FILE ...] [--marian DIR=SRC-TGT ...] [--opus-mt] [--judged]

Inputs, all real:

* **Tatoeba** human sentence pairs (``tests/data/parallel``): en→de and en→zh use the
  first ``--pairs`` English sentences, de→en and zh→en the next ones (no sentence twice);
* **speech** (``--speech``): the recordings of ``tests/data/real_speech`` transcribed
  here by the bundled Whisper base, cue by cue as the transcribe stage writes them; the
  English cues go to German and Chinese, the German ones to English.

Translators: an LLM through the translate stage's own code (:func:`translate_cues`, 8
cues a batch, the quality check on every batch, a failing cue retried once alone):
``--preset`` (bundled) or ``--gguf`` (a file; "instruct"/"chat" in its name gets the
chat prompt, as in the app). ``--marian DIR=zh-en`` runs an unpacked OPUS-MT (Argos) package
through the app's own runtime and caller (:class:`app.ml.marian_runtime.MarianRuntime`,
:func:`app.media.translation.marian_caller`: the same batches, the same check, a refused cue
asked again for the next hypothesis); ``--opus-mt`` does so with the real zh→en package of
the test set-up (``scripts/fetch-test-models``). zh→en Tatoeba lines are the file's last
``--pairs`` rows, held out from the floors' calibration.

``--judged`` replays ``tests/data/parallel/opus-mt-zh-en-judged.tsv`` (60 lines the real
zh→en package wrote, judged good or bad by hand) through the check and prints its errors:
good lines refused, bad lines passed.

A cue **passes** when the quality check keeps its translation (after the retry, for
LLMs); names/numbers-only lines pass as the check passes them. Each translator is loaded
alone with ``--threads`` threads (e5 runs on 1, as in the app). Prints a Markdown table:
share passed, the reasons of the others, cues per second (translation and check
together) and the process's resident memory with e5 and that translator loaded.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.media import translation_quality as qe  # noqa: E402
from app.media.translation import (DEFAULT_BATCH_SIZE, chat_caller, completion_caller,  # noqa: E402
                                   marian_caller, translate_cues)
from app.ml.marian_runtime import MarianRuntime  # noqa: E402
from app.ml.text_embedding import TextEmbeddingRuntime  # noqa: E402
from app.pipelines.video import _prompt_style  # noqa: E402

PARALLEL = REPO / "tests" / "data" / "parallel"
SPEECH = REPO / "tests" / "data" / "real_speech"
DATA_DIR = Path(tempfile.gettempdir()) / "sidecar-bench-data"
"""Where the bundled models' parts are joined once, kept between runs."""


@dataclass(frozen=True)
class Corpus:
    """Lines of one document in ``source`` to translate into ``target``."""

    name: str
    source: str
    target: str
    lines: list[str]


@dataclass
class Outcome:
    passed: int
    total: int
    reasons: Counter[str]
    seconds: float
    model_seconds: float | None = None  # the translator's own share of ``seconds`` (the rest is the check)


Check = Callable[[list[str], list[str]], list[str | None]]


def tatoeba(pairs: int) -> list[Corpus]:
    corpora = []
    for lang in ("de", "zh"):
        rows = [line.split("\t") for line in (PARALLEL / f"tatoeba-en-{lang}.tsv").read_text("utf-8").splitlines()]
        corpora.append(Corpus("tatoeba", "en", lang, [r[0] for r in rows[:pairs]]))
        corpora.append(Corpus("tatoeba", lang, "en", [r[1] for r in rows[-pairs:]]))  # held out: the last rows
    return corpora


def speech(threads: int) -> list[Corpus]:
    """The real recordings' cues, transcribed by the bundled Whisper base in their own language."""
    from app.media.audio import extract_audio
    from app.ml.whisper_runtime import WhisperRuntime

    whisper = WhisperRuntime(cpu_threads=threads, data_dir=str(DATA_DIR))
    cues: dict[str, list[str]] = {"en": [], "de": []}
    with tempfile.TemporaryDirectory() as work:
        for recording in sorted(SPEECH.glob("*.opus")):
            language = recording.name.split("_")[0]
            audio = extract_audio(recording, Path(work) / (recording.stem + ".f32")).path
            cues[language] += [event["text"].strip() for event in whisper.transcribe(str(audio), 0.0, language)
                               if event["type"] == "segment" and event["text"].strip()]
    del whisper
    return [Corpus("speech", "en", "de", cues["en"]), Corpus("speech", "en", "zh", cues["en"]),
            Corpus("speech", "de", "en", cues["de"])]


def quality_check(e5: TextEmbeddingRuntime, corpus: Corpus) -> Check:
    """The translate stage's check for one document: e5 vectors, the language identifier, a repeat memory."""
    memory = qe.RepeatMemory.empty()
    return lambda sources, translations: qe.check_batch(sources, translations, e5.embed_queries, corpus.source,
                                                        corpus.target, (), memory)


def run_llm(call: Callable[..., Any], style: str, corpus: Corpus, e5: TextEmbeddingRuntime) -> Outcome:
    complete = chat_caller(call) if style == "chat" else completion_caller(call)
    started = time.perf_counter()
    result = translate_cues(corpus.lines, corpus.source, corpus.target, complete, DEFAULT_BATCH_SIZE,
                            check=quality_check(e5, corpus))
    seconds = time.perf_counter() - started
    failed = set(result.fallback)
    reasons = Counter(result.reasons.get(i, "?") for i in failed)
    return Outcome(len(corpus.lines) - len(failed), len(corpus.lines), reasons, seconds)


def run_marian(marian: MarianRuntime, corpus: Corpus, e5: TextEmbeddingRuntime) -> Outcome:
    """The translate stage's path for an OPUS-MT route: numbered batches, the check, a refused cue asked again."""
    spent = [0.0]

    def timed(texts: list[str], attempt: int) -> list[str]:
        begun = time.perf_counter()
        try:
            return marian.translate(texts, attempt)
        finally:
            spent[0] += time.perf_counter() - begun

    started = time.perf_counter()
    result = translate_cues(corpus.lines, corpus.source, corpus.target, marian_caller(timed),
                            DEFAULT_BATCH_SIZE, check=quality_check(e5, corpus))
    seconds = time.perf_counter() - started
    failed = set(result.fallback)
    return Outcome(len(corpus.lines) - len(failed), len(corpus.lines), Counter(result.reasons.get(i, "?") for i in failed),
                   seconds, spent[0])


def unpacked_test_package() -> Path:
    """The real zh→en package of the test set-up, unpacked once beside the bench's data."""
    from tests.opus_mt import test_cache

    folder = DATA_DIR / "translate-zh_en-1_9"
    if not (folder / "model" / "model.bin").is_file():
        import zipfile

        with zipfile.ZipFile(test_cache() / "translate-zh_en-1_9.argosmodel") as archive:
            archive.extractall(DATA_DIR, [n for n in archive.namelist() if "/stanza/" not in n])
    return folder


def judged(e5: TextEmbeddingRuntime) -> None:
    """The check's errors on 60 hand-judged lines of the real zh→en package."""
    rows = [line.split("\t") for line in (PARALLEL / "opus-mt-zh-en-judged.tsv").read_text("utf-8").splitlines()[1:]]
    verdicts: list[str | None] = []
    for k in range(0, len(rows), DEFAULT_BATCH_SIZE):
        batch = rows[k:k + DEFAULT_BATCH_SIZE]
        verdicts += qe.check_batch([r[0] for r in batch], [r[2] for r in batch], e5.embed_queries, "zh", "en")
    good = [v for r, v in zip(rows, verdicts) if r[3] == "good"]
    bad = [(r, v) for r, v in zip(rows, verdicts) if r[3] == "bad"]
    print("\n| hand-judged OPUS-MT zh→en lines | lines | the check's error | share |")
    print("|---|---:|---:|---:|")
    refused = sum(v is not None for v in good)
    passed = sum(v is None for _, v in bad)
    print(f"| good (meaning kept) | {len(good)} | refused {refused} | {refused / len(good):.0%} |")
    print(f"| bad (meaning lost or changed) | {len(bad)} | passed {passed} | {passed / max(len(bad), 1):.0%} |")
    for r, v in bad:
        print(f"  bad, {'passed' if v is None else 'refused (' + v + ')'}: {r[2]!r} — {r[4]}")


def rss_mb() -> int:
    """This process's resident memory now (e5 and the translator loaded), from ``/proc``."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=40, help="Tatoeba sentences per direction")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--speech", action="store_true", help="also the real recordings' cues (transcribed here)")
    parser.add_argument("--preset", default="gemma3-270m", help="bundled LLM to measure ('' for none)")
    parser.add_argument("--gguf", action="append", default=[], type=Path, help="another GGUF translator")
    parser.add_argument("--marian", action="append", default=[], help="DIR=SRC-TGT: an unpacked OPUS-MT package")
    parser.add_argument("--opus-mt", action="store_true", help="the real zh→en package of the test set-up")
    parser.add_argument("--judged", action="store_true", help="the check's errors on hand-judged OPUS-MT lines")
    args = parser.parse_args()
    if args.opus_mt:
        args.marian.append(f"{unpacked_test_package()}=zh-en")

    corpora = tatoeba(args.pairs) + (speech(args.threads) if args.speech else [])
    e5 = TextEmbeddingRuntime(num_threads=1)
    rows: list[tuple[str, Corpus, Outcome, int]] = []
    llms = ([(args.preset, None)] if args.preset else []) + [(path.name, path) for path in args.gguf]
    for name, path in llms:
        from app.ml.llm_runtime import LlamaRuntime

        runtime = LlamaRuntime(model_path=str(path) if path else None, preset=args.preset or "gemma3-270m",
                               data_dir=str(DATA_DIR),
                               n_threads=args.threads, n_gpu_layers=0)
        style = _prompt_style(str(runtime.path))
        for corpus in corpora:
            if corpus.lines:
                rows.append((f"{name} ({style})", corpus, run_llm(runtime, style, corpus, e5), rss_mb()))
        del runtime
    for spec in args.marian:
        folder, _, direction = spec.partition("=")
        source, _, target = direction.partition("-")
        marian = MarianRuntime([folder], cpu_threads=args.threads)
        for corpus in corpora:
            if corpus.lines and (corpus.source, corpus.target) == (source, target):
                rows.append((f"{Path(folder).name} (OPUS-MT, CT2 int8)", corpus, run_marian(marian, corpus, e5), rss_mb()))
        del marian

    print(f"load {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}, "
          f"{args.threads} threads, batches of {DEFAULT_BATCH_SIZE}\n")
    print("| translator | text | direction | cues | passed | refused because | cues/s | cues/s, model alone | RSS |")
    print("|---|---|---|---:|---:|---|---:|---:|---:|")
    for name, corpus, outcome, mb in rows:
        why = ", ".join(f"{reason} {count}" for reason, count in outcome.reasons.most_common()) or "-"
        print(f"| {name} | {corpus.name} | {corpus.source}→{corpus.target} | {outcome.total} | "
              f"{outcome.passed / outcome.total:.0%} | {why} | {outcome.total / outcome.seconds:.2f} | "
              f"{f'{outcome.total / outcome.model_seconds:.1f}' if outcome.model_seconds else '-'} | {mb} MB |")
    if args.judged:
        judged(e5)


if __name__ == "__main__":
    main()
