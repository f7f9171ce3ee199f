"""A file never names a language it does not hold (issue 15.8, 23), through the real pipeline.

One job, target Chinese, over a German and a ten-sentence English video: real Whisper,
real e5 (search and the translation quality estimate), the real language identifier, the
real step protocol, and a scripted translation server (tests/model_server.py) reached over
HTTP as any server in the settings is, answering human Chinese (tests/scripted_translations.py).
It gives every German line back untranslated, as the bundled placeholder model does with
Chinese, two English sentences of ten untranslated, and a third as the translation of another
line (a repeated line). The German video then gets its transcript only and the item says
what to do; the English one gets its Chinese files, reads ``translation_doubtful`` (3 of 10
lines kept their text, retried once each) and lists the three lines with their reasons.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from app.cli import main as cli
from app.codes import LINE_REASONS
from app.media.translation_quality import MISALIGNED, REPEATED, UNTRANSLATED
from app.pipelines.outputs import TRANSLATION_DOUBTFUL, TRANSLATION_FAILED
from app.status_words import job_label
from tests.media import MediaFactory
from tests.model_server import ModelServer
from tests.scripted_translations import CLAUSES, to_chinese
from tests.video_jobs import (FolderRun, assert_loads_everywhere, folder_of, library, run_and_read, run_folder,
                              translation_by_cue)

#: English sentences the weak server leaves untranslated (sentences one and two of ten).
ECHOED = ("submarine", "chocolate")
#: The sentence the weak server answers with another line's translation (the library sentence's).
REPEATS = "elephant"
LIBRARY_ZH = {keys[0]: zh for keys, zh in CLAUSES}["library"]


def weak(language: str, text: str) -> str | None:
    """Nothing German is translated; English is, except the two sentences above and the repeated one."""
    if language == "German" or any(word in text.lower() for word in ECHOED):
        return None
    if REPEATS in text.lower():
        return LIBRARY_ZH + "。"
    return to_chinese(text)


def good(language: str, text: str) -> str | None:
    return to_chinese(text)


def _is_chinese(text: str) -> bool:
    return sum("\u4e00" <= ch <= "\u9fff" for ch in text) >= 2


def _served(server: ModelServer, model: str) -> dict[str, str]:
    """The job options that translate through ``server``, asking it for ``model`` (a server set in Settings, frozen by each job)."""
    return {"translation_endpoint": server.url("/v1"), "translation_endpoint_model": model}


@pytest.fixture(scope="module")
def weak_server() -> Iterator[ModelServer]:
    server = ModelServer(answer=weak).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def translated(media: MediaFactory, tmp_path_factory: pytest.TempPathFactory, weak_server: ModelServer) -> FolderRun:
    root = tmp_path_factory.mktemp("untranslated")
    folder = folder_of(root / "library", {"english_long.mp4": media.english_long(".mp4"),
                                         "german.mkv": media.german(".mkv")})
    data_dir = root / "data"
    lib = library(data_dir)
    try:
        return run_and_read(lib, folder, "zh", **_served(weak_server, "weak"))
    finally:
        lib.close()


def _status(capsys: pytest.CaptureFixture[str], data_dir: Path, *args: str) -> str:
    assert cli(["status", "--items", "--data-dir", str(data_dir), *args]) == 0
    return capsys.readouterr().out


def test_a_mostly_untranslated_video_gets_its_transcript_and_no_file_named_chinese(
    translated: FolderRun, weak_server: ModelServer
) -> None:
    german = translated.items["german.mkv"]
    assert translated.transcripts["german.mkv"]["language"] == "de"
    cues = translated.transcripts["german.mkv"]["cues"]
    assert cues, "the German speech was transcribed"
    assert any(language == "German" for language, _ in weak_server.chats), "the translation was attempted"
    translation = translated.translations["german.mkv"]
    assert sorted(translation["fallback"]) == list(range(len(cues)))  # every line came back untranslated
    assert (german.status, german.result) == ("completed", TRANSLATION_FAILED)
    assert translated.job.status == "completed"
    assert job_label(translated.job) == "finished — 1 translation to check, 1 not translated"
    assert german.detail == {"untranslated_cues": list(range(1, len(cues) + 1)), "cues": len(cues),
                             "reasons": {str(i + 1): UNTRANSLATED for i in range(len(cues))}}
    written = sorted(p.name for p in translated.folder.iterdir() if p.suffix in (".srt", ".ass"))
    assert written == ["english_long.en.srt", "english_long.zh.ass", "english_long.zh.srt", "german.de.srt"]
    transcript = assert_loads_everywhere(translated.folder / "german.de.srt")
    assert len(transcript) == len(cues)


def test_doubtful_lines_are_written_in_place_and_listed_with_their_reasons(translated: FolderRun) -> None:
    english = translated.items["english_long.mp4"]
    cues = translated.transcripts["english_long.mp4"]["cues"]
    echoed = [i for i, cue in enumerate(cues) if any(word in cue["text"].lower() for word in ECHOED)]
    repeated = [i for i, cue in enumerate(cues) if REPEATS in cue["text"].lower()]
    expected = sorted(echoed + repeated)
    assert echoed and repeated and len(expected) * 2 < len(cues), f"the clip's cues: {[c['text'] for c in cues]}"
    assert sorted(translated.translations["english_long.mp4"]["fallback"]) == expected
    assert (english.status, english.result) == ("completed", TRANSLATION_DOUBTFUL)
    assert english.detail["untranslated_cues"] == [i + 1 for i in expected]
    reasons = english.detail["reasons"]
    assert {reasons[str(i + 1)] for i in echoed} == {UNTRANSLATED}
    assert {reasons[str(i + 1)] for i in repeated} <= {REPEATED, MISALIGNED}
    transcript = assert_loads_everywhere(translated.folder / "english_long.en.srt")
    chinese = assert_loads_everywhere(translated.folder / "english_long.zh.srt")
    by_cue = translation_by_cue(transcript, chinese, assert_loads_everywhere(translated.folder / "english_long.zh.ass"))
    for i, (original, events) in enumerate(zip(transcript, by_cue)):
        # Lines are broken again to their own script's limits (Chinese 16 a line, more than two lines make two
        # cues): compared without the breaks.
        if i in expected:
            assert " ".join(" ".join(e.plaintext for e in events).split()) == " ".join(original.plaintext.split())
        else:
            assert "".join(e.plaintext.replace("\n", "") for e in events) == to_chinese(original.plaintext)


def test_status_lists_the_untranslated_lines_and_says_what_to_do(translated: FolderRun,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    payload = json.loads(_status(capsys, translated.data_dir, "--json"))
    (job,) = payload["jobs"]
    assert (job["status"], job["label"]) == ("completed", "finished — 1 translation to check, 1 not translated")
    items = {Path(i["path"]).name: i for i in job["items"]}
    german, english = items["german.mkv"], items["english_long.mp4"]
    assert german["problem"]["code"] == TRANSLATION_FAILED and german["note"] == ""
    assert "Settings → Models" in german["problem"]["advice"] and "OpenAI-compatible" in german["problem"]["advice"]
    numbers = translated.items["english_long.mp4"].detail["untranslated_cues"]
    reasons = translated.items["english_long.mp4"].detail["reasons"]
    assert english["problem"]["code"] == TRANSLATION_DOUBTFUL and english["detail"]["untranslated_cues"] == numbers
    listed = ", ".join(f"{n} ({LINE_REASONS[reasons[str(n)]]})" for n in numbers)  # reasons in words
    assert english["problem"]["message"].endswith(": " + listed)
    text = _status(capsys, translated.data_dir)
    assert f"[{TRANSLATION_FAILED}]" in text and "What to do: Install a translation model" in text
    assert f"[{TRANSLATION_DOUBTFUL}]" in text and "kept their original text: " + listed in text


def test_adding_it_again_with_a_working_model_only_translates_the_video_without_chinese(
    translated: FolderRun, tmp_path: Path
) -> None:
    """The skip rule counts english_long.zh.srt, not german.de.srt; German is translated from its stored transcript."""
    server = ModelServer(answer=good).start()
    lib = library(translated.data_dir)
    try:
        job = run_folder(lib, translated.folder, "zh", **_served(server, "good"))
        items = {Path(i.path).name: i for i in lib.items(job.id)}
        loads = lib.model_loads()
    finally:
        lib.close()
        server.stop()
    assert (items["english_long.mp4"].status, items["english_long.mp4"].error_code) == ("skipped", "already_subtitled")
    assert (items["german.mkv"].status, items["german.mkv"].result) == ("completed", None)
    assert [n for key, n in loads.items() if key.startswith("app.ml.whisper_runtime:")] == [1], "transcript reused"
    assert {language for language, _ in server.chats} == {"German"}
    chinese = assert_loads_everywhere(translated.folder / "german.zh.srt")
    assert all(_is_chinese(line.plaintext) for line in chinese)
    assert len(assert_loads_everywhere(translated.folder / "german.zh.ass")) == len(chinese)
