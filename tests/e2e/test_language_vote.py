"""The spoken language is voted over windows spread across the file, not read from its first 30 s (issue 11.4).

The clip opens with 35 s of German (a cold open, a foreign newsreel) and then speaks
English for 56 s. Whisper's own guess hears the first 30 s of speech, all German; the
vote hears three windows, two of them English. The real pipeline with the real
Whisper must transcribe in English and say so in ``status --items --json``.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.cli import main
from app.media.audio import SAMPLE_RATE, extract_audio
from app.media.language_vote import MIN_SPEECH_S, decided, detect_language, speech_windows, vote
from tests.media import ENGLISH_KEY_WORDS, MediaFactory, read_wav
from tests.video_jobs import folder_of, library, run_folder, stage_rows


@pytest.fixture(scope="module")
def voted(media: MediaFactory, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("language-vote")
    folder = folder_of(root / "films", {"cold open.mkv": media.foreign_intro()})
    lib = library(root / "data")
    try:
        job = run_folder(lib, folder, "en")
        transcript = stage_rows(lib.store, "transcribe")["cold open.mkv"]["output"]
    finally:
        lib.close()
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["status", "--items", "--json", "--data-dir", str(root / "data")]) == 0
    (item,) = json.loads(out.getvalue())["jobs"][0]["items"]
    return {"job": job, "transcript": transcript, "item": item, "srt": folder / "cold open.en.srt"}


def test_a_foreign_cold_open_does_not_decide_the_language(voted: dict[str, Any]) -> None:
    assert (voted["job"].status, voted["job"].done) == ("completed", 1)
    votes = voted["transcript"]["language_votes"]
    assert votes[0]["start"] == 0.0 and votes[0]["language"] == "de"  # what the first 30 s alone would say
    assert [v["language"] for v in votes[1:]] == ["en"] * (len(votes) - 1) and len(votes) == 3
    item = voted["item"]
    assert item["language"] == "en" and 0.5 < item["language_probability"] <= 1.0
    text = voted["srt"].read_text(encoding="utf-8").lower()
    assert sum(word.lower() in text for word in ENGLISH_KEY_WORDS) >= 5  # transcribed as English, not "translated"


def test_windows_spread_over_the_file_and_land_on_sound(media: MediaFactory, tmp_path: Path) -> None:
    audio = extract_audio(media.foreign_intro(), tmp_path / "a.f32")
    windows = speech_windows(audio.path)
    assert len(windows) == 3 and all(length == 30.0 for _, length in windows)
    spans = audio.duration_s / 3
    assert all(k * spans <= start <= (k + 1) * spans for k, (start, _) in enumerate(windows))
    # Inside its span a window moves onto the sound: 119 s (three spans of 39.7 s) silent but for
    # speech at 110-118 s, which the last span's first 30 s would miss.
    quiet = np.zeros(119 * SAMPLE_RATE, dtype="<f4")
    short_clip = media.english_short(".mp4")  # writes english_short.wav
    speech, _ = read_wav(media.root / "english_short.wav")
    quiet[110 * SAMPLE_RATE:118 * SAMPLE_RATE] = np.resize(speech, 8 * SAMPLE_RATE)
    (tmp_path / "q.f32").write_bytes(quiet.tobytes())
    last_start, _ = speech_windows(tmp_path / "q.f32")[-1]
    assert 88.0 <= last_start <= 89.0  # [start, start + 30] holds all of 110-118 s
    # A clip shorter than a window is one window over all of it.
    short = extract_audio(short_clip, tmp_path / "s.f32")
    assert speech_windows(short.path) == [(0.0, short.duration_s)]


def test_the_vote_is_soft_and_windows_without_speech_abstain() -> None:
    answers = [
        {"language": "de", "language_probability": 0.9, "speech_s": 29.0, "top": [("de", 0.9), ("en", 0.05)]},
        {"language": "en", "language_probability": 0.6, "speech_s": 20.0, "top": [("en", 0.6), ("de", 0.3)]},
        {"language": "en", "language_probability": 0.7, "speech_s": 25.0, "top": [("en", 0.7), ("nl", 0.2)]},
        {"language": "ja", "language_probability": 0.99, "speech_s": MIN_SPEECH_S / 2, "top": [("ja", 0.99)]},  # music
    ]
    result = vote(answers)
    assert result.language == "en" and result.probability == pytest.approx((0.05 + 0.6 + 0.7) / 3)
    nothing = vote([{"language": None, "language_probability": 0.0, "speech_s": 0.0, "top": []}])
    assert (nothing.language, nothing.probability) == (None, 0.0)


def test_the_vote_stops_once_the_remaining_windows_cannot_change_the_winner(tmp_path: Path) -> None:
    english = {"language": "en", "language_probability": 0.95, "speech_s": 25.0, "top": [("en", 0.95), ("de", 0.03)]}
    german = {"language": "de", "language_probability": 0.9, "speech_s": 25.0, "top": [("de", 0.9), ("en", 0.08)]}
    assert not decided([english, english], 3) and decided([english, english, english], 2)
    assert not decided([german, english, english], 2), "a cold open keeps the vote going"
    assert not decided([], 5)

    audio = tmp_path / "film.f32"
    audio.write_bytes((0.1 * np.ones(160 * SAMPLE_RATE, dtype="<f4")).tobytes())  # five windows of sound
    asked: list[float] = []

    def hear(answers: list[dict[str, Any]]) -> Any:
        def detect(start: float, length: float) -> dict[str, Any]:
            asked.append(start)
            return answers[len(asked) - 1]
        return detect

    assert detect_language(audio, hear([english] * 5)).language == "en" and len(asked) == 3
    asked.clear()
    result = detect_language(audio, hear([german, english, german, english, english]))
    assert len(asked) == 5 and result.language == "en", "an undecided vote hears every window"
