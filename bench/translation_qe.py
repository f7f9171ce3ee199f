"""Precision and recall of the translation quality estimate's "bad" verdict, per direction.

Real data only: human translations (Tatoeba, ``tests/data/parallel``) are the good cues,
whole sentences and *fragments*: sentences cut at a clause boundary into two cues, the
human translation cut at the corresponding boundary (``tatoeba-clauses-*.tsv``), as
Whisper ends cues at pauses inside a clause. The bad ones are made from the same real
lines the way translators fail: the source echoed, the whole batch misaligned by one, a
line repeating the previous cue's translation, and a real sentence that translates
something else. Cues travel in batches of 8 (the translate stage's size) through
:func:`app.media.translation_quality.assess` with real e5 vectors (joined pairs too) and the
real language identifier.

The floors are calibrated on one half of the sentences (the highest floor that passes at
least ``--keep`` of the good cues there) and the table reports the other half.

    .venv/bin/python -m bench.translation_qe [--keep 0.95] [--pairs 400] [--clauses 130] [--band 0.06] [--shipped]

``--band 0`` turns the fragment rule off (a cue under its floor is never scored with a neighbour).
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
GOOD_KINDS = ("sentence", "fragment")


@dataclass
class Labelled:
    bad: bool
    kind: str
    reason: str | None
    fragment: bool  # the cue's source is half of a cut sentence


def load_pairs(name: str) -> list[tuple[str, str]]:
    rows = (line.rstrip("\n").split("\t") for line in (DATA / name).read_text(encoding="utf-8").splitlines())
    return [(r[0], r[1]) for r in rows if len(r) >= 2]


def load_clauses(name: str) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Sentences cut in two at a clause boundary: ((English 1, X 1), (English 2, X 2))."""
    rows = (line.split("\t") for line in (DATA / name).read_text(encoding="utf-8").splitlines())
    return [((r[0], r[2]), (r[1], r[3])) for r in rows if len(r) >= 4]


def direction_pairs(pairs: list, reverse: bool, count: int) -> list:
    """en→X uses the first ``count`` entries, X→en the next ``count`` (no sentence in both)."""
    chosen = pairs[count:2 * count] if reverse else pairs[:count]
    return [_swapped(p) for p in chosen] if reverse else chosen


def _swapped(entry):
    if isinstance(entry[0], tuple):
        return tuple((b, a) for a, b in entry)
    return (entry[1], entry[0])


class Vectors:
    """Unit e5 ``query:`` vectors by text, embedded once (the joined pairs of fragments on demand)."""

    def __init__(self, runtime: TextEmbeddingRuntime):
        self.runtime = runtime
        self.known: dict[str, np.ndarray] = {}

    def add(self, texts: list[str]) -> None:
        unique = sorted(set(texts) - set(self.known))
        for k in range(0, len(unique), 64):
            chunk = unique[k:k + 64]
            for text, vec in zip(chunk, self.runtime.embed_queries(chunk)):
                v = np.asarray(vec, dtype=np.float32)
                self.known[text] = v / np.linalg.norm(v)

    def __getitem__(self, text: str) -> np.ndarray:
        return self.known[text]

    def embed(self, texts: list[str]) -> np.ndarray:
        self.add(texts)
        return np.stack([self.known[t] for t in texts])


Cue = tuple[str, str]


def good_cues(sentences: list[Cue], clauses: list[tuple[Cue, Cue]], rng: random.Random) -> list[tuple[Cue, str]]:
    """Whole sentences and the two fragments of each cut sentence, in a shuffled order (fragments stay adjacent)."""
    units: list[list[tuple[Cue, str]]] = [[(p, "sentence")] for p in sentences]
    units += [[(first, "fragment"), (second, "fragment")] for first, second in clauses]
    rng.shuffle(units)
    return [cue for unit in units for cue in unit]


Label = tuple[bool, str, bool]  # (bad, kind, the source is a fragment)


def labelled_batches(cues: list[tuple[Cue, str]], rng: random.Random) -> list[tuple[list[Cue], list[Label]]]:
    """(cues (source, translation), labels) per batch: the good copy first, then one bad copy of each kind."""
    kinds = [kind for _, kind in cues]
    pairs = [pair for pair, _ in cues]
    starts = range(0, len(pairs) - BATCH + 1, BATCH)
    batches = [pairs[k:k + BATCH] for k in starts]
    good_kinds = [kinds[k:k + BATCH] for k in starts]
    out = []
    for b, batch in enumerate(batches):
        cut = [kind == "fragment" for kind in good_kinds[b]]
        out.append((list(batch), [(False, kind, cut[i]) for i, kind in enumerate(good_kinds[b])]))
        nxt = batches[(b + 1) % len(batches)]
        k = rng.randrange(1, len(batch))
        echo = list(batch)
        echo[k] = (batch[k][0], batch[k][0])
        out.append((echo, [(i == k, "echo", cut[i]) for i in range(len(batch))]))
        shifted = [(src, (batch + nxt[:1])[i + 1][1]) for i, (src, _) in enumerate(batch)]
        out.append((shifted, [(True, "misaligned", cut[i]) for i in range(len(batch))]))
        repeated = list(batch)
        repeated[k] = (batch[k][0], batch[k - 1][1])
        out.append((repeated, [(i == k, "repeated", cut[i]) for i in range(len(batch))]))
        other = list(batch)
        stranger = rng.choice([p for bb in batches if bb is not batch for p in bb])
        other[k] = (batch[k][0], stranger[1])
        out.append((other, [(i == k, "other sentence", cut[i]) for i in range(len(batch))]))
    return out


def run_direction(batches, vectors: Vectors, source: str, target: str, floor: float) -> list[Labelled]:
    """Every cue's verdict; labels of cues a bad copy left untouched are not counted twice.

    Each copy is checked as a file of its own (an empty repeat memory): a bad copy that saw its good
    copy's answers would have its slid lines caught as repeats of them, which no real file offers.
    """
    results: list[Labelled] = []
    for cues, labels in batches:
        good_copy = labels[0][1] in GOOD_KINDS
        checks = [qe.CueCheck(s, t, vectors[s], vectors[t]) for s, t in cues]
        reasons = qe.assess(checks, source, target, floor=floor, embed=vectors.embed)
        for (bad, kind, fragment), reason in zip(labels, reasons):
            if good_copy or bad:
                results.append(Labelled(bad, kind, reason, fragment))
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
    fragments = [r for r in bad if r.fragment]
    per_kind += (f" (fragments: {sum(r.reason is not None for r in fragments)}/{len(fragments)}"
                 + "".join(f" {k}:{sum(r.reason is not None for r in fragments if r.kind == k)}/"
                           f"{sum(1 for r in fragments if r.kind == k)}" for k in KINDS) + ")")
    passed = " ".join(f"{k}:{sum(r.reason is None for r in good if r.kind == k)}/"
                      f"{sum(1 for r in good if r.kind == k)}" for k in GOOD_KINDS)
    return (f"| {name} | {len(res)} | {len(good)} | {len(bad)} | {precision:.3f} | {recall:.3f} | "
            f"{(len(good) - flagged_good) / max(1, len(good)):.3f} | {passed} | {per_kind} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keep", type=float, default=0.95, help="share of good cues the floor keeps on the tuning half")
    parser.add_argument("--pairs", type=int, default=400, help="sentences per direction (halved: tune / test)")
    parser.add_argument("--clauses", type=int, default=130, help="cut sentences (two fragment cues each) per direction")
    parser.add_argument("--shipped", action="store_true",
                        help="report the held-out half at the module's floors instead of floors calibrated on the other half")
    parser.add_argument("--band", type=float, default=qe.FRAGMENT_BAND,
                        help="how far under its floor a cue may be scored again with a neighbour (0: never)")
    args = parser.parse_args()
    qe.FRAGMENT_BAND = args.band  # the bench measures the rule as the module applies it
    vectors = Vectors(TextEmbeddingRuntime())
    rng = random.Random(23)
    rows, floors = [], []
    started = time.perf_counter()
    for other in ("de", "zh"):
        pairs = load_pairs(f"tatoeba-en-{other}.tsv")
        clauses = load_clauses(f"tatoeba-clauses-en-{other}.tsv")
        for reverse in (False, True):
            source, target = (other, "en") if reverse else ("en", other)
            chosen = direction_pairs(pairs, reverse, args.pairs)
            cut = direction_pairs(clauses, reverse, args.clauses)
            vectors.add([t for p in chosen for t in p] + [t for c in cut for p in c for t in p])
            half, cut_half = len(chosen) // 2, len(cut) // 2
            tune = labelled_batches(good_cues(chosen[:half], cut[:cut_half], rng), rng)
            test = labelled_batches(good_cues(chosen[half:], cut[cut_half:], rng), rng)
            floor = qe.faithful_floor(source, target) if args.shipped else calibrate(tune, vectors, source, target, args.keep)
            floors.append(f"({source!r}, {target!r}): {floor}")
            rows.append(report(f"{source}→{target} (floor {floor})", run_direction(test, vectors, source, target, floor)))
    print("held-out half; good = whole sentences and clause fragments (two cues per cut sentence);")
    print("bad = echo, misaligned by one, repeated line, another real sentence; (fragments: ...) = the bad cues")
    print("whose source is half of a cut sentence; each copy is checked as a file of its own\n")
    print("| direction | labelled | good | bad | precision (bad) | recall (bad) | good passed | passed per kind "
          "| caught per kind |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---|")
    print("\n".join(rows))
    print("\nfloors:", ", ".join(floors), f"fragment band {args.band}", f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
