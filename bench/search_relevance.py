"""How well one search box finds real photos and scans with text: MRR@10, recall@10, silence on no-match queries.

The library is the real OCR test images of ``tests/data/ocr_photos`` (street signs,
product photos, forms, papers; English, Chinese, Japanese, Korean, French, Latin; a
black frame and blank crops with no text), indexed as the image pipeline indexes them
(:mod:`tests.ocr_photos`: real RapidOCR, real e5, the store's writer and name words) and
searched through :func:`app.engine.search.search`, the function the GUI and CLI call.
No CLIP model installs offline here, so the semantic part measured is e5's.

Languages are crossed as the library crosses them once a translator is installed: the
real zh→en OPUS-MT package (``scripts/fetch-test-models``) translates each photo's Chinese
OCR lines (and a Japanese text's kanji compounds) at indexing, and Chinese queries into
English at search time (:class:`~app.engine.query_translation.QueryTranslator`).
``--no-translation`` measures search without a translator.

Queries are labelled with the files a person means (``QUERIES``): words, partial
words, CJK, names, numbers, cross-language ("Osaka" → a Japanese news list saying 大阪),
meaning, and queries about nothing in the library, which should get no answer at all.
Every other query is for calibrating the e5 floor, the rest held out: the script sweeps
the floor on the calibration half, and prints both halves at each floor and at the
floor search uses (``E5_MIN_SIMILARITY``), so a floor chosen on one half is judged on
the other.

Usage: ``python -m bench.search_relevance [--database-url URL] [--no-translation] [--verbose]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Sequence

import onnxruntime  # noqa: F401 - OCR's runtime: importing it after usearch (app.store) crashes the process

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import search as fused_search
from app.engine.query_translation import QueryTranslator
from app.ml.marian_runtime import MarianRuntime
from app.ml.text_embedding import MODEL_ID as E5
from app.ml.text_embedding import TextEmbeddingRuntime
from app.store import Store
from app.store import search_queries
from app.store.search_queries import CurrentContent
from tests.ocr_photos import index_photos, read_photos
from tests.opus_mt import unpacked_zh_en

CURRENT = CurrentContent("current_items")
TOP = 10

# (query, the files it should find, what kind of query). What each photo says, as OCR reads it:
# japan.jpg: a Japanese news list (春分, 浙江省, 三星堆の文化財レプリカが大阪・関西万博で展示へ, ダンスバトル);
# ch_en_num.jpg: a Chinese product ad (正品促销, 大桶装更划算, -40℃深度防冻不结冰, 日常价, 底价, 极速发货, 假一赔十);
# check_return_word_len.jpeg: a Chinese vehicle registration certificate (机动车登记证书, 抵押登记, DIDIJIAYUAN);
# en.jpg / en_rec.jpg: a paper's paragraph on MovieShots (shot type analysis, 7858 movies);
# latin.jpg: "Alphabetum … alphabetum Latinum"; img_exif_orientation.jpg: 我是中国人;
# black_font_color_transparent.png: 中国 我 是; test_letterbox_like.jpg: a Chinese FAQ on CUDA execution providers;
# return_word_debug.jpg: a sign with 轻运动 and phone numbers 027-88852022; test_without_det.jpg: 在中国作家协会第三届儿童文学;
# issue_170.png: TEST; japanese.jpg: ポイ捨て禁止! NO LITTER 港区 MINATO CITY; korean.png: a road sign Seoul 56Km Pyeongyang;
# french.jpg: Paris signs (Palais du LOUVRE, LES ARTS DÉCORATIFS, Théâtre du PALAIS-ROYAL);
# example3.png: SPEED LIMIT 50 40, BASRURKAR MARKET; chinese.jpg: a street sign 愚园路 Yuyuan Rd.;
# width_ths.png: numbers 35,498,648.64 and 6,001,271.61.
# No text: empty_black.jpg (a black frame), text_cls.jpg, white_font_color_transparent.png.
QUERIES: list[tuple[str, list[str], str]] = [
    ("MovieShots", ["en.jpg", "en_rec.jpg"], "word"),
    ("大阪", ["japan.jpg"], "cjk"),
    ("Osaka", ["japan.jpg"], "cross"),
    ("dance battle", ["japan.jpg"], "cross"),
    ("ダンスバトル", ["japan.jpg"], "cjk"),
    ("万博", ["japan.jpg"], "cjk"),
    ("浙江", ["japan.jpg"], "cjk"),
    ("street dance", ["japan.jpg"], "cross"),
    ("正品促销", ["ch_en_num.jpg"], "cjk"),
    ("促销", ["ch_en_num.jpg"], "cjk"),
    ("cheap price", ["ch_en_num.jpg"], "cross"),
    ("antifreeze", ["ch_en_num.jpg"], "cross"),
    ("机动车登记证书", ["check_return_word_len.jpeg"], "cjk"),
    ("抵押登记", ["check_return_word_len.jpeg"], "cjk"),
    ("vehicle registration", ["check_return_word_len.jpeg"], "cross"),
    ("DIDIJIAYUAN", ["check_return_word_len.jpeg"], "word"),
    ("440040", ["check_return_word_len.jpeg"], "number"),
    ("shot type analysis", ["en.jpg", "en_rec.jpg"], "word"),
    ("movie dataset", ["en.jpg", "en_rec.jpg"], "meaning"),
    ("7858 movies", ["en.jpg"], "number"),
    ("moviesho", ["en.jpg", "en_rec.jpg"], "partial"),
    ("alphabetum", ["latin.jpg"], "word"),
    ("latin alphabet", ["latin.jpg"], "word"),
    ("中国人", ["img_exif_orientation.jpg"], "cjk"),
    ("China", ["img_exif_orientation.jpg", "black_font_color_transparent.png", "test_without_det.jpg"], "cross"),
    ("中国", ["img_exif_orientation.jpg", "black_font_color_transparent.png", "test_without_det.jpg"], "cjk"),
    ("CUDA", ["test_letterbox_like.jpg"], "word"),
    ("execution provider", ["test_letterbox_like.jpg"], "word"),
    ("verbose log", ["test_letterbox_like.jpg"], "word"),
    ("027-88852022", ["return_word_debug.jpg"], "number"),
    ("88852022", ["return_word_debug.jpg"], "number"),
    ("轻运动", ["return_word_debug.jpg"], "cjk"),
    ("作家协会", ["test_without_det.jpg"], "cjk"),
    ("children's literature", ["test_without_det.jpg"], "cross"),
    ("TEST", ["issue_170.png", "test_letterbox_like.jpg", "test_without_det.jpg"], "word"),
    ("no litter", ["japanese.jpg"], "word"),
    ("litter", ["japanese.jpg"], "word"),
    ("港区", ["japanese.jpg"], "cjk"),
    ("Minato City", ["japanese.jpg"], "word"),
    ("ポイ捨て", ["japanese.jpg"], "cjk"),
    ("Seoul", ["korean.png"], "word"),
    ("Pyeongyang", ["korean.png"], "word"),
    ("korean", ["korean.png"], "name"),
    ("Louvre", ["french.jpg"], "word"),
    ("Palais Royal", ["french.jpg"], "word"),
    ("arts décoratifs", ["french.jpg"], "word"),
    ("theatre", ["french.jpg"], "word"),
    ("museum", ["french.jpg"], "cross"),
    ("speed limit", ["example3.png"], "word"),
    ("market", ["example3.png"], "word"),
    ("Basrurkar", ["example3.png"], "word"),
    ("愚园路", ["chinese.jpg"], "cjk"),
    ("Yuyuan Road", ["chinese.jpg"], "word"),
    ("35,498,648.64", ["width_ths.png"], "number"),
    ("japan", ["japan.jpg"], "name"),
    ("black", ["empty_black.jpg", "black_font_color_transparent.png"], "name"),
    ("french", ["french.jpg"], "name"),
    # written for issue 38 before any cross-language tuning: English for Chinese/Japanese text (translated
    # at indexing) and Chinese for English text (the query translated); "cross-new" so they report apart
    ("Osaka Expo", ["japan.jpg"], "cross-new"),
    ("Zhejiang", ["japan.jpg"], "cross-new"),
    ("spring equinox", ["japan.jpg"], "cross-new"),
    ("genuine product", ["ch_en_num.jpg"], "cross-new"),
    ("fast delivery", ["ch_en_num.jpg"], "cross-new"),
    ("promotion", ["ch_en_num.jpg"], "cross-new"),
    ("mortgage registration", ["check_return_word_len.jpeg"], "cross-new"),
    ("writers association", ["test_without_det.jpg"], "cross-new"),
    ("I am Chinese", ["img_exif_orientation.jpg"], "cross-new"),
    ("light exercise", ["return_word_debug.jpg"], "cross-new"),
    ("卢浮宫", ["french.jpg"], "cross-new"),
    ("首尔", ["korean.png"], "cross-new"),
    ("限速", ["example3.png"], "cross-new"),
    ("电影", ["en.jpg", "en_rec.jpg"], "cross-new"),
    ("拉丁字母", ["latin.jpg"], "cross-new"),
    ("市场", ["example3.png"], "cross-new"),
    # about nothing in the library: the right answer is none
    ("Rechnung", [], "none"),
    ("invoice", [], "none"),
    ("birthday party", [], "none"),
    ("horse", [], "none"),
    ("sofa", [], "none"),
    ("wedding dress", [], "none"),
    ("猫", [], "none"),
    ("咖啡", [], "none"),
    ("ソファ", [], "none"),
    ("tax office", [], "none"),
    ("dentist appointment", [], "none"),
    ("pizza recipe", [], "none"),
    ("football match", [], "none"),
    ("Hochzeit", [], "none"),
    ("passport photo", [], "none"),
    ("car insurance", [], "none"),
    ("beach sunset", [], "none"),
    ("guitar lesson", [], "none"),
    ("Berlin", [], "none"),
    ("elephant", [], "none"),
]
FLOORS = (0.78, 0.80, 0.81, 0.82, 0.825, 0.83, 0.835, 0.838, 0.84, 0.845, 0.85, 0.86, 0.87, 0.88)


def split(queries: Sequence[tuple[str, list[str], str]]) -> tuple[list, list]:
    """Every other query of each kind calibrates, the rest are held out (so both halves hold every kind)."""
    calibration, held_out, seen = [], [], {}
    for query in queries:
        n = seen[query[2]] = seen.get(query[2], -1) + 1
        (calibration if n % 2 == 0 else held_out).append(query)
    return calibration, held_out


ROUTES = (("zh", "en"),)
"""The installed translation routes: the one real package reachable here."""


def answers(store: Store, e5: TextEmbeddingRuntime, queries: Sequence[tuple[str, list[str], str]],
            translator: QueryTranslator | None = None) -> dict[str, list[str]]:
    """The file names each query's search returns, best first (the top ``TOP``)."""
    def embed(text: str) -> list[float]:
        return e5.embed_queries([text])[0]
    return {
        query: [Path(r.path).name for r in
                fused_search.search(query, connect=store.db.read, current=CURRENT, text_model=E5, embed_text=embed,
                                    kinds=("image",), limit=TOP, translate_query=translator)]
        for query, _, _ in queries
    }


def query_translator(store: Store, marian: MarianRuntime) -> QueryTranslator:
    """The library's query translator over the real zh→en model, as :class:`~app.engine.library.Library` makes it."""
    def library_languages() -> set[str]:
        with store.db.read() as conn:
            return search_queries.text_languages(conn)
    return QueryTranslator(lambda _source, _target, text: marian.translate_query(text),
                           lambda source, target: (source, target) in ROUTES, library_languages)


def scores(found: dict[str, list[str]], queries: Sequence[tuple[str, list[str], str]]) -> tuple[float, float, float]:
    """``(MRR@10, recall@10, share of no-match queries answered with nothing)``."""
    reciprocal, recall, silent = [], [], []
    for query, right, _ in queries:
        got = found[query][:TOP]
        if not right:
            silent.append(1.0 if not got else 0.0)
            continue
        first = next((i for i, name in enumerate(got) if name in right), None)
        reciprocal.append(0.0 if first is None else 1.0 / (first + 1))
        recall.append(len(set(got) & set(right)) / len(right))
    mean = statistics.mean
    return mean(reciprocal) if reciprocal else 0.0, mean(recall) if recall else 0.0, mean(silent) if silent else 1.0


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default="", help="a PostgreSQL library instead of a fresh SQLite one")
    parser.add_argument("--no-translation", action="store_true", help="search as a library without a translator")
    parser.add_argument("--verbose", action="store_true", help="print each query's answers")
    args = parser.parse_args(argv)
    e5 = TextEmbeddingRuntime(num_threads=1)
    calibration, held_out = split(QUERIES)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.database_url or Path(tmp) / "library.sqlite3")
        marian = None if args.no_translation else MarianRuntime([str(unpacked_zh_en(Path(tmp) / "zh_en"))], cpu_threads=1)
        try:
            translate = None if marian is None else (lambda _source, _target, texts: marian.translate(texts))
            index_photos(store, read_photos(Path(tmp) / "inbox", e5, translate=translate, routes=ROUTES))  # a folder word no query holds
            translator = None if marian is None else query_translator(store, marian)
            chosen = fused_search.MIN_SIMILARITY[E5]
            print(f"{len(QUERIES)} queries ({sum(1 for q in QUERIES if not q[1])} about nothing), "
                  f"{len(calibration)} to calibrate, {len(held_out)} held out\n")
            print(f"{'e5 floor':>9} | {'calibration: MRR@10  recall@10  silent':^40} | {'held out: MRR@10  recall@10  silent':^38}")
            for floor in sorted({*FLOORS, chosen}):
                fused_search.MIN_SIMILARITY[E5] = floor
                found = answers(store, e5, QUERIES, translator)
                cal, held = scores(found, calibration), scores(found, held_out)
                mark = "  ← search's floor" if floor == chosen else ""
                print(f"{floor:>9.3f} | {cal[0]:>17.3f} {cal[1]:>10.3f} {cal[2]:>7.0%}        "
                      f"| {held[0]:>14.3f} {held[1]:>10.3f} {held[2]:>7.0%}{mark}")
            fused_search.MIN_SIMILARITY[E5] = chosen
            found = answers(store, e5, QUERIES, translator)
            everything = scores(found, QUERIES)
            print(f"\nall queries at the floor search uses ({chosen}): MRR@10 {everything[0]:.3f}, "
                  f"recall@10 {everything[1]:.3f}, no-match queries silent {everything[2]:.0%}")
            kinds = sorted({kind for _, _, kind in QUERIES})
            for kind in kinds:
                subset = [q for q in QUERIES if q[2] == kind]
                mrr, recall, silent = scores(found, subset)
                print(f"  {kind:<8} n={len(subset):>2}  " + (f"silent {silent:.0%}" if kind == "none"
                                                          else f"MRR@10 {mrr:.3f}  recall@10 {recall:.3f}"))
            for query, right, kind in QUERIES:
                got = found[query]
                wrong = (got[:1] != [] and got[0] not in right) if right else bool(got)
                if args.verbose or wrong or (right and not set(got) & set(right)):
                    print(f"    {kind:<7} {query!r:<26} want {right or 'nothing'} got {got[:5]}")
        finally:
            store.close()


if __name__ == "__main__":
    main()
