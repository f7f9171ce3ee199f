"""1–2 character CJK terms (猫, 东京) through the character tables (revision 0009): the rows a LIKE scan finds, without the scan."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from app.store import Store, search_queries, search_writes
from app.store.search_schema import CJK_TABLES, cjk_characters, cjk_phrase
from app.store.records import NewItem
from app.store.search_writes import SearchIndexWriter
from tests.search_db import CURRENT, make_engine, run_revision, set_item

TEXTS = {
    "a": ("发票号码 No.5 东京", "東京タワー"),
    "b": ("码东", "一只猫"),
    "c": ("invoice only", ""),
    "d": ("猫和狗 大阪", "ダンスバトル 大阪・関西"),
}
NAMES = {"/pics/a.png": ("a", "东京 trip"), "/pics/b.png": ("b", "猫"), "/pics/c.png": ("c", "invoice"),
         "/pics/d.png": ("d", "大阪")}
FLAT = [1.0] + [0.0] * 383
TERMS = ["猫", "东京", "東京", "大阪", "码东", "票号", "号", "狗", "バト", "关西", "関西", "京", "夕", "犬"]


def test_characters_are_words_and_runs_stay_apart() -> None:
    assert cjk_characters("发票号码 No.5 东京") == "发 票 号 码 0 东 京"
    assert cjk_characters("invoice 4471") == "" and cjk_characters(None) == ""
    assert cjk_phrase("东京") == '"东 京"'


def _like(conn, base: str, term: str) -> list[int]:
    """What the LIKE scan of the trigram table found before revision 0009: the reference."""
    condition = " OR ".join(f"{column} LIKE :pattern" for column in CJK_TABLES[base])
    return list(conn.execute(text(f"SELECT id FROM {base} WHERE {condition} ORDER BY id"), {"pattern": f"%{term}%"}).scalars())


def _found(conn, term: str) -> tuple[set[str | None], set[str]]:
    images = {hit.path for hit in search_queries.fts_images(conn, term, k=50, current=CURRENT)}
    cues = {hit.text for hit in search_queries.fts_dialogue(conn, term, k=50, current=CURRENT)}
    return images, cues


def _write(conn) -> None:
    for path, (sha, words) in NAMES.items():
        set_item(conn, path, sha)
        document, ocr = TEXTS[sha]
        search_writes.upsert_image(conn, sha, text_model="e5", text_vector=None, document=document, ocr_text=ocr)
        search_writes.name_image(conn, path, sha, words)
    set_item(conn, "/videos/v.mp4", "v")
    search_writes.upsert_dialogue(conn, "/videos/v.mp4", "v", [(0.0, 1.0, "我们去东京吧", "zh"), (1.0, 2.0, "好的", "zh"),
                                                               (2.0, 3.0, "猫が好き", "ja")], [FLAT] * 3, text_model="e5")


def test_short_terms_find_the_rows_a_like_scan_finds(tmp_path: Path) -> None:
    engine = make_engine(tmp_path / "s.db")
    with engine.begin() as conn:
        _write(conn)
    with engine.connect() as conn:
        for term in TERMS:
            for base in CJK_TABLES:
                fts = f"{base}_cjk"
                ids = list(conn.execute(text(f"SELECT rowid FROM {fts} WHERE {fts} MATCH :p ORDER BY rowid"),
                                        {"p": cjk_phrase(term)}).scalars())
                assert ids == _like(conn, base, term), (term, base)
        images, cues = _found(conn, "东京")
        assert images == {"/pics/a.png"} and cues == {"我们去东京吧"}
        assert _found(conn, "猫") == ({"/pics/b.png", "/pics/d.png"}, {"猫が好き"})
        assert _found(conn, "码东")[0] == {"/pics/b.png"}, "码东 is in b's text; in a's the two characters are apart"


def test_rewritten_and_deleted_rows_leave_the_character_tables(tmp_path: Path) -> None:
    engine = make_engine(tmp_path / "s.db")
    with engine.begin() as conn:
        _write(conn)
        search_writes.upsert_image(conn, "b", text_model="e5", text_vector=None, document="一只狗", ocr_text="")
        search_writes.delete_for_sha256(conn, "d")
        search_writes.upsert_dialogue(conn, "/videos/v.mp4", "v", [(0.0, 1.0, "犬が好き", "ja")], [FLAT],
                                     text_model="e5")
    with engine.connect() as conn:
        assert _found(conn, "猫") == ({"/pics/b.png"}, set()), "only b's file name still says 猫: its text and d are gone"
        assert _found(conn, "大阪") == (set(), set())
        assert _found(conn, "狗")[0] == {"/pics/b.png"} and _found(conn, "犬")[1] == {"犬が好き"}
        for base in CJK_TABLES:
            for term in TERMS:
                fts = f"{base}_cjk"
                ids = list(conn.execute(text(f"SELECT rowid FROM {fts} WHERE {fts} MATCH :p ORDER BY rowid"),
                                        {"p": cjk_phrase(term)}).scalars())
                assert ids == _like(conn, base, term), (term, base)


def test_the_migration_fills_the_character_tables_of_a_library_indexed_before(tmp_path: Path) -> None:
    store = Store(tmp_path / "library.sqlite3")
    try:
        job = store.jobs.create("/pics", {}, owner="test")
        store.jobs.add_items(job, [NewItem(path, "image", 1, 1, sha.ljust(64, "0")) for path, (sha, _) in NAMES.items()])
        store.jobs.finish_creating(job, {})
        writer = SearchIndexWriter(store.db.write)
        for path, (sha, words) in NAMES.items():
            document, ocr = TEXTS[sha]
            writer.upsert_image(sha.ljust(64, "0"), text_model="e5", text_vector=None, document=document, ocr_text=ocr)
            writer.name_image(path, sha.ljust(64, "0"), words)
        with store.db.write() as conn:  # the library as revision 0008 left it: no character tables
            for base in CJK_TABLES:
                conn.execute(text(f"DROP TABLE {base}_cjk"))
            run_revision(conn, "0009_cjk_characters.py")
        current = search_queries.CurrentContent("current_items")
        with store.db.read() as conn:
            for term, want in (("东京", {"/pics/a.png"}), ("猫", {"/pics/b.png", "/pics/d.png"}), ("大阪", {"/pics/d.png"})):
                assert {hit.path for hit in search_queries.fts_images(conn, term, k=50, current=current)} == want, term
    finally:
        store.close()
