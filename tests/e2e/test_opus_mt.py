"""Real translations out of the box (issue 34): real Mandarin speech becomes English subtitles with the real
zh→en OPUS-MT package, and without it the recording waits, named, and goes on by itself once it is installed.

Real Whisper, real e5 and language identifier (the per-line check), the real package
(tests/opus_mt.py) and two real FLEURS Mandarin readings (tests/data/speech/mandarin.ogg),
which tuned nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.media.translation_quality import in_target_language
from app.ml.model_install import install_from_file
from app.pipelines.outputs import TRANSLATION_DOUBTFUL, WAITING_FOR_TRANSLATOR
from app.status_words import item_json
from tests.opus_mt import zh_en_package
from tests.video_jobs import assert_loads_everywhere, library, stage_rows, wait_for

MANDARIN = Path(__file__).parents[1] / "data" / "speech" / "mandarin.ogg"


def _folder(root: Path) -> Path:
    folder = root / "library"
    folder.mkdir(parents=True)
    shutil.copyfile(MANDARIN, folder / "talk.ogg")
    return folder


def _run(data_dir: Path, folder: Path):  # noqa: ANN202 - a test helper returning the library's records
    from tests.video_jobs import options

    lib = library(data_dir, translator=None)
    job = lib.add(folder, options("en", kind="audio"))
    lib.start()
    lib.run_until_idle()
    return lib, job


def test_real_mandarin_speech_becomes_english_subtitles_the_check_keeps(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    install_from_file(data_dir, zh_en_package())
    folder = _folder(tmp_path)
    lib, job = _run(data_dir, folder)
    try:
        (item,) = lib.items(job.id)
        translation = stage_rows(lib.store, "translate")["talk.ogg"]["output"]
        transcript = stage_rows(lib.store, "transcribe")["talk.ogg"]["output"]
    finally:
        lib.close()
    assert transcript["language"] == "zh"
    assert item.status == "completed" and item.result in (None, "translation_fallback", TRANSLATION_DOUBTFUL), item
    assert translation["model"].startswith("opus-mt:zh-en:")
    cues = transcript["cues"]
    kept = [i for i in range(len(cues)) if i not in set(translation["fallback"])]
    assert cues and len(kept) >= 0.8 * len(cues), (translation["fallback"], translation.get("reasons"))
    english = assert_loads_everywhere(folder / "talk.en.srt")
    assert len(english) == len(cues)
    for i in kept:
        assert in_target_language(english[i].plaintext, "en", "zh"), english[i].plaintext
    assert (folder / "talk.zh.srt").is_file()


def test_without_its_translator_the_recording_waits_named_and_goes_on_by_itself_once_installed(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    folder = _folder(tmp_path)
    lib, job = _run(data_dir, folder)
    try:
        (item,) = lib.items(job.id)
        assert (item.status, item.result) == ("completed", WAITING_FOR_TRANSLATOR)
        assert item.detail == {"from": "zh", "to": "en", "install": ["zh→en"]}
        shown = item_json(item)
        assert shown["problem"]["code"] == WAITING_FOR_TRANSLATOR, shown
        assert (folder / "talk.zh.srt").is_file(), "the transcript is placed while the translation waits"
        assert not (folder / "talk.en.srt").exists()
        assert lib.model_loads().get("app.ml.marian_runtime:MarianRuntime") is None

        install_from_file(data_dir, zh_en_package())  # the engine is running: its watch on the models folder acts
        wait_for(lambda: (folder / "talk.en.srt").is_file(), 180, "the English subtitle after the install")
        (item,) = wait_for(lambda: [i for i in lib.items(job.id) if i.status == "completed" and i.result != WAITING_FOR_TRANSLATOR],
                           60, "the item to finish translated")
        loads = lib.model_loads()
    finally:
        lib.close()
    assert item.result != WAITING_FOR_TRANSLATOR
    assert sum(n for key, n in loads.items() if key.startswith("app.ml.whisper_runtime:")) == 1, \
        f"the transcript is reused, not heard again: {loads}"
    assert assert_loads_everywhere(folder / "talk.en.srt")


def test_the_cli_says_what_the_item_waits_for_and_what_to_install(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main as cli

    data_dir = tmp_path / "data"
    folder = _folder(tmp_path)
    assert cli(["add", str(folder), "--data-dir", str(data_dir), "--target-lang", "de", "--kind", "audio"]) == 0
    assert cli(["run", "--until-idle", "--data-dir", str(data_dir)]) == 0
    capsys.readouterr()
    assert cli(["status", "--items", "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert f"[{WAITING_FOR_TRANSLATOR}] waiting for the zh→de translator (install zh→en + en→de)" in out, out
    assert "1 waiting for a translator" in out, out
