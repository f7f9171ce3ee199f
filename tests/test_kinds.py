"""The media-kind registry: one declaration per kind, and everything that lists kinds derives from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import build_parser
from app.engine.kinds import MEDIA_KINDS, MediaKind, MediaKinds
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.stage import Pipeline
from app.errors import SidecarError
from app.gui.main_window import media_file_filters
from app.pipelines.subtitled import subtitled_beside
from app.pipelines import DEFAULT_KINDS
from tests.engine_stages import fake_pipeline


def _kind(name: str, extensions: str, search_kind: str = "dialogue") -> MediaKind:
    return MediaKind(name, frozenset(extensions.split()), name.title(), search_kind,
                     pipeline=lambda data_dir, settings: Pipeline(name, []), skip=subtitled_beside)


def test_a_fourth_kind_is_one_registration() -> None:
    kinds = MediaKinds()
    for kind in DEFAULT_KINDS:
        kinds.register(kind)
    kinds.register(_kind("ebook", ".epub .mobi", search_kind="text"))
    assert kinds.choices() == ("all", *(k.name for k in DEFAULT_KINDS), "ebook")
    assert kinds.of(Path("/books/Novel.EPUB")).name == "ebook"
    assert kinds.selection("all") == frozenset({*(k.name for k in DEFAULT_KINDS), "ebook"})
    assert kinds.selection("ebook") == frozenset({"ebook"})
    assert kinds.search_choices()[-1] == "text" and kinds.search_selection("text") == ("text",)
    assert kinds.of(Path("notes.txt")) is None


def test_conflicting_declarations_are_refused() -> None:
    kinds = MediaKinds()
    podcast = _kind("podcast", ".mp3")
    kinds.register(podcast)
    kinds.register(podcast)  # the same declaration again (a module imported twice) is harmless
    with pytest.raises(ValueError, match="already belongs to podcast"):
        kinds.register(_kind("music", ".flac .mp3"))
    with pytest.raises(ValueError, match="already registered"):
        kinds.register(_kind("podcast", ".m4b"))
    with pytest.raises(ValueError, match="lower-case"):
        kinds.register(_kind("tape", ".WAV"))
    with pytest.raises(ValueError, match="choice of every kind"):
        kinds.register(_kind("all", ".xyz"))
    assert kinds.names() == ("podcast",) and kinds.of(Path("a.flac")) is None


def test_an_empty_registry_says_so_instead_of_finding_nothing() -> None:
    with pytest.raises(SidecarError) as err:
        MediaKinds().selection("all")
    assert err.value.code == "no_media_kinds"


def test_unknown_choices_are_typed_errors() -> None:
    with pytest.raises(SidecarError) as err:
        MEDIA_KINDS.selection("hologram")
    assert err.value.code == "invalid_argument"
    with pytest.raises(SidecarError) as err:
        MEDIA_KINDS.search_selection("video")  # videos are searched as dialogue
    assert err.value.code == "invalid_argument"


def test_cli_choices_come_from_the_registry() -> None:
    parser = build_parser()
    for choice in MEDIA_KINDS.choices():
        assert parser.parse_args(["add", "x", "--kind", choice]).kind == choice
        assert parser.parse_args(["watch", "add", "x", "--kind", choice]).kind == choice
    for choice in MEDIA_KINDS.search_choices():
        assert parser.parse_args(["search", "q", "--kind", choice]).kind == choice
    assert set(MEDIA_KINDS.search_choices()) == {"all", "dialogue", "image"}
    with pytest.raises(SystemExit):
        parser.parse_args(["add", "x", "--kind", "hologram"])


def test_the_add_files_dialog_offers_every_registered_extension() -> None:
    filters = media_file_filters().split(";;")
    assert filters[-1] == "All files (*)"
    media = filters[0]
    for kind in MEDIA_KINDS:
        assert any(f.startswith(f"{kind.label} (") for f in filters)
        for ext in kind.extensions:
            assert f"*{ext} " in media and f"*{ext.upper()}" in media


def test_audio_is_a_registered_kind_with_the_already_subtitled_rule(tmp_path: Path, data_dir: Path, fast_config) -> None:
    folder = tmp_path / "lib"
    folder.mkdir()
    for name in ("talk.mp3", "talk.en.srt", "memo.FLAC", "clip.mp4", "notes.txt"):
        (folder / name).write_bytes(name.encode() * 10)
    stages = fake_pipeline()[0].stages
    lib = Library(data_dir, {"audio": Pipeline("audio", stages)}, fast_config)
    try:
        job = lib.add(folder, JobOptions(kind="audio"))
        first = {Path(i.path).name: i.status for i in lib.items(job.id)}
        lib.start()
        lib.run_until_idle()
        again = lib.add(folder, JobOptions())
    finally:
        lib.close()
    assert first == {"talk.mp3": "skipped", "memo.FLAC": "pending"}
    assert (folder / "memo.test.srt").is_file()
    assert (again.total, again.skipped) == (0, 2)  # both audio files now have a subtitle
    assert again.scan_report["unsupported"]["kinds"] == ["video"]  # no video pipeline in this library
