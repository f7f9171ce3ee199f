"""Search across languages with the real zh→en OPUS-MT model (issue 38): "Osaka" finds the text 大阪, "卢浮宫" finds LOUVRE.

The OCR text is given (the OCR itself is ``bench/search_relevance.py``'s and the image
pipeline's tests' business); the translations are the real model's, written and searched
through the store and :func:`app.engine.search.search` as the library does. No e5 here:
every hit below is a word match, in a translation or through a translated query.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Iterator, cast

import pytest

from app.cli import cmd_search
from app.engine.library import Library
from app.engine.query_translation import QueryTranslator
from app.engine.search import MATCH_TRANSLATED_QUERY, MATCH_TRANSLATION, MATCH_WORDS, SearchResult, search
from app.media.text_translation import text_language, translate_requests, translation_requests
from app.ml.marian_runtime import MarianRuntime
from app.store import Store, search_queries
from app.store.records import NewItem
from app.store.search_queries import CurrentContent
from app.store.search_writes import SearchIndexWriter, TextTranslation
from tests.opus_mt import unpacked_zh_en

CURRENT = CurrentContent("current_items")
ZH_EN = {("zh", "en")}


@pytest.fixture(scope="module")
def marian(tmp_path_factory: pytest.TempPathFactory) -> MarianRuntime:
    return MarianRuntime([str(unpacked_zh_en(tmp_path_factory.mktemp("zh_en")))], cpu_threads=1)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(tmp_path / "library.sqlite3")
    yield store
    store.close()


def _index(store: Store, images: dict[str, tuple[str, list[TextTranslation]]]) -> None:
    """Images (name → OCR text, its translations) as the library's current items, indexed as ``place`` does."""
    job = store.jobs.create("/pics", {}, owner="test")
    store.jobs.add_items(job, [NewItem(f"/pics/{name}", "image", 1, 1, name.ljust(64, "0")) for name in images])
    store.jobs.finish_creating(job, {})
    writer = SearchIndexWriter(store.db.write)
    for name, (ocr, translations) in images.items():
        writer.upsert_image(name.ljust(64, "0"), text_model="e5", text_vector=None, document=ocr, ocr_text=ocr,
                            translations=translations)


def _translated(marian: MarianRuntime, ocr: str) -> list[TextTranslation]:
    requests = translation_requests(ocr, ["en"], lambda a, b: (a, b) in ZH_EN)
    return translate_requests(requests, lambda _a, _b, texts: marian.translate(texts))


def test_osaka_finds_the_chinese_sign_through_its_translation_and_says_so(marian: MarianRuntime, store: Store) -> None:
    sign = "大阪\n营业时间"
    translations = _translated(marian, sign)
    assert {t.source_text for t in translations} == {"大阪", "营业时间"}
    assert all((t.source_lang, t.lang) == ("zh", "en") for t in translations)
    _index(store, {"sign.jpg": (sign, translations), "bare.jpg": (sign, [])})

    (hit,) = search("Osaka", connect=store.db.read, current=CURRENT, text_model="e5", kinds=("image",))
    assert Path(hit.path).name == "sign.jpg"  # the same text without its translation is not found
    assert (hit.match, hit.match_text) == (MATCH_TRANSLATION, "大阪")
    assert "[Osaka]" in hit.snippet
    (own,) = search("大阪", connect=store.db.read, current=CURRENT, text_model="e5", kinds=("image",))[:1]
    assert own.match == MATCH_WORDS and own.match_text == ""  # its own text is the stronger evidence


def test_japanese_kanji_names_are_translated_through_chinese_when_japanese_has_no_package(marian: MarianRuntime,
                                                                                      store: Store) -> None:
    news = "三星堆の文化財レプリカが大阪・関西万博で展示へ"
    assert text_language(news) == "ja"
    translations = _translated(marian, news)
    assert "大阪" in {t.source_text for t in translations} and all(t.source_lang == "ja" for t in translations)
    assert all(len(t.source_text) < len(news) for t in translations), "kanji compounds, not the Japanese sentence"
    _index(store, {"news.jpg": (news, translations)})
    (hit,) = search("Osaka", connect=store.db.read, current=CURRENT, text_model="e5", kinds=("image",))
    assert (Path(hit.path).name, hit.match, hit.match_text) == ("news.jpg", MATCH_TRANSLATION, "大阪")


def test_a_chinese_query_is_translated_into_the_librarys_english_once_and_finds_the_english_sign(
        marian: MarianRuntime, store: Store) -> None:
    _index(store, {"paris.jpg": ("Palais du LOUVRE\nLES ARTS DÉCORATIFS", []),
                   "shop.jpg": ("极速发货", _translated(marian, "极速发货"))})
    with store.db.read() as conn:
        assert search_queries.text_languages(conn) == {"zh", "en"}
    made: list[str] = []

    def translate(source: str, target: str, text: str) -> str:
        made.append(text)
        return marian.translate_query(text)

    def languages() -> set[str]:
        with store.db.read() as conn:
            return search_queries.text_languages(conn)

    translator = QueryTranslator(translate, lambda a, b: (a, b) in ZH_EN, languages)
    without = search("卢浮宫", connect=store.db.read, current=CURRENT, text_model="e5", kinds=("image",))
    assert without == []
    for _ in range(2):
        (hit,) = search("卢浮宫", connect=store.db.read, current=CURRENT, text_model="e5", kinds=("image",),
                        translate_query=translator)
        assert Path(hit.path).name == "paris.jpg" and hit.match == MATCH_TRANSLATED_QUERY
        assert "louvre" in hit.match_text.lower() and "[LOUVRE]" in hit.snippet
    assert made == ["卢浮宫"], "the repeated query was answered from the cache"
    assert translator("Louvre") == [], "a query whose language cannot be told is not translated"


def test_translations_match_whole_words_only(store: Store) -> None:
    """A machine translation's fragments answered queries about nothing ("tax" in "taxi", "car" in "card")."""
    _index(store, {"permit.jpg": ("出租客运", [TextTranslation("zh", "en", "出租客运", "Taxi passengers, identity card")])})
    for query in ("tax", "car", "ident"):
        assert search(query, connect=store.db.read, current=CURRENT, text_model="e5", kinds=("image",)) == [], query
    (hit,) = search("taxi", connect=store.db.read, current=CURRENT, text_model="e5", kinds=("image",))
    assert (hit.match, hit.match_text) == (MATCH_TRANSLATION, "出租客运")
    SearchIndexWriter(store.db.write).upsert_image("permit.jpg".ljust(64, "0"), text_model="e5", text_vector=None,
                                                   document="出租客运", ocr_text="出租客运")
    assert search("taxi", connect=store.db.read, current=CURRENT, text_model="e5", kinds=("image",)) == [], \
        "indexing the content again replaces its translations"


def test_the_cli_says_which_translation_a_result_matched(capsys: pytest.CaptureFixture[str]) -> None:
    class Answers:
        def search(self, *_args: object) -> list[SearchResult]:
            return [SearchResult("/p/sign.jpg", "image", 0.03, "[Osaka]", match=MATCH_TRANSLATION, match_text="大阪"),
                    SearchResult("/p/paris.jpg", "image", 0.02, "[LOUVRE]", match=MATCH_TRANSLATED_QUERY,
                                 match_text="Louvre"),
                    SearchResult("/p/menu.jpg", "image", 0.01, "[Osaka] menu")]

    args = argparse.Namespace(query="Osaka", image=None, kind="all", limit=5, json=False)
    assert cmd_search(args, cast(Library, Answers())) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2].strip() == "matched the translation of “大阪”"
    assert out[5].strip() == "matched the query translated as “Louvre”"
    assert len(out) == 8, "a result found by its own words needs no note"


def test_a_translations_function_words_are_not_searched(store: Store) -> None:
    """"海滩日落" → "The beach at sunset": the beach photo is found by its words, a text sharing only "the" is not."""
    _index(store, {"beach.jpg": ("beach sunset", []), "museum.jpg": ("the museum of the city", [])})
    hits = search("海滩日落", connect=store.db.read, current=CURRENT, text_model="e5", kinds=("image",),
                  translate_query=lambda _query: [("en", "The beach at sunset")])
    assert [(Path(h.path).name, h.match, h.match_text) for h in hits] == [
        ("beach.jpg", MATCH_TRANSLATED_QUERY, "The beach at sunset")]


def test_a_translation_of_function_words_only_is_searched_as_it_is(store: Store) -> None:
    """Nothing would be left of "The Who" but "Who"; of "It", nothing: then the line is searched whole."""
    _index(store, {"poster.jpg": ("it", [])})
    (hit,) = search("它", connect=store.db.read, current=CURRENT, text_model="e5", kinds=("image",),
                    translate_query=lambda _query: [("en", "It")])
    assert Path(hit.path).name == "poster.jpg" and hit.match_text == "It"
