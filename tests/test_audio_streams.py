"""Which audio stream of a multi-track file is subtitled, read from real generated files."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import build_parser
from app.engine.job_options import JobOptions
from app.media.audio import audio_duration
from app.media.audio_streams import audio_streams, choose_audio_stream
from app.pipelines.video import extract_chosen_audio
from app.settings import Settings
from tests.media import AudioTrack, MediaFactory, wav_duration


def _default_second(media: MediaFactory) -> Path:
    return media.audio_tracks("default_second", AudioTrack("submarine", "eng"), AudioTrack("chocolate", "eng", "default"))


def test_the_default_stream_is_chosen_over_the_first(media: MediaFactory) -> None:
    streams = audio_streams(_default_second(media))
    assert [(s.track, s.index, s.tag, s.default) for s in streams] == [(1, 1, "eng", False), (2, 2, "eng", True)]
    choice = choose_audio_stream(streams)
    assert choice is not None and (choice.stream.track, choice.reason) == (2, "default")


def test_a_commentary_or_description_is_skipped_when_a_dialogue_stream_exists(media: MediaFactory) -> None:
    path = media.audio_tracks("commentary_and_description", AudioTrack("chocolate", "eng", "default+comment", "Commentary"),
                              AudioTrack("submarine", "eng"), AudioTrack("Milch", "ger", "visual_impaired"))
    streams = audio_streams(path)
    assert [s.secondary for s in streams] == [True, False, True]
    choice = choose_audio_stream(streams)
    assert choice is not None and (choice.stream.track, choice.reason) == (2, "first")
    assert choice.to_dict() == {"index": 2, "track": 2, "language": "eng", "title": None, "reason": "first", "tracks": 3}
    # Only commentaries: one of them is still better than no subtitles.
    assert choose_audio_stream([s for s in streams if s.secondary]).stream.track == 1  # type: ignore[union-attr]


def test_the_source_language_picks_the_stream_tagged_with_it(media: MediaFactory) -> None:
    path = media.audio_tracks("dub", AudioTrack("submarine", "eng", "default"), AudioTrack("Milch", "ger", title="Deutsch"))
    streams = audio_streams(path)
    for source in ("de", "deu", "German"):  # 639-1, 639-2 and a name all mean the "ger" tag
        choice = choose_audio_stream(streams, source)
        assert choice is not None and (choice.stream.track, choice.reason, choice.stream.title) == (2, "language", "Deutsch")
    assert choose_audio_stream(streams, "fr").stream.track == 1  # type: ignore[union-attr]  # no French: the default
    assert streams[1].label() == "2: German — Deutsch"


def test_a_chosen_track_wins_and_a_missing_one_falls_back_to_the_rule(media: MediaFactory) -> None:
    streams = audio_streams(_default_second(media))
    chosen = choose_audio_stream(streams, track=1)
    assert chosen is not None and (chosen.stream.track, chosen.reason) == (1, "chosen")
    missing = choose_audio_stream(streams, track=5)
    assert missing is not None and (missing.stream.track, missing.reason) == (2, "chosen_missing")


def test_extraction_decodes_the_chosen_stream(media: MediaFactory, tmp_path: Path) -> None:
    path = _default_second(media)
    first = wav_duration(media.root / "track_submarine.wav")
    second = wav_duration(media.root / "track_chocolate.wav")
    assert abs(first - second) > 1.0  # the two sentences differ in length: the duration tells them apart
    auto = extract_chosen_audio(path, tmp_path / "auto.f32", JobOptions())
    picked = extract_chosen_audio(path, tmp_path / "one.f32", JobOptions(audio_track=1))
    assert auto.audio_stream and picked.audio_stream
    assert auto.audio_stream["track"] == 2 and picked.audio_stream["track"] == 1
    assert auto.stream_index == 2 and picked.stream_index == 1
    assert audio_duration(tmp_path / "auto.f32") == pytest.approx(second, abs=0.1)
    assert audio_duration(tmp_path / "one.f32") == pytest.approx(first, abs=0.1)


def test_sidecar_add_freezes_the_audio_track_in_the_job_options() -> None:
    args = build_parser().parse_args(["add", "/films", "--audio-track", "2"])
    options = JobOptions.from_settings(Settings(), audio_track=args.audio_track)
    assert options.stored()["audio_track"] == 2
    assert "audio_track" not in JobOptions.from_settings(Settings()).stored()
    with pytest.raises(SystemExit):
        build_parser().parse_args(["add", "/films", "--audio-track", "0"])
