"""How much of a translator's output the quality check lets through, per direction, on real text.

The bundled Gemma 270M is a placeholder: this measures how much of what it writes the
translate stage would keep, against any other translator on the same lines.

    .venv/bin/python bench/translator_quality.py [--pairs 40] [--threads 2] [--speech]
        [--preset gemma3-270m] [--gguf FILE ...] [--marian DIR=SRC-TGT ...]

Inputs, all real:

* **Tatoeba** human sentence pairs (``tests/data/parallel``): en→de and en→zh use the
  first ``--pairs`` English sentences, de→en and zh→en the next ones (no sentence twice);
* **speech** (``--speech``): the recordings of ``tests/data/real_speech`` transcribed
  here by the bundled Whisper base, cue by cue as the transcribe stage writes them; the
  English cues go to German and Chinese, the German ones to English.

Translators: an LLM through the translate stage's own code (:func:`translate_cues`, 8
cues a batch, the quality check on every batch, a failing cue retried once alone):
``--preset`` (bundled) or ``--gguf`` (a file; "instruct"/"chat" in its name gets the
chat prompt, as in the app). ``--marian DIR=zh-en`` runs a Marian (OPUS-MT) model in
CTranslate2 format, one direction, the same batches through the same check (a folder
with ``model.bin`` or ``model/model.bin``, and SentencePiece models: ``sentencepiece.model``,
or ``source.spm`` and ``target.spm``); it needs the ``sentencepiece`` package, which
Sidecar does not install.

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
from typing import Any, Callable, Sequence

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.media import translation_quality as qe  # noqa: E402
from app.media.translation import (DEFAULT_BATCH_SIZE, chat_caller, completion_caller, in_process_call,  # noqa: E402
                                   translate_cues)
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


Check = Callable[[list[str], list[str]], list[str | None]]


def tatoeba(pairs: int) -> list[Corpus]:
    corpora = []
    for lang in ("de", "zh"):
        rows = [line.split("\t") for line in (PARALLEL / f"tatoeba-en-{lang}.tsv").read_text("utf-8").splitlines()]
        corpora.append(Corpus("tatoeba", "en", lang, [r[0] for r in rows[:pairs]]))
        corpora.append(Corpus("tatoeba", lang, "en", [r[1] for r in rows[pairs:2 * pairs]]))
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


class Marian:
    """A Marian model in CTranslate2 format with its SentencePiece models."""

    def __init__(self, folder: Path, threads: int):
        import ctranslate2
        import sentencepiece

        model = folder / "model" if (folder / "model" / "model.bin").is_file() else folder
        shared = folder / "sentencepiece.model"
        self.source = sentencepiece.SentencePieceProcessor(model_file=str(shared if shared.is_file() else folder / "source.spm"))
        self.target = sentencepiece.SentencePieceProcessor(model_file=str(shared if shared.is_file() else folder / "target.spm"))
        self.translator = ctranslate2.Translator(str(model), device="cpu", compute_type="int8", inter_threads=1,
                                                 intra_threads=threads)

    def translate(self, lines: Sequence[str]) -> list[str]:
        tokens = [self.source.encode(line, out_type=str) for line in lines]
        results = self.translator.translate_batch(tokens, beam_size=4, max_decoding_length=256)
        return [self.target.decode(r.hypotheses[0]) for r in results]


def run_marian(marian: Marian, corpus: Corpus, e5: TextEmbeddingRuntime) -> Outcome:
    check = quality_check(e5, corpus)
    reasons: Counter[str] = Counter()
    started = time.perf_counter()
    for k in range(0, len(corpus.lines), DEFAULT_BATCH_SIZE):
        batch = corpus.lines[k:k + DEFAULT_BATCH_SIZE]
        reasons.update(r for r in check(batch, marian.translate(batch)) if r is not None)
    seconds = time.perf_counter() - started
    return Outcome(len(corpus.lines) - sum(reasons.values()), len(corpus.lines), reasons, seconds)


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
    parser.add_argument("--marian", action="append", default=[], help="DIR=SRC-TGT: a CTranslate2 Marian model")
    args = parser.parse_args()

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
                rows.append((f"{name} ({style})", corpus, run_llm(in_process_call(runtime), style, corpus, e5), rss_mb()))
        del runtime
    for spec in args.marian:
        folder, _, direction = spec.partition("=")
        source, _, target = direction.partition("-")
        marian = Marian(Path(folder), args.threads)
        for corpus in corpora:
            if corpus.lines and (corpus.source, corpus.target) == (source, target):
                rows.append((f"{Path(folder).name} (Marian, CT2 int8)", corpus, run_marian(marian, corpus, e5), rss_mb()))
        del marian

    print(f"load {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}, "
          f"{args.threads} threads, batches of {DEFAULT_BATCH_SIZE}\n")
    print("| translator | text | direction | cues | passed | refused because | cues/s | RSS |")
    print("|---|---|---|---:|---:|---|---:|---:|")
    for name, corpus, outcome, mb in rows:
        why = ", ".join(f"{reason} {count}" for reason, count in outcome.reasons.most_common()) or "-"
        print(f"| {name} | {corpus.name} | {corpus.source}→{corpus.target} | {outcome.total} | "
              f"{outcome.passed / outcome.total:.0%} | {why} | {outcome.total / outcome.seconds:.2f} | {mb} MB |")


if __name__ == "__main__":
    main()
