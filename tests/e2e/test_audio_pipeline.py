"""Audio files get a transcript (SRT and text) and a translation next to them, with real Whisper and LLM.

One job over three audio-only files (English MP3 and Opus, German FLAC) runs once for
the module with German as the target; the tests read what it left on disk, search
its dialogue and add the folder again through the command line. The bundled Gemma's
German is judged line by line by the translation quality estimate (issue 23): a file
whose lines mostly fail gets no German translation, which the tests derive from the
stored translation with the pipeline's own rule.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.cli import main as cli_main
from app.pipelines.outputs import TranslationOutput
from app.store.records import JobSummary
from tests.media import SHORT_ENGLISH_KEY_WORDS, MediaFactory
from tests.video_jobs import assert_laid_out, assert_loads_everywhere, folder_of, library, run_folder, stage_rows

AUDIO = ("Podcast.mp3", "Voice Memo.opus", "Vortrag.flac")
KEY_WORDS = {"Podcast.mp3": SHORT_ENGLISH_KEY_WORDS, "Voice Memo.opus": SHORT_ENGLISH_KEY_WORDS,
             "Vortrag.flac": ["morgen", "kaffee", "zeitung", "berlin"]}


@dataclass
class Run:
    folder: Path
    data_dir: Path
    job: JobSummary
    kinds: dict[str, str]  # file name -> item kind
    transcripts: dict[str, dict[str, Any]]
    translations: dict[str, dict[str, Any]]
    results: dict[str, str | None]  # file name -> item result

    def german_written(self) -> list[str]:
        """The English files whose translation the quality estimate let through (not mostly untranslated)."""
        return [n for n in ("Podcast.mp3", "Voice Memo.opus") if not TranslationOutput.read(self.translations[n]).failed]


@pytest.fixture(scope="module")
def transcribed(media: MediaFactory, tmp_path_factory: pytest.TempPathFactory) -> Run:
    root = tmp_path_factory.mktemp("audio-pipeline")
    folder = folder_of(root / "library", {
        "Podcast.mp3": media.english_short_audio(".mp3"),
        "Voice Memo.opus": media.english_short_audio(".opus"),
        "Vortrag.flac": media.german_audio(".flac"),
    })
    (folder / "notes.txt").write_text("not media\n")
    lib = library(root / "data")
    try:
        job = run_folder(lib, folder, "de", kind="audio")
        items = lib.items(job.id)
        kinds = {Path(i.path).name: i.kind for i in items}
        return Run(folder, root / "data", job, kinds,
                   {k: v["output"] for k, v in stage_rows(lib.store, "transcribe").items()},
                   {k: v["output"] for k, v in stage_rows(lib.store, "translate").items()},
                   {Path(i.path).name: i.result for i in items})
    finally:
        lib.close()


def _cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    capsys.readouterr()
    code = cli_main([*argv, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_each_audio_file_gets_its_transcript_as_srt_and_text_and_a_translation(transcribed: Run) -> None:
    assert (transcribed.job.status, transcribed.job.done, transcribed.job.failed) == ("completed", 3, 0)
    assert transcribed.kinds == dict.fromkeys(AUDIO, "audio")
    written = sorted(p.name for p in transcribed.folder.iterdir() if p.suffix in (".srt", ".txt", ".ass"))
    assert written == sorted([
        "Podcast.en.srt", "Podcast.en.txt", "Voice Memo.en.srt", "Voice Memo.en.txt",
        *(f"{Path(n).stem}.de.srt" for n in transcribed.german_written()),
        "Vortrag.de.srt", "Vortrag.de.txt",  # German speech, German target: no translation
        "notes.txt",
    ])
    for name in ("Podcast.mp3", "Voice Memo.opus"):
        assert transcribed.results[name] == TranslationOutput.read(transcribed.translations[name]).result, name


@pytest.mark.parametrize("name", AUDIO)
def test_transcript_srt_and_text_hold_the_spoken_words(transcribed: Run, name: str) -> None:
    stem, lang = Path(name).stem, transcribed.transcripts[name]["language"]
    assert lang == ("de" if name == "Vortrag.flac" else "en")
    srt = assert_loads_everywhere(transcribed.folder / f"{stem}.{lang}.srt")
    text = (transcribed.folder / f"{stem}.{lang}.txt").read_text(encoding="utf-8")
    assert text.splitlines() == [" ".join(e.plaintext.split()) for e in srt]  # one cue per line, no times
    assert "-->" not in text
    for word in KEY_WORDS[name]:
        assert word in text.lower(), f"{word!r} missing from {name}: {text!r}"


@pytest.mark.parametrize("name", ["Podcast.mp3", "Voice Memo.opus"])
def test_translated_srt_lies_on_the_transcripts_time_and_keeps_every_word(transcribed: Run, name: str) -> None:
    stem = Path(name).stem
    transcript = assert_loads_everywhere(transcribed.folder / f"{stem}.en.srt")
    if name not in transcribed.german_written():
        assert not (transcribed.folder / f"{stem}.de.srt").exists(), "no file named German that holds English"
        return
    translated = assert_loads_everywhere(transcribed.folder / f"{stem}.de.srt")
    assert_laid_out(transcript, translated)  # on the transcript's time (a cue too long for two lines is two)
    texts = transcribed.translations[name]["texts"]
    assert " ".join(" ".join(e.plaintext for e in translated).split()) == " ".join(" ".join(texts).split())  # never cut


def test_search_finds_the_spoken_phrase_as_dialogue_at_its_start_time(transcribed: Run,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    results = _cli_json(capsys, "search", "Zug nach Berlin", "--kind", "dialogue",
                        "--data-dir", str(transcribed.data_dir))["results"]
    best = results[0]
    assert best["kind"] == "dialogue" and best["path"] == str(transcribed.folder / "Vortrag.flac"), results
    assert "berlin" in best["snippet"].lower()
    cues = transcribed.transcripts["Vortrag.flac"]["cues"]
    assert best["start"] in [c["start_ms"] / 1000 for c in cues if "berlin" in c["text"].lower()]


def test_adding_the_folder_again_skips_every_already_subtitled_audio_file(transcribed: Run,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    def search() -> list[dict[str, Any]]:
        return _cli_json(capsys, "search", "Zug nach Berlin", "--kind", "dialogue",
                         "--data-dir", str(transcribed.data_dir))["results"]

    before = search()
    assert before and before[0]["path"] == str(transcribed.folder / "Vortrag.flac")
    (job,) = _cli_json(capsys, "add", str(transcribed.folder), "--kind", "audio", "--target-lang", "de",
                       "--data-dir", str(transcribed.data_dir))["jobs"]
    skipped = 1 + len(transcribed.german_written())  # a file without German lines is not subtitled in German
    assert (job["total"], job["skipped"]) == (3 - skipped, skipped)
    if skipped == 3:
        assert job["status"] == "completed"
    assert search() == before, "skipping already-subtitled files keeps their dialogue findable"
