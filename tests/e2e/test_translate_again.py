"""Translation failed → a translator becomes available → "Translate again" writes the files (issue 39.1).

The real video pipeline (real Whisper, e5, the step protocol) over a German video, target
Chinese, on the CLI as a person types it. The first translator is a scripted server
(tests/model_server.py) that gives every line back untranslated, as the bundled placeholder
does: the item is ``translation_failed`` with only its transcript written. Adding the folder
again with that same translator must not report the item done with nothing written (the
failed translation was once reused from the cache: Completed, no result, no file). Then a
working server is set in the settings (the "install a translator" step) and
``sidecar translate-again`` queues the item; ``sidecar run`` translates it from its stored
transcript (Whisper is not run again) and writes the Chinese subtitles.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from app.cli import main as cli
from app.pipelines.outputs import TRANSLATION_FAILED
from app.settings import Settings, save_settings
from tests.media import MediaFactory
from tests.model_server import ModelServer
from tests.scripted_translations import to_chinese
from tests.video_jobs import assert_loads_everywhere, folder_of


def _is_chinese(text: str) -> bool:
    return sum("\u4e00" <= ch <= "\u9fff" for ch in text) >= 2


@pytest.fixture
def servers() -> Iterator[tuple[ModelServer, ModelServer]]:
    weak = ModelServer(answer=lambda language, text: None).start()
    good = ModelServer(answer=lambda language, text: to_chinese(text)).start()
    yield weak, good
    weak.stop()
    good.stop()


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    capsys.readouterr()
    cli([*args, "--json"])
    return json.loads(capsys.readouterr().out)


def _items(capsys: pytest.CaptureFixture[str], data_dir: Path) -> list[dict]:
    payload = _json(capsys, "status", "--items", "--data-dir", str(data_dir))
    return [item for job in payload["jobs"] for item in job["items"]]


def test_translate_again_on_the_cli_writes_the_translation_once_a_translator_works(
        media: MediaFactory, tmp_path: Path, servers: tuple[ModelServer, ModelServer],
        capsys: pytest.CaptureFixture[str]) -> None:
    weak, good = servers
    folder = folder_of(tmp_path / "library", {"german.mkv": media.german(".mkv")})
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    save_settings(data_dir, Settings(target_lang="zh", translation_endpoint=weak.url("/v1"),
                                     translation_endpoint_model="weak"))
    dd = ("--data-dir", str(data_dir))
    assert cli(["add", str(folder), *dd]) == 0
    cli(["run", "--until-idle", *dd])
    (item,) = _items(capsys, data_dir)
    assert (item["status"], item["problem"]["code"]) == ("completed", TRANSLATION_FAILED)
    assert sorted(p.name for p in folder.iterdir() if p.suffix == ".srt") == ["german.de.srt"]

    # Adding the folder again with the same (failing) translator redoes the translation and says so again.
    asked = len(weak.chats)
    assert cli(["add", str(folder), *dd]) == 0
    cli(["run", "--until-idle", *dd])
    second = _items(capsys, data_dir)[-1]
    assert (second["status"], (second["problem"] or {}).get("code")) == ("completed", TRANSLATION_FAILED), \
        "reported done with nothing written"
    assert len(weak.chats) > asked, "the translation was tried again, not taken from the cache"
    assert not (folder / "german.zh.srt").exists()

    # A working translator is set; Translate again queues both failed items and the run writes the files.
    save_settings(data_dir, Settings(target_lang="zh", translation_endpoint=good.url("/v1"),
                                     translation_endpoint_model="good"))
    assert _json(capsys, "translate-again", *dd) == {"queued": 2}
    assert _json(capsys, "translate-again", *dd) == {"queued": 0}, "queued items are not queued twice"
    cli(["run", "--until-idle", *dd])
    items = _items(capsys, data_dir)
    assert [(i["status"], i["problem"]) for i in items] == [("completed", None)] * 2, items
    assert good.chats and {language for language, _ in good.chats} == {"German"}
    chinese = assert_loads_everywhere(folder / "german.zh.srt")
    assert chinese and all(_is_chinese(line.plaintext) for line in chinese)
    assert len(assert_loads_everywhere(folder / "german.zh.ass")) == len(chinese)
    loads = _json(capsys, "status", *dd)["model_loads"]
    assert [n for key, n in loads.items() if key.startswith("app.ml.whisper_runtime:")] == [1], "transcript reused"
