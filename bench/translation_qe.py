"""Precision and recall of the translation quality estimate's "bad" verdict, per direction.

Real data only: human translations (Tatoeba, ``tests/data/parallel``) are the good cues;
the bad ones are made from the same real lines the way translators fail: the source echoed,
the whole batch misaligned by one, a line repeating the previous cue's translation, and a
real sentence that translates something else. Cues travel in batches of 8 (the translate
stage's size) through :func:`app.media.translation_quality.assess` with real e5 vectors and
the real language identifier.

The floors are calibrated on one half of the sentences (the highest floor that passes at
least ``--keep`` of the good cues there) and the table reports the other half.

    .venv/bin/python -m bench.translation_qe [--keep 0.95] [--pairs 400]
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.media import translation_quality as qe
from app.ml.text_embedding import TextEmbeddingRuntime

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "parallel"
BATCH = 8
KINDS = ("echo", "misaligned", "repeated", "other sentence")


@dataclass
class Labelled:
    bad: bool
    kind: str
    reason: str | None


def load_pairs(name: str) -> list[tuple[str, str]]:
    rows = (line.rstrip("\n").split("\t") for line in (DATA / name).read_text(encoding="utf-8").splitlines())
    return [(r[0], r[1]) for r in rows if len(r) >= 2]


def direction_pairs(pairs: list[tuple[str, str]], reverse: bool, count: int) -> list[tuple[str, str]]:
    """en→X uses the first ``count`` sentences, X→en the next ``count`` (no sentence in both)."""
    chosen = pairs[count:2 * count] if reverse else pairs[:count]
    return [(b, a) for a, b in chosen] if reverse else chosen


def embed_all(runtime: TextEmbeddingRuntime, texts: list[str]) -> dict[str, np.ndarray]:
    unique = sorted(set(texts))
    vectors: dict[str, np.ndarray] = {}
    for k in range(0, len(unique), 64):
        chunk = unique[k:k + 64]
        for text, vec in zip(chunk, runtime.embed_queries(chunk)):
            v = np.asarray(vec, dtype=np.float32)
            vectors[text] = v / np.linalg.norm(v)
    return vectors


def labelled_batches(pairs: list[tuple[str, str]], rng: random.Random) -> list[tuple[list[tuple[str, str]], list[tuple[bool, str]]]]:
    """(cues (source, translation), labels (bad, kind)) per batch: one good copy and one bad copy of each kind."""
    batches = [pairs[k:k + BATCH] for k in range(0, len(pairs) - BATCH + 1, BATCH)]
    out = []
    for b, batch in enumerate(batches):
        out.append((list(batch), [(False, "human")] * len(batch)))
        nxt = batches[(b + 1) % len(batches)]
        k = rng.randrange(1, len(batch))
        echo = list(batch)
        echo[k] = (batch[k][0], batch[k][0])
        out.append((echo, [(i == k, "echo") for i in range(len(batch))]))
        shifted = [(src, (batch + nxt[:1])[i + 1][1]) for i, (src, _) in enumerate(batch)]
        out.append((shifted, [(True, "misaligned")] * len(batch)))
        repeated = list(batch)
        repeated[k] = (batch[k][0], batch[k - 1][1])
        out.append((repeated, [(i == k, "repeated") for i in range(len(batch))]))
        other = list(batch)
        stranger = rng.choice([p for bb in batches if bb is not batch for p in bb])
        other[k] = (batch[k][0], stranger[1])
        out.append((other, [(i == k, "other sentence") for i in range(len(batch))]))
    return out


def run_direction(batches, vectors, source: str, target: str, floor: float) -> list[Labelled]:
    """Every cue's verdict; labels of cues a bad copy left untouched are not counted twice."""
    results: list[Labelled] = []
    memory = qe.RepeatMemory.empty()
    for cues, labels in batches:
        if labels[0][1] == "human":
            memory = qe.RepeatMemory.empty()  # a new "file" per batch group: earlier good copies would repeat
        checks = [qe.CueCheck(s, t, vectors[s], vectors[t]) for s, t in cues]
        reasons = qe.assess(checks, source, target, memory=qe.RepeatMemory(dict(memory.seen)), floor=floor)
        for (bad, kind), reason in zip(labels, reasons):
            if kind == "human" or bad:
                results.append(Labelled(bad, kind, reason))
        if labels[0][1] == "human":
            for s, t in cues:
                memory.remember(s, t, vectors[s])
    return results


def calibrate(batches, vectors, source: str, target: str, keep: float) -> float:
    """The highest floor at which at least ``keep`` of the good cues pass."""
    best = 0.5
    for floor in np.arange(0.70, 0.90, 0.005):
        res = run_direction(batches, vectors, source, target, float(floor))
        good = [r for r in res if not r.bad]
        if sum(r.reason is None for r in good) / len(good) >= keep:
            best = float(floor)
    return round(best, 3)


def report(name: str, res: list[Labelled]) -> str:
    bad = [r for r in res if r.bad]
    good = [r for r in res if not r.bad]
    caught = sum(r.reason is not None for r in bad)
    flagged_good = sum(r.reason is not None for r in good)
    precision = caught / max(1, caught + flagged_good)
    recall = caught / max(1, len(bad))
    per_kind = " ".join(f"{k}:{sum(r.reason is not None for r in bad if r.kind == k)}/"
                        f"{sum(1 for r in bad if r.kind == k)}" for k in KINDS)
    return (f"| {name} | {len(res)} | {len(good)} | {len(bad)} | {precision:.3f} | {recall:.3f} | "
            f"{(len(good) - flagged_good) / max(1, len(good)):.3f} | {per_kind} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keep", type=float, default=0.95, help="share of good cues the floor keeps on the tuning half")
    parser.add_argument("--pairs", type=int, default=400, help="sentences per direction (halved: tune / test)")
    args = parser.parse_args()
    runtime = TextEmbeddingRuntime()
    rng = random.Random(23)
    rows, floors = [], []
    started = time.perf_counter()
    for file, other in (("tatoeba-en-de.tsv", "de"), ("tatoeba-en-zh.tsv", "zh")):
        pairs = load_pairs(file)
        for reverse in (False, True):
            source, target = (other, "en") if reverse else ("en", other)
            chosen = direction_pairs(pairs, reverse, args.pairs)
            vectors = embed_all(runtime, [t for p in chosen for t in p])
            half = len(chosen) // 2
            tune = labelled_batches(chosen[:half], rng)
            test = labelled_batches(chosen[half:], rng)
            floor = calibrate(tune, vectors, source, target, args.keep)
            floors.append(f"({source!r}, {target!r}): {floor}")
            rows.append(report(f"{source}→{target} (floor {floor})", run_direction(test, vectors, source, target, floor)))
    print("held-out half; bad = echo, misaligned by one, repeated line, another real sentence\n")
    print("| direction | labelled | good | bad | precision (bad) | recall (bad) | good passed | caught per kind |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    print("\n".join(rows))
    print("\nfloors:", ", ".join(floors), f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
