"""OPUS-MT (Marian) translation on CTranslate2 + SentencePiece, constructed in a model host child.

CTranslate2 already comes with faster-whisper, so a translator made for translation costs
one small dependency (sentencepiece) and 80-120 MB per direction, and runs at tens of
cues a second on two cores where a general LLM manages a few per minute.

Decoding is Argos Translate's: SentencePiece pieces in, beam 4 with a length penalty of
0.2, unknown tokens replaced from the source, pieces joined back. A route of two packages
(de→en→zh) runs the second on the first's output.

Asked again for a text it already translated (the per-line check refused the first answer),
it gives its next-best hypothesis instead of the same line: a Marian model is deterministic,
so asking again the same way could never change the answer.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Sequence

from app.errors import Code, SidecarError
from app.ml.cpu_share import capped_threads

BEAM_SIZE = 4
LENGTH_PENALTY = 0.2
#: A cue is a line or two: longer output is a model looping ("the the the …").
MAX_DECODING_LENGTH = 256
#: A search query is a few words: a longer translation of one is the model wandering off, and decoding it costs time.
QUERY_MAX_DECODING_LENGTH = 32
#: A query is translated greedily: it is on the path of every keystroke's search, and beam 4 cost half as much again
#: (45 → 30 ms of CPU a query, zh→en) for no gain in ``bench/search_relevance.py`` (issue 38).
QUERY_BEAM_SIZE = 1
#: Hypotheses kept per text: the best and the alternatives later attempts take, in order.
HYPOTHESES = 3


class _Hop:
    """One package: its CTranslate2 translator and SentencePiece model."""

    def __init__(self, folder: Path, device: str, compute_type: str, threads: int) -> None:
        import ctranslate2
        import sentencepiece

        if not (folder / "model" / "model.bin").is_file() or not (folder / "sentencepiece.model").is_file():
            raise SidecarError(f"{folder} is not an OPUS-MT package (model/ and sentencepiece.model)", code=Code.MODEL_MISSING)
        self.translator = ctranslate2.Translator(str(folder / "model"), device=device, compute_type=compute_type,
                                                 inter_threads=1, intra_threads=threads)
        self.pieces = sentencepiece.SentencePieceProcessor(model_file=str(folder / "sentencepiece.model"))

    def translate(self, texts: Sequence[str], hypotheses: int, max_length: int = MAX_DECODING_LENGTH,
                  beam_size: int = BEAM_SIZE) -> list[list[str]]:
        """Up to ``hypotheses`` translations per text, best first."""
        tokens = [self.pieces.encode(text, out_type=str) for text in texts]
        results = self.translator.translate_batch(
            tokens, beam_size=max(beam_size, hypotheses), num_hypotheses=hypotheses, length_penalty=LENGTH_PENALTY,
            replace_unknowns=True, max_decoding_length=max_length)
        return [[_joined(h) for h in result.hypotheses] for result in results]


def _joined(pieces: Sequence[str]) -> str:
    """Target pieces back to text as Argos does: OPUS-MT's target vocabulary is not the source SentencePiece's,
    so its pieces are joined on their word marks rather than decoded by the source model."""
    return "".join(pieces).replace("\u2581", " ").strip()


class MarianRuntime:
    """A route of one or two OPUS-MT packages; ``folders`` in the order a line goes through them."""

    def __init__(self, folders: Sequence[str], device: str = "cpu", compute_type: str = "int8",
                 cpu_threads: int = 0) -> None:
        started = time.perf_counter()
        threads = capped_threads(cpu_threads or min(4, os.cpu_count() or 1)) or 1
        self.device = device
        self.hops = [_Hop(Path(folder), device, compute_type, threads) for folder in folders]
        self.load_seconds = time.perf_counter() - started

    def info(self) -> dict[str, Any]:
        return {"hops": len(self.hops), "device": self.device, "load_seconds": round(self.load_seconds, 3)}

    def translate(self, texts: list[str], attempt: int = 0) -> list[str]:
        """One translation per text; ``attempt`` n > 0 takes the n-th alternative of the last hop (or its last one)."""
        if not texts:
            return []
        current = list(texts)
        for index, hop in enumerate(self.hops):
            last = index == len(self.hops) - 1
            wanted = min(attempt + 1, HYPOTHESES) if last else 1
            found = hop.translate(current, wanted)
            current = [options[min(attempt, len(options) - 1)] if last else options[0] for options in found]
        return current

    def translate_query(self, query: str) -> str:
        """A search query's one translation: greedy (:data:`QUERY_BEAM_SIZE`), decoding cut at
        :data:`QUERY_MAX_DECODING_LENGTH` (it is on the path of every keystroke's search; a cue's alternatives are not)."""
        current = query
        for hop in self.hops:
            current = hop.translate([current], 1, QUERY_MAX_DECODING_LENGTH, QUERY_BEAM_SIZE)[0][0]
        return current
