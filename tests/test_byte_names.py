"""File names that are not UTF-8 (issue 21): stored losslessly on both backends, shown readably, emitted reversibly.

A POSIX name is bytes; Python hands an undecodable byte to us as a lone surrogate
(``b'Caf\\xe9'`` → ``'Caf\\udce9'``). The store escapes such text at the cursor and every
text column unescapes it (app.store.byte_text); the CLI and GUI show U+FFFD and ``--json``
adds ``<field>_bytes`` (app.shown_names).
"""

from __future__ import annotations

import base64
import itertools
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.media.naming import MAX_NAME_BYTES, subtitle_names
from app.shown_names import MARK, escape, readable, unescape, with_name_bytes
from app.store import Store
from app.store.records import NewItem, NewStage

#: Any name a POSIX file system allows: 1–255 bytes, no "/" and no NUL.
BYTE_NAMES = st.binary(min_size=1, max_size=MAX_NAME_BYTES).filter(lambda b: b"/" not in b and b"\0" not in b
                                                                   and b not in (b".", b".."))
#: Text as file names reach Python: any characters, lone surrogates and the escape mark included.
NAME_TEXT = st.text(st.one_of(st.characters(), st.sampled_from([MARK, "\udce9", "\udcff", "\udc80", "\n"])))


@given(NAME_TEXT, NAME_TEXT)
def test_the_stored_form_is_reversible_valid_text_and_keeps_prefixes(head: str, tail: str) -> None:
    stored = escape(head + tail)
    assert unescape(stored) == head + tail
    stored.encode("utf-8")  # what both databases accept: no lone surrogate left
    assert stored.startswith(escape(head))  # LIKE 'folder/%' still finds what is below a folder


def test_text_without_undecodable_bytes_is_stored_unchanged() -> None:
    for text in ("/media/Film.mkv", "日本語 ファイル.mp4", "emoji 🎬 & 100%_done.mkv", "new\nline.mp3"):
        assert escape(text) == text


def test_readable_and_json_forms() -> None:
    path = os.fsdecode(b"/lib/Caf\xe9 talk.flac")
    assert readable(path) == "/lib/Caf\ufffd talk.flac"
    out = with_name_bytes({"items": [{"path": path, "id": 1}], "folder": "/lib", "examples": [path]})
    item = out["items"][0]
    assert item["path"] == "/lib/Caf\ufffd talk.flac"
    assert os.fsdecode(base64.b64decode(item["path_bytes"])) == path  # the documented way back to the file
    assert out["folder"] == "/lib" and "folder_bytes" not in out
    assert out["examples"] == ["/lib/Caf\ufffd talk.flac"]


@given(BYTE_NAMES)
def test_subtitle_names_keep_the_exact_bytes_and_fit_255(name: bytes) -> None:
    stem = Path(os.fsdecode(name)).stem or "x"
    for out in subtitle_names(stem, "de", "en").all():
        raw = os.fsencode(out)
        assert len(raw) <= MAX_NAME_BYTES
        assert b"/" not in raw and b"\0" not in raw
        if len(os.fsencode(stem)) + 8 <= MAX_NAME_BYTES and "\\" not in stem and stem.strip():
            assert raw.startswith(os.fsencode(stem))  # the stem unchanged: players pair subtitles by it


_counter = itertools.count()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(BYTE_NAMES, min_size=1, max_size=5, unique=True))
def test_any_byte_name_round_trips_through_the_store(store_location: Path | str, names: list[bytes]) -> None:
    """On SQLite and PostgreSQL: the exact path comes back from every read an add and a catch-up scan make."""
    store = Store(store_location)
    try:
        folder = os.fsdecode(b"/lib/\xff%_" + str(next(_counter)).encode())  # LIKE's own wildcards in it too
        paths = [f"{folder}/{os.fsdecode(name)}" for name in names]
        job = store.jobs.create(folder, {"note": paths[0]}, owner="test")
        store.jobs.add_items(job, [NewItem(p, "video", 1, 2, f"sha-{n}", (NewStage(0, "hash", "fp"),))
                                   for n, p in enumerate(paths)])
        store.jobs.finish_creating(job, {"problems": [{"path": paths[0], "code": "not_a_regular_file"}]})

        assert store.jobs.known_sha256s([(p, 1, 2) for p in paths]) == {(p, 1, 2): f"sha-{n}" for n, p in enumerate(paths)}
        assert [i.path for i in store.jobs.items(job)] == paths
        assert sorted(c.path for c in store.current.under(folder)) == sorted(paths)
        assert all(store.current.get(p) is not None for p in paths)
        (summary,) = store.jobs.summaries(job)
        assert summary.folder == folder
        assert summary.scan_report["problems"][0]["path"] == paths[0]
        assert {os.fsencode(i.path) for i in store.jobs.items(job)} == {os.fsencode(p) for p in paths}
    finally:
        store.close()
